// Clicks: appended in batches (with their links' counts), and looked up by id for conversions.
import type { Database } from '../database.js';
import { sql, type Kysely, type Transaction } from 'kysely';
import { CLICK_PARTITIONS, dropMonthPartitionsBefore, prepareMonthPartitions } from '../month-partitions.js';
import { clickIdTime, clickIdTimePrefix } from '../../lib/click-id-time.js';
import type { ClickRow, DB, NewClickRow } from '../tables.js';
import { addClicksToRollups } from './rollups.js';
import { SQLITE_ROLLUP_RANGE_SQL, sqliteRollUpStep } from '../rollup-rows.js';

/**
 * Every column a click is written with, in order: the one list both click writers insert (this
 * repository, and the SQLite writer thread, which prepares its own statement from it).
 */
export const CLICK_COLUMNS = [
  'id',
  'link_id',
  'affiliate_id',
  'channel_id',
  'organization_id',
  'mdasc',
  'created_at',
  'is_bot',
  'is_head',
  'is_repeat',
  'is_suspicious',
  'is_suspended',
  'counted',
  'visitor_hash',
  'user_agent',
  'country',
  'device',
  'browser',
  'os',
  'referer_host',
  'asn',
] as const satisfies ReadonlyArray<keyof NewClickRow>;

export type ClickColumn = (typeof CLICK_COLUMNS)[number];

/** The columns the click writer finds (from the address, user agent and referrer); the serving thread decides the others. */
const ENRICHED_CLICK_COLUMNS = ['country', 'device', 'browser', 'os', 'referer_host', 'asn'] as const satisfies ReadonlyArray<ClickColumn>;
export type EnrichedClickColumn = (typeof ENRICHED_CLICK_COLUMNS)[number];
export type DecidedClickColumn = Exclude<ClickColumn, EnrichedClickColumn>;
export const DECIDED_CLICK_COLUMNS = CLICK_COLUMNS.filter((column): column is DecidedClickColumn => !(ENRICHED_CLICK_COLUMNS as readonly string[]).includes(column));

/** A click as written: every column of CLICK_COLUMNS, optional ones included. */
export type ClickInsert = Required<Pick<NewClickRow, ClickColumn>>;

/** Clicks as one array per column (of `C`, every column by default), the i-th click at index i of each. */
export type ClickColumns<C extends ClickColumn = ClickColumn> = { [K in C]: ClickInsert[K][] };

/** The INSERT of one click with positional parameters, in the order of CLICK_COLUMNS. */
export const CLICK_INSERT_SQL = `insert into clicks (${CLICK_COLUMNS.join(', ')}) values (${CLICK_COLUMNS.map(() => '?').join(', ')})`;

/**
 * The sub-ids of the clicks of a batch that carry any (src/lib/sub-ids.ts): their indexes in the
 * batch, ascending, and their stored sub-ids. They are few, so they travel and are written apart
 * from CLICK_COLUMNS: a batch (or a click) without any is written exactly as before they existed.
 */
export interface BatchSubIds {
  at: number[];
  values: string[];
}

/** The INSERT of a click that carries sub-ids: CLICK_COLUMNS, then sub_ids. */
export const CLICK_WITH_SUB_IDS_INSERT_SQL = `insert into clicks (${CLICK_COLUMNS.join(', ')}, sub_ids) values (${CLICK_COLUMNS.map(() => '?').join(', ')}, ?)`;

/** The sub-ids of the clicks that carry them, or undefined when none does. */
export function batchSubIds(clicks: ReadonlyArray<Pick<NewClickRow, 'sub_ids'>>): BatchSubIds | undefined {
  let found: BatchSubIds | undefined;
  for (let i = 0; i < clicks.length; i++) {
    const subIds = clicks[i]!.sub_ids;
    if (subIds === undefined || subIds === null) continue;
    found ??= { at: [], values: [] };
    found.at.push(i);
    found.values.push(subIds);
  }
  return found;
}

/** The sub-ids of clicks [from, to) of a batch, indexed from `from`. */
export function sliceSubIds(subIds: BatchSubIds | undefined, from: number, to: number): BatchSubIds | undefined {
  if (subIds === undefined) return undefined;
  const sliced: BatchSubIds = { at: [], values: [] };
  subIds.at.forEach((at, i) => {
    if (at < from || at >= to) return;
    sliced.at.push(at - from);
    sliced.values.push(subIds.values[i]!);
  });
  return sliced.at.length === 0 ? undefined : sliced;
}

/** The click with every column of CLICK_COLUMNS and its sub-ids, optional ones null when absent. */
function clickInsert(c: NewClickRow): ClickInsert & Pick<NewClickRow, 'sub_ids'> {
  return { ...(Object.fromEntries(CLICK_COLUMNS.map((column) => [column, c[column] ?? null])) as ClickInsert), sub_ids: c.sub_ids ?? null };
}

/** `rows` as one array per column of `columns` (absent optional values as null). */
export function clickColumns<C extends ClickColumn>(rows: readonly NewClickRow[], columns: readonly C[]): ClickColumns<C> {
  return Object.fromEntries(columns.map((column) => [column, rows.map((row) => row[column] ?? null)])) as ClickColumns<C>;
}

// Rows per INSERT statement: 20 columns × 500 stays far below SQLite's bound-parameter limit.
const CHUNK = 500;
/** The integer columns of clicks (the flags); the others are text. */
const INTEGER_CLICK_COLUMNS = new Set<string>(['is_bot', 'is_head', 'is_repeat', 'is_suspicious', 'is_suspended', 'counted', 'asn']);
/** Clicks summed per transaction by sumAllStored. */
const SUM_ALL_STEP = 5000;

/**
 * Adds counted clicks to their links' counts with one UPDATE per distinct count (most links of a
 * batch get 1), not one per link: at a million links a batch touches about as many links as it
 * has clicks, and a round trip per link held PostgreSQL's writer to 305–635 clicks a second
 * there (about 790 this way, measured alone with 2,000-click batches).
 * On PostgreSQL the rows are locked first, by id, a chunk at a time in id order, so two instances'
 * batches touching the same links wait for each other instead of deadlocking.
 */
async function addToLinkCounts(trx: Transaction<DB>, clicks: readonly NewClickRow[], lockFirst: boolean): Promise<void> {
  const counts = new Map<string, number>();
  for (const click of clicks) if (click.counted) counts.set(click.link_id, (counts.get(click.link_id) ?? 0) + 1);
  if (counts.size === 0) return;
  const ids = [...counts.keys()].sort();
  if (lockFirst) {
    for (let i = 0; i < ids.length; i += CHUNK) await trx.selectFrom('short_links').select('id').where('id', 'in', ids.slice(i, i + CHUNK)).orderBy('id').forUpdate().execute();
  }
  const byCount = new Map<number, string[]>();
  for (const id of ids) {
    const n = counts.get(id)!;
    const group = byCount.get(n);
    if (group) group.push(id);
    else byCount.set(n, [id]);
  }
  for (const [n, group] of byCount) {
    for (let i = 0; i < group.length; i += CHUNK) {
      await trx
        .updateTable('short_links')
        .set((eb) => ({ click_count: eb('click_count', '+', n) }))
        .where('id', 'in', group.slice(i, i + CHUNK))
        .execute();
    }
  }
}

/**
 * Inserts the clicks CHUNK rows per statement; the clicks it stored. A click already stored is
 * skipped, not an error: a batch whose commit went through but whose answer was lost (the
 * connection broke) is written again by the retry, and only the clicks not stored yet go on to
 * be counted.
 */
async function insertNew(trx: Transaction<DB>, batch: readonly NewClickRow[]): Promise<readonly NewClickRow[]> {
  const inserted = new Set<string>();
  for (let i = 0; i < batch.length; i += CHUNK) {
    const rows = await trx.insertInto('clicks').values(batch.slice(i, i + CHUNK).map(clickInsert)).onConflict((oc) => oc.column('id').doNothing()).returning('id').execute();
    for (const { id } of rows) inserted.add(id);
  }
  return inserted.size === batch.length ? batch : batch.filter((click) => inserted.has(click.id));
}

export class ClicksRepository {
  constructor(private readonly database: Database) {}

  /**
   * Appends a batch of clicks, in one transaction: the batch is stored whole or not at all.
   * On PostgreSQL each click's id is also kept in unrolled_clicks, and rollUpStored adds the
   * clicks to their links' counts and the rollups later. On SQLite (a connection of the service's
   * own; the click writer thread has its own way) the counts and rollups are added in the same
   * transaction, the rollups summed from the stored clicks after rollup_progress (as the writer
   * thread does), so every click is added exactly once whichever path wrote it.
   */
  async write(batch: NewClickRow[]): Promise<void> {
    if (batch.length === 0) return;
    if (this.database.dialect === 'postgres') return this.writeColumns(clickColumns(batch, CLICK_COLUMNS), batchSubIds(batch));
    await this.database.db.transaction().execute(async (trx) => {
      const clicks = await insertNew(trx, batch);
      await addToLinkCounts(trx, clicks, false);
      const { rows } = await sql.raw<{ from: number; to: number }>(SQLITE_ROLLUP_RANGE_SQL).execute(trx);
      for (const statement of sqliteRollUpStep(rows[0] ?? { from: 0, to: 0 }).statements) await sql.raw(statement).execute(trx);
    });
  }

  /**
   * PostgreSQL: stores the clicks, each id also in unrolled_clicks, in one statement; rollUpStored
   * adds them to their links' counts and the rollups later. The rows go as one array per column
   * (unnest): 20 parameters whatever the batch size, where VALUES lists take 20 per click, a
   * large statement text to build, send and parse for every batch. Only a batch with clicks that
   * carry sub-ids sends a sub_ids array as well.
   */
  async writeColumns(clicks: ClickColumns, subIds?: BatchSubIds): Promise<void> {
    if (this.database.dialect !== 'postgres') throw new Error('writeColumns is for PostgreSQL; SQLite writes with write()');
    const n = clicks.id.length;
    if (n === 0) return;
    const columns = CLICK_COLUMNS.map((column) => sql`${sql.val(clicks[column])}::${sql.raw(INTEGER_CLICK_COLUMNS.has(column) ? 'integer[]' : 'text[]')}`);
    const names = CLICK_COLUMNS.map((column) => sql.ref(column));
    if (subIds !== undefined) {
      const all = new Array<string | null>(n).fill(null);
      subIds.at.forEach((at, i) => (all[at] = subIds.values[i]!));
      columns.push(sql`${sql.val(all)}::text[]`);
      names.push(sql.ref('sub_ids'));
    }
    await sql`with stored as (
        insert into clicks (${sql.join(names)}) select * from unnest(${sql.join(columns)})
        on conflict (id) do nothing returning id
      ) insert into unrolled_clicks (id) select id from stored`.execute(this.database.db);
  }

  /**
   * PostgreSQL: adds up to `limit` stored clicks that are not in the sums yet (the oldest first)
   * to their links' counts and the rollups, and takes them off unrolled_clicks, in one
   * transaction; how many it took. Concurrent callers (other instances) take other clicks.
   */
  async rollUpStored(limit: number): Promise<number> {
    return this.database.db.transaction().execute(async (trx) => {
      const claimed = await trx
        .deleteFrom('unrolled_clicks')
        .where('id', 'in', (eb) => eb.selectFrom('unrolled_clicks').select('id').orderBy('id').limit(limit).forUpdate().skipLocked())
        .returning('id')
        .execute();
      if (claimed.length === 0) return 0;
      // A click deleted by retention before it was added is skipped (retention waits for them; see dropMonthsEndedBy).
      const clicks = await trx
        .selectFrom('clicks')
        .selectAll()
        .where(sql<boolean>`id = any(${claimed.map((c) => c.id)})`)
        .execute();
      await addToLinkCounts(trx, clicks, true);
      await addClicksToRollups(trx, clicks);
      return claimed.length;
    });
  }

  /**
   * Adds every stored click not in the sums yet to them now, or as many as it can until
   * `deadline` (performance.now() time): a tool that writes clicks with no click writer running
   * (the demo seed), and the writer before it stops. On SQLite write already did.
   */
  async sumAllStored(deadline = Number.POSITIVE_INFINITY): Promise<void> {
    if (this.database.dialect !== 'postgres') return;
    while (performance.now() < deadline && (await this.rollUpStored(SUM_ALL_STEP)) > 0);
  }

  /** How many stored clicks are not in their links' counts or the rollups yet (all instances). */
  async notYetSummed(): Promise<number> {
    if (this.database.dialect === 'postgres') {
      const row = await this.database.db.selectFrom('unrolled_clicks').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirst();
      return Number(row?.n ?? 0);
    }
    // Rowids only grow, and retention deletes none past the progress: the difference is the count.
    const { rows } = await sql<{ n: number }>`select (select coalesce(max(rowid), 0) from clicks) - (select min(c.last_counted_rowid, r.last_rolled_rowid) from click_count_progress c, rollup_progress r where c.id = 1 and r.id = 1) as n`.execute(this.database.db);
    return Math.max(0, Number(rows[0]?.n ?? 0));
  }

  /**
   * PostgreSQL: the time of the oldest stored click not in the sums yet (epoch ms), or Infinity:
   * retention deletes no click from that time on, so none is deleted before it is counted.
   */
  private async oldestUnrolled(): Promise<number> {
    const row = await this.database.db.selectFrom('unrolled_clicks').select('id').orderBy('id').limit(1).executeTakeFirst();
    return row ? clickIdTime(row.id) : Number.POSITIVE_INFINITY;
  }

  /**
   * Deletes up to `limit` of the oldest clicks made before `cutoff` (epoch ms; click ids begin
   * with their time, so this is a range of the primary key); how many it deleted. On PostgreSQL
   * only the default partition is pruned row by row: whole months go with dropMonthsEndedBy.
   * On SQLite only clicks already added to their links' counts and to the rollups go (those
   * follow rowids), and never the newest row: an emptied table would hand out its rowids again
   * from 1, below where the counting stands. On PostgreSQL none from the oldest click not yet
   * added on.
   */
  async pruneOlderThan(cutoff: number, limit: number): Promise<number> {
    // The default partition has the columns of clicks (it is one of its partitions).
    const table = (this.database.dialect === 'postgres' ? 'clicks_default' : 'clicks') as 'clicks';
    if (this.database.dialect === 'postgres') cutoff = Math.min(cutoff, await this.oldestUnrolled());
    const oldest = this.database.db.selectFrom(table).select('id').where('id', '<', clickIdTimePrefix(cutoff)).orderBy('id').limit(limit);
    let prune = this.database.db.deleteFrom(table).where('id', 'in', oldest);
    if (this.database.dialect === 'sqlite') {
      prune = prune
        .where(sql<number>`rowid`, '<=', sql<number>`(select min(c.last_counted_rowid, r.last_rolled_rowid) from click_count_progress c, rollup_progress r where c.id = 1 and r.id = 1)`)
        .where(sql<number>`rowid`, '<', sql<number>`(select max(rowid) from clicks)`);
    }
    const result = await prune.executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /**
   * PostgreSQL: drops the monthly partitions of months that ended by `cutoff`, and by the oldest
   * click not yet added to the sums; the clicks they held.
   */
  async dropMonthsEndedBy(cutoff: number): Promise<number> {
    if (this.database.dialect !== 'postgres') return 0;
    return dropMonthPartitionsBefore(this.database.db as Kysely<unknown>, CLICK_PARTITIONS, Math.min(cutoff, await this.oldestUnrolled()));
  }

  /** PostgreSQL: makes sure this month and the next `ahead` have partitions of their own. */
  async prepareMonths(now: number, ahead = 3): Promise<void> {
    if (this.database.dialect !== 'postgres') return;
    await prepareMonthPartitions(this.database.db as Kysely<unknown>, CLICK_PARTITIONS, now, ahead);
  }

  find(id: string): Promise<ClickRow | undefined> {
    return this.database.db.selectFrom('clicks').selectAll().where('id', '=', id).executeTakeFirst();
  }
}
