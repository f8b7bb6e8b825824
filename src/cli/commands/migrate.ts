import { Command } from 'commander';
import { migrateConfiguredDatabase } from '../with-services.js';

export function migrateCommand(): Command {
  return new Command('migrate').description('Apply pending database migrations (serve applies them too)').action(async () => {
    const applied = await migrateConfiguredDatabase();
    console.log(applied.length ? `Applied ${applied.length} migration(s): ${applied.join(', ')}` : 'Database is up to date.');
  });
}
