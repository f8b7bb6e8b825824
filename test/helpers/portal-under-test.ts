// The portal under test, for the browser tests: a fresh database (migrated, with the test world
// unless a file seeds its own data), what the file adds to it, the built server on it, and
// headless Chromium; set up before the file's tests and closed after them, in reverse order.
import { after, before } from 'node:test';
import type { Browser } from 'playwright-core';
import { freshDatabase, type TestDatabase } from './databases.js';
import { startServerProcess, type ServerProcess } from './processes.js';
import { buildWorld } from './world.js';
import { launchBrowser } from './browser.js';
import { openDatabase, type Database } from '../../src/storage/database.js';

export interface PortalUnderTest {
  testDb: TestDatabase;
  database: Database;
  server: ServerProcess;
  browser: Browser;
}

export interface PortalOptions {
  /** The test world of test/helpers/world.ts (true unless the file seeds its own data). */
  world?: boolean;
  /** What the file adds to the database before the server starts. */
  prepare?: (database: Database, testDb: TestDatabase) => Promise<void>;
  /** The server's settings beside the database's (no Redis, webhooks not polled, unless given). */
  env?: Record<string, string> | ((testDb: TestDatabase) => Record<string, string>);
  /** The address the browser uses: localhost where a domain name is needed (passkeys). */
  host?: 'localhost';
  /** What the file does once the server and the browser are up (it needs the server's address). */
  started?: (portal: PortalUnderTest) => Promise<void>;
  /** Closed after the browser and the server, before the database (a mailbox, a shop). */
  alsoClose?: () => Promise<unknown> | undefined;
}

/**
 * Registers the file's set-up and tear-down; the returned object is filled in before its first
 * test. A file's own `before` would run beside this one, not after it: what needs the server goes
 * in `started`.
 */
export function portalUnderTest(options: PortalOptions = {}): PortalUnderTest {
  const portal = {} as PortalUnderTest;
  before(async () => {
    portal.testDb = await freshDatabase({ migrated: true });
    portal.database = openDatabase(portal.testDb.url);
    if (options.world ?? true) await buildWorld(portal.database);
    await options.prepare?.(portal.database, portal.testDb);
    const env = typeof options.env === 'function' ? options.env(portal.testDb) : options.env;
    portal.server = await startServerProcess({ DATABASE_URL: portal.testDb.url, REDIS_URL: '', WEBHOOK_POLL_MS: '0', ...env }, { publicUrlIsOwn: true, ...(options.host && { host: options.host }) });
    portal.browser = await launchBrowser();
    await options.started?.(portal);
  });
  after(async () => {
    await portal.browser?.close();
    await portal.server?.stop();
    await options.alsoClose?.();
    await portal.database?.close();
    await portal.testDb?.drop();
  });
  return portal;
}
