import type { Database } from '../database.js';
import type { NewOrderRow, OrderRow } from '../schema.js';

export interface OrderFilters {
  organizationIds?: string[];
  withMdasc?: boolean;
  from?: string;
  to?: string;
}

function filtered(database: Database, affiliateId: string, f: OrderFilters) {
  let q = database.db.selectFrom('orders').where('affiliate_id', '=', affiliateId);
  if (f.organizationIds?.length) q = q.where('organization_id', 'in', f.organizationIds);
  if (f.withMdasc) q = q.where('mdasc', 'is not', null).where('mdasc', '<>', '');
  if (f.from) q = q.where('created_at', '>=', f.from);
  if (f.to) q = q.where('created_at', '<=', f.to);
  return q;
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
    filtered(database, affiliateId, filters).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
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
