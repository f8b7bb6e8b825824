// Conversions reported by brands: attributed by the click or the coupon code they bring (see
// attribution.ts), with the commission computed from the brand's rule, idempotent per brand order id. A click that did not
// count as a person's (a bot, a HEAD request, a suspicious click), and any click of an affiliate
// the network suspended, earns nothing: its conversion is stored with the commission canceled
// from the start. A conversion that trips a fraud rule is stored with its commission held for the
// network's review (src/domain/orders/holds.ts).
import type { Conversion } from '../../schemas/conversion.js';
import type { CommissionReason, HoldReason, OrderAttribution, OrderItem, OrderSource } from '../../schemas/order.js';
import type { Clock } from '../../lib/clock.js';
import type { AffiliatesRepository } from '../../storage/repositories/affiliates.js';
import type { BrandsRepository } from '../../storage/repositories/brands.js';
import type { ClicksRepository } from '../../storage/repositories/clicks.js';
import type { CouponsRepository } from '../../storage/repositories/coupons.js';
import type { LinksRepository } from '../../storage/repositories/links.js';
import type { BrandOrderFilters, OrderChange, OrdersRepository, PlannedOrderChange } from '../../storage/repositories/orders.js';
import type { BrandRow, ClickRow, OrderEventRow, OrderRow } from '../../storage/tables.js';
import { orderEvents } from './order-events.js';
import { offsetOf, type PageRequest, type Paged } from '../paging.js';
import { conflict, notFound, unacceptable } from '../errors.js';
import { newId } from '../random.js';
import { toIso } from '../time.js';
import { Attribution, type Attributed, type AttributionBrand, type ClickSource } from './attribution.js';
import { couponKeyOf } from './coupon-codes.js';
import { CommissionRulesService, type CommissionRulesRepositories } from './commission-rules-service.js';
import { checkOrderMove, commissionAfter, type CommissionStatus, type OrderStatus } from './lifecycle.js';
import { entriesOfChange } from '../ledger/entries.js';
import type { Effects } from '../../storage/repositories/effects.js';
import type { FraudRules, HoldFacts } from './fraud-rules.js';
import { auditEntry, brandActor, type Actor } from '../audit/audit-entry.js';
import { subIdColumns } from '../../lib/sub-ids.js';

export interface ConversionRepositories extends CommissionRulesRepositories {
  affiliates: AffiliatesRepository;
  brands: BrandsRepository;
  clicks: ClicksRepository;
  coupons: CouponsRepository;
  links: LinksRepository;
  orders: OrdersRepository;
}

/** An order line as a brand reports it: the category may be left out (0, unknown). */
export type ReportedItem = Omit<OrderItem, 'categories'> & { categories?: number | undefined };

/** The lines as stored: a category left out is 0 (unknown). */
export const linesOf = (items: readonly ReportedItem[]): OrderItem[] => items.map((item) => ({ ...item, categories: item.categories ?? 0 }));

/** A conversion as reported, its lines' categories optional. */
export type ConversionReport = Omit<ReportedConversion, 'items'> & { items: ReportedItem[] };

/** Whether an order came from the shop's pages (the tag or the pixel), which the brand's server may still correct. */
export const fromPages = (source: string | undefined): boolean => source === 'tag' || source === 'pixel';

export interface ReportedConversion {
  /** The click the order came from; optional when coupon is given. */
  clickId?: string | undefined;
  /** The coupon code the customer used. */
  coupon?: string | undefined;
  orderId: string;
  value: number;
  items: OrderItem[];
  createdAt?: string;
  /**
   * The route it came through: POST /advertiser/conversions (api, the default), GET /postback with
   * a postback token, or the shop's pages (tag, pixel) with the brand's publishable key.
   */
  source?: 'api' | 'postback' | 'tag' | 'pixel';
  /** What the brand knows of the customer: emailHash is hex SHA-256 of the trimmed, lowercased address. */
  customer?: { isNew?: boolean | undefined; emailHash?: string | undefined } | undefined;
}

/** The fraud rules new conversions are checked against, and what is told when one is held. */
export interface FraudCheck {
  rules: FraudRules;
  notices(order: OrderRow): Promise<Effects>;
}

const DAY_MS = 86_400_000;
/** How far in the future a reported order time may be (clock skew between brand and network). */
const FUTURE_SKEW_MS = 5 * 60_000;

/** The one item of an order recorded from a claim: the sale at its value. */
export function claimedItem(value: number): OrderItem {
  return { id: 'claim', name: 'Claimed sale', quantity: 1, price: value, categories: 0 };
}

/** Items may differ from the order value by rounding, shipping or discounts: 1 % or 100 cents. */
export function itemsTolerance(value: number): number {
  return Math.max(100, Math.floor(value / 100));
}

export function conversionOf(row: OrderRow): Conversion {
  return {
    id: row.id,
    orderId: row.order_id,
    ...(row.click_id !== null && { clickId: row.click_id }),
    status: row.status as Conversion['status'],
    commissionStatus: row.commission_status as Conversion['commissionStatus'],
    ...(row.commission_reason ? { commissionReason: row.commission_reason as CommissionReason } : {}),
    ...(row.hold_reasons ? { holdReasons: JSON.parse(row.hold_reasons) as HoldReason[] } : {}),
    value: row.value,
    commission: row.commission,
    currency: row.currency,
    items: JSON.parse(row.items) as OrderItem[],
    affiliateId: row.affiliate_id,
    ...(row.link_code !== null && { linkCode: row.link_code }),
    ...(row.mdasc !== null && { mdasc: row.mdasc }),
    ...(row.click_created_at !== null && { clickedAt: row.click_created_at }),
    lockAt: row.lock_at,
    autoApproved: row.auto_approved === 1,
    source: row.source as OrderSource,
    attribution: row.attribution as OrderAttribution,
    ...(row.customer_is_new !== null && row.customer_is_new !== undefined && { customer: { isNew: row.customer_is_new === 1 } }),
    ...(row.coupon !== null && row.coupon !== undefined && { coupon: row.coupon }),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/**
 * Why a click earns no commission: its affiliate is suspended now (`affiliateSuspended`) or was
 * when the click was made (only then are a link's clicks flagged suspended: a suspended brand's
 * links carry no click id); or it did not count as a person's click. A repeat (the same visitor
 * again within the repeat window) is still that person's click and earns normally.
 */
export function commissionReasonOf(click: Pick<ClickRow, 'is_bot' | 'is_head' | 'is_suspicious' | 'is_suspended'>, affiliateSuspended = false): CommissionReason | undefined {
  if (affiliateSuspended || click.is_suspended) return 'affiliate_suspended';
  if (click.is_bot) return 'bot_click';
  if (click.is_head) return 'head_click';
  if (click.is_suspicious) return 'suspicious_click';
  return undefined;
}

function sameOrConflict(existing: OrderRow, input: ReportedConversion): Conversion {
  const coupon = input.coupon?.trim() || undefined;
  const sameCoupon = (existing.coupon_key ?? undefined) === (coupon === undefined ? undefined : couponKeyOf(coupon));
  if (existing.value !== input.value || existing.click_id !== (input.clickId ?? null) || !sameCoupon) {
    throw conflict(
      'order_conflict',
      `order "${input.orderId}" was already reported with value ${existing.value}, clickId ${existing.click_id ?? 'none'} and coupon ${existing.coupon ?? 'none'}; an order cannot be reported twice with different data`,
    );
  }
  return conversionOf(existing);
}

export class ConversionsService {
  private readonly attribution: Attribution;
  private readonly commission: CommissionRulesService;

  constructor(
    private readonly repositories: ConversionRepositories,
    clickSource: ClickSource,
    private readonly clock: Clock,
    /**
     * How long a click may wait in another instance's buffer before it is written: an unknown
     * click id is looked up again every 100 ms for this long before the report is refused (0 alone).
     */
    clickWriteDelayMs: number,
    /** None: no rule is checked (tools that replay known orders, such as the demo data). */
    private readonly fraud?: FraudCheck,
  ) {
    this.attribution = new Attribution(repositories, clickSource, clock, clickWriteDelayMs);
    this.commission = new CommissionRulesService(repositories, clock);
  }

  async report(caller: BrandCaller, reported: ConversionReport): Promise<{ created: boolean; conversion: Conversion }> {
    const input: ReportedConversion = { ...reported, items: linesOf(reported.items) };
    const { brandId } = caller;
    const { brands, orders, links } = this.repositories;
    const brand = await brands.find(brandId);
    if (!brand) throw notFound('brand not found', 'brand_not_found');

    // A replay of a known order by the brand is answered before anything else is checked: it changes nothing.
    const existing = await orders.findBrandOrder(brandId, input.orderId);
    // The shop's pages never change an order already known (from them or from the brand's server).
    // Their report is checked as a new order's all the same: with a public key, its answer must
    // not tell which order ids exist.
    if (existing && fromPages(input.source)) {
      await this.decided(brand, input, input.items, this.clock.now());
      return { created: false, conversion: conversionOf(existing) };
    }
    if (existing?.source === 'claim') return { created: false, conversion: await this.reportOfClaimed(caller, existing, input, await this.attributionOf(brand, input)) };
    if (existing && fromPages(existing.source)) return { created: false, conversion: await this.reportOverPages(caller, brand, existing, input) };
    if (existing) return { created: false, conversion: sameOrConflict(existing, input) };

    const now = this.clock.now();
    const { orderTime, won } = await this.decided(brand, input, input.items, now);
    const { click } = won;

    const affiliateSuspended = Boolean((await this.repositories.affiliates.standingOf(won.affiliateId))?.suspended_at);
    // A click that did not count earns nothing when it decides; a coupon decides for itself.
    const reason = won.attribution === 'click' && click ? commissionReasonOf(click, affiliateSuspended) : affiliateSuspended ? 'affiliate_suspended' : undefined;
    const recordedAt = new Date(now).toISOString();
    const emailHash = input.customer?.emailHash?.toLowerCase();
    // Every conversion is checked (the HMAC of the customer's address is kept either way); one whose
    // click did not count is not held: it earns nothing already. The rules about clicks apply to
    // orders a click earned, not to a coupon's.
    const ruledClick = won.attribution === 'click' ? click : undefined;
    const verdict = this.fraud ? await this.fraud.rules.evaluate({ affiliateId: won.affiliateId, brandId, ...(ruledClick && { click: ruledClick }), orderTime, emailHash }) : undefined;
    const holdReasons = !reason && verdict && verdict.reasons.length > 0 ? verdict.reasons : undefined;
    const isNew = input.customer?.isNew;
    const order: OrderRow = {
      id: newId(),
      order_id: input.orderId,
      organization_id: brandId,
      affiliate_id: won.affiliateId,
      link_id: click?.link_id ?? null,
      click_id: won.clickId ?? null,
      channel_id: click?.channel_id ?? null,
      mdasc: click?.mdasc ?? null,
      status: 'pending',
      // Nothing is owed for a click that did not count (or a suspended affiliate's): 0, not the
      // amount it would have earned, so sums of commissions reconcile whatever their status.
      commission_status: reason ? 'canceled' : holdReasons ? 'held' : 'pending',
      commission_reason: reason ?? null,
      value: input.value,
      commission: 0,
      // The default rule and the rules version the commission is computed with (the terms in
      // force, set below), kept for corrections of this order.
      commission_transfer: brand.commission_transfer,
      commission_value: brand.commission_value,
      commission_rules_version: 0,
      commission_lines: null,
      currency: brand.currency,
      items: JSON.stringify(input.items),
      click_created_at: click?.created_at ?? null,
      click_country: click?.country ?? null,
      // The affiliate's own labels go with its click (a coupon's order without its click has none).
      ...subIdColumns(click?.sub_ids),
      link_code: click ? ((await links.codeOf(click.link_id)) ?? null) : null,
      paid_at: null,
      payout_id: null,
      statement_id: null,
      payable_at: null,
      // From the report (not the order's own time): the brand always has its full validation days.
      lock_at: new Date(now + brand.validation_days * DAY_MS).toISOString(),
      auto_approved: 0,
      source: input.source ?? 'api',
      attribution: won.attribution,
      hold_reasons: holdReasons ? JSON.stringify(holdReasons) : null,
      hold_facts: holdReasons ? JSON.stringify({ rules: verdict!.facts, heldAt: recordedAt } satisfies HoldFacts) : null,
      customer_hash: verdict?.customerHash ?? null,
      customer_is_new: isNew === undefined ? null : isNew ? 1 : 0,
      coupon: won.coupon?.code ?? null,
      coupon_key: won.coupon?.key ?? null,
      coupon_affiliate_id: won.coupon?.affiliateId ?? null,
      created_at: orderTime,
      updated_at: recordedAt,
    };
    Object.assign(order, await this.commission.commissionInForce(order, brand));
    const events = await orderEvents(this.repositories.affiliates, this.clock, order, 'created');
    const notices: Effects = holdReasons && this.fraud ? await this.fraud.notices(order) : {};
    const effects: Effects = { ...notices, events: [...events, ...(notices.events ?? [])] };
    const { created, row } = await orders.createOnce(order, { actor: `brand:${brandId}`, keyId: caller.keyId }, recordedAt, effects);
    // A concurrent report of the same order may have won the insert: the same rules then apply.
    if (!created && fromPages(input.source)) return { created, conversion: conversionOf(row) };
    if (!created && row.source === 'claim') return { created, conversion: await this.reportOfClaimed(caller, row, input, won) };
    if (!created && fromPages(row.source)) return { created, conversion: await this.reportOverPages(caller, brand, row, input) };
    return { created, conversion: created ? conversionOf(row) : sameOrConflict(row, input) };
  }

  /**
   * A report as the order's first: its time (createdAt, else `now`), who gets it, its lines
   * checked against its value; refused as such a report is.
   */
  private async decided(brand: AttributionBrand, input: ReportedConversion, items: OrderItem[], now: number): Promise<{ orderTime: string; won: Attributed }> {
    const orderTime = input.createdAt ? toIso(input.createdAt) : new Date(now).toISOString();
    if (Date.parse(orderTime) > now + FUTURE_SKEW_MS) throw unacceptable('invalid_order_time', 'createdAt is in the future');
    const won = await this.attribution.decide(brand, { clickId: input.clickId, coupon: input.coupon, orderTime });
    checkItems(items, input.value);
    return { orderTime, won };
  }

  /** Who a report of an order a claim recorded names: the claim set the order's time, which the click is not checked against. */
  private attributionOf(brand: AttributionBrand, input: ReportedConversion): Promise<Attributed> {
    return this.attribution.decide(brand, { clickId: input.clickId, coupon: input.coupon });
  }

  /**
   * The brand's server reports an order the shop's pages (the tag or the pixel) reported first.
   * While that order is pending, the server's report is the order, decided as if it had come
   * first: its time (createdAt, else now), its click or code and so its affiliate, its value and
   * items, its customer and its source; the commission recomputed with the rule the order was
   * recorded under, and its hold judged again on these facts, whatever hold the pages' report
   * brought (a public key can report an order id before the shop uses it). Every change is in its
   * history. Once the brand approved or canceled it, today's rule stands: the same data is the
   * same order, other data a conflict.
   */
  private async reportOverPages(caller: BrandCaller, brand: BrandRow, existing: OrderRow, input: ReportedConversion): Promise<Conversion> {
    if (existing.status !== 'pending') return sameOrConflict(existing, input);
    const nowMs = this.clock.now();
    const now = new Date(nowMs).toISOString();
    const held = existing.commission_status === 'held';
    if (now >= existing.lock_at && !held) throw conflict('order_locked', `order "${input.orderId}" locked at ${existing.lock_at}: it can no longer take another value`);
    const items = reportedLines(existing, input);
    const { orderTime, won } = await this.decided(brand, input, items, nowMs);
    const next: OrderChange = { source: input.source ?? 'api', value: input.value, items: JSON.stringify(items), created_at: orderTime, ...(await this.attributedFacts(won)) };
    const isNew = input.customer?.isNew;
    if (isNew !== undefined) next.customer_is_new = isNew ? 1 : 0;
    const moved = won.affiliateId !== existing.affiliate_id;
    Object.assign(next, await this.judgedAgain(brand, existing, won, { orderTime, emailHash: input.customer?.emailHash, moved, nowMs }));
    // Recomputed with the order's rules version, on the facts it has now (0 while its reason stands).
    const { commission, commission_lines } = await this.commission.commissionOf({ ...existing, ...next }, existing.commission_rules_version);
    Object.assign(next, { commission, commission_lines });
    const changed: OrderRow = { ...existing, ...next, updated_at: now };
    // An order that moved to another affiliate is new to that affiliate; the first one, whose
    // pending (or held) order it was, is sent nothing more of it.
    const events = await orderEvents(this.repositories.affiliates, this.clock, changed, 'updated', undefined, moved ? 'created' : 'updated');
    const heldNow = changed.commission_status === 'held';
    const notices: Effects = heldNow && (!held || moved) && this.fraud ? await this.fraud.notices(changed) : {};
    // The brand hears of the change once, by the conversion.updated above.
    const outbox = [...events, ...(notices.events ?? []).filter((event) => event.owner_kind !== 'brand')];
    const audit = [...(held && (!heldNow || moved) ? [holdEndedEntry(brandActor(caller), existing, changed, moved)] : []), ...(notices.audit ?? [])];
    if (!(await this.repositories.orders.change(existing, next, { actor: `brand:${caller.brandId}`, keyId: caller.keyId }, now, outbox, [], { mail: notices.mail ?? [], audit }))) {
      throw conflict('concurrent_update', 'the order changed while this request was processed; retry');
    }
    return conversionOf(changed);
  }

  /**
   * The commission status, its reason and the hold of an order the brand's server takes over, on
   * the server's facts. The network's decision on the hold of the same affiliate's order stands (a
   * decline is never revived, a release not undone); otherwise the rules judge the server's click,
   * time and customer afresh, the order itself not counted twice.
   */
  private async judgedAgain(
    brand: BrandRow,
    existing: OrderRow,
    won: Attributed,
    facts: { orderTime: string; emailHash: string | undefined; moved: boolean; nowMs: number },
  ): Promise<OrderChange> {
    const suspended = Boolean((await this.repositories.affiliates.standingOf(won.affiliateId))?.suspended_at);
    const reason = (won.attribution === 'click' && won.click ? commissionReasonOf(won.click, suspended) : suspended ? 'affiliate_suspended' : undefined) ?? null;
    const kept = existing.hold_facts === null ? undefined : (JSON.parse(existing.hold_facts) as HoldFacts);
    if (kept?.resolution && !facts.moved) {
      if (existing.commission_reason === 'fraud_declined') return {};
      return { commission_status: reason ? 'canceled' : 'pending', commission_reason: reason };
    }
    const ruledClick = won.attribution === 'click' ? won.click : undefined;
    const verdict = this.fraud
      ? await this.fraud.rules.evaluate({
          affiliateId: won.affiliateId,
          brandId: brand.id,
          ...(ruledClick && { click: ruledClick }),
          orderTime: facts.orderTime,
          emailHash: facts.emailHash?.toLowerCase(),
          customerHash: existing.customer_hash,
          storedOrderId: existing.id,
        })
      : undefined;
    const customer: OrderChange = { customer_hash: verdict?.customerHash ?? existing.customer_hash };
    const wasHeld = existing.commission_status === 'held';
    const holdReasons = !reason && verdict && verdict.reasons.length > 0 ? verdict.reasons : undefined;
    if (holdReasons) {
      // A hold of the same affiliate's order that goes on keeps the time it began.
      const heldAt = wasHeld && !facts.moved && kept ? kept.heldAt : new Date(facts.nowMs).toISOString();
      return { ...customer, commission_status: 'held', commission_reason: null, hold_reasons: JSON.stringify(holdReasons), hold_facts: JSON.stringify({ rules: verdict!.facts, heldAt } satisfies HoldFacts) };
    }
    return {
      ...customer,
      commission_status: reason ? 'canceled' : 'pending',
      commission_reason: reason,
      hold_reasons: null,
      hold_facts: null,
      // A hold that ends gives the brand its full validation days from now, as a release does.
      ...(wasHeld && { lock_at: new Date(facts.nowMs + brand.validation_days * DAY_MS).toISOString() }),
    };
  }

  /** What an order copies of what attributed it: who gets it, and the click's link, channel and facts or the code. */
  private async attributedFacts(won: Attributed) {
    const { click } = won;
    return {
      affiliate_id: won.affiliateId,
      link_id: click?.link_id ?? null,
      click_id: won.clickId ?? null,
      channel_id: click?.channel_id ?? null,
      mdasc: click?.mdasc ?? null,
      click_created_at: click?.created_at ?? null,
      click_country: click?.country ?? null,
      ...subIdColumns(click?.sub_ids),
      link_code: click ? ((await this.repositories.links.codeOf(click.link_id)) ?? null) : null,
      attribution: won.attribution,
      coupon: won.coupon?.code ?? null,
      coupon_key: won.coupon?.key ?? null,
      coupon_affiliate_id: won.coupon?.affiliateId ?? null,
    } satisfies OrderChange;
  }

  /**
   * The brand's server reports an order that an affiliate's claim recorded first. The click (or
   * coupon) must be that affiliate's (another's is different facts: 409 order_conflict); while the order is pending
   * (and not locked) it takes the server's value and items, its commission recomputed with the rule
   * it was recorded under, the change in its history; once approved or canceled, only the same
   * value is the same order.
   */
  private async reportOfClaimed(caller: BrandCaller, existing: OrderRow, input: ReportedConversion, won: Attributed): Promise<Conversion> {
    if (won.affiliateId !== existing.affiliate_id) {
      const what = won.attribution === 'click' ? `clickId ${input.clickId} is another affiliate's click` : `coupon ${input.coupon} is another affiliate's code`;
      throw conflict('order_conflict', `order "${input.orderId}" was recorded from a claim of affiliate ${existing.affiliate_id}, and ${what}; an order cannot be reported twice with different data`);
    }
    const next = existing.status === 'pending' ? await planChange(existing, { value: input.value, items: reportedLines(existing, input) }, this.commission) : {};
    if (Object.keys(next).length === 0) {
      if (existing.value !== input.value) throw conflict('order_conflict', `order "${input.orderId}" was recorded from a claim with value ${existing.value} and is ${existing.status}: it can no longer take another value`);
      return conversionOf(existing);
    }
    const now = this.clock.iso();
    if (now >= existing.lock_at) throw conflict('order_locked', `order "${input.orderId}" locked at ${existing.lock_at}: it can no longer take another value`);
    const changed: OrderRow = { ...existing, ...next, updated_at: now };
    const events = await orderEvents(this.repositories.affiliates, this.clock, changed, 'updated');
    if (!(await this.repositories.orders.change(existing, next, { actor: `brand:${caller.brandId}`, keyId: caller.keyId }, now, events))) {
      throw conflict('concurrent_update', 'the order changed while this request was processed; retry');
    }
    return conversionOf(changed);
  }

  /**
   * A brand changes one of its orders: approves or cancels it (the commission follows, unless it
   * was canceled from the start, which it stays), and, while it is pending, corrects its value or
   * items (a partial refund, a returned item). A correction recomputes the commission in cents
   * with the rule the order was created under. Every change is audited with the key it came with.
   */
  async update(caller: BrandCaller, orderId: string, requested: ConversionChange): Promise<Conversion> {
    const { orders } = this.repositories;
    const current = await orders.findBrandOrder(caller.brandId, orderId);
    if (!current) throw notFound(`order "${orderId}" not found among your conversions`);
    const planned = await this.decision(caller, current, requested, this.clock.iso());
    if (!planned) return conversionOf(current); // a retried request changes nothing
    if (!(await orders.change(planned.current, planned.next, planned.author, planned.now, planned.outbox, planned.ledger, planned.more))) {
      // Another request changed the order first: the same rules apply to what it is now.
      const latest = (await orders.findBrandOrder(caller.brandId, orderId))!;
      if (Object.keys(await planChange(latest, { ...requested, items: requested.items && linesOf(requested.items) }, this.commission)).length === 0) return conversionOf(latest);
      throw conflict('concurrent_update', 'the order changed while this request was processed; read it again and retry');
    }
    return conversionOf({ ...current, ...planned.next, updated_at: planned.now });
  }

  /**
   * A brand's decision on its order `current`, planned and not made: the columns it sets, its
   * history's author, its webhook events, ledger entries and audit entry; undefined when it changes
   * nothing. Refused as PATCH refuses it (a held order's approval, a locked order, a final status).
   * `update` makes one at once; a reconciliation makes many in one transaction.
   */
  async decision(caller: BrandCaller & { reconciliationId?: string }, current: OrderRow, requested: ConversionChange, now: string): Promise<PlannedOrderChange | undefined> {
    const change = { ...requested, items: requested.items && linesOf(requested.items) };
    const orderId = current.order_id;
    const held = current.commission_status === 'held';
    if (held && change.status === 'approved') {
      throw conflict(
        'commission_held',
        `order "${orderId}" is held for the network's fraud review (see holdReasons): it cannot be approved until the network releases it (then until its new lockAt, after which the network approves it); you may still cancel it, or correct its value and items`,
      );
    }
    const next = await planChange(current, change, this.commission);
    if (Object.keys(next).length === 0) return undefined;
    // A held commission never locks: its lock date is set anew when it is released.
    if (now >= current.lock_at && !held) {
      throw conflict('order_locked', `order "${orderId}" locked at ${current.lock_at} (your validation days after it was reported): it can no longer be changed${current.status === 'pending' ? '; the network approves it' : ''}`);
    }
    const changed: OrderRow = { ...current, ...next, updated_at: now };
    const settled = next.commission_status === 'approved' || next.commission_status === 'canceled' ? next.commission_status : undefined;
    const outbox = await orderEvents(this.repositories.affiliates, this.clock, changed, 'updated', settled);
    const audit = decisionEntry(brandActor(caller), current, changed, next, change.reason);
    return {
      current,
      next,
      author: { actor: `brand:${caller.brandId}`, ...(caller.keyId !== undefined && { keyId: caller.keyId }), ...(caller.reconciliationId !== undefined && { reconciliationId: caller.reconciliationId }) },
      now,
      outbox,
      ledger: entriesOfChange(current, next),
      more: { audit: [audit] },
    };
  }

  /** The brand's orders, newest first (createdAt, then id). */
  async list(brandId: string, filters: BrandOrderFilters, page: PageRequest): Promise<Paged<Conversion>> {
    const { rows, total } = await this.repositories.orders.listForBrand(brandId, filters, offsetOf(page));
    return { items: rows.map(conversionOf), total };
  }

  /** One of the brand's orders by its own order id, with its audit trail (oldest first). */
  async get(brandId: string, orderId: string): Promise<{ conversion: Conversion; history: ConversionEvent[] }> {
    const row = await this.repositories.orders.findBrandOrder(brandId, orderId);
    if (!row) throw notFound(`order "${orderId}" not found among your conversions`);
    const events = await this.repositories.orders.historyOf(row.id);
    return { conversion: conversionOf(row), history: events.map(eventOf) };
  }
}

/** Who calls: the brand, and the key (or postback token) it called with, for the audit trail. */
export interface BrandCaller {
  brandId: string;
  /** The credential the brand came with (an API key's id, a portal user's); none for the demo data's own reports. */
  keyId?: string;
  /** The client address it called from. */
  address?: string;
}

/** What the trail keeps of an order around a brand's decision: its statuses, and value, commission and lines when they change. */
function decisionFacts(row: OrderRow, next: OrderChange): Record<string, unknown> {
  return {
    status: row.status,
    commissionStatus: row.commission_status,
    ...(next.value !== undefined && { value: row.value }),
    ...(next.commission !== undefined && { commission: row.commission }),
    ...(next.items !== undefined && { items: (JSON.parse(row.items) as unknown[]).length }),
  };
}

/** The audit entry of a brand's change of its order: approved, canceled, or corrected (value or lines). */
function decisionEntry(actor: Actor, current: OrderRow, changed: OrderRow, next: OrderChange, reason: string | undefined) {
  return auditEntry(actor, {
    action: next.status ? `conversion.${next.status}` : 'conversion.corrected',
    subject: { kind: 'order', id: current.id },
    members: { affiliateId: current.affiliate_id, brandId: current.organization_id },
    before: decisionFacts(current, next),
    after: decisionFacts(changed, next),
    reason: reason?.trim() || undefined,
  });
}

/**
 * The audit entry of a hold the brand's server report ended: the order is judged on the server's
 * facts now. An affiliate that lost the order is not among its readers.
 */
function holdEndedEntry(actor: Actor, current: OrderRow, changed: OrderRow, moved: boolean) {
  return auditEntry(actor, {
    action: 'order.hold_ended',
    subject: { kind: 'order', id: current.id },
    members: { brandId: current.organization_id, ...(!moved && { affiliateId: current.affiliate_id }) },
    before: { commissionStatus: current.commission_status, holdReasons: current.hold_reasons === null ? [] : (JSON.parse(current.hold_reasons) as HoldReason[]) },
    after: { commissionStatus: changed.commission_status, source: changed.source },
  });
}

/** What a brand may change on its order; at least one of them. */
export interface ConversionChange {
  status?: 'approved' | 'canceled';
  value?: number;
  items?: ReportedItem[] | undefined;
  /** Why: kept in the audit trail, which the affiliate reads. */
  reason?: string;
}

/** One entry of an order's audit trail, as its brand reads it. */
export interface ConversionEvent {
  field: string;
  from?: string;
  to: string;
  at: string;
  /** brand (through the API), operator (the command line) */
  by: string;
  keyId?: string;
  /** The reconciliation (the shop's order export) the change came from. */
  reconciliationId?: string;
}

function eventOf(row: OrderEventRow): ConversionEvent {
  return {
    field: row.field,
    ...(row.from_value !== null && { from: row.from_value }),
    to: row.to_value,
    at: row.created_at,
    by: row.actor.split(':')[0]!,
    ...(row.actor_key_id !== null && { keyId: row.actor_key_id }),
    ...(row.reconciliation_id !== null && row.reconciliation_id !== undefined && { reconciliationId: row.reconciliation_id }),
  };
}

/** The columns a change sets (none when it changes nothing), or why it cannot be made. */
async function planChange(current: OrderRow, change: Omit<ConversionChange, 'items'> & { items?: OrderItem[] | undefined }, rules: CommissionRulesService): Promise<OrderChange> {
  const next: OrderChange = {};
  const items = change.items === undefined ? undefined : JSON.stringify(change.items);
  const corrects = (change.value !== undefined && change.value !== current.value) || (items !== undefined && items !== current.items);
  if (corrects) {
    if (current.status !== 'pending') {
      throw conflict('order_not_pending', `order is ${current.status}: its value and items can no longer be corrected; only a pending order can be`);
    }
    const value = change.value ?? current.value;
    checkItems(change.items ?? (JSON.parse(current.items) as OrderItem[]), value);
    next.value = value;
    if (items !== undefined) next.items = items;
    // Recomputed with the rules version the order was computed with; a commission canceled from
    // the start (its click did not count) stays 0.
    const { commission, commission_lines } = await rules.commissionOf({ ...current, value, items: items ?? current.items }, current.commission_rules_version);
    if (commission !== current.commission) next.commission = commission;
    if (commission_lines !== current.commission_lines) next.commission_lines = commission_lines;
  }
  if (change.status !== undefined && change.status !== current.status) {
    checkOrderMove(current.status as OrderStatus, change.status);
    next.status = change.status;
    next.commission_status = commissionAfter(current.commission_status as CommissionStatus, change.status);
  }
  return next;
}

/**
 * The lines of an order the brand's server reports over one recorded first (by a claim or the
 * shop's pages): its own lines; a postback has none, so the recorded lines stay while they fit the
 * new value, else one item of the value stands for them.
 */
function reportedLines(existing: OrderRow, input: ReportedConversion): OrderItem[] {
  if (input.items.length > 0) return input.items;
  const lines = JSON.parse(existing.items) as OrderItem[];
  return itemsFit(lines, input.value) ? lines : [claimedItem(input.value)];
}

type PricedItem = Pick<OrderItem, 'price' | 'quantity'>;
const itemsSum = (items: PricedItem[]) => items.reduce((total, item) => total + item.price * item.quantity, 0);
/** Whether the items add up to the value, within itemsTolerance. */
const itemsFit = (items: PricedItem[], value: number) => items.length === 0 || Math.abs(itemsSum(items) - value) <= itemsTolerance(value);

/** Items may differ from the order value by rounding, shipping or discounts (see itemsTolerance). A test order is checked with it too. */
export function checkItems(items: PricedItem[], value: number): void {
  if (itemsFit(items, value)) return;
  throw unacceptable('items_mismatch', `items add up to ${itemsSum(items)} cents but value is ${value} cents (tolerance ${itemsTolerance(value)} cents)`);
}
