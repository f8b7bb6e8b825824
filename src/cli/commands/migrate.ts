import { Command } from 'commander';
import { loadConfig } from '../../config.js';
import { openDatabase } from '../../storage/database.js';
import { migrateToLatest } from '../../storage/migrate.js';

export function migrateCommand(): Command {
  return new Command('migrate').description('Apply pending database migrations (serve applies them too)').action(async () => {
    const config = loadConfig();
    const database = openDatabase(config.databaseUrl, { poolSize: 1 });
    try {
      const applied = await migrateToLatest(database);
      console.log(applied.length ? `Applied ${applied.length} migration(s): ${applied.join(', ')}` : 'Database is up to date.');
    } finally {
      await database.close();
    }
  });
}
