// Builds the running service from a configuration: database, optional Redis, caches, click
// buffer, HTTP app, and a shutdown that stops accepting requests, then writes every buffered click.
import type { RequestListener } from 'node:http';
import type { Config } from './config.js';
import { openDatabase, type Database } from './storage/database.js';
import { migrateToLatest } from './storage/migrate.js';
import { openRedis } from './storage/redis.js';
import { openClickSink } from './storage/click-sink.js';
import { KeyResolver } from './domain/access/key-cache.js';
import { ClickRecorder } from './domain/links/click-recorder.js';
import { RedirectCache } from './domain/links/redirect-cache.js';
import { memoryRepeatFilter, sharedRepeatFilter } from './domain/links/repeat-filter.js';
import { memoryVelocityFilter, sharedVelocityFilter } from './domain/links/velocity-filter.js';
import { INVALIDATION_CHANNEL, localBus, type Invalidation, type InvalidationBus } from './domain/invalidation.js';
import { countUp, markSeen } from './storage/redis-windows.js';
import { redisChannel } from './storage/redis-messages.js';
import { buildApp, type RegisteredRoute } from './http/app.js';
import type { App, AppContext } from './http/context.js';

export interface Service {
  app: App;
  /** Every registered route, with its options (schema, scope). */
  routes: RegisteredRoute[];
  /** The HTTP request listener (redirect front, then Fastify); tests inject requests through it. */
  handler: RequestListener;
  context: AppContext;
  close(): Promise<void>;
}

export async function createService(config: Config, options: { database?: Database; logger?: boolean | object } = {}): Promise<Service> {
  const database = options.database ?? openDatabase(config.databaseUrl);
  await migrateToLatest(database);
  const redis = config.redisUrl ? openRedis(config.redisUrl, config.redisPrefix) : undefined;
  let app: App | undefined;
  const logError = (message: string) => (error: unknown) => app?.log.error({ err: error }, message);

  const repeats = redis
    ? sharedRepeatFilter((keys, windowMs) => markSeen(redis, keys, windowMs), config.repeatClickWindowMs, logError('Redis unavailable for repeat detection; using the local window'))
    : memoryRepeatFilter(config.repeatClickWindowMs);
  const velocity = redis
    ? sharedVelocityFilter((keys, windowMs) => countUp(redis, keys, windowMs), config.clickVelocityLimit, logError('Redis unavailable for the click velocity limit; using the local window'))
    : memoryVelocityFilter(config.clickVelocityLimit);
  // Small, frequent click batches keep each flush's pause on the serving thread short; link counts
  // (a random-page update per link) are added up less often.
  const clicks = new ClickRecorder(openClickSink(database, { countEveryMs: 25 * config.clickFlushMs }), repeats, velocity, { flushMs: config.clickFlushMs, visitorSalt: config.visitorSalt }, logError('writing clicks failed; will retry'));
  const bus: InvalidationBus = redis ? redisChannel<Invalidation>(redis, INVALIDATION_CHANNEL) : localBus();
  const context: AppContext = {
    config,
    database,
    redis,
    bus,
    publicUrl: config.publicUrl,
    keys: new KeyResolver(database),
    redirects: new RedirectCache(database),
    clicks,
  };
  await bus.subscribe((message) => {
    if (message.kind === 'link') context.redirects.invalidate(message.code);
    else context.keys.clear();
  });
  const built = await buildApp(context, { logger: options.logger ?? false });
  app = built.app;
  clicks.start();
  context.redirects.watch(logError('asking the database for changed links failed; resolving every code afresh'));
  let closed: Promise<void> | undefined;
  return {
    app,
    routes: built.routes,
    handler: built.handler,
    context,
    close() {
      closed ??= (async () => {
        await app.close();
        context.redirects.stop();
        await clicks.stop();
        await redis?.close();
        if (!options.database) await database.close();
      })();
      return closed;
    },
  };
}

