import cluster from 'node:cluster';
import { Command, InvalidArgumentError } from 'commander';
import type { Server } from 'node:http';
import { loadConfig } from '../../config.js';
import { loggerOptions } from '../../http/logging.js';
import { startMetricsServer } from '../../http/metrics-server.js';
import { CliError } from '../cli-error.js';
import { limitHeapGrowth } from '../../lib/heap-growth.js';
import { capYoungGeneration } from '../../lib/young-generation.js';
import { lowerBackgroundThreads, setBackgroundNice } from '../../lib/thread-priority.js';
import { announceWorkerReady, serveWorkers, workerIndex } from '../serve-workers.js';
import { openServingDatabase } from '../with-services.js';

export const DEMO_AFFILIATE = 'aff-demo-1';

function workerCount(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 64) throw new InvalidArgumentError('a whole number from 1 to 64');
  return n;
}

export function serveCommand(): Command {
  return new Command('serve')
    .description('Serve the API and the short-link redirects (what npm start runs)')
    .option('--workers <n>', 'processes serving the same port, one per core (node:cluster); more than one needs REDIS_URL', workerCount, 1)
    .action(async (options: { workers: number }) => {
      const config = loadConfig();
      if (options.workers > 1 && cluster.isPrimary) {
        // Per-key limits, repeat visitors and address velocity are shared through Redis, as between instances.
        if (!config.redisUrl) throw new CliError('--workers with more than one process needs REDIS_URL: the workers share per-key limits, repeat visitors and click velocity through Redis', 2);
        return serveWorkers(options.workers);
      }
      await serveInstance(config, workerIndex());
    });
}

/** One serving process: alone, or worker `index` of several (counted from 0). */
async function serveInstance(config: ReturnType<typeof loadConfig>, index: number | undefined): Promise<void> {
  limitHeapGrowth(config.heapGrowthPercent);
  capYoungGeneration(config.youngGenerationMb);
  setBackgroundNice(config.backgroundNice);
  lowerBackgroundThreads();
  // The schema is brought up to date while the HTTP service's code loads (with this command only:
  // the CLI's other commands touch the database alone). On a new PostgreSQL database the server
  // spends most of that time syncing the new tables' files, leaving this thread free to load.
  const { database, migrated } = openServingDatabase(config);
  const [{ createService }] = await Promise.all([import('../../server.js'), migrated]).catch(async (error: unknown) => {
    // Nothing serves: the migration is let finish (or fail) and the connections closed before the error is told.
    await migrated.catch(() => {});
    await database.close();
    throw error;
  });
  const service = await createService(config, { logger: loggerOptions(config.logLevel), database });
  const { app, services } = service;

  // First start on the embedded default database: load demo data and hand out a key, so that
  // `curl` works at once. Of several workers, the first does it before the others start.
  if (config.usesDefaultDatabase && (index ?? 0) === 0) {
    if (await services.access.isEmpty()) {
      const { demoUsersNotice, newDemoPassword, seedDemo } = await import('../../seed/demo.js');
      const password = newDemoPassword();
      const { users } = await seedDemo(services, () => {}, { userPassword: password, activityOn: service.database });
      const { key } = await services.access.createApiKey({ affiliateId: DEMO_AFFILIATE, name: 'demo' });
      app.log.info('Loaded demo data into the embedded database');
      process.stdout.write(`\nDemo API key for ${DEMO_AFFILIATE} (shown once):\n${key}\n\nTry: curl -H 'x-api-key: ${key}' ${config.publicUrl}/affiliate/brands\n\n`);
      process.stdout.write(`${demoUsersNotice(users, password, `${config.publicUrl}/app`)}\n`);
    }
  }

  let metricsServer: Server | undefined;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'stopping: finishing requests and writing buffered clicks');
    try {
      metricsServer?.close();
      await service.stop();
      await database.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  if (!config.smtpUrl && config.mailOutboxDir && (index ?? 0) === 0) app.log.info(`Mail is not sent (SMTP_URL is not set): each message is written to ${config.mailOutboxDir} as an .eml file`);
  if (config.metricsPort) {
    // Each worker answers its own figures, on the port after the previous worker's.
    const port = config.metricsPort + (index ?? 0);
    metricsServer = await startMetricsServer(service.metrics, port, config.host);
    app.log.info(`Prometheus metrics at http://${config.host}:${port}/metrics`);
  }
  announceWorkerReady();
}
