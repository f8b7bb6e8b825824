// What the brand-scores task reads (orders reported since a moment, the daily click rollups since a
// day) and writes (each brand's scores beside its ratings).
import { sql } from 'kysely';
import type { Database } from '../database.js';
import type { BrandsTable } from '../tables.js';

/** One brand's orders reported in the window; money in cents of the brand's currency. */
export interface BrandOrderFacts {
  brandId: string;
  currency: string;
  /** Every order reported in the window, whatever its status. */
  orders: number;
  /** Those attributed to a click (not a coupon or a claim). */
  clickOrders: number;
  approved: number;
  canceled: number;
  /** Orders neither canceled nor with a canceled commission, in the brand's currency, and their commission. */
  paying: number;
  commission: number;
}

/** A decided order of the window: when it was reported and when it was approved or canceled. */
export interface DecisionTime {
  brandId: string;
  reportedAt: string;
  decidedAt: string;
}

export interface BrandClickFacts {
  brandId: string;
  /** Counted clicks on the brand's links. */
  counted: number;
  /** Affiliates with at least one counted click on the brand. */
  affiliates: number;
}

export type BrandScoreColumns = Pick<
  BrandsTable,
  'rating_approval' | 'rating_commission' | 'rating_conversion' | 'rating_popularity' | 'rating_validation'
> & { ratings_absent: number; epc_cents: number | null; median_decision_seconds: number | null; scores_computed_at: string };

const num = (value: unknown) => Number(value ?? 0);

export class BrandScoresRepository {
  constructor(private readonly database: Database) {}

  /** Every brand's id and currency (brands with no order in the window are judged too). */
  async brands(): Promise<Array<{ id: string; currency: string }>> {
    return this.database.db.selectFrom('brands').select(['id', 'currency']).orderBy('id').execute();
  }

  /** Per brand with orders reported at or after `since`: their counts and paying commission. */
  async orderFacts(since: string): Promise<BrandOrderFacts[]> {
    const rows = await this.database.db
      .selectFrom('orders')
      .innerJoin('brands', 'brands.id', 'orders.organization_id')
      .select([
        'orders.organization_id as brand_id',
        'brands.currency as currency',
        sql<number>`count(*)`.as('orders'),
        sql<number>`sum(case when orders.attribution = 'click' then 1 else 0 end)`.as('click_orders'),
        sql<number>`sum(case when orders.status = 'approved' then 1 else 0 end)`.as('approved'),
        sql<number>`sum(case when orders.status = 'canceled' then 1 else 0 end)`.as('canceled'),
        sql<number>`sum(case when orders.status <> 'canceled' and orders.commission_status <> 'canceled' and orders.currency = brands.currency then 1 else 0 end)`.as('paying'),
        sql<number>`sum(case when orders.status <> 'canceled' and orders.commission_status <> 'canceled' and orders.currency = brands.currency then orders.commission else 0 end)`.as('commission'),
      ])
      .where('orders.created_at', '>=', since)
      .groupBy(['orders.organization_id', 'brands.currency'])
      .execute();
    return rows.map((r) => ({
      brandId: r.brand_id,
      currency: r.currency,
      orders: num(r.orders),
      clickOrders: num(r.click_orders),
      approved: num(r.approved),
      canceled: num(r.canceled),
      paying: num(r.paying),
      commission: num(r.commission),
    }));
  }

  /**
   * Orders reported at or after `since` and decided (approved or canceled, by the brand, at their
   * lock date or from the start): their report and the first decision in their audit trail.
   */
  async decisionTimes(since: string): Promise<DecisionTime[]> {
    const rows = await this.database.db
      .selectFrom('orders')
      .innerJoin('order_events as e', 'e.order_id', 'orders.id')
      .select(['orders.organization_id as brand_id', 'orders.created_at as reported_at', (eb) => eb.fn.min('e.created_at').as('decided_at')])
      .where('orders.created_at', '>=', since)
      .where('orders.status', 'in', ['approved', 'canceled'])
      .where('e.field', 'in', ['status', 'created'])
      .where('e.to_value', 'in', ['approved', 'canceled'])
      .groupBy(['orders.id', 'orders.organization_id', 'orders.created_at'])
      .execute();
    return rows.map((r) => ({ brandId: r.brand_id, reportedAt: r.reported_at, decidedAt: String(r.decided_at) }));
  }

  /** Per brand, from the daily rollups of the days from `sinceDay` (a UTC 00:00) on: counted clicks and affiliates with some. */
  async clickFacts(sinceDay: string): Promise<BrandClickFacts[]> {
    const { db } = this.database;
    const daily = db
      .selectFrom('click_rollups_daily')
      .where('link_id', '=', '')
      .where('dimension', '=', 'all')
      .where('value', '=', '')
      .where('organization_id', '<>', '')
      .where('hour', '>=', sinceDay);
    const clicks = await daily.select(['organization_id', (eb) => eb.fn.sum<number>('counted').as('counted')]).where('affiliate_id', '=', '').groupBy('organization_id').execute();
    const affiliates = await db
      .selectFrom(
        daily
          .select(['organization_id', 'affiliate_id'])
          .where('affiliate_id', '<>', '')
          .groupBy(['organization_id', 'affiliate_id'])
          .having((eb) => eb.fn.sum('counted'), '>', 0)
          .as('a'),
      )
      .select(['a.organization_id', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('a.organization_id')
      .execute();
    const byBrand = new Map<string, BrandClickFacts>();
    for (const r of clicks) byBrand.set(r.organization_id, { brandId: r.organization_id, counted: num(r.counted), affiliates: 0 });
    for (const r of affiliates) {
      const facts = byBrand.get(r.organization_id) ?? { brandId: r.organization_id, counted: 0, affiliates: 0 };
      facts.affiliates = num(r.n);
      byBrand.set(r.organization_id, facts);
    }
    return [...byBrand.values()];
  }

  async save(brandId: string, columns: BrandScoreColumns): Promise<void> {
    await this.database.db.updateTable('brands').set(columns).where('id', '=', brandId).execute();
  }

  /** Whether the task has judged the brand (its imported ratings are then ignored). */
  async computed(brandId: string): Promise<boolean> {
    const row = await this.database.db.selectFrom('brands').select('scores_computed_at').where('id', '=', brandId).executeTakeFirst();
    return Boolean(row?.scores_computed_at);
  }
}
