// Analytics rollups: the per-hour sums of clicks and orders (see src/lib/rollup-layout.ts), added
// to as clicks are written and orders change, rebuilt from stored clicks and orders on demand,
// and read by ranges of their key. No read here touches clicks or orders.
import { sql, type SelectQueryBuilder, type Transaction } from 'kysely';
import type { Database } from '../database.js';
import type { ClickRollupRow, DB, NewClickRow, OrderRollupRow } from '../tables.js';
import { CLICK_COUNTS, CLICK_ROLLUP_KEY, ORDER_ROLLUP_KEY, ORDER_SUMS, clickRollupRows, clickRollupSql, orderRollupDelta, orderRollupSql, type OrderFacts } from '../rollup-rows.js';
import { hourOf } from '../../lib/rollup-layout.js';

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
}

export type ClickCounts = Pick<ClickRollupRow, (typeof CLICK_COUNTS)[number]>;
export type OrderSums = Pick<OrderRollupRow, (typeof ORDER_SUMS)[number]>;

// Rows per upsert: 11 columns × 400 stays below both databases' bound-parameter limits.
const CHUNK = 400;

/** Adds a batch of clicks being written to the rollups, in the batch's transaction. */
export async function addClicksToRollups(trx: Transaction<DB>, clicks: readonly NewClickRow[]): Promise<void> {
  const rows = clickRollupRows(clicks);
  for (let i = 0; i < rows.length; i += CHUNK) {
    await trx
      .insertInto('click_rollups')
      .values(rows.slice(i, i + CHUNK))
      .onConflict((oc) =>
        oc.columns([...CLICK_ROLLUP_KEY]).doUpdateSet((eb) => ({
          counted: eb('click_rollups.counted', '+', eb.ref('excluded.counted')),
          bots: eb('click_rollups.bots', '+', eb.ref('excluded.bots')),
          heads: eb('click_rollups.heads', '+', eb.ref('excluded.heads')),
          repeats: eb('click_rollups.repeats', '+', eb.ref('excluded.repeats')),
          suspicious: eb('click_rollups.suspicious', '+', eb.ref('excluded.suspicious')),
        })),
      )
      .execute();
  }
}

/** Adds what an order's creation (`before` undefined) or change moves to the rollups, in its transaction. */
export async function addOrderToRollups(trx: Transaction<DB>, before: OrderFacts | undefined, after: OrderFacts): Promise<void> {
  const rows = orderRollupDelta(before, after);
  if (rows.length === 0) return;
  await trx
    .insertInto('order_rollups')
    .values(rows)
    .onConflict((oc) =>
      oc.columns([...ORDER_ROLLUP_KEY]).doUpdateSet((eb) => ({
        orders: eb('order_rollups.orders', '+', eb.ref('excluded.orders')),
        sales: eb('order_rollups.sales', '+', eb.ref('excluded.sales')),
        commission: eb('order_rollups.commission', '+', eb.ref('excluded.commission')),
      })),
    )
    .execute();
}

export interface RebuildResult {
  /** First hour of click rollups recomputed; undefined when no click is stored (none rewritten). */
  clicksFrom?: string;
  /** First hour of order rollups recomputed; undefined: every hour. */
  ordersFrom?: string;
}

export class RollupsRepository {
  constructor(private readonly database: Database) {}

  /** The rows of one table a read covers (both tables share the key columns). */
  private keyed<T extends 'click_rollups' | 'order_rollups'>(table: T, range: RollupRange) {
    const either: 'click_rollups' | 'order_rollups' = table;
    return this.database.db.selectFrom(either).where((eb) => {
      const conditions = [
        eb('affiliate_id', '=', range.affiliateId),
        eb('organization_id', '=', range.organizationId),
        eb('link_id', '=', range.linkId),
        eb('dimension', '=', range.dimension),
        eb('hour', '>=', range.from),
        eb('hour', '<', range.to),
      ];
      const { match } = range;
      if (match && 'equals' in match) conditions.push(eb('value', '=', match.equals));
      // A prefix is a range of the key (values compare byte by byte in both databases).
      else if (match && 'prefix' in match) conditions.push(eb('value', '>=', match.prefix), eb('value', '<', afterPrefix(match.prefix)));
      else if (match && 'suffix' in match) {
        conditions.push(eb(eb.fn('substr', ['value', eb(eb.fn('length', ['value']), '-', match.suffix.length - 1)]), '=', match.suffix));
      }
      return eb.and(conditions);
    }) as unknown as SelectQueryBuilder<DB, T, object>;
  }

  /** Click counts per hour of the range (hours without clicks left out). */
  async clicksByHour(range: RollupRange): Promise<Array<ClickCounts & { hour: string }>> {
    const rows = await this.keyed('click_rollups', range)
      .select((eb) => ['hour', ...CLICK_COUNTS.map((c) => eb.fn.sum<number>(c).as(c))])
      .groupBy('hour')
      .execute();
    return rows.map((r) => ({ hour: r.hour, ...numbers(r, CLICK_COUNTS) }));
  }

  /**
   * Click counts per value over the range, most counted clicks first (value breaks ties), at most
   * `limit`; values without a counted click only with `uncounted`.
   */
  async clicksByValue(range: RollupRange, limit: number, uncounted = false): Promise<Array<ClickCounts & { value: string }>> {
    const rows = await this.keyed('click_rollups', range)
      .select((eb) => ['value', ...CLICK_COUNTS.map((c) => eb.fn.sum<number>(c).as(c))])
      .groupBy('value')
      .$if(!uncounted, (q) => q.having((eb) => eb.fn.sum('counted'), '>', 0))
      .orderBy((eb) => eb.fn.sum('counted'), 'desc')
      .orderBy('value')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ value: r.value, ...numbers(r, CLICK_COUNTS) }));
  }

  private orderRows(range: RollupRange) {
    const q = this.keyed('order_rollups', range);
    return range.currency === undefined ? q : q.where('currency', '=', range.currency);
  }

  /** Order sums per hour and currency. */
  async ordersByHour(range: RollupRange): Promise<Array<OrderSums & { hour: string; currency: string }>> {
    const rows = await this.orderRows(range)
      .select((eb) => ['hour', 'currency', ...ORDER_SUMS.map((c) => eb.fn.sum<number>(c).as(c))])
      .groupBy(['hour', 'currency'])
      .execute();
    return rows.map((r) => ({ hour: r.hour, currency: r.currency, ...numbers(r, ORDER_SUMS) }));
  }

  /**
   * Order sums per value and currency, largest `orderBy` first (value, currency break ties), at
   * most `limit`; groups whose orders were all canceled are left out.
   */
  async ordersByValue(range: RollupRange, orderBy: (typeof ORDER_SUMS)[number], limit: number): Promise<Array<OrderSums & { value: string; currency: string }>> {
    const rows = await this.orderRows(range)
      .select((eb) => ['value', 'currency', ...ORDER_SUMS.map((c) => eb.fn.sum<number>(c).as(c))])
      .groupBy(['value', 'currency'])
      .having((eb) => eb.or(ORDER_SUMS.map((c) => eb(eb.fn.sum(c), '<>', 0))))
      .orderBy((eb) => eb.fn.sum(orderBy), 'desc')
      .orderBy('value')
      .orderBy('currency')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ value: r.value, currency: r.currency, ...numbers(r, ORDER_SUMS) }));
  }

  /** The first hour with clicks or orders under this key, if any (the start of "all time"). */
  async firstHour(key: Pick<RollupRange, 'affiliateId' | 'organizationId' | 'linkId'>): Promise<string | undefined> {
    const first = async (table: 'click_rollups' | 'order_rollups') => {
      const row = await this.database.db
        .selectFrom(table as 'click_rollups')
        .select((eb) => eb.fn.min('hour').as('hour'))
        .where('affiliate_id', '=', key.affiliateId)
        .where('organization_id', '=', key.organizationId)
        .where('link_id', '=', key.linkId)
        .where('dimension', '=', 'all')
        .executeTakeFirst();
      return row?.hour ?? undefined;
    };
    const hours = (await Promise.all([first('click_rollups'), first('order_rollups')])).filter((h): h is string => typeof h === 'string');
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
        await sql`lock table click_rollups, order_rollups in exclusive mode`.execute(trx);
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
        await sql.raw(clickRollupSql(`created_at >= ${literal(clicksFrom)}`)).execute(trx);
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
      if (ordersFrom !== undefined) result.ordersFrom = ordersFrom;
      return result;
    });
  }

  /** Every row of both tables in key order (tests compare rollups with a rebuild). */
  async everything(): Promise<{ clicks: ClickRollupRow[]; orders: OrderRollupRow[] }> {
    let clickRows = this.database.db.selectFrom('click_rollups').selectAll();
    for (const column of CLICK_ROLLUP_KEY) clickRows = clickRows.orderBy(column);
    let orderRows = this.database.db.selectFrom('order_rollups').selectAll();
    for (const column of ORDER_ROLLUP_KEY) orderRows = orderRows.orderBy(column);
    const [clicks, orders] = await Promise.all([clickRows.execute(), orderRows.execute()]);
    return { clicks: clicks.map((r) => ({ ...r, ...numbers(r, CLICK_COUNTS) })), orders: orders.map((r) => ({ ...r, ...numbers(r, ORDER_SUMS) })) };
  }
}

/** Sums arrive as numbers, bigint strings or null (no rows) depending on the driver. */
function numbers<K extends string>(row: Record<string, unknown>, columns: readonly K[]): Record<K, number> {
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
