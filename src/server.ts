// Builds the running service from a configuration: database, caches, click buffer, HTTP app,
// and a shutdown that stops accepting requests, then writes every buffered click.
import type { Config } from './config.js';
import { openDatabase, type Database } from './storage/database.js';
import { migrateToLatest } from './storage/migrate.js';
import { KeyResolver } from './domain/access/key-cache.js';
import { ClickRecorder, RedirectCache } from './domain/links/redirects.js';
import { buildApp } from './http/app.js';
import type { App, AppContext } from './http/context.js';

export interface Service {
  app: App;
  context: AppContext;
  close(): Promise<void>;
}

export async function createService(config: Config, options: { database?: Database; logger?: boolean | object } = {}): Promise<Service> {
  const database = options.database ?? openDatabase(config.databaseUrl);
  await migrateToLatest(database);
  let app: App | undefined;
  const clicks = new ClickRecorder(database, { flushMs: config.clickFlushMs, repeatWindowMs: config.repeatClickWindowMs, visitorSalt: config.visitorSalt }, (error) => app?.log.error({ err: error }, 'writing clicks failed; will retry'));
  const context: AppContext = {
    config,
    database,
    publicUrl: config.publicUrl,
    keys: new KeyResolver(database),
    redirects: new RedirectCache(database),
    clicks,
  };
  app = await buildApp(context, { logger: options.logger ?? false });
  clicks.start();
  let closed: Promise<void> | undefined;
  return {
    app,
    context,
    close() {
      closed ??= (async () => {
        await app!.close();
        await clicks.stop();
        if (!options.database) await database.close();
      })();
      return closed;
    },
  };
}
