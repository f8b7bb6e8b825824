// Backup and restore work on the embedded database's file itself, below the services: this is
// the one place commands reach it, as with-services.ts is for everything else.
import { resolve } from 'node:path';
import { loadConfig } from '../config.js';
import { dialectOf, sqlitePath } from '../storage/database.js';
import { backupSqlite, BackupError, restoreSqlite, type BackupResult } from '../storage/sqlite-backup.js';
import { CliError } from './cli-error.js';

/** The embedded database's file; PostgreSQL has its own tools. */
function embeddedDatabase(): string {
  const { databaseUrl } = loadConfig();
  if (dialectOf(databaseUrl) === 'postgres') {
    throw new CliError('DATABASE_URL is PostgreSQL: back it up with pg_dump and restore with pg_restore (see docs/operations.md)');
  }
  const path = sqlitePath(databaseUrl);
  if (path === ':memory:') throw new CliError('DATABASE_URL is an in-memory database: there is nothing to back up');
  return resolve(path);
}

/** Runs a backup step, reporting a BackupError as the one line the operator needs. */
function reported<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof BackupError) throw new CliError(error.message);
    throw error;
  }
}

export function backupEmbeddedDatabase(target: string): BackupResult & { database: string } {
  const database = embeddedDatabase();
  return { database, ...reported(() => backupSqlite(database, target)) };
}

export function restoreEmbeddedDatabase(backup: string): { database: string; replaced: string | null } {
  const database = embeddedDatabase();
  return { database, ...reported(() => restoreSqlite(backup, database, new Date())) };
}
