// Operators pay affiliates: every approved commission of orders created up to a date is paid in
// a payout, one per currency (amounts in different currencies are never added together).
import type { Database } from '../../storage/database.js';
import type { PayoutRow } from '../../storage/tables.js';
import type { Payout } from '../../schemas/payout.js';
import { pageOf, type Pagination } from '../../schemas/common.js';
import { requireAffiliate } from '../access/affiliates.js';
import { createPayouts, findPayout, listPayouts, payableCommissions } from '../../storage/repositories/payouts.js';
import { listOrders } from '../../storage/repositories/orders.js';
import { notFound } from '../errors.js';
import { newId } from '../random.js';
import { nowIso } from '../time.js';
import { channelRefsOf, orderOf } from './orders.js';
import type { Order } from '../../schemas/order.js';

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

async function bounds(database: Database, affiliateId: string, until: string | undefined): Promise<{ now: string; limit: string }> {
  await requireAffiliate(database, affiliateId);
  const now = nowIso();
  return { now, limit: until ?? now };
}

/**
 * Pays the approved commissions of orders created up to `until` (a UTC instant; default now).
 * Running it again, or twice at the same time, never pays an order twice.
 */
export async function payCommissions(database: Database, affiliateId: string, until?: string): Promise<PaymentPlan> {
  const { now, limit } = await bounds(database, affiliateId, until);
  const rows = await createPayouts(database, affiliateId, limit, 'operator', now, newId);
  return { until: limit, payouts: rows.map(payoutOf) };
}

/** What payCommissions would pay, without paying. */
export async function planPayment(database: Database, affiliateId: string, until?: string): Promise<PaymentPlan> {
  const { limit } = await bounds(database, affiliateId, until);
  const due = await payableCommissions(database, affiliateId, limit);
  return { until: limit, payouts: due.map((d) => ({ currency: d.currency, total: d.total, orderCount: d.orders, periodStart: d.first, periodEnd: d.last })) };
}

export async function listPayoutsFor(database: Database, affiliateId: string, page: number, limit: number): Promise<{ data: Payout[]; meta: Pagination }> {
  const { rows, total } = await listPayouts(database, affiliateId, { limit, offset: (page - 1) * limit });
  return { data: rows.map(payoutOf), meta: pageOf(total, page, limit) };
}

/** One payout of the affiliate with a page of the orders it paid (newest first). */
export async function getPayoutFor(
  database: Database,
  affiliateId: string,
  id: string,
  page: number,
  limit: number,
): Promise<{ data: Payout & { orders: Order[] }; meta: Pagination }> {
  const row = await findPayout(database, affiliateId, id);
  if (!row) throw notFound(`payout "${id}" not found among your payouts`, 'payout_not_found');
  const [{ rows, total }, channels] = await Promise.all([
    listOrders(database, affiliateId, { payoutId: id }, { limit, offset: (page - 1) * limit }),
    channelRefsOf(database, affiliateId),
  ]);
  return { data: { ...payoutOf(row), orders: rows.map((order) => orderOf(order, channels)) }, meta: pageOf(total, page, limit) };
}
