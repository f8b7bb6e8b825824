// A start reads the record of migrations once and goes on when it holds exactly this version's
// migrations. Anything else still goes through the migrator: a migration not yet run is run, and a
// record naming a migration this version does not know (a database a later version migrated) is
// refused, on both databases.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { openDatabase, type Database } from '../../src/storage/database.js';
import { migrateTo, migrateToLatest, migrationNames } from '../../src/storage/migrate.js';
import { freshDatabase } from '../helpers/databases.js';

async function withMigrated<T>(use: (database: Database) => Promise<T>, options: { through?: string } = {}): Promise<T> {
  const target = await freshDatabase({ migrated: !options.through });
  const database = openDatabase(target.url);
  try {
    if (options.through) await migrateTo(database, options.through);
    return await use(database);
  } finally {
    await database.close();
    await target.drop();
  }
}

test('a database that records every migration of this version is left as it is', () =>
  withMigrated(async (database) => {
    assert.deepEqual(await migrateToLatest(database), []);
  }));

test('a database one migration behind gets that migration, and only it', async () => {
  const names = migrationNames();
  await withMigrated(
    async (database) => {
      assert.deepEqual(await migrateToLatest(database), names.slice(-1));
      assert.deepEqual(await migrateToLatest(database), []);
    },
    { through: names.at(-2)! },
  );
});

test('a database that records a migration this version does not know is refused, not served', () =>
  withMigrated(async (database) => {
    await sql`insert into kysely_migration (name, timestamp) values ('9999-from-a-later-version', ${new Date().toISOString()})`.execute(database.db);
    await assert.rejects(migrateToLatest(database), /9999-from-a-later-version/);
  }));
