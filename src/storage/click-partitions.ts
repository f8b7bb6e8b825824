// PostgreSQL keeps clicks in one partition per month (declarative range partitioning on the click
// id, which begins with its time in hex), so retention drops a month whole instead of deleting
// millions of rows, and the index a click is appended to stays the size of one month. A default
// partition takes clicks whose month has no partition yet (or ids of another shape); making that
// month's partition moves them over. Partitions are made ahead by the service, months in advance.
import { sql, type Kysely } from 'kysely';
import { clickIdTimePrefix } from '../lib/click-id-time.js';

const PARTITION_NAME = /^clicks_p(\d{4})(\d{2})$/;

/** The first instant of the UTC month `offset` months after the one holding `time`. */
export function monthStart(time: number, offset = 0): number {
  const date = new Date(time);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + offset, 1);
}


/** Runs `work` in a transaction: the caller's (a migration's), or a new one. */
const inTransaction = <T>(db: Kysely<unknown>, work: (trx: Kysely<unknown>) => Promise<T>): Promise<T> =>
  db.isTransaction ? work(db) : db.transaction().execute(work);

const partitionName = (month: number) => {
  const date = new Date(month);
  return `clicks_p${date.getUTCFullYear()}${String(date.getUTCMonth() + 1).padStart(2, '0')}`;
};

/** The months (start instants) that have a partition of their own. */
export async function partitionedMonths(db: Kysely<unknown>): Promise<number[]> {
  const { rows } = await sql<{ name: string }>`
    select child.relname as name from pg_inherits
    join pg_class child on child.oid = pg_inherits.inhrelid
    join pg_class parent on parent.oid = pg_inherits.inhparent
    where parent.relname = 'clicks' and parent.relnamespace = to_regnamespace(current_schema())`.execute(db);
  return rows
    .map((r) => PARTITION_NAME.exec(r.name))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Date.UTC(Number(m[1]), Number(m[2]) - 1, 1))
    .sort((a, b) => a - b);
}

/**
 * Gives the month starting at `month` its own partition, unless it has one: in one transaction,
 * the month's clicks that went to the default partition meanwhile are moved into it. Instances
 * doing this at the same time wait for each other (an advisory lock), so it is done once.
 */
export async function ensureMonthPartition(db: Kysely<unknown>, month: number): Promise<boolean> {
  const name = partitionName(month);
  const from = clickIdTimePrefix(month);
  const to = clickIdTimePrefix(monthStart(month, 1));
  return inTransaction(db, async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext('affnet:click-partitions'))`.execute(trx);
    const { rows } = await sql<{ found: string | null }>`select to_regclass(${name}) as found`.execute(trx);
    if (rows[0]?.found) return false;
    await sql`create table ${sql.id(name)} (like clicks including defaults)`.execute(trx);
    await sql`insert into ${sql.id(name)} select * from clicks_default where id >= ${from} and id < ${to}`.execute(trx);
    await sql`delete from clicks_default where id >= ${from} and id < ${to}`.execute(trx);
    // The check lets the attach skip its scan of the new table.
    await sql`alter table ${sql.id(name)} add constraint ${sql.id(`${name}_range`)} check (id >= ${sql.lit(from)} and id < ${sql.lit(to)})`.execute(trx);
    await sql`alter table clicks attach partition ${sql.id(name)} for values from (${sql.lit(from)}) to (${sql.lit(to)})`.execute(trx);
    await sql`alter table ${sql.id(name)} drop constraint ${sql.id(`${name}_range`)}`.execute(trx);
    return true;
  });
}

/**
 * Drops the partitions of months that ended at or before `before`; the clicks they held. Dropping
 * takes an exclusive lock on clicks, which waits for every open transaction that read it (a
 * pg_dump, a long report) while click writes queue behind it: so it waits at most
 * DROP_LOCK_TIMEOUT, and a month that could not be dropped is tried again at the next prune.
 */
export async function dropMonthPartitionsBefore(db: Kysely<unknown>, before: number): Promise<number> {
  let dropped = 0;
  for (const month of await partitionedMonths(db)) {
    if (monthStart(month, 1) > before) break;
    const name = partitionName(month);
    // Counted before the lock is asked for: the count only reads.
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.id(name)}`.execute(db);
    try {
      await inTransaction(db, async (trx) => {
        await sql`select pg_advisory_xact_lock(hashtext('affnet:click-partitions'))`.execute(trx);
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
