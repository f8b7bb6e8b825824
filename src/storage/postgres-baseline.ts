// A new PostgreSQL database gets the migrations' schema in one step: the statements the migrations
// run on a new database (src/storage/migrations/postgres-baseline.ts, recorded by `npm run
// sql:sync`), sent as one script in one transaction, recorded as those migrations; the later ones
// then run as usual. Replayed, the migrations are some 900 statements, a round trip each, after
// Kysely's migrator has read the catalog: about twice the time of the same schema sent at once.
// The month partitions are the only part that depends on the day: recording leaves them out, and
// they are made here as the migrations make them on a new database, from this month to three ahead.
import { DEFAULT_MIGRATION_LOCK_TABLE, DEFAULT_MIGRATION_TABLE, MIGRATION_LOCK_ID, sql, type CompiledQuery, type Kysely } from 'kysely';
import { CLICK_PARTITIONS, newMonthPartitions, WEBHOOK_PARTITIONS } from './month-partitions.js';
import type { DB } from './tables.js';

export interface PostgresSnapshot {
  /** Each migration it holds, in order, with the statements it runs on a new database (the month partitions aside). */
  migrations: readonly { name: string; statements: readonly string[] }[];
}

/** The months ahead the migrations give partitions on a new database (this one included). */
const MONTHS_AHEAD = 3;

/** Kysely's migrator's lock on PostgreSQL (its PostgresAdapter): a migrator and a snapshot never run at once. */
const MIGRATOR_LOCK = '3853314791062309107';

/**
 * The script text of a statement a migration ran, its parameters written in as literals (throws on
 * a value it cannot write so); none for one that reads or changes rows already there (select,
 * update, delete, insert … select). On a new database those find none, and some carry the time
 * they ran. A row a migration adds by its values (insert … values) is kept.
 */
export function snapshotStatement(query: CompiledQuery): string | undefined {
  const text = query.sql.trim();
  const verb = /^\w+/.exec(text)?.[0].toLowerCase();
  if (verb === 'select' || verb === 'update' || verb === 'delete' || verb === 'with' || (verb === 'insert' && !/\bvalues\s*\(/i.test(text))) return undefined;
  // Only a statement sent with parameters has $n placeholders (a function's body may hold its own).
  if (query.parameters.length === 0) return text;
  return text.replace(/\$(\d+)/g, (_, index: string) => literal(query.parameters[Number(index) - 1]));
}

/** A value as a SQL literal (strings with standard_conforming_strings, PostgreSQL's default since 9.1). */
function literal(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return `'${value.replaceAll("'", "''")}'`;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  // In parentheses: a negative number after a minus would read as a comment (--).
  if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'bigint') return `(${String(value)})`;
  throw new Error(`a migration's parameter cannot be written into the snapshot: ${JSON.stringify(value)}`);
}

/**
 * Applies the snapshot to a database that holds nothing yet, with the migrations it holds recorded
 * as run, and the month partitions of `now` and the three after it; returns false, doing nothing,
 * when the database already holds a table. One transaction under the migrator's lock: two
 * processes starting on the same new database apply it once.
 */
export async function applyPostgresSnapshot(db: Kysely<DB>, snapshot: PostgresSnapshot, now: number): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${sql.lit(MIGRATOR_LOCK)}::bigint)`.execute(trx);
    if (!(await snapshotApplies(trx))) return false;
    // The migrator's own tables, as Kysely's migrator makes them.
    const own = [
      trx.schema.createTable(DEFAULT_MIGRATION_TABLE).addColumn('name', 'varchar(255)', (col) => col.notNull().primaryKey()).addColumn('timestamp', 'varchar(255)', (col) => col.notNull()),
      trx.schema.createTable(DEFAULT_MIGRATION_LOCK_TABLE).addColumn('id', 'varchar(255)', (col) => col.notNull().primaryKey()).addColumn('is_locked', 'integer', (col) => col.notNull().defaultTo(0)),
    ].map((statement) => statement.compile().sql);
    const partitions = [CLICK_PARTITIONS, ...WEBHOOK_PARTITIONS].flatMap((spec) => newMonthPartitions(spec, now, MONTHS_AHEAD)).map((statement) => statement.compile(trx).sql);
    // One query, so one round trip: without parameters it goes as PostgreSQL's simple query, which
    // takes several statements. Its literals are written for standard_conforming_strings.
    const script = ['set local standard_conforming_strings = on', ...own, ...snapshot.migrations.flatMap((migration) => migration.statements), ...partitions];
    await sql.raw(script.join(';\n')).execute(trx);
    const at = new Date(now).toISOString();
    await sql`insert into ${sql.table(DEFAULT_MIGRATION_LOCK_TABLE)} (id, is_locked) values (${MIGRATION_LOCK_ID}, 0)`.execute(trx);
    await sql`insert into ${sql.table(DEFAULT_MIGRATION_TABLE)} (name, timestamp) values ${sql.join(snapshot.migrations.map(({ name }) => sql`(${name}, ${at})`))}`.execute(trx);
    return true;
  });
}

/**
 * Whether the snapshot is for this database: its schema is public (where the snapshot was recorded:
 * a statement or two name it) and holds nothing yet, no table, view, sequence or function.
 */
export async function snapshotApplies(db: Kysely<DB>): Promise<boolean> {
  const { rows } = await sql<{ applies: boolean }>`
    select current_schema() = 'public'
      and not exists (select 1 from pg_class where relnamespace = to_regnamespace('public') and relkind in ('r', 'p', 'v', 'm', 'S', 'f'))
      and not exists (select 1 from pg_proc where pronamespace = to_regnamespace('public')) as applies`.execute(db);
  return rows[0]?.applies === true;
}
