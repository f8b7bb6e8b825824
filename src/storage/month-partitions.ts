// PostgreSQL keeps the tables that only grow (clicks, the webhook outbox and its log) in one
// partition per month (declarative range partitioning), so retention drops a month whole instead
// of deleting millions of rows, and the index a row is appended to stays the size of one month.
// Clicks are partitioned on their id (which begins with its time in hex), the outbox on its
// created_at (an ISO 8601 text, which sorts as time does). A default partition takes rows whose
// month has no partition yet; making that month's partition moves them over. Partitions are made
// ahead by the service, months in advance.
import { AsyncLocalStorage } from 'node:async_hooks';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { clickIdTime, clickIdTimePrefix } from '../lib/click-id-time.js';

/** A table partitioned by month: its name, the column partitioned on, and that column's value at an instant. */
export interface MonthPartitioned {
  table: string;
  /** Names the advisory lock that serialises this table's partition changes across instances. */
  lock: string;
  column: string;
  bound: (instant: number) => string;
}

export const CLICK_PARTITIONS: MonthPartitioned = { table: 'clicks', lock: 'affnet:click-partitions', column: 'id', bound: clickIdTimePrefix };

const createdAt = (table: string): MonthPartitioned => ({ table, lock: `affnet:partitions:${table}`, column: 'created_at', bound: (instant) => new Date(instant).toISOString() });
/** The outbox and its log, in the order their months are dropped (what refers to events first). */
export const WEBHOOK_PARTITIONS: readonly MonthPartitioned[] = [createdAt('webhook_attempts'), createdAt('webhook_deliveries'), createdAt('webhook_events')];

/** The first instant of the UTC month `offset` months after the one holding `time`. */
export function monthStart(time: number, offset = 0): number {
  const date = new Date(time);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + offset, 1);
}

/** Runs `work` in a transaction: the caller's (a migration's), or a new one. */
const inTransaction = <T>(db: Kysely<unknown>, work: (trx: Kysely<unknown>) => Promise<T>): Promise<T> =>
  db.isTransaction ? work(db) : db.transaction().execute(work);

const partitionName = (spec: MonthPartitioned, month: number) => {
  const date = new Date(month);
  return `${spec.table}_p${date.getUTCFullYear()}${String(date.getUTCMonth() + 1).padStart(2, '0')}`;
};

/** Set while a month's partition is made (its statements depend on the day): what the PostgreSQL snapshot of the migrations leaves out. */
const makingMonthPartition = new AsyncLocalStorage<true>();

/** Whether the statement running now is part of making a month's partition. */
export const isMakingMonthPartition = (): boolean => makingMonthPartition.getStore() === true;

/** Serialises the partition changes of one table across instances. */
const lockPartitionsOf = (trx: Kysely<unknown>, spec: MonthPartitioned) =>
  sql`select pg_advisory_xact_lock(hashtext(${spec.lock}))`.execute(trx);

/** The months (start instants) that have a partition of their own. */
export async function partitionedMonths(db: Kysely<unknown>, spec: MonthPartitioned): Promise<number[]> {
  const { rows } = await sql<{ name: string }>`
    select child.relname as name from pg_inherits
    join pg_class child on child.oid = pg_inherits.inhrelid
    join pg_class parent on parent.oid = pg_inherits.inhparent
    where parent.relname = ${spec.table} and parent.relnamespace = to_regnamespace(current_schema())`.execute(db);
  const pattern = new RegExp(`^${spec.table}_p(\\d{4})(\\d{2})$`);
  return rows
    .map((r) => pattern.exec(r.name))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Date.UTC(Number(m[1]), Number(m[2]) - 1, 1))
    .sort((a, b) => a - b);
}

/**
 * Turns an existing table into one partitioned by month, inside the caller's transaction (a
 * migration's): a new partitioned table of the same columns and defaults, with a default
 * partition, and partitions for every month from the oldest row (at most `monthsBack` ago) to
 * `monthsAhead` ahead; then the rows are copied over and the old table dropped. The primary key
 * becomes (id, partition column) where the two differ: PostgreSQL needs the partition column in
 * every unique index. Indexes and foreign keys are the caller's to add afterwards.
 */
export async function partitionExistingTable(db: Kysely<unknown>, spec: MonthPartitioned, options: { now: number; monthsAhead: number; monthsBack: number }): Promise<void> {
  const old = `${spec.table}_unpartitioned`;
  await sql`alter table ${sql.id(spec.table)} rename to ${sql.id(old)}`.execute(db);
  await sql`alter table ${sql.id(old)} rename constraint ${sql.id(`${spec.table}_pkey`)} to ${sql.id(`${old}_pkey`)}`.execute(db);
  await sql`create table ${sql.id(spec.table)} (like ${sql.id(old)} including defaults) partition by range (${sql.id(spec.column)})`.execute(db);
  const key = spec.column === 'id' ? sql`(id)` : sql`(id, ${sql.id(spec.column)})`;
  await sql`alter table ${sql.id(spec.table)} add constraint ${sql.id(`${spec.table}_pkey`)} primary key ${key}`.execute(db);
  await sql`create table ${sql.id(`${spec.table}_default`)} partition of ${sql.id(spec.table)} default`.execute(db);

  const { rows } = await sql<{ oldest: string | null }>`select min(${sql.id(spec.column)}) as oldest from ${sql.id(old)}`.execute(db);
  const earliest = monthStart(options.now, -options.monthsBack);
  const oldestRow = rows[0]?.oldest ? firstInstantOf(spec, rows[0].oldest) : Number.NaN;
  const oldest = Number.isFinite(oldestRow) ? oldestRow : options.now;
  for (let month = monthStart(Math.max(earliest, Math.min(oldest, options.now))); month <= monthStart(options.now, options.monthsAhead); month = monthStart(month, 1)) {
    await ensureMonthPartition(db, spec, month);
  }
  await sql`insert into ${sql.id(spec.table)} select * from ${sql.id(old)}`.execute(db);
  // A serial column's sequence belongs to the old table; it must outlive it.
  const { rows: sequences } = await sql<{ sequence: string }>`
    select pg_get_serial_sequence(${old}, attname) as sequence from pg_attribute
    where attrelid = ${old}::regclass and attnum > 0 and not attisdropped and pg_get_serial_sequence(${old}, attname) is not null`.execute(db);
  for (const { sequence } of sequences) await sql`alter sequence ${sql.raw(sequence)} owned by none`.execute(db);
  await sql`drop table ${sql.id(old)}`.execute(db);
}

/** The instant a partition-column value stands for (NaN when it has no time in it). */
function firstInstantOf(spec: MonthPartitioned, value: string): number {
  if (spec === CLICK_PARTITIONS) return clickIdTime(value);
  return Date.parse(value);
}

/**
 * Gives the month starting at `month` its own partition, unless it has one: in one transaction,
 * the month's rows that went to the default partition meanwhile are moved into it. Instances
 * doing this at the same time wait for each other (an advisory lock), so it is done once.
 */
export async function ensureMonthPartition(db: Kysely<unknown>, spec: MonthPartitioned, month: number): Promise<boolean> {
  const name = partitionName(spec, month);
  const from = spec.bound(month);
  const to = spec.bound(monthStart(month, 1));
  const column = sql.id(spec.column);
  return makingMonthPartition.run(true, () => inTransaction(db, async (trx) => {
    await lockPartitionsOf(trx, spec);
    const { rows } = await sql<{ found: string | null }>`select to_regclass(${name}) as found`.execute(trx);
    if (rows[0]?.found) return false;
    const fallback = sql.id(`${spec.table}_default`);
    await sql`create table ${sql.id(name)} (like ${sql.id(spec.table)} including defaults)`.execute(trx);
    await sql`insert into ${sql.id(name)} select * from ${fallback} where ${column} >= ${from} and ${column} < ${to}`.execute(trx);
    await sql`delete from ${fallback} where ${column} >= ${from} and ${column} < ${to}`.execute(trx);
    // The check lets the attach skip its scan of the new table.
    await sql`alter table ${sql.id(name)} add constraint ${sql.id(`${name}_range`)} check (${column} >= ${sql.lit(from)} and ${column} < ${sql.lit(to)})`.execute(trx);
    await sql`alter table ${sql.id(spec.table)} attach partition ${sql.id(name)} for values from (${sql.lit(from)}) to (${sql.lit(to)})`.execute(trx);
    await sql`alter table ${sql.id(name)} drop constraint ${sql.id(`${name}_range`)}`.execute(trx);
    return true;
  }));
}

/**
 * The statements that give a table no one has written to yet (a new database's) the partitions of
 * the month holding `now` and the `ahead` after it: no rows to move out of the default partition,
 * and no other instance to wait for, so one script rather than a transaction per month.
 */
export function newMonthPartitions(spec: MonthPartitioned, now: number, ahead = 3): RawBuilder<unknown>[] {
  return Array.from({ length: ahead + 1 }, (_, i) => monthStart(now, i)).flatMap((month) => {
    const name = sql.id(partitionName(spec, month));
    const bounds = sql`for values from (${sql.lit(spec.bound(month))}) to (${sql.lit(spec.bound(monthStart(month, 1)))})`;
    return [sql`create table ${name} (like ${sql.id(spec.table)} including defaults)`, sql`alter table ${sql.id(spec.table)} attach partition ${name} ${bounds}`];
  });
}

/** Makes sure the month holding `now` and the `ahead` after it have partitions of their own. */
export async function prepareMonthPartitions(db: Kysely<unknown>, spec: MonthPartitioned, now: number, ahead = 3): Promise<void> {
  for (let i = 0; i <= ahead; i++) await ensureMonthPartition(db, spec, monthStart(now, i));
}

/**
 * Drops the partitions of months that ended at or before `before`, with the rows they held; how
 * many rows went. Dropping takes an exclusive lock on the table, which waits for every open
 * transaction that read it (a pg_dump, a long report) while writes queue behind it: so it waits
 * at most DROP_LOCK_TIMEOUT, and a month that could not be dropped is tried again next time.
 */
export async function dropMonthPartitionsBefore(db: Kysely<unknown>, spec: MonthPartitioned, before: number): Promise<number> {
  let dropped = 0;
  for (const month of await partitionedMonths(db, spec)) {
    if (monthStart(month, 1) > before) break;
    const name = partitionName(spec, month);
    // Counted before the lock is asked for: the count only reads.
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.id(name)}`.execute(db);
    try {
      await inTransaction(db, async (trx) => {
        await lockPartitionsOf(trx, spec);
        await sql.raw(`set local lock_timeout = '${DROP_LOCK_TIMEOUT}'`).execute(trx);
        await sql`drop table if exists ${sql.id(name)}`.execute(trx);
      });
    } catch (error) {
      if ((error as { code?: string }).code === LOCK_NOT_AVAILABLE) break;
      throw error;
    }
    dropped += rows[0]?.n ?? 0;
  }
  return dropped;
}

const DROP_LOCK_TIMEOUT = '2s';
const LOCK_NOT_AVAILABLE = '55P03';
