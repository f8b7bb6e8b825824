// The analytics by sub-id (an affiliate's sub1 … sub5: src/lib/sub-ids.ts), read from the clicks
// and orders of the range themselves: sub-ids are the affiliate's free text, as many values as it
// likes (a tracker's click id is one per click), which the hourly rollups cannot carry. The reads
// stay small:
// - clicks: only the affiliate's clicks that carry sub-ids, through their partial index
//   clicks_sub_ids_idx (affiliate, id: ids begin with their time, so the range is a range of the
//   index, and of PostgreSQL's monthly partitions); clicks without sub-ids are never read.
// - orders: the affiliate's orders of the range, through orders_affiliate_idx.
// Counts and sums are those of the rollups (rollup-rows.ts), so the figures agree with them.
import { sql, type RawBuilder } from 'kysely';
import type { Database } from '../database.js';
import { CLICK_COUNTS, CLICK_COUNT_SQL, ORDER_SUMS, ORDER_SUM_SQL } from '../rollup-rows.js';
import { clickIdTimePrefix } from '../../lib/click-id-time.js';
import type { SubIdName, SubIds } from '../../lib/sub-ids.js';
import { numbers, type ClickCounts, type OrderSums } from './rollups.js';

/** Which clicks or orders a read covers, and what it groups them by. */
export interface SubIdRead {
  affiliateId: string;
  /** Hours [from, to), UTC ISO. */
  from: string;
  to: string;
  /** A sub-id's values, or the hour ('YYYY-MM-DDTHH:00:00.000Z'). */
  by: SubIdName | 'hour';
  /** Only those whose sub-ids are exactly these. */
  subIds?: SubIds;
  organizationId?: string;
  linkId?: string;
  channelId?: string;
  /** The click's country (an order's: its click's). */
  country?: string;
  /** Clicks only: the device. */
  device?: string;
  /** Orders only: one currency. */
  currency?: string;
  /** The top this many groups (by the counted clicks, or by `orderBy`); every group without. */
  limit?: number;
}

export class SubIdFiguresRepository {
  constructor(private readonly database: Database) {}

  /** A sub-id's value in a click's stored sub-ids (a JSON object), compared byte by byte. */
  private clickSubId(name: SubIdName): RawBuilder<string | null> {
    return this.database.dialect === 'postgres' ? sql<string | null>`((sub_ids::jsonb ->> ${sql.lit(name)}) collate "C")` : sql<string | null>`json_extract(sub_ids, ${sql.lit(`$.${name}`)})`;
  }

  /**
   * Click counts (counted, then the uncounted by their first reason) per group of the read, most
   * counted first (value breaks ties); groups without a counted click only with `uncounted`.
   * Clicks without the sub-id grouped by are left out.
   */
  async clicks(read: SubIdRead, uncounted = false): Promise<Array<ClickCounts & { value: string }>> {
    const group = read.by === 'hour' ? sql<string>`substr(created_at, 1, 13)` : this.clickSubId(read.by);
    const where: RawBuilder<unknown>[] = [
      sql`affiliate_id = ${read.affiliateId}`,
      // The partial index's own condition, so both databases read it.
      sql`sub_ids is not null`,
      sql`id >= ${clickIdTimePrefix(Date.parse(read.from))}`,
      sql`id < ${clickIdTimePrefix(Date.parse(read.to))}`,
      ...this.common(read, 'country'),
      ...(read.device !== undefined ? [sql`device = ${read.device}`] : []),
      ...Object.entries(read.subIds ?? {}).map(([name, value]) => sql`${this.clickSubId(name as SubIdName)} = ${value}`),
      ...(read.by === 'hour' ? [] : [sql`${group} is not null`]),
    ];
    const sums = CLICK_COUNT_SQL.current.map((expression, i) => sql`${sql.raw(expression)} as ${sql.ref(CLICK_COUNTS[i]!)}`);
    const { rows } = await sql<Record<string, unknown>>`select ${group} as value, ${sql.join(sums)} from clicks
      where ${sql.join(where, sql` and `)} group by ${group}
      ${uncounted ? sql`` : sql`having sum(counted) > 0`}
      order by sum(counted) desc, value ${read.limit === undefined ? sql`` : sql`limit ${read.limit}`}`.execute(this.database.db);
    return rows.map((row) => ({ value: hourOrValue(read, row.value), ...numbers(row, CLICK_COUNTS) }));
  }

  /**
   * Order sums (orders and sales of those not canceled, commission not canceled) per group of the
   * read and currency, largest `orderBy` first (value, currency break ties); groups whose orders
   * were all canceled are left out, as are orders without the sub-id grouped by.
   */
  async orders(read: SubIdRead, orderBy: (typeof ORDER_SUMS)[number]): Promise<Array<OrderSums & { value: string; currency: string }>> {
    const group = read.by === 'hour' ? sql<string>`substr(created_at, 1, 13)` : sql.ref(read.by);
    const where: RawBuilder<unknown>[] = [
      sql`affiliate_id = ${read.affiliateId}`,
      sql`created_at >= ${read.from}`,
      sql`created_at < ${read.to}`,
      ...this.common(read, 'click_country'),
      ...(read.currency !== undefined ? [sql`currency = ${read.currency}`] : []),
      ...Object.entries(read.subIds ?? {}).map(([name, value]) => sql`${sql.ref(name)} = ${value}`),
      ...(read.by === 'hour' ? [] : [sql`${group} is not null`]),
    ];
    const sums = ORDER_SUM_SQL.map((expression, i) => sql`${sql.raw(expression)} as ${sql.ref(ORDER_SUMS[i]!)}`);
    const { rows } = await sql<Record<string, unknown>>`select ${group} as value, currency, ${sql.join(sums)} from orders
      where ${sql.join(where, sql` and `)} group by ${group}, currency
      having ${sql.join(ORDER_SUM_SQL.map((expression) => sql`${sql.raw(expression)} <> 0`), sql` or `)}
      order by ${sql.ref(orderBy)} desc, value, currency ${read.limit === undefined ? sql`` : sql`limit ${read.limit}`}`.execute(this.database.db);
    return rows.map((row) => ({ value: hourOrValue(read, row.value), currency: String(row.currency), ...numbers(row, ORDER_SUMS) }));
  }

  /** The key filters clicks and orders share; `country`: the column of the click's country. */
  private common(read: SubIdRead, country: 'country' | 'click_country'): RawBuilder<unknown>[] {
    return [
      ...(read.organizationId !== undefined ? [sql`organization_id = ${read.organizationId}`] : []),
      ...(read.linkId !== undefined ? [sql`link_id = ${read.linkId}`] : []),
      ...(read.channelId !== undefined ? [sql`channel_id = ${read.channelId}`] : []),
      ...(read.country !== undefined ? [sql`${sql.ref(country)} = ${read.country}`] : []),
    ];
  }
}

/** A group's value: the hour as rollup rows key it ('YYYY-MM-DDTHH' read), or the sub-id. */
const hourOrValue = (read: SubIdRead, value: unknown): string => (read.by === 'hour' ? `${String(value)}:00:00.000Z` : String(value));
