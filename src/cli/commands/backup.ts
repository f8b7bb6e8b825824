import { Command } from 'commander';
import { resolve } from 'node:path';
import { backupEmbeddedDatabase, restoreEmbeddedDatabase } from '../embedded-database.js';

export function backupCommand(): Command {
  return new Command('backup')
    .description('Copy the embedded database to FILE, consistently, while the service keeps serving, and its payee key file to FILE.payee.key')
    .argument('<file>', 'the new backup file (never overwritten)')
    .action((file: string) => {
      const { database, bytes, milliseconds, payeeKey } = backupEmbeddedDatabase(resolve(file));
      console.log(`Backed up ${database} to ${resolve(file)} (${(bytes / 1_048_576).toFixed(1)} MiB in ${milliseconds} ms)`);
      if (payeeKey.copiedTo) console.log(`Copied the payee key file to ${payeeKey.copiedTo}: keep it with the backup (the payee details in it cannot be read without it), as safely as the database`);
      if (payeeKey.warning) console.warn(`warning: ${payeeKey.warning}`);
    });
}

export function restoreCommand(): Command {
  return new Command('restore')
    .description('Put a backup in place of the embedded database (every instance stopped first); the replaced file is kept beside it')
    .argument('<file>', 'a file written by affnet backup')
    .action((file: string) => {
      const { database, replaced, payeeKeysAdded } = restoreEmbeddedDatabase(resolve(file));
      console.log(`Restored ${resolve(file)} to ${database}.${replaced ? ` The database it replaced is kept as ${replaced}.` : ''} Start the service: it applies any newer migrations.`);
      if (payeeKeysAdded > 0) console.log(`Added ${payeeKeysAdded} payee key(s) of the backup to the key file in use, to read its payee details.`);
    });
}
