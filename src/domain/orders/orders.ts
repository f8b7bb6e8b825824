// Orders as the affiliate sees them: the spec's fields, the facts that let it reconcile each one
// (link, channel, click, payout) and its balance per currency.
import type { CommissionReason, Order, OrderItem } from '../../schemas/order.js';
import { pageOf, type Pagination } from '../../schemas/common.js';
import type { Database } from '../../storage/database.js';
import { commissionTotals, findOrders, listOrders, type OrderFilters } from '../../storage/repositories/orders.js';
import { channelsOf } from '../../storage/repositories/channels.js';
import type { OrderRow } from '../../storage/tables.js';
import type { ChannelRef } from '../../schemas/channel.js';
import { notFound } from '../errors.js';
import { CommissionStatuses } from '../../schemas/order.js';
import type { CommissionStatus } from './lifecycle.js';

/** The affiliate's channels by id (a handful), for the channel of each order. */
export async function channelRefsOf(database: Database, affiliateId: string): Promise<Map<string, ChannelRef>> {
  return new Map((await channelsOf(database, affiliateId)).map((c) => [c.id, { id: c.id, name: c.name, kind: c.kindId }]));
}

export function orderOf(row: OrderRow, channels: ReadonlyMap<string, ChannelRef>): Order {
  const channel = row.channel_id === null ? undefined : channels.get(row.channel_id);
  // Fields without a value are omitted, never null (see docs/decisions.md).
  return {
    id: row.id,
    orderId: row.order_id,
    status: row.status as Order['status'],
    value: row.value,
    createdAt: row.created_at,
    commission: row.commission,
    commissionStatus: row.commission_status as Order['commissionStatus'],
    // Omitted, not null, when the commission was not canceled for its click.
    ...(row.commission_reason ? { commissionReason: row.commission_reason as CommissionReason } : {}),
    items: JSON.parse(row.items) as OrderItem[],
    organizationId: row.organization_id,
    ...(row.mdasc !== null && { mdasc: row.mdasc }),
    currency: row.currency,
    ...(row.click_id !== null && { clickId: row.click_id }),
    ...(row.click_created_at !== null && { clickedAt: row.click_created_at }),
    ...(row.link_code !== null && { linkCode: row.link_code }),
    ...(channel !== undefined && { channel }),
    ...(row.paid_at !== null && { paidAt: row.paid_at }),
    ...(row.payout_id !== null && { payoutId: row.payout_id }),
  };
}

export type OrderEnvelope = { data: Order; meta: Pagination };

/** The spec's envelope: one { data, meta } element per order, each carrying the page metadata. */
export async function listOrdersFor(database: Database, affiliateId: string, filters: OrderFilters, page: number, limit: number): Promise<{ items: OrderEnvelope[]; total: number }> {
  const [{ rows, total }, channels] = await Promise.all([
    listOrders(database, affiliateId, filters, { limit, offset: (page - 1) * limit }),
    channelRefsOf(database, affiliateId),
  ]);
  const meta = pageOf(total, page, limit);
  return { items: rows.map((row) => ({ data: orderOf(row, channels), meta })), total };
}

export async function getOrdersFor(database: Database, affiliateId: string, id: string): Promise<OrderEnvelope[]> {
  const [rows, channels] = await Promise.all([findOrders(database, affiliateId, id), channelRefsOf(database, affiliateId)]);
  if (rows.length === 0) throw notFound('Order not found');
  const meta = pageOf(rows.length, 1, rows.length);
  return rows.map((row) => ({ data: orderOf(row, channels), meta }));
}

export type Balance = { currency: string } & Record<CommissionStatus, { commission: number; orders: number }>;

/** Commission totals per currency (never summed across currencies), every status present. */
export async function balanceFor(database: Database, affiliateId: string, filters: Pick<OrderFilters, 'organizationIds' | 'from' | 'to'>): Promise<Balance[]> {
  const byCurrency = new Map<string, Balance>();
  for (const row of await commissionTotals(database, affiliateId, filters)) {
    let balance = byCurrency.get(row.currency);
    if (!balance) {
      balance = { currency: row.currency } as Balance;
      for (const status of CommissionStatuses) balance[status] = { commission: 0, orders: 0 };
      byCurrency.set(row.currency, balance);
    }
    balance[row.commission_status as CommissionStatus] = { commission: row.commission, orders: row.orders };
  }
  return [...byCurrency.values()];
}
