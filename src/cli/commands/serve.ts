import { Command } from 'commander';
import { loadConfig } from '../../config.js';
import { createService } from '../../server.js';
import { demoUsersNotice, newDemoPassword, seedDemo } from '../../seed/demo.js';
import { loggerOptions } from '../../http/logging.js';
import { startMetricsServer } from '../../http/metrics-server.js';
import type { Server } from 'node:http';

export const DEMO_AFFILIATE = 'aff-demo-1';

export function serveCommand(): Command {
  return new Command('serve').description('Serve the API and the short-link redirects (what npm start runs)').action(async () => {
    const config = loadConfig();
    const service = await createService(config, { logger: loggerOptions(config.logLevel) });
    const { app, services } = service;

    // First start on the embedded default database: load demo data and hand out a key, so that
    // `curl` works at once.
    if (config.usesDefaultDatabase) {
      if (await services.access.isEmpty()) {
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
        process.exit(0);
      } catch (error) {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      }
    };
    process.on('SIGTERM', () => void stop('SIGTERM'));
    process.on('SIGINT', () => void stop('SIGINT'));

    await app.listen({ port: config.port, host: config.host });
    if (config.metricsPort) {
      metricsServer = await startMetricsServer(service.metrics, config.metricsPort, config.host);
      app.log.info(`Prometheus metrics at http://${config.host}:${config.metricsPort}/metrics`);
    }
  });
}
