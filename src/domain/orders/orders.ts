// Orders as the affiliate sees them: the spec's fields, the facts that let it reconcile each one
// (link, channel, click, payout) and its balance per currency.
import { openingEntry } from '../ledger/entries.js';
import type { CommissionReason, HoldReason, Order, OrderAttribution, OrderItem, OrderSource } from '../../schemas/order.js';
import type { AffiliatesRepository } from '../../storage/repositories/affiliates.js';
import type { BrandsRepository } from '../../storage/repositories/brands.js';
import type { OrderFilters, OrdersRepository } from '../../storage/repositories/orders.js';
import type { NewOrderRow, OrderRow } from '../../storage/tables.js';
import type { ChannelRef } from '../../schemas/channel.js';
import { notFound } from '../errors.js';
import { CommissionStatuses } from '../../schemas/order.js';
import { offsetOf, type PageRequest, type Paged } from '../paging.js';
import type { CommissionStatus } from './lifecycle.js';
import { subIdsOfColumns } from '../../lib/sub-ids.js';

/** The affiliate's channels by id (a handful), for the channel of each order. */
export async function channelRefsOf(affiliates: AffiliatesRepository, affiliateId: string): Promise<Map<string, ChannelRef>> {
  return new Map((await affiliates.channelsOf(affiliateId, { includeRemoved: true })).map((c) => [c.id, { id: c.id, name: c.name, kind: c.kindId }]));
}

/** The names of the brands of these orders, for lists and pages that name each order's brand. */
export function brandNamesOf(brands: BrandsRepository, rows: readonly OrderRow[]): Promise<Map<string, string>> {
  return brands.namesOf([...new Set(rows.map((row) => row.organization_id))]);
}

export function orderOf(row: OrderRow, channels: ReadonlyMap<string, ChannelRef>, brandNames?: ReadonlyMap<string, string>): Order {
  const brandName = brandNames?.get(row.organization_id);
  const channel = row.channel_id === null ? undefined : channels.get(row.channel_id);
  const subIds = subIdsOfColumns(row);
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
    ...(row.hold_reasons ? { holdReasons: JSON.parse(row.hold_reasons) as HoldReason[] } : {}),
    items: JSON.parse(row.items) as OrderItem[],
    organizationId: row.organization_id,
    ...(brandName !== undefined && { brandName }),
    ...(row.mdasc !== null && { mdasc: row.mdasc }),
    currency: row.currency,
    // A coupon's order may carry another affiliate's click: the click is shown only when it is this
    // affiliate's (its facts were kept with the order), as the code only when it is its own.
    ...(row.click_id !== null && (row.attribution !== 'coupon' || row.click_created_at !== null) && { clickId: row.click_id }),
    ...(row.click_created_at !== null && { clickedAt: row.click_created_at }),
    ...(row.link_code !== null && { linkCode: row.link_code }),
    ...(channel !== undefined && { channel }),
    ...(row.payable_at !== null && { payableAt: row.payable_at }),
    ...(row.paid_at !== null && { paidAt: row.paid_at }),
    ...(row.payout_id !== null && { payoutId: row.payout_id }),
    lockAt: row.lock_at,
    autoApproved: row.auto_approved === 1,
    source: row.source as OrderSource,
    attribution: row.attribution as OrderAttribution,
    ...(row.coupon !== null && row.coupon !== undefined && row.coupon_affiliate_id === row.affiliate_id && { coupon: row.coupon }),
    // The sub-ids of this affiliate's click (only its own clicks' are copied): read by the
    // affiliate's order webhooks and postbacks to trackers from here.
    ...(subIds !== undefined && { subIds }),
  };
}

export type Balance = { currency: string } & Record<CommissionStatus, { commission: number; orders: number }>;

export interface OrderRepositories {
  affiliates: AffiliatesRepository;
  brands: BrandsRepository;
  orders: OrdersRepository;
}

export class OrdersService {
  constructor(private readonly repositories: OrderRepositories) {}

  /** The affiliate's orders, newest first (createdAt, then id). */
  async list(affiliateId: string, filters: OrderFilters, page: PageRequest): Promise<Paged<Order>> {
    const [{ rows, total }, channels] = await Promise.all([
      this.repositories.orders.list(affiliateId, filters, offsetOf(page)),
      channelRefsOf(this.repositories.affiliates, affiliateId),
    ]);
    const brandNames = await brandNamesOf(this.repositories.brands, rows);
    return { items: rows.map((row) => orderOf(row, channels, brandNames)), total };
  }

  /** Every order of the affiliate the filters match, in list order, read in batches (an export). */
  async *all(affiliateId: string, filters: OrderFilters, batchSize = 500): AsyncGenerator<Order> {
    const channels = await channelRefsOf(this.repositories.affiliates, affiliateId);
    let after: OrderRow | undefined;
    for (;;) {
      const rows = await this.repositories.orders.listAfter(affiliateId, filters, after, batchSize);
      const brandNames = await brandNamesOf(this.repositories.brands, rows);
      for (const row of rows) yield orderOf(row, channels, brandNames);
      if (rows.length < batchSize) return;
      after = rows.at(-1);
    }
  }

  /** The affiliate's orders whose network id or brand order id is `id` (not_found when none). */
  async get(affiliateId: string, id: string): Promise<Order[]> {
    const [rows, channels] = await Promise.all([this.repositories.orders.findForAffiliate(affiliateId, id), channelRefsOf(this.repositories.affiliates, affiliateId)]);
    if (rows.length === 0) throw notFound('Order not found');
    const brandNames = await brandNamesOf(this.repositories.brands, rows);
    return rows.map((row) => orderOf(row, channels, brandNames));
  }

  /** Commission totals per currency (never summed across currencies), every status present. */
  async balance(affiliateId: string, filters: Pick<OrderFilters, 'organizationIds' | 'from' | 'to'>): Promise<Balance[]> {
    const byCurrency = new Map<string, Balance>();
    for (const row of await this.repositories.orders.commissionTotals(affiliateId, filters)) {
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

  /**
   * Stores orders reported elsewhere (demo data): an order already stored is left as it is, since
   * its status may have moved on. Their approved commissions are history from before statements:
   * the network funded them, so they are stored payable, each with its opening ledger entry.
   * Returns how many were already there.
   */
  async loadMissing(orders: NewOrderRow[], now: string): Promise<{ inserted: number; existing: number }> {
    const existing = await this.repositories.orders.existingIds(orders.map((o) => o.id));
    const missing = orders.filter((o) => !existing.has(o.id));
    for (const order of missing) {
      if (order.commission_status !== 'approved') {
        await this.repositories.orders.insert(order);
        continue;
      }
      const funded = { ...order, commission_status: 'payable', payable_at: order.updated_at };
      await this.repositories.orders.insert(funded, [openingEntry({ ...funded, commission: Number(funded.commission) })], now);
    }
    return { inserted: missing.length, existing: existing.size };
  }
}
