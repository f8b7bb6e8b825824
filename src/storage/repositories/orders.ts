// Orders reported by brands: the affiliate's lists and totals, a brand's order by its own id,
// and the writes that change an order with its audit trail.
import type { Database } from '../database.js';
import { compiledPage, pageWithTotal, type Page, type PageWindow } from './pages.js';
import { CompiledShapes, type QueryValues } from './compiled-shapes.js';
import type { Transaction } from 'kysely';
import type { DB, NewOrderRow, NewWebhookEvent, OrderEventRow, OrderRow } from '../tables.js';
import { addOrderToRollups } from './rollups.js';
import { writeLedger, type LedgerEntry } from './ledger.js';
import { writeEffects, type Effects } from './effects.js';
import { SUB_ID_NAMES, type SubIdName, type SubIds } from '../../lib/sub-ids.js';

export interface OrderFilters {
  organizationIds?: string[];
  withMdasc?: boolean;
  from?: string;
  to?: string;
  statuses?: string[];
  commissionStatuses?: string[];
  payoutId?: string;
  /** Orders placed with this code (lowercased) while it was the affiliate's own. */
  couponKey?: string;
  /** Orders whose sub-ids are exactly these (each given one). */
  subIds?: SubIds;
}

/**
 * An orders list's filters as its query compares them: the sub-ids one by one, and an empty list
 * a filter not given (whether an mdasc is required names the shape instead).
 */
interface OrderListValues extends QueryValues, SubIds, Omit<OrderFilters, 'withMdasc' | 'subIds'> {
  affiliateId: string;
}

const given = <T>(list: T[] | undefined): T[] | undefined => (list?.length ? list : undefined);

function orderListValues(affiliateId: string, f: OrderFilters): OrderListValues {
  return {
    affiliateId,
    organizationIds: given(f.organizationIds),
    from: f.from || undefined,
    to: f.to || undefined,
    statuses: given(f.statuses),
    commissionStatuses: given(f.commissionStatuses),
    payoutId: f.payoutId || undefined,
    couponKey: f.couponKey || undefined,
    ...f.subIds,
  };
}

/** One entry of the audit trail: who changed what, when, from which value to which. */
interface OrderEvent {
  field: 'created' | 'status' | 'commissionStatus' | 'value' | 'items' | 'commission' | 'commissionReason' | 'lockAt' | 'source' | 'affiliateId' | 'clickId' | 'createdAt' | 'holdReasons';
  from: string | null;
  to: string;
}

/** What a change may set on an order. */
export type OrderChange = Partial<
  Pick<
    OrderRow,
    | 'status'
    | 'commission_status'
    | 'value'
    | 'items'
    | 'commission'
    | 'commission_lines'
    | 'auto_approved'
    | 'commission_reason'
    | 'lock_at'
    | 'hold_facts'
    // The brand's server taking over an order the shop's pages reported: its source, time, customer,
    // click and the hold judged on them.
    | 'source'
    | 'created_at'
    | 'hold_reasons'
    | 'customer_hash'
    | 'customer_is_new'
    | 'affiliate_id'
    | 'link_id'
    | 'click_id'
    | 'channel_id'
    | 'mdasc'
    | 'click_created_at'
    | 'click_country'
    | 'link_code'
    | 'attribution'
    | 'coupon'
    | 'coupon_key'
    | 'coupon_affiliate_id'
    | SubIdName
  >
>;

/** The columns whose changes the audit trail records, with the name it records them by. */
const AUDITED: ReadonlyArray<[keyof OrderChange, OrderEvent['field']]> = [
  ['status', 'status'],
  ['commission_status', 'commissionStatus'],
  ['value', 'value'],
  ['items', 'items'],
  ['commission', 'commission'],
  ['commission_reason', 'commissionReason'],
  ['lock_at', 'lockAt'],
  ['source', 'source'],
  ['affiliate_id', 'affiliateId'],
  ['click_id', 'clickId'],
  ['created_at', 'createdAt'],
  ['hold_reasons', 'holdReasons'],
];

/** How the audit trail records a column set to null, where that is worth recording: a hold's reasons cleared. */
const CLEARED: Partial<Record<keyof OrderChange, string>> = { hold_reasons: '[]' };

/** Who made a change: 'brand:<id>', 'network', or 'operator:<user id>' ('operator:cli' for a command), and the key it came with through the API. */
export interface Author {
  actor: string;
  keyId?: string;
  /** The reconciliation (the shop's order export) the change came from. */
  reconciliationId?: string;
}

export interface BrandOrderFilters {
  statuses?: string[];
  commissionStatuses?: string[];
  affiliateId?: string;
  orderId?: string;
  from?: string;
  to?: string;
}

/**
 * Inserts a new order with its rollups and the audit entry of its creation, unless the brand's
 * order id is stored already (the unique index on brand and order id decides between concurrent
 * writers); whether it inserted it.
 */
export async function insertOrderOnce(trx: Transaction<DB>, order: NewOrderRow, author: Author, now: string): Promise<boolean> {
  const inserted = await trx
    .insertInto('orders')
    .values(order)
    .onConflict((oc) => oc.columns(['organization_id', 'order_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) return false;
  await addOrderToRollups(trx, undefined, order);
  await trx
    .insertInto('order_events')
    .values({ order_id: order.id, field: 'created', from_value: null, to_value: order.status, actor: author.actor, actor_key_id: author.keyId ?? null, created_at: now })
    .execute();
  return true;
}

/** Records in the orders' audit trails that the network moved their commissions from one status to another. */
export async function auditCommissionMoves(trx: Transaction<DB>, orderIds: readonly string[], from: string, to: string, now: string): Promise<void> {
  for (let i = 0; i < orderIds.length; i += AUDIT_CHUNK) {
    const ids = orderIds.slice(i, i + AUDIT_CHUNK);
    await trx.insertInto('order_events').values(ids.map((id) => ({ order_id: id, field: 'commissionStatus', from_value: from, to_value: to, actor: 'network', created_at: now }))).execute();
  }
}

/** One change of an order, as OrdersRepository.change makes it, for a caller that makes several in one transaction. */
export interface PlannedOrderChange {
  current: OrderRow;
  next: OrderChange;
  author: Author;
  now: string;
  outbox?: readonly NewWebhookEvent[];
  ledger?: readonly LedgerEntry[];
  more?: Pick<Effects, 'mail' | 'audit'>;
}

/**
 * Changes an order within `trx` if it is still what the caller read (its statuses and value),
 * with its rollups, each changed field in its audit trail, and the change's effects; false when
 * another change came first (nothing written).
 */
export async function changeOrderIn(trx: Transaction<DB>, change: PlannedOrderChange): Promise<boolean> {
  const { current, next, author, now } = change;
  const result = await trx
    .updateTable('orders')
    .set({ ...next, updated_at: now })
    .where('id', '=', current.id)
    .where('status', '=', current.status)
    .where('commission_status', '=', current.commission_status)
    .where('value', '=', current.value)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return false;
  await addOrderToRollups(trx, current, { ...current, ...next });
  const events: OrderEvent[] = [];
  for (const [column, field] of AUDITED) {
    const to = next[column] === null ? CLEARED[column] : next[column];
    if (to !== undefined && to !== null && next[column] !== current[column]) events.push({ field, from: current[column] === null ? null : String(current[column]), to: String(to) });
  }
  if (events.length) {
    await trx
      .insertInto('order_events')
      .values(
        events.map((e) => ({
          order_id: current.id,
          field: e.field,
          from_value: e.from,
          to_value: e.to,
          actor: author.actor,
          actor_key_id: author.keyId ?? null,
          ...(author.reconciliationId !== undefined && { reconciliation_id: author.reconciliationId }),
          created_at: now,
        })),
      )
      .execute();
  }
  await writeEffects(trx, { ...change.more, events: change.outbox ?? [], ledger: change.ledger ?? [] }, now);
  return true;
}

/** Audit rows per insert (bound-parameter limits). */
const AUDIT_CHUNK = 500;

export class OrdersRepository {
  private readonly shapes = new CompiledShapes();

  constructor(private readonly database: Database) {}

  /** A query over the affiliate's orders; `v` as orderListValues gives them (see CompiledShapes). */
  private filtered(v: OrderListValues, withMdasc: boolean | undefined) {
    let q = this.database.db.selectFrom('orders').where('affiliate_id', '=', v.affiliateId);
    if (v.organizationIds !== undefined) q = q.where('organization_id', 'in', v.organizationIds);
    if (withMdasc) q = q.where('mdasc', 'is not', null).where('mdasc', '<>', '');
    if (v.from !== undefined) q = q.where('created_at', '>=', v.from);
    if (v.to !== undefined) q = q.where('created_at', '<=', v.to);
    if (v.statuses !== undefined) q = q.where('status', 'in', v.statuses);
    if (v.commissionStatuses !== undefined) q = q.where('commission_status', 'in', v.commissionStatuses);
    if (v.payoutId !== undefined) q = q.where('payout_id', '=', v.payoutId);
    if (v.couponKey !== undefined) q = q.where('coupon_key', '=', v.couponKey).where('coupon_affiliate_id', '=', v.affiliateId);
    for (const name of SUB_ID_NAMES) {
      const value = v[name];
      if (value !== undefined) q = q.where(name, '=', value);
    }
    return q;
  }

  /** The affiliate's commissions added up per currency and commission status (orders and cents). */
  async commissionTotals(
    affiliateId: string,
    f: Pick<OrderFilters, 'organizationIds' | 'from' | 'to'>,
  ): Promise<Array<{ currency: string; commission_status: string; orders: number; commission: number }>> {
    const rows = await this.filtered(orderListValues(affiliateId, f), undefined)
      .select((eb) => ['currency', 'commission_status', eb.fn.countAll<number>().as('orders'), eb.fn.sum<number>('commission').as('commission')])
      .groupBy(['currency', 'commission_status'])
      .orderBy('currency')
      .orderBy('commission_status')
      .execute();
    // PostgreSQL sums bigints as numeric, which arrives as text.
    return rows.map((r) => ({ ...r, orders: Number(r.orders), commission: Number(r.commission) }));
  }

  /** A page of the affiliate's orders, newest first (id breaks ties), and the total. */
  list(affiliateId: string, filters: OrderFilters, page: PageWindow): Promise<Page<OrderRow>> {
    const values = orderListValues(affiliateId, filters);
    const withMdasc = filters.withMdasc === true;
    const named = (what: string) => (withMdasc ? `${what}, with mdasc` : what);
    const rows = this.shapes.compiled(named('orders page'), { ...values, limit: page.limit, offset: page.offset }, (v) =>
      this.filtered(v, withMdasc).selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(v.limit).offset(v.offset),
    );
    const count = this.shapes.compiled(named('orders total'), values, (v) => this.filtered(v, withMdasc).select((eb) => eb.fn.countAll<number>().as('n')));
    return compiledPage(this.database, rows, count);
  }

  /**
   * The next `limit` of the affiliate's orders in list order (newest first, then id), after the
   * order `after` when given: an export reads them all this way, batch by batch, and an order
   * arriving meanwhile shifts nothing (offsets would repeat or skip rows).
   */
  listAfter(affiliateId: string, filters: OrderFilters, after: { created_at: string; id: string } | undefined, limit: number): Promise<OrderRow[]> {
    let q = this.filtered(orderListValues(affiliateId, filters), filters.withMdasc);
    if (after) q = q.where((eb) => eb.or([eb('created_at', '<', after.created_at), eb.and([eb('created_at', '=', after.created_at), eb('id', '<', after.id)])]));
    return q.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  }

  /** The affiliate's orders whose network id or brand order id is `id`. */
  findForAffiliate(affiliateId: string, id: string): Promise<OrderRow[]> {
    return this.database.db
      .selectFrom('orders')
      .selectAll()
      .where('affiliate_id', '=', affiliateId)
      .where((eb) => eb.or([eb('id', '=', id), eb('order_id', '=', id)]))
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  /** Stores an order as it is (with its rollups and the ledger entries of its commission), in one transaction. */
  async insert(order: NewOrderRow, ledger: readonly LedgerEntry[] = [], now = order.created_at): Promise<void> {
    await this.database.db.transaction().execute(async (trx) => {
      await trx.insertInto('orders').values(order).execute();
      await addOrderToRollups(trx, undefined, order);
      await writeLedger(trx, ledger, now);
    });
  }

  /**
   * Inserts the order unless the brand already reported this order id; either way returns the
   * stored order. The insert and its audit entry are one transaction, and the unique index on
   * (brand, order id) makes concurrent reports of one order produce exactly one row. `effects`
   * (webhook events, mail, audit entries) are written in the same transaction, only when the
   * order is created.
   */
  async createOnce(order: NewOrderRow, author: Author, now: string, effects: Effects = {}): Promise<{ created: boolean; row: OrderRow }> {
    const created = await this.database.db.transaction().execute(async (trx) => {
      if (!(await insertOrderOnce(trx, order, author, now))) return false;
      await writeEffects(trx, effects, now);
      return true;
    });
    const row = await this.findBrandOrder(order.organization_id, order.order_id);
    return { created, row: row! };
  }

  findBrandOrder(brandId: string, orderId: string): Promise<OrderRow | undefined> {
    return this.database.db.selectFrom('orders').selectAll().where('organization_id', '=', brandId).where('order_id', '=', orderId).executeTakeFirst();
  }

  /**
   * Changes an order if it is still what the caller read (optimistic concurrency: its statuses and
   * value), recording each changed field in its audit trail in the same transaction; returns
   * false when another change came first. `events` go to the webhook outbox in the same
   * transaction, only when the change is made, and so do the `ledger` entries of its money and
   * the `more` effects (mail, audit entries).
   */
  change(
    current: OrderRow,
    next: OrderChange,
    author: Author,
    now: string,
    outbox: readonly NewWebhookEvent[] = [],
    ledger: readonly LedgerEntry[] = [],
    more: Pick<Effects, 'mail' | 'audit'> = {},
  ): Promise<boolean> {
    return this.database.db.transaction().execute((trx) => changeOrderIn(trx, { current, next, author, now, outbox, ledger, more }));
  }

  /**
   * Up to `limit` orders still pending whose lock date has come by `now`, the earliest first; not
   * those whose commission is held (a held commission never locks: its release sets a new date).
   */
  pendingLockedBy(now: string, limit: number): Promise<OrderRow[]> {
    return this.database.db
      .selectFrom('orders')
      .selectAll()
      .where('status', '=', 'pending')
      .where('lock_at', '<=', now)
      .where('commission_status', '<>', 'held')
      .orderBy('lock_at')
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  /** The order's audit trail, oldest first. */
  historyOf(networkId: string): Promise<OrderEventRow[]> {
    return this.database.db.selectFrom('order_events').selectAll().where('order_id', '=', networkId).orderBy('created_at').orderBy('id').execute();
  }

  /** A page of the brand's orders, newest first (id breaks ties), and the total. */
  listForBrand(brandId: string, f: BrandOrderFilters, page: PageWindow): Promise<Page<OrderRow>> {
    const filtered = () => {
      let q = this.database.db.selectFrom('orders').where('organization_id', '=', brandId);
      if (f.statuses?.length) q = q.where('status', 'in', f.statuses);
      if (f.commissionStatuses?.length) q = q.where('commission_status', 'in', f.commissionStatuses);
      if (f.affiliateId) q = q.where('affiliate_id', '=', f.affiliateId);
      if (f.orderId) q = q.where('order_id', '=', f.orderId);
      if (f.from) q = q.where('created_at', '>=', f.from);
      if (f.to) q = q.where('created_at', '<=', f.to);
      return q;
    };
    return pageWithTotal(
      this.database,
      filtered().selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute(),
      filtered().select((eb) => eb.fn.countAll<number>().as('n')),
    );
  }

  /** The brand's order number and the brand of each of these orders (by network id), with the brand's name. */
  async numbersOf(ids: readonly string[]): Promise<Array<{ id: string; order_id: string; organization_id: string; brand_name: string }>> {
    if (ids.length === 0) return [];
    return this.database.db
      .selectFrom('orders')
      .innerJoin('brands', 'brands.id', 'orders.organization_id')
      .select(['orders.id', 'orders.order_id', 'orders.organization_id', 'brands.name as brand_name'])
      .where('orders.id', 'in', [...ids])
      .execute();
  }

  /** Which of these network order ids are stored. */
  async existingIds(ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    return new Set((await this.database.db.selectFrom('orders').select('id').where('id', 'in', ids).execute()).map((row) => row.id));
  }
}
