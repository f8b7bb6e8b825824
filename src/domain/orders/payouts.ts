// The affiliate's payouts as it reads them: each one's status, destination (masked) and dates,
// with the orders it paid. Payout runs (src/domain/ledger/payout-runs.ts) make them.
import type { Payout } from '../../schemas/payout.js';
import type { Order } from '../../schemas/order.js';
import type { AffiliatesRepository } from '../../storage/repositories/affiliates.js';
import type { BrandsRepository } from '../../storage/repositories/brands.js';
import type { OrdersRepository } from '../../storage/repositories/orders.js';
import type { PayoutsRepository } from '../../storage/repositories/payouts.js';
import type { PayoutRow } from '../../storage/tables.js';
import { notFound } from '../errors.js';
import { offsetOf, type PageRequest, type Paged } from '../paging.js';
import { channelRefsOf, brandNamesOf, orderOf } from './orders.js';

export function payoutOf(row: PayoutRow): Payout {
  return {
    id: row.id,
    affiliateId: row.affiliate_id,
    currency: row.currency,
    periodStart: row.period_start,
    periodEnd: row.period_end,
    total: Number(row.total),
    orderCount: row.order_count,
    adjustmentTotal: Number(row.adjustment_total),
    status: row.status,
    createdAt: row.created_at,
    // A field without a value is left out, never null.
    ...(row.method !== null && { method: row.method }),
    ...(row.sent_at !== null && { sentAt: row.sent_at }),
    ...(row.settled_at !== null && { settledAt: row.settled_at }),
    ...(row.failed_at !== null && { failedAt: row.failed_at }),
    ...(row.failure_reason !== null && { failureReason: row.failure_reason }),
  };
}

export interface PayoutRepositories {
  affiliates: AffiliatesRepository;
  brands: BrandsRepository;
  orders: OrdersRepository;
  payouts: PayoutsRepository;
}

export class PayoutsService {
  constructor(
    private readonly repositories: PayoutRepositories,
  ) {}

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
    const brandNames = await brandNamesOf(this.repositories.brands, rows);
    return { payout: payoutOf(row), orders: { items: rows.map((order) => orderOf(order, channels, brandNames)), total } };
  }
}
