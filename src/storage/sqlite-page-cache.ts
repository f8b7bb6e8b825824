// How much of a SQLite file each connection keeps in memory. The service holds three connections
// (serving, click writer, reads); the operating system caches the file as well, so a page missing
// here costs a copy from that cache, not a disk read.
import type SqliteDriver from 'better-sqlite3';

/** Per connection unless configured (better-sqlite3 builds SQLite with 16 MB). */
export const DEFAULT_SQLITE_CACHE_MB = 8;

/** Sets a connection's page cache (a negative cache_size is in KiB). */
export function setPageCache(driver: SqliteDriver.Database, megabytes: number): void {
  driver.pragma(`cache_size = -${Math.round(megabytes * 1024)}`);
}
