import type { Database } from '../database.js';
import { countOf } from './totals.js';
import type { NewOrderRow, OrderRow } from '../tables.js';

export interface OrderFilters {
  organizationIds?: string[];
  withMdasc?: boolean;
  from?: string;
  to?: string;
  statuses?: string[];
  commissionStatuses?: string[];
  payoutId?: string;
}

function filtered(database: Database, affiliateId: string, f: OrderFilters) {
  let q = database.db.selectFrom('orders').where('affiliate_id', '=', affiliateId);
  if (f.organizationIds?.length) q = q.where('organization_id', 'in', f.organizationIds);
  if (f.withMdasc) q = q.where('mdasc', 'is not', null).where('mdasc', '<>', '');
  if (f.from) q = q.where('created_at', '>=', f.from);
  if (f.to) q = q.where('created_at', '<=', f.to);
  if (f.statuses?.length) q = q.where('status', 'in', f.statuses);
  if (f.commissionStatuses?.length) q = q.where('commission_status', 'in', f.commissionStatuses);
  if (f.payoutId) q = q.where('payout_id', '=', f.payoutId);
  return q;
}

/** The affiliate's commissions added up per currency and commission status (orders and cents). */
export async function commissionTotals(
  database: Database,
  affiliateId: string,
  f: Pick<OrderFilters, 'organizationIds' | 'from' | 'to'>,
): Promise<Array<{ currency: string; commission_status: string; orders: number; commission: number }>> {
  const rows = await filtered(database, affiliateId, f)
    .select((eb) => ['currency', 'commission_status', eb.fn.countAll<number>().as('orders'), eb.fn.sum<number>('commission').as('commission')])
    .groupBy(['currency', 'commission_status'])
    .orderBy('currency')
    .orderBy('commission_status')
    .execute();
  // PostgreSQL sums bigints as numeric, which arrives as text.
  return rows.map((r) => ({ ...r, orders: Number(r.orders), commission: Number(r.commission) }));
}

/** A page of the affiliate's orders, newest first (id breaks ties), and the total. */
export async function listOrders(
  database: Database,
  affiliateId: string,
  filters: OrderFilters,
  page: { limit: number; offset: number },
): Promise<{ rows: OrderRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    filtered(database, affiliateId, filters).selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute(),
    countOf(database, filtered(database, affiliateId, filters).select((eb) => eb.fn.countAll<number>().as('n'))),
  ]);
  return { rows, total: count };
}

/** The affiliate's orders whose network id or brand order id is `id`. */
export async function findOrders(database: Database, affiliateId: string, id: string): Promise<OrderRow[]> {
  return database.db
    .selectFrom('orders')
    .selectAll()
    .where('affiliate_id', '=', affiliateId)
    .where((eb) => eb.or([eb('id', '=', id), eb('order_id', '=', id)]))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export async function insertOrder(database: Database, order: NewOrderRow): Promise<void> {
  await database.db.insertInto('orders').values(order).execute();
}

/** One entry of the audit trail: who changed what, when, from which value to which. */
export interface OrderEvent {
  field: 'created' | 'status' | 'commissionStatus';
  from: string | null;
  to: string;
}

/**
 * Inserts the order unless the brand already reported this order id; either way returns the
 * stored order. The insert and its audit entry are one transaction, and the unique index on
 * (brand, order id) makes concurrent reports of one order produce exactly one row.
 */
export async function createOrderOnce(database: Database, order: NewOrderRow, actor: string, now: string): Promise<{ created: boolean; row: OrderRow }> {
  const created = await database.db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('orders')
      .values(order)
      .onConflict((oc) => oc.columns(['organization_id', 'order_id']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) return false;
    await trx
      .insertInto('order_events')
      .values({ order_id: order.id, field: 'created', from_value: null, to_value: order.status, actor, created_at: now })
      .execute();
    return true;
  });
  const row = await findBrandOrder(database, order.organization_id, order.order_id);
  return { created, row: row! };
}

export async function findBrandOrder(database: Database, brandId: string, orderId: string): Promise<OrderRow | undefined> {
  return database.db.selectFrom('orders').selectAll().where('organization_id', '=', brandId).where('order_id', '=', orderId).executeTakeFirst();
}

/**
 * Moves an order's statuses if they are still what the caller read (optimistic concurrency),
 * recording each change; returns false when another change came first.
 */
export async function moveOrder(
  database: Database,
  current: Pick<OrderRow, 'id' | 'status' | 'commission_status'>,
  next: { status: string; commission_status: string },
  actor: string,
  now: string,
): Promise<boolean> {
  return database.db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable('orders')
      .set({ status: next.status, commission_status: next.commission_status, updated_at: now })
      .where('id', '=', current.id)
      .where('status', '=', current.status)
      .where('commission_status', '=', current.commission_status)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return false;
    const events: OrderEvent[] = [];
    if (next.status !== current.status) events.push({ field: 'status', from: current.status, to: next.status });
    if (next.commission_status !== current.commission_status) events.push({ field: 'commissionStatus', from: current.commission_status, to: next.commission_status });
    if (events.length) {
      await trx
        .insertInto('order_events')
        .values(events.map((e) => ({ order_id: current.id, field: e.field, from_value: e.from, to_value: e.to, actor, created_at: now })))
        .execute();
    }
    return true;
  });
}

/** Which of these network order ids are stored. */
export async function existingOrderIds(database: Database, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  return new Set((await database.db.selectFrom('orders').select('id').where('id', 'in', ids).execute()).map((row) => row.id));
}

export async function linkCodeOf(database: Database, linkId: string): Promise<string | undefined> {
  return (await database.db.selectFrom('short_links').select('code').where('id', '=', linkId).executeTakeFirst())?.code;
}
