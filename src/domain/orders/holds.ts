// Fraud holds: what is told when a conversion is held, the operator's review queue with the facts
// behind each hold, and the operator's decisions: release (the commission pending again, its lock
// date counted from the release with the brand's validation days then) or decline (canceled,
// commission 0, commissionReason fraud_declined). Both take several orders at once; each order is
// decided on its own. Routes and pages sit on this service; `affnet holds` is its command.
import type { Clock } from '../../lib/clock.js';
import type { HoldReason } from '../../schemas/order.js';
import type { AffiliatesRepository } from '../../storage/repositories/affiliates.js';
import type { BrandsRepository } from '../../storage/repositories/brands.js';
import type { ClicksRepository } from '../../storage/repositories/clicks.js';
import type { Effects } from '../../storage/repositories/effects.js';
import type { HeldFilters, HoldsRepository } from '../../storage/repositories/holds.js';
import type { Author, OrderChange, OrdersRepository } from '../../storage/repositories/orders.js';
import type { UsersRepository } from '../../storage/repositories/users.js';
import type { OrderRow } from '../../storage/tables.js';
import { ownersOf } from '../access/owners.js';
import { auditEntry, NETWORK, type Actor } from '../audit/audit-entry.js';
import { unacceptable } from '../errors.js';
import { mailRow } from '../mail/mail-queue.js';
import { offsetOf, type PageRequest, type Paged } from '../paging.js';
import { webhookEvent } from '../webhooks/events.js';
import { orderEvents } from './order-events.js';
import { channelRefsOf, orderOf } from './orders.js';
import type { HoldFacts, RuleFact } from './fraud-rules.js';

export interface HoldRepositories {
  affiliates: AffiliatesRepository;
  brands: BrandsRepository;
  clicks: ClicksRepository;
  holds: HoldsRepository;
  orders: OrdersRepository;
  users: Pick<UsersRepository, 'listOf'>;
}

const DAY_MS = 86_400_000;
/** The longest reason an operator may give (it reaches the affiliate's mail and the audit trail). */
export const MAX_HOLD_REASON = 1000;
/** Orders one decision may take. */
export const MAX_HOLD_BATCH = 500;

/** One held order in the review queue, with what the operator decides on. */
export interface HeldOrder {
  id: string;
  orderId: string;
  brand: { id: string; name?: string };
  affiliate: { id: string; name?: string };
  value: number;
  commission: number;
  currency: string;
  /** The order's time. */
  createdAt: string;
  heldAt: string;
  source: string;
  holdReasons: HoldReason[];
  /** Each rule tripped with its numbers (thresholds included: for the operator alone). */
  rules: RuleFact[];
  /** The click that earned it: time and country (kept on the order), device, browser, OS and network while the click is stored. */
  click?: { id: string; at?: string; country?: string; device?: string; browser?: string; os?: string; referrer?: string; asn?: number; datacenter?: boolean };
  /** The affiliate's record over all its orders, every brand. */
  affiliateRecord: { orders: number; byCommissionStatus: Record<string, number>; everHeld: number; fraudDeclined: number };
}

/** What happened to one order of a decision. */
export interface HoldDecision {
  id: string;
  /** released / declined: done now; otherwise why not (not_found, not_held, changed). */
  outcome: 'released' | 'declined' | 'not_found' | 'not_held' | 'changed';
  commissionStatus?: string;
  lockAt?: string;
}

/** The history author of an operator's action: the person's user id, or cli for a command. */
export function authorOf(actor: Actor): Author {
  switch (actor.kind) {
    case 'operator':
      return { actor: `operator:${actor.userId}` };
    case 'cli':
      return { actor: 'operator:cli' };
    case 'network':
      return { actor: 'network' };
    default:
      throw new Error(`a ${actor.kind} cannot decide on a fraud hold`);
  }
}

const factsOf = (row: OrderRow): HoldFacts => (row.hold_facts ? (JSON.parse(row.hold_facts) as HoldFacts) : { rules: [], heldAt: row.updated_at });
const reasonsOf = (row: OrderRow): HoldReason[] => (row.hold_reasons ? (JSON.parse(row.hold_reasons) as HoldReason[]) : []);

/**
 * What is told when a conversion is held as it is recorded (besides the order.created and
 * conversion.created every new order sends): the affiliate's commission.held and mail to its
 * owners, the brand's conversion.updated, and the audit entry. None of it names a threshold.
 */
export async function holdNotices(repositories: Pick<HoldRepositories, 'affiliates' | 'brands' | 'users'>, clock: Clock, publicUrl: string, order: OrderRow): Promise<Effects> {
  const affiliateView = orderOf(order, await channelRefsOf(repositories.affiliates, order.affiliate_id));
  const brandEvents = (await orderEvents(repositories.affiliates, clock, order, 'updated')).filter((e) => e.owner_kind === 'brand');
  const brand = await repositories.brands.find(order.organization_id);
  const owners = await ownersOf(repositories.users, { affiliateId: order.affiliate_id });
  const values = { account: brand?.name ?? order.organization_id, orderId: order.order_id, amount: order.commission, currency: order.currency, url: `${publicUrl}/app/orders` };
  return {
    events: [webhookEvent({ kind: 'affiliate', id: order.affiliate_id }, 'commission.held', affiliateView, clock), ...brandEvents],
    mail: owners.map((owner) => mailRow({ to: owner.email, template: 'commission-held', locale: owner.language ?? 'en', values })),
    audit: [
      auditEntry(NETWORK, {
        action: 'order.held',
        subject: { kind: 'order', id: order.id },
        members: { affiliateId: order.affiliate_id, brandId: order.organization_id },
        after: { commissionStatus: 'held', holdReasons: reasonsOf(order) },
      }),
    ],
  };
}

export class HoldsService {
  constructor(
    private readonly repositories: HoldRepositories,
    private readonly clock: Clock,
    private readonly settings: { publicUrl: string; datacenterAsns?: ReadonlySet<number> | null },
  ) {}

  /** The held orders, the longest held first, each with the facts of its hold. */
  async list(filters: HeldFilters, page: PageRequest): Promise<Paged<HeldOrder>> {
    const { holds, brands, affiliates, clicks } = this.repositories;
    const { rows, total } = await holds.held(filters, offsetOf(page));
    const brandIds = [...new Set(rows.map((r) => r.organization_id))];
    const affiliateIds = [...new Set(rows.map((r) => r.affiliate_id))];
    const [brandNames, affiliateNames, records, clickRows] = await Promise.all([
      brands.byIds(brandIds).then((list) => new Map(list.map((b) => [b.id, b.name]))),
      affiliates.namesOf(affiliateIds),
      Promise.all(affiliateIds.map(async (id) => [id, await holds.recordOf(id)] as const)).then((list) => new Map(list)),
      Promise.all(rows.map((r) => (r.click_id === null ? Promise.resolve(undefined) : clicks.find(r.click_id)))),
    ]);
    const datacenters = this.settings.datacenterAsns ?? null;
    const items = rows.map((row, i): HeldOrder => {
      const facts = factsOf(row);
      const click = clickRows[i];
      const record = records.get(row.affiliate_id)!;
      const byCommissionStatus = Object.fromEntries(record.byStatus.map((s) => [s.commission_status, s.orders]));
      return {
        id: row.id,
        orderId: row.order_id,
        brand: { id: row.organization_id, ...(brandNames.has(row.organization_id) && { name: brandNames.get(row.organization_id)! }) },
        affiliate: { id: row.affiliate_id, ...(affiliateNames.has(row.affiliate_id) && { name: affiliateNames.get(row.affiliate_id)! }) },
        value: row.value,
        commission: row.commission,
        currency: row.currency,
        createdAt: row.created_at,
        heldAt: facts.heldAt,
        source: row.source,
        holdReasons: reasonsOf(row),
        rules: facts.rules,
        ...(row.click_id !== null && {
          click: {
            id: row.click_id,
            ...(row.click_created_at !== null && { at: row.click_created_at }),
            ...(row.click_country !== null && { country: row.click_country }),
            ...(click?.device && { device: click.device }),
            ...(click?.browser && { browser: click.browser }),
            ...(click?.os && { os: click.os }),
            ...(click?.referer_host && { referrer: click.referer_host }),
            ...(click?.asn != null && { asn: click.asn, ...(datacenters && { datacenter: datacenters.has(click.asn) }) }),
          },
        }),
        affiliateRecord: { orders: record.byStatus.reduce((sum, s) => sum + s.orders, 0), byCommissionStatus, everHeld: record.everHeld, fraudDeclined: record.fraudDeclined },
      };
    });
    return { items, total };
  }

  /** Releases held commissions: pending again, locking the brand's validation days from now. */
  release(actor: Actor, orderIds: readonly string[], reason?: string): Promise<HoldDecision[]> {
    return this.decide(actor, orderIds, 'released', reason);
  }

  /** Declines held commissions: canceled, commission 0, commissionReason fraud_declined; `reason` is required. */
  decline(actor: Actor, orderIds: readonly string[], reason: string): Promise<HoldDecision[]> {
    return this.decide(actor, orderIds, 'declined', reason);
  }

  private async decide(actor: Actor, orderIds: readonly string[], outcome: 'released' | 'declined', rawReason: string | undefined): Promise<HoldDecision[]> {
    const reason = rawReason?.trim() || undefined;
    if (outcome === 'declined' && !reason) throw unacceptable('reason_required', 'say why the commission is declined (reason): the affiliate is told it');
    if (reason !== undefined && reason.length > MAX_HOLD_REASON) throw unacceptable('reason_too_long', `the reason may be at most ${MAX_HOLD_REASON} characters`);
    const ids = [...new Set(orderIds)];
    if (ids.length === 0) throw unacceptable('orders_required', 'name at least one order (its network id)');
    if (ids.length > MAX_HOLD_BATCH) throw unacceptable('too_many_orders', `decide on at most ${MAX_HOLD_BATCH} orders at once`);
    const author = authorOf(actor);
    const found = new Map((await this.repositories.holds.byIds(ids)).map((row) => [row.id, row]));
    const decisions: HoldDecision[] = [];
    for (const id of ids) {
      const current = found.get(id);
      if (!current) decisions.push({ id, outcome: 'not_found' });
      else if (current.commission_status !== 'held') decisions.push({ id, outcome: 'not_held', commissionStatus: current.commission_status });
      else decisions.push(await this.decideOne(actor, author, current, outcome, reason));
    }
    return decisions;
  }

  private async decideOne(actor: Actor, author: Author, current: OrderRow, outcome: 'released' | 'declined', reason: string | undefined): Promise<HoldDecision> {
    const { brands, users, orders } = this.repositories;
    const now = this.clock.iso();
    const brand = await brands.find(current.organization_id);
    const facts: HoldFacts = { ...factsOf(current), resolution: { outcome, at: now, by: author.actor, ...(reason !== undefined && { reason }) } };
    const next: OrderChange =
      outcome === 'released'
        ? // The brand has its full validation days from the release, at its setting now.
          { commission_status: 'pending', lock_at: new Date(this.clock.now() + (brand?.validation_days ?? 0) * DAY_MS).toISOString(), hold_facts: JSON.stringify(facts) }
        : { commission_status: 'canceled', commission: 0, commission_reason: 'fraud_declined', hold_facts: JSON.stringify(facts) };
    const changed: OrderRow = { ...current, ...next, updated_at: now };
    const events = await orderEvents(this.repositories.affiliates, this.clock, changed, 'updated', outcome === 'declined' ? 'canceled' : undefined);
    const owners = await ownersOf(users, { affiliateId: current.affiliate_id });
    const values = {
      account: brand?.name ?? current.organization_id,
      orderId: current.order_id,
      amount: current.commission,
      currency: current.currency,
      outcome,
      ...(outcome === 'declined' && reason !== undefined && { reason }),
      url: `${this.settings.publicUrl}/app/orders`,
    };
    const audit = auditEntry(actor, {
      action: outcome === 'released' ? 'order.hold_released' : 'order.hold_declined',
      subject: { kind: 'order', id: current.id },
      members: { affiliateId: current.affiliate_id, brandId: current.organization_id },
      before: { commissionStatus: 'held', commission: current.commission, lockAt: current.lock_at },
      after: { commissionStatus: changed.commission_status, commission: changed.commission, lockAt: changed.lock_at, ...(changed.commission_reason !== null && { commissionReason: changed.commission_reason }) },
      reason,
    });
    const mail = owners.map((owner) => mailRow({ to: owner.email, template: 'commission-hold-resolved', locale: owner.language ?? 'en', values }));
    if (!(await orders.change(current, next, author, now, events, [], { mail, audit: [audit] }))) {
      // The brand changed the order meanwhile (canceled it): what it is now is the answer.
      const latest = (await this.repositories.holds.byIds([current.id]))[0];
      return { id: current.id, outcome: 'changed', ...(latest && { commissionStatus: latest.commission_status }) };
    }
    return { id: current.id, outcome, commissionStatus: changed.commission_status, lockAt: changed.lock_at };
  }
}
