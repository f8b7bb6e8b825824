// A new PostgreSQL database starts from the snapshot of the migrations: it must end exactly where
// running every migration in turn ends (the same tables, columns, indexes, constraints, triggers,
// functions, partitions, rows and record of migrations), a database that already holds anything
// must be migrated in turn as before, and the committed snapshot must be what the migrations run now.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { sql, type Kysely } from 'kysely';
import { openDatabase, type Database } from '../../src/storage/database.js';
import { migrateTo, migrateToLatest, migrationNames, replayMigrations } from '../../src/storage/migrate.js';
import { applyPostgresSnapshot, type PostgresSnapshot } from '../../src/storage/postgres-baseline.js';
import { postgresSnapshotSource, recordPostgresSnapshot } from '../../src/storage/postgres-recording.js';
import { POSTGRES_SNAPSHOT } from '../../src/storage/migrations/postgres-baseline.js';
import { freshDatabase, type TestDatabase } from '../helpers/databases.js';

/** The rows of a catalog query, as they read. */
const rowsOf = async (db: Kysely<unknown>, query: ReturnType<typeof sql>) => (await query.execute(db)).rows;

/** Everything a database holds: its schema as PostgreSQL describes it, every table's rows, and the migrations it records. */
async function contents(database: Database): Promise<Record<string, unknown>> {
  const db = database.db as Kysely<unknown>;
  const relations = (await rowsOf(db, sql`select relname, relkind, relpersistence from pg_class where relnamespace = 'public'::regnamespace and relkind not in ('t') order by relname`)) as { relname: string; relkind: string }[];
  const rows: Record<string, string[]> = {};
  for (const { relname } of relations.filter((relation) => relation.relkind === 'r' && relation.relname !== 'kysely_migration')) {
    rows[relname] = (await rowsOf(db, sql`select * from ${sql.table(relname)}`)).map((row) => JSON.stringify(row)).sort();
  }
  return {
    relations,
    columns: await rowsOf(db, sql`select table_name, ordinal_position, column_name, data_type, is_nullable, column_default, collation_name, is_generated, generation_expression from information_schema.columns where table_schema = 'public' order by table_name, ordinal_position`),
    indexes: await rowsOf(db, sql`select tablename, indexname, indexdef from pg_indexes where schemaname = 'public' order by tablename, indexname`),
    constraints: await rowsOf(db, sql`select conrelid::regclass::text as owner, conname, pg_get_constraintdef(oid) as definition from pg_constraint where connamespace = 'public'::regnamespace order by 1, 2`),
    triggers: await rowsOf(db, sql`select tgrelid::regclass::text as owner, tgname, pg_get_triggerdef(oid) as definition from pg_trigger where not tgisinternal order by 1, 2`),
    functions: await rowsOf(db, sql`select proname, pg_get_functiondef(oid) as definition from pg_proc where pronamespace = 'public'::regnamespace order by 1`),
    sequences: await rowsOf(db, sql`select c.relname, d.refobjid::regclass::text as owned_by, d.deptype, s.last_value from pg_class c join pg_sequences s on s.schemaname = 'public' and s.sequencename = c.relname left join pg_depend d on d.objid = c.oid and d.deptype in ('a', 'i') and d.classid = 'pg_class'::regclass where c.relkind = 'S' and c.relnamespace = 'public'::regnamespace order by 1`),
    comments: await rowsOf(db, sql`select c.relname, d.objsubid, d.description from pg_description d join pg_class c on c.oid = d.objoid where c.relnamespace = 'public'::regnamespace order by 1, 2`),
    partitions: await rowsOf(db, sql`select i.inhrelid::regclass::text as partition, i.inhparent::regclass::text as parent, pg_get_expr(c.relpartbound, c.oid) as bound from pg_inherits i join pg_class c on c.oid = i.inhrelid where c.relnamespace = 'public'::regnamespace order by 1`),
    views: await rowsOf(db, sql`select viewname, definition from pg_views where schemaname = 'public' order by 1`),
    rows,
    migrations: (await rowsOf(db, sql`select name from kysely_migration order by name`)).map((row) => (row as { name: string }).name),
  };
}

/** A new, empty PostgreSQL database open for `use`; none on SQLite (whose own snapshot test/storage/sqlite-baseline.test.ts covers). */
async function withNewDatabase<T>(use: (database: Database, target: TestDatabase) => Promise<T>): Promise<T> {
  const target = await freshDatabase();
  const database = openDatabase(target.url);
  try {
    return await use(database, target);
  } finally {
    await database.close();
    await target.drop();
  }
}

/** Whether this run is on PostgreSQL; says why not otherwise. */
async function onPostgres(t: TestContext): Promise<boolean> {
  const probe = await freshDatabase();
  await probe.drop();
  if (probe.dialect === 'postgres') return true;
  t.diagnostic('not applicable: the embedded database has a snapshot of its own (test/storage/sqlite-baseline.test.ts)');
  return false;
}

/**
 * Every migration replayed on a new database, once for the whole file: what it then holds, and the
 * snapshot recorded as they ran (a replay takes seconds on a busy host).
 */
let reference: Promise<{ contents: Record<string, unknown>; snapshot: PostgresSnapshot }> | undefined;
const replayed = () =>
  (reference ??= withNewDatabase(async (database, target) => {
    const snapshot = await recordPostgresSnapshot(target.url);
    return { snapshot, contents: await contents(database) };
  }));

test('a new PostgreSQL database from the snapshot holds exactly what every migration run in turn leaves', async (t) => {
  if (!(await onPostgres(t))) return;
  const expected = (await replayed()).contents;
  const actual = await withNewDatabase(async (database) => {
    assert.deepEqual(await migrateToLatest(database), migrationNames(), 'every migration is reported as applied');
    assert.deepEqual(await migrateToLatest(database), [], 'and none is left to run');
    return contents(database);
  });
  assert.deepEqual(actual, expected);
  assert.ok((expected.indexes as unknown[]).length > 200, 'the comparison covers the whole schema');
  assert.ok((expected.partitions as unknown[]).length >= 20, 'the month partitions included');
});

test('the migrations after an older snapshot run on top of it and end in the same place', async (t) => {
  if (!(await onPostgres(t))) return;
  const names = migrationNames();
  const older: PostgresSnapshot = { migrations: POSTGRES_SNAPSHOT.migrations.slice(0, 30) };
  const actual = await withNewDatabase(async (database) => {
    assert.equal(await applyPostgresSnapshot(database.db, older, Date.now()), true);
    assert.deepEqual(await replayMigrations(database), names.slice(30), 'only the migrations after the snapshot run');
    return contents(database);
  });
  assert.deepEqual(actual, (await replayed()).contents);
});

test('a database that already holds tables is migrated in turn, never given the snapshot', async (t) => {
  if (!(await onPostgres(t))) return;
  const names = migrationNames();
  const actual = await withNewDatabase(async (database) => {
    await migrateTo(database, names[9]!);
    assert.deepEqual(await migrateToLatest(database), names.slice(10));
    assert.equal(await applyPostgresSnapshot(database.db, POSTGRES_SNAPSHOT, Date.now()), false, 'a second application does nothing');
    return contents(database);
  });
  assert.deepEqual(actual, (await replayed()).contents);
});

test('a database whose schema is not public is migrated in turn, as the snapshot names public', async (t) => {
  if (!(await onPostgres(t))) return;
  const target = await freshDatabase();
  const name = new URL(target.url).pathname.slice(1);
  const setUp = openDatabase(target.url);
  await sql`drop schema public cascade`.execute(setUp.db);
  await sql`create schema app`.execute(setUp.db);
  await sql.raw(`alter database ${name} set search_path = app`).execute(setUp.db);
  await setUp.close();
  const database = openDatabase(target.url);
  try {
    assert.deepEqual(await migrateToLatest(database), migrationNames(), 'every migration, run in turn');
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_tables where schemaname = 'app'`.execute(database.db);
    assert.ok(rows[0]!.n > 80, 'the tables are in the schema in use');
  } finally {
    await database.close();
    await target.drop();
  }
});

test('the committed snapshot is what the migrations run on a new database now', async (t) => {
  if (!(await onPostgres(t))) return;
  const recorded = (await replayed()).snapshot;
  const committed = readFileSync(new URL('../../src/storage/migrations/postgres-baseline.ts', import.meta.url), 'utf8');
  assert.equal(postgresSnapshotSource(recorded), committed, 'src/storage/migrations/postgres-baseline.ts is out of date: run `npm run sql:sync` and commit it');
});
