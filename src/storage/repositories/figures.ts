// The network's orders over a range as its operators total them: per period, per brand or
// affiliate, per currency, summed in SQL (never a row per order back to the service), with the
// network's fee on each order's commission as statements compute it.
import { sql } from 'kysely';
import type { Database } from '../database.js';

/** Orders of one currency (and period, and brand or affiliate, as asked) reported in a range. */
export interface OrderTotals {
  /** YYYY-MM-DD or YYYY-MM, when summed per period. */
  period?: string;
  /** The brand's or affiliate's id, when summed per member. */
  memberId?: string;
  currency: string;
  orders: number;
  /** Value of the orders not canceled, in cents. */
  sales: number;
  /** Commission not canceled, in cents. */
  commission: number;
  /**
   * The network's fee on that commission, in cents: per order, what its statement line billed,
   * or, not billed yet, the brand's fee now (basis points of the commission, rounded half up to
   * the cent, as a statement computes each line).
   */
  fee: number;
  /** Orders whose commission was canceled. */
  declined: number;
  /** Orders whose commission was ever held by the fraud rules. */
  held: number;
}

/** Ids bound in one `in (…)` list: below SQLite's oldest limit of 999 parameters. */
const CHUNK = 500;

export class FiguresRepository {
  constructor(private readonly database: Database) {}

  /**
   * The orders reported in [from, to), per currency, and per period (`day`: YYYY-MM-DD, `month`:
   * YYYY-MM) and per brand or affiliate when asked; by period, member and currency.
   */
  async orders(from: string, to: string, by: { period?: 'day' | 'month'; member?: 'brand' | 'affiliate' }): Promise<OrderTotals[]> {
    const period = by.period === undefined ? undefined : sql<string>`substr(o.created_at, 1, ${sql.lit(by.period === 'day' ? 10 : 7)})`;
    const member = by.member === undefined ? undefined : by.member === 'brand' ? ('o.organization_id' as const) : ('o.affiliate_id' as const);
    // lineFee() of the statements, in SQL: integer division truncates in both databases, as BigInt does.
    const ownFee = sql<number>`(o.commission * b.fee_basis_points + 5000) / 10000`;
    const rows = await this.database.db
      .selectFrom('orders as o')
      .innerJoin('brands as b', 'b.id', 'o.organization_id')
      .leftJoin('statement_lines as l', 'l.order_id', 'o.id')
      .select((eb) => [
        'o.currency',
        eb.fn.countAll<number>().as('orders'),
        eb.fn.sum<number>(eb.case().when('o.status', '=', 'canceled').then(0).else(eb.ref('o.value')).end()).as('sales'),
        eb.fn.sum<number>(eb.case().when('o.commission_status', '=', 'canceled').then(0).else(eb.ref('o.commission')).end()).as('commission'),
        eb.fn.sum<number>(eb.case().when('o.commission_status', '=', 'canceled').then(0).else(eb.fn.coalesce('l.fee', ownFee)).end()).as('fee'),
        eb.fn.sum<number>(eb.case().when('o.commission_status', '=', 'canceled').then(1).else(0).end()).as('declined'),
        eb.fn.sum<number>(eb.case().when('o.hold_reasons', 'is not', null).then(1).else(0).end()).as('held'),
      ])
      .where('o.created_at', '>=', from)
      .where('o.created_at', '<', to)
      .$if(period !== undefined, (q) => q.select(period!.as('period')).groupBy(period!).orderBy(period!))
      .$if(member !== undefined, (q) => q.select(`${member!} as member_id`).groupBy(member!).orderBy(member!))
      .groupBy('o.currency')
      .orderBy('o.currency')
      .execute();
    return rows.map((r) => ({
      ...(period && { period: String(r.period) }),
      ...(member && { memberId: String(r.member_id) }),
      currency: r.currency,
      orders: Number(r.orders),
      sales: Number(r.sales ?? 0),
      commission: Number(r.commission ?? 0),
      fee: Number(r.fee ?? 0),
      declined: Number(r.declined ?? 0),
      held: Number(r.held ?? 0),
    }));
  }

  /** The names of these brands or affiliates (ids not found are left out). */
  async names(members: 'brand' | 'affiliate', ids: readonly string[]): Promise<Array<{ id: string; name: string }>> {
    const out: Array<{ id: string; name: string }> = [];
    for (let i = 0; i < ids.length; i += CHUNK) {
      const chunk = ids.slice(i, i + CHUNK);
      out.push(
        ...(await this.database.db
          .selectFrom(members === 'brand' ? 'brands' : 'affiliates')
          .select(['id', 'name'])
          .where('id', 'in', chunk)
          .execute()),
      );
    }
    return out;
  }
}
