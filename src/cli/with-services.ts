// Builds the services over the configured database (migrated to the latest schema) for one
// command and always closes the database, so a command never leaves the process hanging.
import { loadConfig, type Config } from '../config.js';
import { openDatabase, type Database } from '../storage/database.js';
import { migrateToLatest } from '../storage/migrate.js';
import { systemClock } from '../lib/clock.js';
import { fraudSettingsOf, payeeKeysFor, servicesOver, type Services } from '../services.js';
import { announcer } from './announce.js';

/** Applies pending migrations to the configured database; the names of those applied. */
export async function migrateConfiguredDatabase(): Promise<string[]> {
  const database = openDatabase(loadConfig().databaseUrl, { poolSize: 1 });
  try {
    return await migrateToLatest(database);
  } finally {
    await database.close();
  }
}

/**
 * The configured database opened for serving, its schema brought up to date meanwhile: `migrated`
 * settles once it is (the caller loads the server's code in the meantime).
 */
export function openServingDatabase(config: Config): { database: Database; migrated: Promise<string[]> } {
  const database = openDatabase(config.databaseUrl, { sqliteCacheMb: config.sqliteCacheMb });
  const migrated = migrateToLatest(database);
  // Awaited by the caller once the code has loaded; a failure meanwhile is no unhandled rejection.
  migrated.catch(() => {});
  return { database, migrated };
}

export async function withServices<T>(run: (services: Services, config: Config, database: Database) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const database = openDatabase(config.databaseUrl, { poolSize: 2 });
  try {
    await migrateToLatest(database);
    const settings = {
      clock: systemClock,
      publicUrl: config.publicUrl,
      publisher: announcer(config),
      payeeKeys: payeeKeysFor(config).keys,
      payeeChangeHoldHours: config.payeeChangeHoldHours,
      datacenterAsns: fraudSettingsOf(config).datacenterAsns,
      payoutMinimums: config.payoutMinimums,
      passwordHashCost: config.passwordHashCost,
    };
    return await run(servicesOver(database, settings), config, database);
  } finally {
    await database.close();
  }
}
