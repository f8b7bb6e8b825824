import type { CommissionReason, Order, OrderItem } from '../../schemas/order.js';
import { pageOf, type Pagination } from '../../schemas/common.js';
import type { Database } from '../../storage/database.js';
import type { OrderRow } from '../../storage/schema.js';
import { findOrders, listOrders, type OrderFilters } from '../../storage/repositories/orders.js';
import { notFound } from '../errors.js';

export function orderOf(row: OrderRow): Order {
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
    mdasc: row.mdasc,
  };
}

export type OrderEnvelope = { data: Order; meta: Pagination };

/** The spec's envelope: one { data, meta } element per order, each carrying the page metadata. */
export async function listOrdersFor(database: Database, affiliateId: string, filters: OrderFilters, page: number, limit: number): Promise<{ items: OrderEnvelope[]; total: number }> {
  const { rows, total } = await listOrders(database, affiliateId, filters, { limit, offset: (page - 1) * limit });
  const meta = pageOf(total, page, limit);
  return { items: rows.map((row) => ({ data: orderOf(row), meta })), total };
}

export async function getOrdersFor(database: Database, affiliateId: string, id: string): Promise<OrderEnvelope[]> {
  const rows = await findOrders(database, affiliateId, id);
  if (rows.length === 0) throw notFound('Order not found');
  const meta = pageOf(rows.length, 1, rows.length);
  return rows.map((row) => ({ data: orderOf(row), meta }));
}
