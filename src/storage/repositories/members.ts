// The network's members as its operators look them up: affiliates and brands found by id or name,
// and each one's orders over a range, summed per currency.
import type { Database } from '../database.js';
import { pageWithTotal, type Page, type PageWindow } from './pages.js';

export type Member = { affiliateId: string } | { brandId: string };

export interface MemberRow {
  id: string;
  name: string;
  created_at: string;
  /** When the network suspended the member, and why; null while it is active. */
  suspended_at: string | null;
  suspension_reason: string | null;
}

const MEMBER_COLUMNS = ['id', 'name', 'created_at', 'suspended_at', 'suspension_reason'] as const;

export interface OrderFigures {
  currency: string;
  orders: number;
  /** Value of the orders not canceled, in cents. */
  sales: number;
  /** Commission of the orders not canceled, in cents. */
  commission: number;
  /** Orders whose commission was approved (approved, payable or paid). */
  approved: number;
  canceled: number;
}

/** Contains `text`, without regard to case (lower() on both sides: LIKE is case-sensitive on PostgreSQL). */
const like = (text: string) => `%${text.toLowerCase().replace(/[%_\\]/g, '')}%`;

export class MembersRepository {
  constructor(private readonly database: Database) {}

  /** A page of affiliates whose id or name contains `search` (all without one), by name. */
  affiliates(search: string | undefined, page: PageWindow): Promise<Page<MemberRow>> {
    return this.search('affiliates', search, page);
  }

  /** One affiliate, by id. */
  affiliate(id: string): Promise<MemberRow | undefined> {
    return this.database.db.selectFrom('affiliates').select(MEMBER_COLUMNS).where('id', '=', id).executeTakeFirst();
  }

  /** A page of brands whose id or name contains `search` (all without one), by name. */
  brands(search: string | undefined, page: PageWindow): Promise<Page<MemberRow>> {
    return this.search('brands', search, page);
  }

  private search(table: 'affiliates' | 'brands', search: string | undefined, page: PageWindow): Promise<Page<MemberRow>> {
    const filtered = () => {
      const q = this.database.db.selectFrom(table);
      return search ? q.where((eb) => eb.or([eb(eb.fn('lower', ['id']), 'like', like(search)), eb(eb.fn('lower', ['name']), 'like', like(search))])) : q;
    };
    return pageWithTotal(
      this.database,
      filtered().select(MEMBER_COLUMNS).orderBy('name').orderBy('id').limit(page.limit).offset(page.offset).execute(),
      filtered().select((eb) => eb.fn.countAll<number>().as('n')),
    );
  }

  /** A member's orders reported from `from` to before `to`, summed per currency. */
  async orders(member: Member, from: string, to: string): Promise<OrderFigures[]> {
    let q = this.database.db.selectFrom('orders');
    q = 'affiliateId' in member ? q.where('affiliate_id', '=', member.affiliateId) : q.where('organization_id', '=', member.brandId);
    const rows = await q
      .select((eb) => [
        'currency',
        eb.fn.countAll<number>().as('orders'),
        eb.fn.sum<number>(eb.case().when('status', '=', 'canceled').then(0).else(eb.ref('value')).end()).as('sales'),
        eb.fn.sum<number>(eb.case().when('commission_status', '=', 'canceled').then(0).else(eb.ref('commission')).end()).as('commission'),
        eb.fn.sum<number>(eb.case().when('commission_status', 'in', ['approved', 'payable', 'paid']).then(1).else(0).end()).as('approved'),
        eb.fn.sum<number>(eb.case().when('commission_status', '=', 'canceled').then(1).else(0).end()).as('canceled'),
      ])
      .where('created_at', '>=', from)
      .where('created_at', '<', to)
      .groupBy('currency')
      .orderBy('currency')
      .execute();
    return rows.map((r) => ({ currency: r.currency, orders: Number(r.orders), sales: Number(r.sales ?? 0), commission: Number(r.commission ?? 0), approved: Number(r.approved ?? 0), canceled: Number(r.canceled ?? 0) }));
  }
}
