// A new SQLite database starts from the snapshot of the migrations: it must end exactly where
// running every migration in turn ends (the same tables, indexes, triggers, rows and record of
// migrations), and a database that already holds anything must be migrated in turn as before.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { openDatabase, type Database } from '../../src/storage/database.js';
import { migrateTo, migrateToLatest, migrationNames, replayMigrations } from '../../src/storage/migrate.js';
import { applySqliteSnapshot, readSqliteSnapshot } from '../../src/storage/sqlite-baseline.js';

/** Everything a database holds: its schema, every table's rows, and the migrations it records. */
async function contents(database: Database): Promise<unknown> {
  const db = database.db;
  const master = (await sql<{ type: string; name: string; tbl_name: string; sql: string | null }>`select type, name, tbl_name, sql from sqlite_master order by type, name`.execute(db)).rows;
  // A full-text index's own tables hold its encoding (an emptied index and a new one differ in
  // bytes); what it holds is checked by SQLite's own integrity check below.
  const fullText = master.filter((row) => /^create virtual/i.test(row.sql ?? '')).map((row) => row.name);
  const rows: Record<string, unknown[]> = {};
  for (const { name } of master.filter((row) => row.type === 'table' && row.name !== 'kysely_migration' && !fullText.some((index) => row.name.startsWith(index)))) {
    rows[name] = (await sql`select * from ${sql.table(name)}`.execute(db)).rows;
  }
  const migrations = (await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db)).rows.map((row) => row.name);
  const foreignKeyFaults = (await sql`pragma foreign_key_check`.execute(db)).rows;
  const integrity = (await sql`pragma integrity_check`.execute(db)).rows;
  for (const index of fullText) await sql`insert into ${sql.table(index)} (${sql.ref(index)}) values ('integrity-check')`.execute(db);
  const indexed = Object.fromEntries(await Promise.all(fullText.map(async (index) => [index, (await sql`select count(*) as n from ${sql.table(index)}`.execute(db)).rows] as const)));
  return { master, rows, migrations, foreignKeyFaults, integrity, indexed };
}

async function withDatabase<T>(use: (database: Database) => Promise<T>): Promise<T> {
  const database = openDatabase(':memory:');
  try {
    return await use(database);
  } finally {
    await database.close();
  }
}

const replayed = () => withDatabase(async (database) => (await replayMigrations(database), contents(database)));

test('a new database from the snapshot holds exactly what every migration run in turn leaves', async () => {
  const expected = await replayed();
  const actual = await withDatabase(async (database) => {
    assert.deepEqual(await migrateToLatest(database), migrationNames(), 'every migration is reported as applied');
    assert.deepEqual(await migrateToLatest(database), [], 'and none is left to run');
    return contents(database);
  });
  assert.deepEqual(actual, expected);
  assert.ok((expected as { master: unknown[] }).master.length > 100, 'the comparison covers the whole schema');
});

test('the migrations after an older snapshot run on top of it and end in the same place', async () => {
  const names = migrationNames();
  const through = names[29]!;
  const older = await withDatabase(async (database) => (await migrateTo(database, through), readSqliteSnapshot(database.db, through)));
  const actual = await withDatabase(async (database) => {
    assert.equal(await applySqliteSnapshot(database.db, older, names.slice(0, 30), new Date().toISOString()), true);
    assert.deepEqual(await replayMigrations(database), names.slice(30), 'only the migrations after the snapshot run');
    return contents(database);
  });
  assert.deepEqual(actual, await replayed());
});

test('a database that already holds tables is migrated in turn, never given the snapshot', async () => {
  const names = migrationNames();
  const actual = await withDatabase(async (database) => {
    await migrateTo(database, names[9]!);
    assert.deepEqual(await migrateToLatest(database), names.slice(10));
    const snapshot = await readSqliteSnapshot(database.db, names.at(-1)!);
    assert.equal(await applySqliteSnapshot(database.db, snapshot, names, new Date().toISOString()), false, 'a second application does nothing');
    return contents(database);
  });
  assert.deepEqual(actual, await replayed());
});
