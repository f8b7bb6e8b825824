// Operators pay affiliates: every approved commission of orders created up to a date is paid in
// a payout, one per currency (amounts in different currencies are never added together).
import type { Payout } from '../../schemas/payout.js';
import type { Order } from '../../schemas/order.js';
import type { Clock } from '../../lib/clock.js';
import type { AffiliatesRepository } from '../../storage/repositories/affiliates.js';
import type { OrdersRepository } from '../../storage/repositories/orders.js';
import type { PayoutsRepository } from '../../storage/repositories/payouts.js';
import type { PayoutRow } from '../../storage/tables.js';
import { notFound } from '../errors.js';
import { offsetOf, type PageRequest, type Paged } from '../paging.js';
import { newId } from '../random.js';
import { requireAffiliate } from '../access/require.js';
import { webhookEvent } from '../webhooks/events.js';
import { channelRefsOf, orderOf } from './orders.js';

export function payoutOf(row: PayoutRow): Payout {
  return {
    id: row.id,
    affiliateId: row.affiliate_id,
    currency: row.currency,
    periodStart: row.period_start,
    periodEnd: row.period_end,
    total: row.total,
    orderCount: row.order_count,
    createdAt: row.created_at,
  };
}

/** What a payment run pays: per currency, the orders, their total and the period they span. */
export interface PaymentPlan {
  until: string;
  payouts: Array<Pick<Payout, 'currency' | 'total' | 'orderCount' | 'periodStart' | 'periodEnd'> & { id?: string }>;
}

export interface PayoutRepositories {
  affiliates: AffiliatesRepository;
  orders: OrdersRepository;
  payouts: PayoutsRepository;
}

export class PayoutsService {
  constructor(
    private readonly repositories: PayoutRepositories,
    private readonly clock: Clock,
  ) {}

  /**
   * Pays the approved commissions of orders created up to `until` (a UTC instant; default now).
   * Running it again, or twice at the same time, never pays an order twice.
   */
  async pay(affiliateId: string, until?: string): Promise<PaymentPlan> {
    const { now, limit } = await this.bounds(affiliateId, until);
    const rows = await this.repositories.payouts.create(affiliateId, limit, 'operator', now, newId, (payouts) =>
      payouts.map((payout) => webhookEvent({ kind: 'affiliate', id: affiliateId }, 'payout.created', payoutOf(payout), this.clock)),
    );
    return { until: limit, payouts: rows.map(payoutOf) };
  }

  /** What pay() would pay, without paying. */
  async plan(affiliateId: string, until?: string): Promise<PaymentPlan> {
    const { limit } = await this.bounds(affiliateId, until);
    const due = await this.repositories.payouts.payable(affiliateId, limit);
    return { until: limit, payouts: due.map((d) => ({ currency: d.currency, total: d.total, orderCount: d.orders, periodStart: d.first, periodEnd: d.last })) };
  }

  /** The affiliate's payouts, newest first (createdAt, then id). */
  async list(affiliateId: string, page: PageRequest): Promise<Paged<Payout>> {
    const { rows, total } = await this.repositories.payouts.list(affiliateId, offsetOf(page));
    return { items: rows.map(payoutOf), total };
  }

  /** One payout of the affiliate with a page of the orders it paid (newest first). */
  async get(affiliateId: string, id: string, page: PageRequest): Promise<{ payout: Payout; orders: Paged<Order> }> {
    const row = await this.repositories.payouts.find(affiliateId, id);
    if (!row) throw notFound(`payout "${id}" not found among your payouts`, 'payout_not_found');
    const [{ rows, total }, channels] = await Promise.all([
      this.repositories.orders.list(affiliateId, { payoutId: id }, offsetOf(page)),
      channelRefsOf(this.repositories.affiliates, affiliateId),
    ]);
    return { payout: payoutOf(row), orders: { items: rows.map((order) => orderOf(order, channels)), total } };
  }

  private async bounds(affiliateId: string, until: string | undefined): Promise<{ now: string; limit: string }> {
    await requireAffiliate(this.repositories.affiliates, affiliateId);
    const now = this.clock.iso();
    return { now, limit: until ?? now };
  }
}
