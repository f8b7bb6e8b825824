// What the fraud rules read when a conversion is reported (counts from the orders and the daily
// click rollups, never a scan of raw clicks), and the operator's review queue of held orders.
import type { Database } from '../database.js';
import type { OrderRow } from '../tables.js';
import { pageWithTotal, type Page, type PageWindow } from './pages.js';
import { NETWORK_DIMENSION } from '../../lib/rollup-layout.js';

export interface HeldFilters {
  affiliateId?: string;
  brandId?: string;
}

/** An affiliate's orders, all brands: how many per commission status, and how many were held or declined as fraud. */
export interface AffiliateRecord {
  byStatus: Array<{ commission_status: string; orders: number }>;
  everHeld: number;
  fraudDeclined: number;
}

const num = (value: unknown) => Number(value ?? 0);

export class HoldsRepository {
  constructor(private readonly database: Database) {}

  /** Counted clicks of the affiliate in the UTC day `day` (its 00:00), on one brand or on all. */
  async countedClicksOfDay(affiliateId: string, brandId: string | undefined, day: string): Promise<number> {
    const row = await this.database.db
      .selectFrom('click_rollups_daily')
      .select('counted')
      .where('affiliate_id', '=', affiliateId)
      .where('organization_id', '=', brandId ?? '')
      .where('link_id', '=', '')
      .where('dimension', '=', 'all')
      .where('hour', '=', day)
      .where('value', '=', '')
      .executeTakeFirst();
    return num(row?.counted);
  }

  /** The affiliate's counted clicks of the UTC day `day` per network (autonomous system number; 0: unknown). */
  async countedClicksByNetwork(affiliateId: string, day: string): Promise<Array<{ asn: number; counted: number }>> {
    const rows = await this.database.db
      .selectFrom('click_rollups_daily')
      .select(['value', 'counted'])
      .where('affiliate_id', '=', affiliateId)
      .where('organization_id', '=', '')
      .where('link_id', '=', '')
      .where('dimension', '=', NETWORK_DIMENSION)
      .where('hour', '=', day)
      .execute();
    return rows.map((r) => ({ asn: Number(r.value), counted: num(r.counted) }));
  }

  /** Orders of the affiliate on the brand attributed by a click, placed in [from, to); `except` (a network order id) not counted. */
  async clickConversionsBetween(affiliateId: string, brandId: string, from: string, to: string, except?: string): Promise<number> {
    const row = await this.database.db
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('affiliate_id', '=', affiliateId)
      .where('organization_id', '=', brandId)
      .where('created_at', '>=', from)
      .where('created_at', '<', to)
      .where('click_id', 'is not', null)
      // A coupon's order may carry a click it was not earned by.
      .where('attribution', '<>', 'coupon')
      .$if(except !== undefined, (q) => q.where('id', '<>', except!))
      .executeTakeFirst();
    return num(row?.n);
  }

  /** Orders stored for the click; `except` (a network order id) not counted. */
  async conversionsOfClick(clickId: string, except?: string): Promise<number> {
    const row = await this.database.db
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('click_id', '=', clickId)
      .where('attribution', '<>', 'coupon')
      .$if(except !== undefined, (q) => q.where('id', '<>', except!))
      .executeTakeFirst();
    return num(row?.n);
  }

  /** A page of held orders, the longest held first, and the total. */
  held(f: HeldFilters, page: PageWindow): Promise<Page<OrderRow>> {
    const filtered = () => {
      let q = this.database.db.selectFrom('orders').where('commission_status', '=', 'held');
      if (f.affiliateId) q = q.where('affiliate_id', '=', f.affiliateId);
      if (f.brandId) q = q.where('organization_id', '=', f.brandId);
      return q;
    };
    return pageWithTotal(
      this.database,
      filtered().selectAll().orderBy('updated_at').orderBy('id').limit(page.limit).offset(page.offset).execute(),
      filtered().select((eb) => eb.fn.countAll<number>().as('n')),
    );
  }

  /** Orders by network id (those that exist). */
  byIds(ids: readonly string[]): Promise<OrderRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.database.db.selectFrom('orders').selectAll().where('id', 'in', ids).execute();
  }

  /** The affiliate's record over all its orders. */
  async recordOf(affiliateId: string): Promise<AffiliateRecord> {
    const [byStatus, flags] = await Promise.all([
      this.database.db
        .selectFrom('orders')
        .select((eb) => ['commission_status', eb.fn.countAll<number>().as('orders')])
        .where('affiliate_id', '=', affiliateId)
        .groupBy('commission_status')
        .orderBy('commission_status')
        .execute(),
      this.database.db
        .selectFrom('orders')
        .select((eb) => [
          eb.fn.sum<number>(eb.case().when('hold_reasons', 'is not', null).then(1).else(0).end()).as('held'),
          eb.fn.sum<number>(eb.case().when('commission_reason', '=', 'fraud_declined').then(1).else(0).end()).as('declined'),
        ])
        .where('affiliate_id', '=', affiliateId)
        .executeTakeFirst(),
    ]);
    return { byStatus: byStatus.map((r) => ({ commission_status: r.commission_status, orders: num(r.orders) })), everHeld: num(flags?.held), fraudDeclined: num(flags?.declined) };
  }
}
