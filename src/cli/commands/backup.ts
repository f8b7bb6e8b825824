import { Command } from 'commander';
import { resolve } from 'node:path';
import { loadConfig } from '../../config.js';
import { dialectOf, sqlitePath } from '../../storage/database.js';
import { backupSqlite, BackupError, restoreSqlite } from '../../storage/sqlite-backup.js';
import { CliError } from '../cli-error.js';

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

/** Reports a BackupError as the one line the operator needs. */
function asCliError(error: unknown): never {
  if (error instanceof BackupError) throw new CliError(error.message);
  throw error;
}

export function backupCommand(): Command {
  return new Command('backup')
    .description('Copy the embedded database to FILE, consistently, while the service keeps serving')
    .argument('<file>', 'the new backup file (never overwritten)')
    .action((file: string) => {
      const database = embeddedDatabase();
      try {
        const { bytes, milliseconds } = backupSqlite(database, resolve(file));
        console.log(`Backed up ${database} to ${resolve(file)} (${(bytes / 1_048_576).toFixed(1)} MiB in ${milliseconds} ms)`);
      } catch (error) {
        asCliError(error);
      }
    });
}

export function restoreCommand(): Command {
  return new Command('restore')
    .description('Put a backup in place of the embedded database (every instance stopped first); the replaced file is kept beside it')
    .argument('<file>', 'a file written by affnet backup')
    .action((file: string) => {
      const database = embeddedDatabase();
      try {
        const { replaced } = restoreSqlite(resolve(file), database, new Date());
        console.log(`Restored ${resolve(file)} to ${database}.${replaced ? ` The database it replaced is kept as ${replaced}.` : ''} Start the service: it applies any newer migrations.`);
      } catch (error) {
        asCliError(error);
      }
    });
}
