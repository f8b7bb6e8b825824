// Claims of sales the tracking missed. An affiliate files one for a brand it may promote, within
// the brand's attribution window plus its validation days of the order; the brand accepts it
// (the order is recorded for the affiliate: source and attribution `claim`, one item of the
// claimed or corrected value, a pending commission at the brand's rule, locking like any new
// order) or declines it saying why. A claim the brand leaves unanswered for its
// claimAutoAcceptDays is accepted by the network at the claimed value.
import { ownersOf } from '../access/owners.js';
import type { Claim, ClaimAnswer, ClaimInput, ClaimStatus } from '../../schemas/claim.js';
import type { Clock } from '../../lib/clock.js';
import type { AffiliatesRepository } from '../../storage/repositories/affiliates.js';
import type { BrandsRepository } from '../../storage/repositories/brands.js';
import type { ClaimEffects, ClaimsRepository } from '../../storage/repositories/claims.js';
import type { ClicksRepository } from '../../storage/repositories/clicks.js';
import type { LinksRepository } from '../../storage/repositories/links.js';
import type { Author, OrdersRepository } from '../../storage/repositories/orders.js';
import type { UsersRepository } from '../../storage/repositories/users.js';
import type { BrandRow, ClaimRow, NewMailMessage, NewWebhookEvent, OrderRow } from '../../storage/tables.js';
import { mailRow } from '../mail/mail-queue.js';
import { conflict, notFound, unacceptable } from '../errors.js';
import { offsetOf, type PageRequest, type Paged } from '../paging.js';
import { newId } from '../random.js';
import { isoOf, toIso } from '../time.js';
import { orderEvents } from './order-events.js';
import { webhookEvent } from '../webhooks/events.js';
import { CommissionRulesService, type CommissionRulesRepositories } from './commission-rules-service.js';
import { claimedItem, type BrandCaller } from './conversions.js';
import { auditEntry, brandActor, NETWORK, type Actor } from '../audit/audit-entry.js';
import { subIdColumns } from '../../lib/sub-ids.js';

export interface ClaimRepositories extends CommissionRulesRepositories {
  affiliates: AffiliatesRepository;
  brands: BrandsRepository;
  claims: ClaimsRepository;
  clicks: ClicksRepository;
  links: LinksRepository;
  orders: OrdersRepository;
  users: UsersRepository;
}

const DAY_MS = 86_400_000;
/** How far in the future a claimed order time may be (clock skew between the affiliate and the network). */
const FUTURE_SKEW_MS = 5 * 60_000;
/** Why the network declines a claim whose order the brand reported, attributed to another affiliate. */
const REPORTED_ELSEWHERE = 'The brand reported this order through its tracking, and it is attributed by its click.';

export function claimOf(row: ClaimRow): Claim {
  return {
    id: row.id,
    organizationId: row.organization_id,
    affiliateId: row.affiliate_id,
    orderId: row.order_id,
    orderedAt: row.ordered_at,
    value: row.value,
    currency: row.currency,
    ...(row.link_code !== null && { linkCode: row.link_code }),
    ...(row.click_id !== null && { clickId: row.click_id }),
    note: row.note,
    status: row.status as ClaimStatus,
    ...(row.accepted_value !== null && { acceptedValue: row.accepted_value }),
    ...(row.reason !== null && { reason: row.reason }),
    ...(row.resolved_by !== null && { resolvedBy: row.resolved_by as 'brand' | 'network' }),
    ...(row.resolved_at !== null && { resolvedAt: row.resolved_at }),
    ...(row.network_order_id !== null && { orderNetworkId: row.network_order_id }),
    autoAcceptAt: row.auto_accept_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The days within which an order of the brand may be claimed: its attribution window plus its validation days. */
export const claimDaysOf = (brand: Pick<BrandRow, 'attribution_window_days' | 'validation_days'>) => brand.attribution_window_days + brand.validation_days;

export class ClaimsService {
  private readonly commission: CommissionRulesService;

  constructor(
    private readonly repositories: ClaimRepositories,
    private readonly clock: Clock,
    private readonly publicUrl: string,
  ) {
    this.commission = new CommissionRulesService(repositories, clock);
  }

  /** The affiliate files a claim; refused with the reason when it cannot be (see docs/decisions.md, "Claims"). */
  async file(affiliateId: string, input: ClaimInput): Promise<Claim> {
    const { brands, claims, orders } = this.repositories;
    const brand = await brands.findVisible(affiliateId, input.organizationId);
    if (!brand || brand.setup_pending === 1) throw notFound(`brand "${input.organizationId}" is not among the brands you may promote`, 'brand_not_found');
    if (input.currency !== undefined && input.currency !== brand.currency) {
      throw unacceptable('currency_mismatch', `this brand's orders are in ${brand.currency}: give value in ${brand.currency} cents (or leave currency out)`);
    }
    const now = this.clock.now();
    const orderedAt = toIso(input.orderedAt);
    if (Date.parse(orderedAt) > now + FUTURE_SKEW_MS) throw unacceptable('invalid_order_time', 'orderedAt is in the future');
    const days = claimDaysOf(brand);
    const deadline = Date.parse(orderedAt) + days * DAY_MS;
    if (now > deadline) {
      throw unacceptable('claim_too_late', `orders of this brand may be claimed within ${days} days of the order (its attribution window of ${brand.attribution_window_days} days plus its ${brand.validation_days} validation days): this one could be claimed until ${isoOf(deadline)}`);
    }
    const existing = await orders.findBrandOrder(brand.id, input.orderId);
    if (existing) {
      // Whose it is, if not the caller's, is never said.
      throw conflict(
        'order_already_attributed',
        existing.affiliate_id === affiliateId
          ? `order "${input.orderId}" is already among your orders (GET /affiliate/orders/${existing.id}): there is nothing to claim`
          : `order "${input.orderId}" of this brand is already recorded and attributed: it cannot be claimed`,
      );
    }
    const tracked = await this.trackingOf(affiliateId, brand, input, orderedAt);
    const open = await claims.openFor(brand.id, input.orderId);
    if (open) throw openClaimConflict(open, affiliateId, input.orderId);

    const at = isoOf(now);
    const row: ClaimRow = {
      id: newId(),
      affiliate_id: affiliateId,
      organization_id: brand.id,
      order_id: input.orderId,
      ordered_at: orderedAt,
      value: input.value,
      currency: brand.currency,
      link_code: tracked.linkCode,
      click_id: tracked.clickId,
      note: input.note?.trim() ?? '',
      status: 'open',
      accepted_value: null,
      reason: null,
      resolved_by: null,
      resolved_at: null,
      network_order_id: null,
      // Its brand's days when it was filed: a later change of the setting applies to new claims.
      auto_accept_at: isoOf(now + brand.claim_auto_accept_days * DAY_MS),
      created_at: at,
      updated_at: at,
    };
    const effects = { events: this.claimEvents(row, 'claim.created'), mail: await this.filedMail(row, brand) };
    if (!(await claims.file(row, effects, at))) {
      const winner = await claims.openFor(brand.id, input.orderId);
      throw openClaimConflict(winner ?? row, affiliateId, input.orderId);
    }
    return claimOf(row);
  }

  /** The link code and click id the affiliate gave, checked as its own on this brand (and the click within the window). */
  private async trackingOf(affiliateId: string, brand: BrandRow, input: ClaimInput, orderedAt: string): Promise<{ linkCode: string | null; clickId: string | null }> {
    const { links, clicks } = this.repositories;
    if (input.linkCode !== undefined) {
      const link = await links.findByCode(input.linkCode);
      if (!link || link.affiliate_id !== affiliateId || link.organization_id !== brand.id) {
        throw unacceptable('link_not_found', `linkCode "${input.linkCode}" is not one of your links to this brand: give the code of your short link (what follows the last / of it), or leave it out`);
      }
    }
    if (input.clickId !== undefined) {
      const click = await clicks.find(input.clickId);
      if (!click || click.affiliate_id !== affiliateId || click.organization_id !== brand.id) {
        throw unacceptable('click_not_found', `clickId "${input.clickId}" is not a click on your links to this brand: leave it out if you do not know it`);
      }
      if (orderedAt < click.created_at) throw unacceptable('invalid_order_time', `orderedAt is before the click (${click.created_at})`);
      if (Date.parse(orderedAt) - Date.parse(click.created_at) > brand.attribution_window_days * DAY_MS) {
        throw unacceptable('click_expired', `the click is older than the brand's attribution window of ${brand.attribution_window_days} days`);
      }
    }
    return { linkCode: input.linkCode ?? null, clickId: input.clickId ?? null };
  }

  /** One side's claims, newest first (createdAt, then id). */
  async list(owner: { affiliateId: string } | { brandId: string }, filters: { statuses?: ClaimStatus[] }, page: PageRequest): Promise<Paged<Claim>> {
    const { rows, total } = await this.repositories.claims.list(owner, filters, offsetOf(page));
    // Each row with the other side's name.
    if ('affiliateId' in owner) {
      const names = new Map((await this.repositories.brands.byIds([...new Set(rows.map((r) => r.organization_id))])).map((b) => [b.id, b.name]));
      return { items: rows.map((row) => ({ ...claimOf(row), ...(names.has(row.organization_id) && { brandName: names.get(row.organization_id)! }) })), total };
    }
    const names = await this.repositories.affiliates.namesOf([...new Set(rows.map((r) => r.affiliate_id))]);
    return { items: rows.map((row) => ({ ...claimOf(row), ...(names.has(row.affiliate_id) && { affiliateName: names.get(row.affiliate_id)! }) })), total };
  }

  /**
   * The brand answers a claim: accepts it (at the claimed value, or its correction) or declines it
   * with a reason. The same answer again answers the claim as it is; another answer to a claim
   * already answered is 409 claim_resolved.
   */
  async answer(caller: BrandCaller, id: string, answer: ClaimAnswer): Promise<Claim> {
    const reason = answer.reason?.trim();
    if (answer.status === 'declined' && !reason) throw unacceptable('reason_required', 'say why you decline the claim (reason): the affiliate reads it');
    if (answer.status === 'declined' && answer.value !== undefined) throw unacceptable('value_not_allowed', 'value corrects the order of a claim you accept; leave it out to decline');
    for (let attempt = 0; attempt < 3; attempt++) {
      const claim = await this.repositories.claims.find(id);
      if (!claim || claim.organization_id !== caller.brandId) throw notFound(`claim "${id}" not found among claims of your orders`, 'claim_not_found');
      if (claim.status !== 'open') {
        const same = claim.status === answer.status && (answer.status === 'declined' ? claim.reason === reason : answer.value === undefined || answer.value === claim.accepted_value);
        if (same) return claimOf(claim);
        throw conflict('claim_resolved', `this claim was already ${claim.status}${claim.resolved_by === 'network' ? ' by the network (you did not answer in time)' : ''} at ${claim.resolved_at}: it cannot be answered again`);
      }
      const author: Author = { actor: `brand:${caller.brandId}`, keyId: caller.keyId };
      const actor = brandActor(caller);
      const done = answer.status === 'declined' ? await this.decline(claim, reason!, 'brand', actor) : await this.accept(claim, answer.value ?? claim.value, author, 'brand', actor);
      if (done) return claimOf((await this.repositories.claims.find(id))!);
      // Another answer came first: the same rules apply to what the claim is now.
    }
    throw conflict('concurrent_update', 'the claim changed while this request was processed; read it again and retry');
  }

  /**
   * The network accepts, at the claimed value, each open claim whose brand did not answer by its
   * auto-accept time; how many it resolved. Each is resolved once however many instances run this
   * at the same moment: an answer applies only to a claim still open.
   */
  async autoAccept(batch = 200): Promise<number> {
    let resolved = 0;
    for (;;) {
      const due = await this.repositories.claims.openDueBy(this.clock.iso(), batch);
      for (const claim of due) if (await this.accept(claim, claim.value, { actor: 'network' }, 'network', NETWORK)) resolved++;
      if (due.length < batch) return resolved;
    }
  }

  /**
   * Accepts an open claim at `value`: records its order, unless the brand reported that order id
   * meanwhile. The claimant's own order then stands for it; another affiliate's makes the brand
   * decide (409 order_exists) or the network decline it. False when the claim was no longer open.
   */
  private async accept(claim: ClaimRow, value: number, author: Author, by: 'brand' | 'network', actor: Actor): Promise<boolean> {
    const { brands, orders, claims } = this.repositories;
    for (;;) {
      const existing = await orders.findBrandOrder(claim.organization_id, claim.order_id);
      if (existing && existing.affiliate_id !== claim.affiliate_id) {
        if (by === 'network') return this.decline(claim, REPORTED_ELSEWHERE, 'network', actor);
        throw conflict('order_exists', `you reported order "${claim.order_id}" already (network id ${existing.id}, attributed to affiliate ${existing.affiliate_id} by its click): decline this claim, saying so`);
      }
      const now = this.clock.iso();
      const brand = (await brands.find(claim.organization_id))!;
      const order = existing ? undefined : await this.orderOf(claim, brand, value);
      const resolved: ClaimRow = { ...claim, status: 'accepted', accepted_value: value, resolved_by: by, resolved_at: now, network_order_id: existing?.id ?? order!.id, updated_at: now };
      const events = this.claimEvents(resolved, 'claim.resolved');
      if (order) events.push(...(await orderEvents(this.repositories.affiliates, this.clock, order, 'created')));
      const audit = auditEntry(actor, {
        action: 'claim.accepted',
        subject: { kind: 'claim', id: claim.id },
        members: { affiliateId: claim.affiliate_id, brandId: claim.organization_id },
        before: { status: 'open', value: claim.value },
        after: { status: 'accepted', value, order: resolved.network_order_id, ...(order && { commissionStatus: order.commission_status, commission: order.commission }) },
      });
      const outcome = await claims.accept(claim, { value, by, orderNetworkId: resolved.network_order_id!, ...(order && { order }) }, author, now, { events, mail: await this.resolvedMail(resolved, brand), audit: [audit] });
      if (outcome !== 'order_exists') return outcome === 'accepted';
      // The brand reported the order id while this was decided: look again.
    }
  }

  private async decline(claim: ClaimRow, reason: string, by: 'brand' | 'network', actor: Actor): Promise<boolean> {
    const now = this.clock.iso();
    const resolved: ClaimRow = { ...claim, status: 'declined', reason, resolved_by: by, resolved_at: now, updated_at: now };
    const brand = (await this.repositories.brands.find(claim.organization_id))!;
    const audit = auditEntry(actor, {
      action: 'claim.declined',
      subject: { kind: 'claim', id: claim.id },
      members: { affiliateId: claim.affiliate_id, brandId: claim.organization_id },
      before: { status: 'open', value: claim.value },
      after: { status: 'declined' },
      reason,
    });
    const effects: ClaimEffects = { events: this.claimEvents(resolved, 'claim.resolved'), mail: await this.resolvedMail(resolved, brand), audit: [audit] };
    return this.repositories.claims.decline(claim, { reason, by }, now, effects);
  }

  /** The order an accepted claim records: pending, at the brand's rule now, locking like any order reported now. */
  private async orderOf(claim: ClaimRow, brand: BrandRow, value: number): Promise<OrderRow> {
    const { links, clicks } = this.repositories;
    const now = this.clock.now();
    // What the affiliate said of its link or click, when it is still there.
    const click = claim.click_id === null ? undefined : await clicks.find(claim.click_id);
    const link = claim.link_code === null ? undefined : await links.findByCode(claim.link_code);
    const ownClick = click && click.affiliate_id === claim.affiliate_id ? click : undefined;
    const ownLink = link && link.affiliate_id === claim.affiliate_id && link.organization_id === claim.organization_id ? link : undefined;
    // A suspended affiliate earns nothing, a claimed sale included (as a reported one: conversions.ts).
    const suspended = Boolean((await this.repositories.affiliates.standingOf(claim.affiliate_id))?.suspended_at);
    const order: OrderRow = {
      id: newId(),
      order_id: claim.order_id,
      organization_id: claim.organization_id,
      affiliate_id: claim.affiliate_id,
      link_id: ownClick?.link_id ?? ownLink?.id ?? null,
      click_id: ownClick?.id ?? null,
      channel_id: ownClick?.channel_id ?? ownLink?.channel_id ?? null,
      mdasc: ownClick?.mdasc ?? null,
      status: 'pending',
      commission_status: suspended ? 'canceled' : 'pending',
      commission_reason: suspended ? 'affiliate_suspended' : null,
      value,
      commission: 0,
      // Set from the terms in force below.
      commission_transfer: brand.commission_transfer,
      commission_value: brand.commission_value,
      commission_rules_version: 0,
      commission_lines: null,
      currency: claim.currency,
      items: JSON.stringify([claimedItem(value)]),
      click_created_at: ownClick?.created_at ?? null,
      click_country: ownClick?.country ?? null,
      ...subIdColumns(ownClick?.sub_ids),
      link_code: ownClick ? ((await links.codeOf(ownClick.link_id)) ?? null) : (ownLink?.code ?? null),
      paid_at: null,
      payout_id: null,
      statement_id: null,
      payable_at: null,
      lock_at: isoOf(now + brand.validation_days * DAY_MS),
      auto_approved: 0,
      source: 'claim',
      attribution: 'claim',
      hold_reasons: null,
      hold_facts: null,
      customer_hash: null,
      customer_is_new: null,
      coupon: null,
      coupon_key: null,
      coupon_affiliate_id: null,
      created_at: claim.ordered_at,
      updated_at: isoOf(now),
    };
    // The brand's rules in force now, as for an order reported now.
    return { ...order, ...(await this.commission.commissionInForce(order, brand)) };
  }

  /** The claim's event to both sides. */
  private claimEvents(claim: ClaimRow, type: 'claim.created' | 'claim.resolved'): NewWebhookEvent[] {
    const data = claimOf(claim);
    return [webhookEvent({ kind: 'affiliate', id: claim.affiliate_id }, type, data, this.clock), webhookEvent({ kind: 'brand', id: claim.organization_id }, type, data, this.clock)];
  }

  /** To the brand's owners: a claim to answer. */
  private async filedMail(claim: ClaimRow, brand: BrandRow): Promise<NewMailMessage[]> {
    const owners = await ownersOf(this.repositories.users, { brandId: brand.id });
    const account = (await this.repositories.affiliates.nameOf(claim.affiliate_id)) ?? claim.affiliate_id;
    const values = { account, orderId: claim.order_id, amount: claim.value, currency: claim.currency, when: claim.auto_accept_at, url: `${this.publicUrl}/app/claims` };
    return owners.map((owner) => mailRow({ to: owner.email, template: 'claim-filed', locale: owner.language ?? 'en', values }));
  }

  /** To the affiliate's owners: the brand's (or the network's) answer. */
  private async resolvedMail(claim: ClaimRow, brand: BrandRow): Promise<NewMailMessage[]> {
    const owners = await ownersOf(this.repositories.users, { affiliateId: claim.affiliate_id });
    const values = {
      account: brand.name,
      orderId: claim.order_id,
      amount: claim.accepted_value ?? claim.value,
      currency: claim.currency,
      outcome: claim.status as 'accepted' | 'declined',
      ...(claim.resolved_by === 'network' && { byNetwork: true }),
      ...(claim.reason !== null && { reason: claim.reason }),
      url: `${this.publicUrl}/app/claims`,
    };
    return owners.map((owner) => mailRow({ to: owner.email, template: 'claim-resolved', locale: owner.language ?? 'en', values }));
  }
}

/** An open claim of the order id is in the way: the caller's own (named), or another's (not). */
function openClaimConflict(open: ClaimRow, affiliateId: string, orderId: string) {
  return conflict(
    'claim_open',
    open.affiliate_id === affiliateId
      ? `you already claimed order "${orderId}" (claim ${open.id}): it awaits the brand's answer`
      : `order "${orderId}" of this brand is already claimed and awaits the brand's answer`,
  );
}
