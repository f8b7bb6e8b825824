// Opens the configured database (migrated to the latest schema) for one command and always
// closes it, so a command never leaves the process hanging.
import { loadConfig, type Config } from '../config.js';
import { openDatabase, type Database } from '../storage/database.js';
import { migrateToLatest } from '../storage/migrate.js';

export async function withDatabase<T>(run: (database: Database, config: Config) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const database = openDatabase(config.databaseUrl, { poolSize: 2 });
  try {
    await migrateToLatest(database);
    return await run(database, config);
  } finally {
    await database.close();
  }
}
