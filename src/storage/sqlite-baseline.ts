// A new SQLite database gets the migrations' schema in one step: the statements and rows that the
// migrations up to a recent one leave in a database of their own (src/storage/migrations/
// sqlite-baseline.ts, written by `npm run sql:sync`), recorded as those migrations; the later ones
// then run as usual. Replaying the migrations one by one took 80–110 ms of a first start, most of
// it SQLite reading the whole schema again after each ALTER TABLE; the snapshot takes about 10.
import { DEFAULT_MIGRATION_TABLE, sql, type Kysely } from 'kysely';
import type { DB } from './tables.js';

export interface SqliteSnapshot {
  /** The last migration the snapshot holds (it holds every one before it). */
  through: string;
  /** Every table, index and trigger, in an order that creates each after what it names. */
  schema: readonly string[];
  /** The rows the migrations left, by table (their own record of migrations aside). */
  rows: readonly { table: string; columns: readonly string[]; values: readonly (readonly unknown[])[] }[];
}

/** The tables SQLite makes for an FTS5 table (name_data, name_idx, …): made again with it. */
const FTS_SHADOWS = ['data', 'idx', 'content', 'docsize', 'config'];
/** Tables first (the virtual ones make their shadow tables), then what reads them. */
const TYPE_ORDER = ['table', 'index', 'trigger', 'view'];

interface MasterRow {
  type: string;
  name: string;
  sql: string;
}

/** The schema and rows of a migrated SQLite database, as a snapshot of the migrations through `through`. */
export async function readSqliteSnapshot(db: Kysely<DB>, through: string): Promise<SqliteSnapshot> {
  const master = (await sql<MasterRow>`select type, name, sql from sqlite_master where sql is not null order by rowid`.execute(db)).rows;
  const virtual = master.filter((row) => row.type === 'table' && /^create virtual table/i.test(row.sql)).map((row) => row.name);
  const shadow = new Set(virtual.flatMap((name) => FTS_SHADOWS.map((suffix) => `${name}_${suffix}`)));
  const kept = master.filter((row) => !row.name.startsWith('sqlite_') && !shadow.has(row.name));
  const schema = TYPE_ORDER.flatMap((type) => kept.filter((row) => row.type === type).map((row) => row.sql));
  // The migrations' own record is written as the snapshot is applied, never part of it.
  const tables = kept.filter((row) => row.type === 'table' && !virtual.includes(row.name) && row.name !== DEFAULT_MIGRATION_TABLE).map((row) => row.name);
  // AUTOINCREMENT's counters, which SQLite keeps in a table of its own once a table uses it.
  if (master.some((row) => row.name === 'sqlite_sequence')) tables.push('sqlite_sequence');
  const rows: SqliteSnapshot['rows'][number][] = [];
  for (const table of tables) {
    const found = (await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(db)).rows;
    if (found.length === 0) continue;
    const columns = Object.keys(found[0]!);
    rows.push({ table, columns, values: found.map((row) => columns.map((column) => row[column])) });
  }
  return { through, schema, rows };
}

/**
 * Applies the snapshot to a database that holds nothing yet, with `migrations` (the names through
 * the snapshot's last, in order) recorded as run; returns false, doing nothing, when the database
 * already holds a table. One transaction that takes the write lock first: two processes starting
 * on the same new file apply it once.
 */
export async function applySqliteSnapshot(db: Kysely<DB>, snapshot: SqliteSnapshot, migrations: readonly string[], now: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    if (!(await isEmptySqlite(trx))) return false;
    for (const statement of snapshot.schema) await sql.raw(statement).execute(trx);
    for (const { table, columns, values } of snapshot.rows) {
      for (const row of values) {
        await sql`insert into ${sql.table(table)} (${sql.join(columns.map((column) => sql.ref(column)))}) values (${sql.join(row)})`.execute(trx);
      }
    }
    for (const name of migrations) await sql`insert into ${sql.table(DEFAULT_MIGRATION_TABLE)} (name, timestamp) values (${name}, ${now})`.execute(trx);
    return true;
  });
}

/** Whether the SQLite database holds nothing at all: no table, index, trigger or view. */
export async function isEmptySqlite(db: Kysely<DB>): Promise<boolean> {
  return ((await sql<{ n: number }>`select count(*) as n from sqlite_master`.execute(db)).rows[0]?.n ?? 0) === 0;
}
