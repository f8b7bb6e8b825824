// Analytics rollups: the per-hour and per-day sums of clicks and orders (see
// src/lib/rollup-layout.ts), added to as clicks are written and orders change, rebuilt from stored
// clicks and orders on demand, and read by ranges of their key. No read here touches clicks or
// orders. A range reads whole UTC days from the daily rows and its edges (hours before the first
// midnight and after the last) from the hourly ones.
import { sql, type RawBuilder, type SelectQueryBuilder, type Transaction } from 'kysely';
import type { Database } from '../database.js';
import type { ClickRollupRow, ClickRollupsTable, DB, NewClickRow, OrderRollupRow, OrderRollupsTable } from '../tables.js';
import {
  CLICK_COUNTS,
  CLICK_ROLLUP_KEY,
  CLICK_ROLLUP_TABLE,
  ORDER_ROLLUP_KEY,
  ORDER_ROLLUP_TABLE,
  ORDER_SUMS,
  clickRollupRows,
  clickRollupSql,
  dailyFromHourlySql,
  orderRollupDelta,
  orderRollupSql,
  type OrderFacts,
} from '../rollup-rows.js';
import { dayOf, hourOf, mostCountedFirst, type Period } from '../../lib/rollup-layout.js';

/** Which rows a read covers: the key ('' where the scope has none), a dimension, and hours [from, to). */
export interface RollupRange {
  affiliateId: string;
  organizationId: string;
  linkId: string;
  dimension: string;
  /** First hour included (UTC ISO). */
  from: string;
  /** First hour after the range. */
  to: string;
  /** Only values equal to, starting with, or ending with this text. */
  match?: { equals: string } | { prefix: string } | { suffix: string };
  /** Orders only: one currency. */
  currency?: string;
  /**
   * Per hour (clicksByHour, ordersByHour): whether whole UTC days may come as one row at their
   * 00:00 (true unless the caller's buckets start elsewhere than at UTC midnights).
   */
  days?: boolean;
}

export type ClickCounts = Pick<ClickRollupRow, (typeof CLICK_COUNTS)[number]>;
export type OrderSums = Pick<OrderRollupRow, (typeof ORDER_SUMS)[number]>;

// Rows per upsert: 12 columns × 400 stays below both databases' bound-parameter limits.
const CHUNK = 400;
const PERIODS: readonly Period[] = ['hour', 'day'];

/**
 * Dimensions with many values (a value per link, brand, affiliate or referrer host), whose top
 * values are found by reading each period's largest counts first (an index per dimension in count
 * order, migration 0031). Kept in step with that migration.
 */
const RANKED_DIMENSIONS = new Set(['link', 'brand', 'affiliate', 'referer']);
/** Periods read in one statement when ranking (SQLite allows 500 terms in a compound select). */
const PERIODS_PER_STATEMENT = 400;
/** Past this many candidates the ranking stops and the range is summed whole. */
const MAX_CANDIDATES = 4000;

/** A period of a ranked read: an hour (or a day's 00:00) and the table that keeps it. */
interface RankedPeriod {
  table: string;
  hour: string;
}

/** The statements of a ranked read: each period's `depth` largest counts; given values' rows in given periods. */
interface RankedReads {
  tops(periods: readonly RankedPeriod[], depth: number): RawBuilder<unknown>[];
  rows(wanted: ReadonlyArray<RankedPeriod & { values: readonly string[] }>): RawBuilder<unknown>[];
}

const COUNT_COLUMNS = sql.raw(CLICK_COUNTS.join(', '));

/** The key of a ranked read; the dimension as a literal, for only then do the databases use its partial index. */
const rankedKey = (range: RollupRange) =>
  sql`affiliate_id = ${range.affiliateId} and organization_id = ${range.organizationId} and link_id = ${range.linkId} and dimension = ${sql.lit(range.dimension)}`;

/** SQLite: one select per period, joined by union all (at most PERIODS_PER_STATEMENT per statement). */
function sqliteRankedReads(range: RollupRange): RankedReads {
  const rowsOf = ({ table, hour }: RankedPeriod) => sql`select hour, value, ${COUNT_COLUMNS} from ${sql.table(table)} where ${rankedKey(range)} and hour = ${hour}`;
  const statements = (parts: RawBuilder<unknown>[]) => {
    const out: RawBuilder<unknown>[] = [];
    for (let i = 0; i < parts.length; i += PERIODS_PER_STATEMENT) out.push(sql`${sql.join(parts.slice(i, i + PERIODS_PER_STATEMENT), sql` union all `)}`);
    return out;
  };
  return {
    tops: (periods, depth) => statements(periods.map((period) => sql`select * from (${rowsOf(period)} order by counted desc, value limit ${depth}) as top`)),
    rows: (wanted) => statements(wanted.map((w) => sql`${rowsOf(w)} and value in (${sql.join(w.values)})`)),
  };
}

/**
 * PostgreSQL: one statement per table whatever the number of periods, the periods as an array
 * parameter. Planning a union of thirty selects took 5.5 ms (its execution 0.3); a lateral join
 * over the periods is planned once.
 */
function postgresRankedReads(range: RollupRange): RankedReads {
  const byTable = <T extends RankedPeriod>(items: readonly T[]) => {
    const tables = new Map<string, T[]>();
    for (const item of items) tables.set(item.table, [...(tables.get(item.table) ?? []), item]);
    return [...tables];
  };
  return {
    tops: (periods, depth) =>
      byTable(periods).map(
        ([table, list]) =>
          sql`select top.* from unnest(${list.map((p) => p.hour)}::text[]) as period(hour) cross join lateral (select hour, value, ${COUNT_COLUMNS} from ${sql.table(table)} where ${rankedKey(range)} and hour = period.hour order by counted desc, value limit ${depth}) as top`,
      ),
    rows: (wanted) =>
      byTable(wanted).map(([table, list]) => {
        const pairs = list.flatMap((w) => w.values.map((value) => [w.hour, value] as const));
        return sql`select hour, value, ${COUNT_COLUMNS} from ${sql.table(table)} where ${rankedKey(range)} and (hour, value) in (select * from unnest(${pairs.map(([hour]) => hour)}::text[], ${pairs.map(([, value]) => value)}::text[]))`;
      }),
  };
}

/** The upsert's update: each sum plus the one being added. */
function addingUp<S extends string>(table: string, sums: readonly S[]): Record<S, RawBuilder<number>> {
  return Object.fromEntries(sums.map((c) => [c, sql<number>`${sql.ref(`${table}.${c}`)} + ${sql.ref(`excluded.${c}`)}`])) as Record<S, RawBuilder<number>>;
}

/** Adds a batch of clicks to the rollups, in the caller's transaction (PostgreSQL: the step that claims them). */
export async function addClicksToRollups(trx: Transaction<DB>, clicks: readonly NewClickRow[]): Promise<void> {
  for (const period of PERIODS) {
    const table = CLICK_ROLLUP_TABLE[period];
    const rows = clickRollupRows(clicks, period);
    for (let i = 0; i < rows.length; i += CHUNK) {
      await trx
        .insertInto(table)
        .values(rows.slice(i, i + CHUNK))
        .onConflict((oc) => oc.columns([...CLICK_ROLLUP_KEY]).doUpdateSet(addingUp(table, CLICK_COUNTS)))
        .execute();
    }
  }
}

/** Adds what an order's creation (`before` undefined) or change moves to the rollups, in its transaction. */
export async function addOrderToRollups(trx: Transaction<DB>, before: OrderFacts | undefined, after: OrderFacts): Promise<void> {
  for (const period of PERIODS) {
    const table = ORDER_ROLLUP_TABLE[period];
    const rows = orderRollupDelta(before, after, period);
    if (rows.length === 0) continue;
    await trx
      .insertInto(table)
      .values(rows)
      .onConflict((oc) => oc.columns([...ORDER_ROLLUP_KEY]).doUpdateSet(addingUp(table, ORDER_SUMS)))
      .execute();
  }
}

/** A part of a range read from one table: hours [from, to) of the hourly rows, or whole days of the daily ones. */
interface Slice {
  period: Period;
  from: string;
  to: string;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** The range cut into its edges (hourly rows) and its whole UTC days (daily rows). */
export function slicesOf(from: string, to: string, days = true): Slice[] {
  const fromMs = Date.parse(from);
  const toMs = Date.parse(to);
  const firstMidnight = Math.ceil(fromMs / DAY_MS) * DAY_MS;
  const lastMidnight = Math.floor(toMs / DAY_MS) * DAY_MS;
  if (!days || firstMidnight >= lastMidnight) return [{ period: 'hour', from, to }];
  const iso = (ms: number) => new Date(ms).toISOString();
  const slices: Slice[] = [];
  if (fromMs < firstMidnight) slices.push({ period: 'hour', from, to: iso(firstMidnight) });
  slices.push({ period: 'day', from: iso(firstMidnight), to: iso(lastMidnight) });
  if (lastMidnight < toMs) slices.push({ period: 'hour', from: iso(lastMidnight), to });
  return slices;
}

/** Every period (its first hour) of a slice. */
function periodsOf(slice: Slice): string[] {
  const step = slice.period === 'hour' ? HOUR_MS : DAY_MS;
  const out: string[] = [];
  for (let ms = Date.parse(slice.from); ms < Date.parse(slice.to); ms += step) out.push(new Date(ms).toISOString());
  return out;
}

export interface RebuildResult {
  /** First hour of click rollups recomputed; undefined when no click is stored (none rewritten). */
  clicksFrom?: string;
  /** First hour of order rollups recomputed; undefined: every hour. */
  ordersFrom?: string;
}

export class RollupsRepository {
  constructor(private readonly database: Database) {}

  /** The rows of one table and slice a read covers (every rollup table shares the key columns). */
  private keyed(table: string, range: RollupRange, slice: Slice) {
    return this.database.db.selectFrom(table as 'click_rollups').where((eb) => {
      const conditions = [
        eb('affiliate_id', '=', range.affiliateId),
        eb('organization_id', '=', range.organizationId),
        eb('link_id', '=', range.linkId),
        eb('dimension', '=', range.dimension),
        eb('hour', '>=', slice.from),
        eb('hour', '<', slice.to),
      ];
      const { match } = range;
      if (match && 'equals' in match) conditions.push(eb('value', '=', match.equals));
      // A prefix is a range of the key (values compare byte by byte in both databases).
      else if (match && 'prefix' in match) conditions.push(eb('value', '>=', match.prefix), eb('value', '<', afterPrefix(match.prefix)));
      else if (match && 'suffix' in match) {
        conditions.push(eb(eb.fn('substr', ['value', eb(eb.fn('length', ['value']), '-', match.suffix.length - 1)]), '=', match.suffix));
      }
      return eb.and(conditions);
    });
  }

  /**
   * The rows of a range as one table (the union of its slices' rows), with `columns` and the
   * range's key; whole days from the daily rows unless `days` is false.
   */
  private sliced<C extends string>(kind: 'clicks' | 'orders', range: RollupRange, columns: readonly C[], days = true) {
    const tables = kind === 'clicks' ? CLICK_ROLLUP_TABLE : ORDER_ROLLUP_TABLE;
    const parts = slicesOf(range.from, range.to, days).map((slice) => {
      const rows = this.keyed(tables[slice.period], range, slice).select(columns.map((c) => sql.ref(c).as(c)));
      return kind === 'orders' && range.currency !== undefined ? rows.where(sql.ref('currency'), '=', range.currency) : rows;
    });
    const union = parts.slice(1).reduce((all, part) => all.unionAll(part), parts[0]!);
    return this.database.db.selectFrom(union.as('r')) as unknown as SelectQueryBuilder<{ r: ClickRollupsTable & OrderRollupsTable }, 'r', object>;
  }

  /** Click counts per hour of the range (hours without clicks left out); whole days as one row at 00:00 when range.days allows. */
  async clicksByHour(range: RollupRange): Promise<Array<ClickCounts & { hour: string }>> {
    const rows = await this.sliced('clicks', range, ['hour', ...CLICK_COUNTS], range.days ?? false)
      .select((eb) => ['hour', ...CLICK_COUNTS.map((c) => eb.fn.sum<number>(c).as(c))])
      .groupBy('hour')
      .execute();
    return rows.map((r) => ({ hour: String(r.hour), ...numbers(r, CLICK_COUNTS) }));
  }

  /** Click counts per hour (or whole day, as clicksByHour) and value of the range. */
  async clicksByHourAndValue(range: RollupRange): Promise<Array<ClickCounts & { hour: string; value: string }>> {
    const rows = await this.sliced('clicks', range, ['hour', 'value', ...CLICK_COUNTS], range.days ?? false)
      .select((eb) => ['hour', 'value', ...CLICK_COUNTS.map((c) => eb.fn.sum<number>(c).as(c))])
      .groupBy(['hour', 'value'])
      .execute();
    return rows.map((r) => ({ hour: String(r.hour), value: String(r.value), ...numbers(r, CLICK_COUNTS) }));
  }

  /**
   * Click counts per value over the range, most counted clicks first (value breaks ties), at most
   * `limit` (undefined: every value); values without a counted click only with `uncounted`.
   */
  async clicksByValue(range: RollupRange, limit: number | undefined, uncounted = false): Promise<Array<ClickCounts & { value: string }>> {
    if (limit !== undefined && RANKED_DIMENSIONS.has(range.dimension) && range.match === undefined) {
      const ranked = await this.topRanked(range, limit, uncounted);
      if (ranked !== undefined) return ranked;
    }
    return this.summedByValue(range, limit, uncounted);
  }

  private async summedByValue(range: RollupRange, limit: number | undefined, uncounted: boolean): Promise<Array<ClickCounts & { value: string }>> {
    const rows = await this.sliced('clicks', range, ['value', ...CLICK_COUNTS])
      .select((eb) => ['value', ...CLICK_COUNTS.map((c) => eb.fn.sum<number>(c).as(c))])
      .groupBy('value')
      .$if(!uncounted, (q) => q.having((eb) => eb.fn.sum('counted'), '>', 0))
      .orderBy((eb) => eb.fn.sum('counted'), 'desc')
      .orderBy('value')
      .$if(limit !== undefined, (q) => q.limit(limit!))
      .execute();
    return rows.map((r) => ({ value: String(r.value), ...numbers(r, CLICK_COUNTS) }));
  }

  /**
   * The top values of a dimension with many values without summing every value of the range
   * (the threshold algorithm): read each period's `depth` largest counts. A value's counts in the
   * lists it was seen in are a lower bound of its sum; adding, for each full list it is missing
   * from, that list's last count gives an upper bound; a value seen nowhere has at most the sum of
   * the full lists' last counts (the threshold). The values whose upper bound reaches the
   * `limit`-th largest lower bound are completed with their rows in the periods they were missing
   * from; when the `limit`-th of them beats the threshold, or every list was read to its end,
   * nothing else can rank higher. Otherwise read deeper. Undefined when the candidates grow past
   * MAX_CANDIDATES (the caller then sums the range whole).
   */
  private async topRanked(range: RollupRange, limit: number, uncounted: boolean): Promise<Array<ClickCounts & { value: string }> | undefined> {
    const periods = slicesOf(range.from, range.to).flatMap((slice) => periodsOf(slice).map((hour) => ({ table: CLICK_ROLLUP_TABLE[slice.period], hour })));
    const tableOf = new Map(periods.map((p) => [p.hour, p.table]));
    const reads = this.database.dialect === 'postgres' ? postgresRankedReads(range) : sqliteRankedReads(range);
    const run = async (statements: RawBuilder<unknown>[]) => {
      const out: Array<ClickCounts & { hour: string; value: string }> = [];
      for (const statement of statements) {
        const { rows } = await sql<Record<string, unknown>>`${statement}`.execute(this.database.db);
        for (const row of rows) out.push({ hour: String(row.hour), value: String(row.value), ...numbers(row, CLICK_COUNTS) });
      }
      return out;
    };
    for (let depth = Math.max(2 * limit, 20); ; depth *= 4) {
      const listed = await run(reads.tops(periods, depth));
      const lists = new Map<string, typeof listed>();
      for (const row of listed) {
        let list = lists.get(row.hour);
        if (!list) lists.set(row.hour, (list = []));
        list.push(row);
      }
      let threshold = 0;
      let exhausted = true;
      const fullLists: string[] = [];
      const sums = new Map<string, ClickCounts & { value: string; seenIn: Set<string>; seenInFull: number }>();
      for (const [hour, list] of lists) {
        const full = list.length === depth;
        const last = list[list.length - 1]!.counted;
        if (full) {
          exhausted = false;
          threshold += last;
          fullLists.push(hour);
        }
        for (const row of list) {
          let sum = sums.get(row.value);
          if (!sum) sums.set(row.value, (sum = { value: row.value, counted: 0, bots: 0, heads: 0, repeats: 0, suspicious: 0, suspended: 0, seenIn: new Set(), seenInFull: 0 }));
          for (const count of CLICK_COUNTS) sum[count] += row[count];
          sum.seenIn.add(hour);
          if (full) sum.seenInFull += last;
        }
      }
      if (sums.size > MAX_CANDIDATES) return undefined;
      const kthLower = [...sums.values()].map((s) => s.counted).sort((a, b) => b - a)[limit - 1] ?? 0;
      const candidates = [...sums.values()].filter((s) => s.counted + threshold - s.seenInFull >= kthLower);
      // A candidate's rows in the full lists it is missing from (elsewhere it has none).
      const missing = new Map<string, string[]>();
      for (const candidate of candidates) {
        for (const hour of fullLists) if (!candidate.seenIn.has(hour)) missing.set(hour, [...(missing.get(hour) ?? []), candidate.value]);
      }
      const completed = await run(reads.rows([...missing].map(([hour, values]) => ({ table: tableOf.get(hour)!, hour, values }))));
      for (const row of completed) for (const count of CLICK_COUNTS) sums.get(row.value)![count] += row[count];
      const exact = candidates
        .filter((s) => uncounted || s.counted > 0)
        .sort(mostCountedFirst)
        .map(({ value, counted, bots, heads, repeats, suspicious, suspended }) => ({ value, counted, bots, heads, repeats, suspicious, suspended }));
      const kth = exact[limit - 1];
      if (exhausted || (kth !== undefined && kth.counted > threshold)) return exact.slice(0, limit);
    }
  }

  /** Order sums per hour and currency; whole days as one row at 00:00 when range.days allows. */
  async ordersByHour(range: RollupRange): Promise<Array<OrderSums & { hour: string; currency: string }>> {
    const rows = await this.sliced('orders', range, ['hour', 'currency', ...ORDER_SUMS], range.days ?? false)
      .select((eb) => ['hour', 'currency', ...ORDER_SUMS.map((c) => eb.fn.sum<number>(c).as(c))])
      .groupBy(['hour', 'currency'])
      .execute();
    return rows.map((r) => ({ hour: String(r.hour), currency: String(r.currency), ...numbers(r, ORDER_SUMS) }));
  }

  /**
   * Order sums per value and currency, largest `orderBy` first (value, currency break ties), at
   * most `limit`; groups whose orders were all canceled are left out.
   */
  async ordersByValue(range: RollupRange, orderBy: (typeof ORDER_SUMS)[number], limit: number): Promise<Array<OrderSums & { value: string; currency: string }>> {
    const rows = await this.sliced('orders', range, ['value', 'currency', ...ORDER_SUMS])
      .select((eb) => ['value', 'currency', ...ORDER_SUMS.map((c) => eb.fn.sum<number>(c).as(c))])
      .groupBy(['value', 'currency'])
      .having((eb) => eb.or(ORDER_SUMS.map((c) => eb(eb.fn.sum(c), '<>', 0))))
      .orderBy((eb) => eb.fn.sum(orderBy), 'desc')
      .orderBy('value')
      .orderBy('currency')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ value: String(r.value), currency: String(r.currency), ...numbers(r, ORDER_SUMS) }));
  }

  /**
   * Click counts of every brand's links (`brand`: the brand scope's 'all' rows) or every
   * affiliate's (`affiliate`: the affiliate scope's), over whole UTC days [from, to) read from the
   * daily rows, summed per period (`day`: YYYY-MM-DD, `month`: YYYY-MM; none: the range as one)
   * and, with `perMember`, per brand or affiliate. Each member's rows are one range of the key:
   * the members' table drives the read (a brand or affiliate deleted since is left out).
   */
  async clicksOfMembers(members: 'brand' | 'affiliate', from: string, to: string, by: { period?: 'day' | 'month'; perMember?: boolean }): Promise<Array<ClickCounts & { period?: string; memberId?: string }>> {
    if (dayOf(from) !== from || dayOf(to) !== to) throw new Error(`not whole days: ${from} to ${to}`);
    const [own, other] = members === 'brand' ? (['r.organization_id', 'r.affiliate_id'] as const) : (['r.affiliate_id', 'r.organization_id'] as const);
    const period = by.period === undefined ? undefined : sql<string>`substr(r.hour, 1, ${sql.lit(by.period === 'day' ? 10 : 7)})`;
    const rows = await this.database.db
      .selectFrom(`${members === 'brand' ? 'brands' : 'affiliates'} as m` as 'brands as m')
      .innerJoin(`${CLICK_ROLLUP_TABLE.day} as r`, (join) =>
        join.onRef(own, '=', 'm.id').on(other, '=', '').on('r.link_id', '=', '').on('r.dimension', '=', 'all').on('r.value', '=', '').on('r.hour', '>=', from).on('r.hour', '<', to),
      )
      .select((eb) => CLICK_COUNTS.map((c) => eb.fn.sum<number>(`r.${c}`).as(c)))
      .$if(period !== undefined, (q) => q.select(period!.as('period')).groupBy(period!).orderBy(period!))
      .$if(by.perMember === true, (q) => q.select('m.id as member_id').groupBy('m.id').orderBy('m.id'))
      .execute();
    return rows
      .map((r) => ({ ...(period && { period: String(r.period) }), ...(by.perMember && { memberId: String(r.member_id) }), ...numbers(r, CLICK_COUNTS) }))
      .filter((r) => CLICK_COUNTS.some((c) => r[c] !== 0));
  }

  /**
   * The first hour with clicks or orders (the start of "all time"): of the click row `clicks`
   * (a key's 'all' row, or an affiliate's row of one link) and of the orders of key `orders`.
   */
  async firstHour(clicks: Pick<RollupRange, 'affiliateId' | 'organizationId' | 'linkId' | 'dimension'> & { value: string }, orders: Pick<RollupRange, 'affiliateId' | 'organizationId' | 'linkId'>): Promise<string | undefined> {
    const first = async (table: 'click_rollups' | 'order_rollups', key: typeof clicks) => {
      const row = await this.database.db
        .selectFrom(table as 'click_rollups')
        .select((eb) => eb.fn.min('hour').as('hour'))
        .where('affiliate_id', '=', key.affiliateId)
        .where('organization_id', '=', key.organizationId)
        .where('link_id', '=', key.linkId)
        .where('dimension', '=', key.dimension)
        .where('value', '=', key.value)
        .executeTakeFirst();
      return row?.hour ?? undefined;
    };
    const hours = (await Promise.all([first('click_rollups', clicks), first('order_rollups', { ...orders, dimension: 'all', value: '' })])).filter((h): h is string => typeof h === 'string');
    return hours.sort()[0];
  }

  /**
   * Recomputes the rollups from stored clicks and orders from `since` (an instant; default: all),
   * in one transaction. Click rollups are never rewritten before the hour of the oldest click
   * still stored, so deleting old clicks cannot erase their figures; nothing is rewritten for
   * clicks when none is stored. Running it twice gives the same rows.
   */
  rebuild(since?: string): Promise<RebuildResult> {
    const { database } = this;
    return database.db.transaction().execute(async (trx) => {
      if (database.dialect === 'postgres') {
        // Writers add to these rows in their own transactions: they wait until the rebuild is
        // committed, then add what it did not see.
        await sql`lock table click_rollups, click_rollups_daily, order_rollups, order_rollups_daily in exclusive mode`.execute(trx);
      } else {
        // Take SQLite's write lock first, so no click is written between the sums and the progress.
        await trx.updateTable('rollup_progress').set({ last_rolled_rowid: sql`last_rolled_rowid` }).where('id', '=', 1).execute();
      }
      // The first click by id is the oldest (ids begin with their time): one probe of the primary
      // key, where min(created_at) would read every click.
      const oldest = await trx.selectFrom('clicks').select('created_at as at').orderBy('id').limit(1).executeTakeFirst();
      const oldestClick = oldest?.at ?? undefined;
      const result: RebuildResult = {};
      if (typeof oldestClick === 'string') {
        const clicksFrom = hourOf(since !== undefined && since > oldestClick ? since : oldestClick);
        await trx.deleteFrom('click_rollups').where('hour', '>=', clicksFrom).execute();
        // PostgreSQL: clicks still in unrolled_clicks are left to the click writer, which adds
        // them once the rebuild is committed (its additions wait on the locks above).
        const pending = database.dialect === 'postgres' ? ' and not exists (select 1 from unrolled_clicks u where u.id = clicks.id)' : '';
        await sql.raw(clickRollupSql(`created_at >= ${literal(clicksFrom)}${pending}`)).execute(trx);
        for (const statement of dailyFromHourlySql('clicks', dayOf(clicksFrom))) await sql.raw(statement).execute(trx);
        result.clicksFrom = clicksFrom;
      }
      if (database.dialect === 'sqlite') {
        // Every stored click is in the rollups now: the click writer goes on after the last one.
        await sql`update rollup_progress set last_rolled_rowid = (select coalesce(max(rowid), 0) from clicks) where id = 1`.execute(trx);
      }
      const ordersFrom = since === undefined ? undefined : hourOf(since);
      let orders = trx.deleteFrom('order_rollups');
      if (ordersFrom !== undefined) orders = orders.where('hour', '>=', ordersFrom);
      await orders.execute();
      await sql.raw(orderRollupSql(ordersFrom === undefined ? 'true' : `created_at >= ${literal(ordersFrom)}`)).execute(trx);
      // From the first day of the hours recomputed: its earlier hours are kept as they are.
      for (const statement of dailyFromHourlySql('orders', ordersFrom === undefined ? undefined : dayOf(ordersFrom))) await sql.raw(statement).execute(trx);
      if (ordersFrom !== undefined) result.ordersFrom = ordersFrom;
      return result;
    });
  }

  /** Every row of every rollup table in key order (tests compare rollups with a rebuild). */
  async everything(): Promise<Record<'clicks' | 'clicksDaily', ClickRollupRow[]> & Record<'orders' | 'ordersDaily', OrderRollupRow[]>> {
    const all = async <R>(table: string, key: readonly string[], sums: readonly string[]): Promise<R[]> => {
      let rows = this.database.db.selectFrom(table as 'click_rollups').selectAll();
      for (const column of key) rows = rows.orderBy(column as 'hour');
      return (await rows.execute()).map((r) => ({ ...r, ...numbers(r, sums) }) as R);
    };
    const [clicks, clicksDaily, orders, ordersDaily] = await Promise.all([
      all<ClickRollupRow>(CLICK_ROLLUP_TABLE.hour, CLICK_ROLLUP_KEY, CLICK_COUNTS),
      all<ClickRollupRow>(CLICK_ROLLUP_TABLE.day, CLICK_ROLLUP_KEY, CLICK_COUNTS),
      all<OrderRollupRow>(ORDER_ROLLUP_TABLE.hour, ORDER_ROLLUP_KEY, ORDER_SUMS),
      all<OrderRollupRow>(ORDER_ROLLUP_TABLE.day, ORDER_ROLLUP_KEY, ORDER_SUMS),
    ]);
    return { clicks, clicksDaily, orders, ordersDaily };
  }
}

/** Sums arrive as numbers, bigint strings or null (no rows) depending on the driver. */
export function numbers<K extends string>(row: Record<string, unknown>, columns: readonly K[]): Record<K, number> {
  const out = {} as Record<K, number>;
  for (const c of columns) out[c] = Number(row[c] ?? 0);
  return out;
}

/** The first text after every text starting with `prefix` (its last character incremented). */
function afterPrefix(prefix: string): string {
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}

/** An hour this service computed (YYYY-MM-DDTHH:00:00.000Z), checked before it is written into SQL. */
function literal(hour: string): string {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:00:00\.000Z$/.test(hour)) throw new Error(`not an hour: ${hour}`);
  return `'${hour}'`;
}
