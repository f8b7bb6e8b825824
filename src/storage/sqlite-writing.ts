// How every connection that writes a SQLite file is set up: the service's own and the click
// writer's (serve --workers: one of each per process), so they agree on journal and checkpoints.
import type SqliteDriver from 'better-sqlite3';
import { setPageCache } from './sqlite-page-cache.js';

/**
 * Pages the WAL may hold before the commit that passes them copies them into the file. At
 * SQLite's default (1,000) nearly every step of the click writer's rollups ended in a checkpoint
 * and its two fsyncs; at 10,000 (40 MB of WAL on disk) rollups catch up 1.6× as fast. Every
 * writing connection uses the same bound, so the serving thread's small commits are not the
 * ones left to checkpoint what the writer wrote.
 */
export const WAL_AUTOCHECKPOINT_PAGES = 10_000;

export function setUpWriting(driver: SqliteDriver.Database, cacheMb: number): void {
  setPageCache(driver, cacheMb);
  driver.pragma('journal_mode = WAL');
  // NORMAL is durable across application crashes in WAL mode and far cheaper than FULL.
  driver.pragma('synchronous = NORMAL');
  driver.pragma('busy_timeout = 5000');
  driver.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
}
