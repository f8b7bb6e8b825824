import { Command } from 'commander';
import { resolve } from 'node:path';
import { backupEmbeddedDatabase, restoreEmbeddedDatabase } from '../embedded-database.js';

export function backupCommand(): Command {
  return new Command('backup')
    .description('Copy the embedded database to FILE, consistently, while the service keeps serving')
    .argument('<file>', 'the new backup file (never overwritten)')
    .action((file: string) => {
      const { database, bytes, milliseconds } = backupEmbeddedDatabase(resolve(file));
      console.log(`Backed up ${database} to ${resolve(file)} (${(bytes / 1_048_576).toFixed(1)} MiB in ${milliseconds} ms)`);
    });
}

export function restoreCommand(): Command {
  return new Command('restore')
    .description('Put a backup in place of the embedded database (every instance stopped first); the replaced file is kept beside it')
    .argument('<file>', 'a file written by affnet backup')
    .action((file: string) => {
      const { database, replaced } = restoreEmbeddedDatabase(resolve(file));
      console.log(`Restored ${resolve(file)} to ${database}.${replaced ? ` The database it replaced is kept as ${replaced}.` : ''} Start the service: it applies any newer migrations.`);
    });
}
