// A brand's commission rules (read, replaced as a whole, each save a new version kept for good),
// the commission of an order under the version it is computed with, and its explanation. Every
// commission the network stores for a reported order comes from commissionOf, through
// explainCommission: the stored commission is the explanation's total (0 when the network
// canceled it, commissionReason saying why).
import type { Clock } from '../../lib/clock.js';
import type { AffiliateGroupsRepository } from '../../storage/repositories/affiliate-groups.js';
import type { AffiliatesRepository } from '../../storage/repositories/affiliates.js';
import type { ApprovalsRepository } from '../../storage/repositories/approvals.js';
import type { UsersRepository } from '../../storage/repositories/users.js';
import type { BrandsRepository } from '../../storage/repositories/brands.js';
import type { CommissionRulesRepository } from '../../storage/repositories/commission-rules.js';
import type { CouponsRepository } from '../../storage/repositories/coupons.js';
import type { OrdersRepository } from '../../storage/repositories/orders.js';
import type { OrderItem } from '../../schemas/order.js';
import type { BrandRow, CommissionRuleVersionRow, OrderRow } from '../../storage/tables.js';
import type { Effects } from '../../storage/repositories/effects.js';
import { conflict, invalid, notFound } from '../errors.js';
import { commissionOf as defaultCommissionOf } from '../catalog/brands.js';
import { ownersOf } from '../access/owners.js';
import { mailRow } from '../mail/mail-queue.js';
import { webhookEvent } from '../webhooks/events.js';
import { isoOf } from '../time.js';
import { compareTerms, sameTerms, type CommissionTerms } from './terms-changes.js';
import { loweringInWords, loweringReason, raiseInWords, type TermsLowering } from './terms-words.js';
import { couponKeyOf } from './coupon-codes.js';
import { categoriesOfOptions, checkRules, explainCommission, type CommissionCap, type CommissionExplanation, type CommissionItemFacts, type CommissionLine, type CommissionRule, type DefaultCommission } from './commission-rules.js';

export interface CommissionRulesRepositories {
  affiliateGroups: AffiliateGroupsRepository;
  affiliates: AffiliatesRepository;
  approvals: ApprovalsRepository;
  users: UsersRepository;
  brands: BrandsRepository;
  commissionRules: CommissionRulesRepository;
  coupons: CouponsRepository;
  orders: OrdersRepository;
}

/** A version of the terms as the API shows it: its rules, and the default rule after them. */
export interface TermsView {
  version: number;
  rules: CommissionRule[];
  default: { transfer: 'cps' | 'cpa'; value: number };
  savedAt?: string;
  effectiveAt?: string;
}

/** A brand's rules as it reads them: the version in force, and the one waiting for its notice if any. */
export interface CommissionRulesView extends TermsView {
  termsNoticeDays: number;
  upcoming?: TermsView & { effectiveAt: string; savedAt: string; lowers: string; lowering?: TermsLowering };
}

/** A rule as an affiliate reads it: of a coupon condition's codes, only its own, and how many others. */
export type AffiliateCommissionRule = Omit<CommissionRule, 'conditions'> & {
  conditions?: Omit<NonNullable<CommissionRule['conditions']>, 'coupon'> & { coupon?: { codes?: string[]; otherCodes?: number } };
};

export type AffiliateCommissionRulesView = Omit<CommissionRulesView, 'rules' | 'upcoming'> & {
  rules: AffiliateCommissionRule[];
  upcoming?: Omit<NonNullable<CommissionRulesView['upcoming']>, 'rules'> & { rules: AffiliateCommissionRule[] };
};

/** The terms an order reported now is computed with: a version and the default rule it goes with. */
export interface TermsInForce extends DefaultCommission {
  version: number;
}

export interface CommissionRulesOptions {
  publicUrl: string;
  /** TERMS_NOTICE_MIN_DAYS: no brand gives less notice. */
  noticeMinDays: number;
}

const DAY_MS = 86_400_000;

/** The columns of an order its commission is computed from. */
export type CommissionFacts = Pick<
  OrderRow,
  'organization_id' | 'affiliate_id' | 'value' | 'items' | 'customer_is_new' | 'channel_id' | 'coupon' | 'commission_transfer' | 'commission_value' | 'commission_reason'
>;

/** What an order stores of its commission: the amount, the version, the arithmetic. */
export interface ComputedCommission {
  commission: number;
  commission_rules_version: number;
  commission_lines: string;
}

/** An order's commission, explained: what the rules gave, and what is stored. */
export interface OrderCommission {
  id: string;
  orderId: string;
  currency: string;
  value: number;
  rulesVersion: number;
  lines: Array<CommissionLine & { ruleName?: string }>;
  capped: CommissionCap[];
  total: number;
  /** What rounding the exact sum once adds to the lines' cents, when not 0. */
  rounding?: number;
  commission: number;
  commissionStatus: string;
  commissionReason?: string;
  attribution: string;
  click?: { clickId?: string; clickedAt?: string; linkCode?: string; channelId?: string; channelKind?: string; country?: string };
  coupon?: string;
  /** Each change of the order's value and commission after it was reported, oldest first. */
  changes: Array<{ field: 'value' | 'commission'; from?: number; to: number; at: string; by: string }>;
}

/** An example order to preview a commission with: what a report would say of it. */
export interface CommissionPreviewOrder {
  items: Array<{ id: string; price: number; quantity: number }>;
  /** Cents; the items' price × quantity summed when left out. */
  value?: number | undefined;
  customer?: 'new' | 'returning' | undefined;
  channelKind?: string | undefined;
  coupon?: string | undefined;
  affiliateGroups?: string[] | undefined;
}

/** What one unit of a product earns the affiliate, in the brand's currency. */
export interface ProductEarning {
  productId: string;
  currency: string;
  /** Cents: the product's lowest price. */
  price: number;
  /** Cents. */
  commission: number;
}

/** What an example order would earn: the explanation's lines, caps and total. */
export interface CommissionPreview {
  currency: string;
  value: number;
  lines: Array<CommissionLine & { ruleName?: string }>;
  capped: CommissionCap[];
  total: number;
  /** What rounding the exact sum once adds to the lines' cents, when not 0. */
  rounding?: number;
}

/** The rules of a version never change: each instance keeps those it read. */
const KEPT_VERSIONS = 500;

/** What a change of terms means for affiliates, in words (see terms-words.ts). */
interface TermsChangeWords {
  /** Why it could pay some order less; undefined when it cannot. */
  lowers?: string | undefined;
  /** The same as values, for pages to word. */
  lowering?: TermsLowering | undefined;
  /** What it pays more, when it is a raise. */
  raise?: string | undefined;
  /** An order it pays differently, for the mail: its value, and what it earns before and after. */
  example?: { value: number; before: number; after: number } | undefined;
}

/** A change compared with the terms in force, in words: why it could pay less, or what a raise pays more, and its example order. */
function changeWords(current: CommissionTerms, next: CommissionTerms, currency: string): TermsChangeWords {
  const comparison = compareTerms(current, next);
  const example = comparison.lowering?.example ?? comparison.raise;
  return {
    lowers: comparison.lowering && loweringInWords(comparison.lowering, current, next, currency),
    lowering: comparison.lowering && loweringReason(comparison.lowering, current, next),
    raise: comparison.raise && raiseInWords(comparison.raise, current, next, currency),
    example: example && { value: example.order.value, before: example.before, after: example.after },
  };
}

export class CommissionRulesService {
  private readonly versions = new Map<string, CommissionRule[]>();
  /** Why each waiting change waits, by brand, version in force and waiting version: both versions are kept unchanged for good. */
  private readonly waitingReasons = new Map<string, Pick<TermsChangeWords, 'lowers' | 'lowering'>>();

  constructor(
    private readonly repositories: CommissionRulesRepositories,
    private readonly clock: Clock,
    // Services that only compute commissions (conversions, claims) save no terms: the defaults do.
    private readonly options: CommissionRulesOptions = { publicUrl: '', noticeMinDays: 3 },
  ) {}

  /** The brand's terms in force, and the change waiting for its notice (the latest save, when not in force yet). */
  async get(brandId: string): Promise<CommissionRulesView> {
    const brand = await this.brandOf(brandId);
    const now = this.clock.iso();
    const inForce = await this.repositories.commissionRules.inForce(brandId, now);
    const latest = await this.repositories.commissionRules.latest(brandId);
    const current = inForce ? versionView(inForce) : { version: 0, rules: [], default: defaultCommissionOf(brand) };
    const pending = latest && latest.effective_at > now ? latest : undefined;
    const why = pending && this.waitingReason(brand, inForce, pending);
    return {
      ...current,
      termsNoticeDays: this.noticeDaysOf(brand),
      ...(pending && {
        upcoming: {
          ...versionView(pending),
          effectiveAt: pending.effective_at,
          savedAt: pending.created_at,
          lowers: why?.lowers ?? 'none: it pays no order less than the terms in force',
          ...(why?.lowering && { lowering: why.lowering }),
        },
      }),
    };
  }

  /** Why a waiting change waits: it is compared once for each version in force it waits against. */
  private waitingReason(brand: BrandRow, inForce: CommissionRuleVersionRow | undefined, pending: CommissionRuleVersionRow): Pick<TermsChangeWords, 'lowers' | 'lowering'> | undefined {
    // Before any version, the terms in force are the profile's default: part of the key.
    const key = `${brand.id}:${brand.currency}:${inForce?.version ?? `0:${brand.commission_transfer}:${brand.commission_value}`}:${pending.version}`;
    if (this.waitingReasons.has(key)) return this.waitingReasons.get(key);
    const { lowers, lowering } = changeWords(termsOf(inForce, brand), termsOf(pending, brand), brand.currency);
    if (this.waitingReasons.size >= KEPT_VERSIONS) this.waitingReasons.delete(this.waitingReasons.keys().next().value!);
    if (lowers !== undefined) this.waitingReasons.set(key, { lowers, lowering });
    return lowers === undefined ? undefined : { lowers, lowering };
  }

  /** The notice the brand gives: its own, never below the network's least. */
  private noticeDaysOf(brand: Pick<BrandRow, 'terms_notice_days'>): number {
    return Math.max(brand.terms_notice_days, this.options.noticeMinDays);
  }

  /** Checks a brand's notice days before its profile takes them. */
  checkNoticeDays(days: number): void {
    if (days < this.options.noticeMinDays) throw invalid('invalid_terms_notice_days', `termsNoticeDays must be at least ${this.options.noticeMinDays}, the network's least notice`);
  }

  private async brandOf(brandId: string): Promise<BrandRow> {
    const brand = await this.repositories.brands.find(brandId);
    if (!brand) throw notFound('brand not found', 'brand_not_found');
    return brand;
  }

  /**
   * A brand's rules as one of its affiliates reads them, the brand being one it may see: coupon
   * codes of a rule's condition that are not the affiliate's own are left out and counted
   * (otherCodes), since another affiliate's codes are that affiliate's business.
   */
  async ofBrandForAffiliate(affiliateId: string, brandId: string): Promise<AffiliateCommissionRulesView> {
    if (!(await this.repositories.brands.findVisible(affiliateId, brandId))) throw notFound('Brand not found or not available');
    const view = await this.get(brandId);
    const all = [...view.rules, ...(view.upcoming?.rules ?? [])];
    if (!all.some((rule) => rule.conditions?.coupon?.codes)) return view;
    const mine = new Set(await this.repositories.coupons.keysOf(brandId, affiliateId));
    const forAffiliate = (rule: CommissionRule): AffiliateCommissionRule => {
      const codes = rule.conditions?.coupon?.codes;
      if (!codes) return rule;
      const own = codes.filter((code) => mine.has(couponKeyOf(code)));
      const coupon = { ...(own.length > 0 && { codes: own }), ...(own.length < codes.length && { otherCodes: codes.length - own.length }) };
      return { ...rule, conditions: { ...rule.conditions, coupon } };
    };
    return { ...view, rules: view.rules.map(forAffiliate), ...(view.upcoming && { upcoming: { ...view.upcoming, rules: view.upcoming.rules.map(forAffiliate) } }) };
  }

  /**
   * What the affiliate would earn on one unit of each product at its lowest price, as an order of
   * it would be explained today (the rules in force, the affiliate's groups; no coupon, channel or
   * customer condition met, as none is known before the order). Products the brand does not have,
   * or without a price, are left out.
   */
  async productEarnings(affiliateId: string, brandId: string, productIds: readonly string[]): Promise<ProductEarning[]> {
    const brand = await this.repositories.brands.findVisible(affiliateId, brandId);
    if (!brand) throw notFound('Brand not found or not available');
    const [{ rules }, products, affiliateGroups] = await Promise.all([this.get(brandId), this.repositories.commissionRules.productPrices(brandId, productIds), this.groupsOf(affiliateId, brandId)]);
    const fallback = { transfer: brand.commission_transfer, value: brand.commission_value };
    return products.flatMap((product) => {
      if (product.price_cents === null) return [];
      const item = { id: product.id, price: product.price_cents, quantity: 1, categories: categoriesOfOptions(product.options) };
      const explanation = explainCommission(rules, fallback, { value: product.price_cents, items: [item], affiliateGroups });
      return [{ productId: product.id, currency: brand.currency, price: product.price_cents, commission: explanation.total }];
    });
  }

  /** Replaces the brand's rules: checked as a whole, saved as the next version, in force at once or after the brand's notice. */
  async put(caller: BrandCaller, rules: CommissionRule[]): Promise<CommissionRulesView> {
    checkRules(rules);
    await this.checkNames(caller.brandId, rules);
    await this.save(caller, { rules: rules.map(cleanRule) });
    return this.get(caller.brandId);
  }

  /** Changes the brand's default rule (its profile's commission), under the same notice as its rules. */
  async changeDefault(caller: BrandCaller, commission: DefaultCommission): Promise<void> {
    await this.save(caller, { default: commission });
  }

  /**
   * Saves the next terms: what is given, the rest as the brand last saved it. Compared with the
   * terms in force: a change that could lower some affiliate's earnings comes into force after the
   * brand's notice, any other at once; either way the brand's affiliates are told, unless nothing
   * changed. A save replaces a change still waiting for its notice.
   */
  private async save(caller: BrandCaller, change: { rules?: CommissionRule[]; default?: DefaultCommission }): Promise<void> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const brand = await this.brandOf(caller.brandId);
      const now = this.clock.now();
      const nowIso = isoOf(now);
      const inForce = await this.repositories.commissionRules.inForce(brand.id, nowIso);
      const latest = await this.repositories.commissionRules.latest(brand.id);
      const current = termsOf(inForce, brand);
      const base = latest ? termsOf(latest, brand) : current;
      const next: CommissionTerms = { rules: change.rules ?? base.rules, default: change.default ?? base.default };
      // The terms as last saved again: nothing to do (a waiting change keeps its date).
      if (latest && sameTerms(base, next)) return;
      const words = changeWords(current, next, brand.currency);
      const lowers = words.lowers;
      const effectiveAt = lowers ? isoOf(now + this.noticeDaysOf(brand) * DAY_MS) : nowIso;
      const replacesPending = latest !== undefined && latest.effective_at > nowIso;
      const tell = !sameTerms(current, next) || replacesPending;
      const affiliates = tell ? await this.repositories.approvals.programmeOf(brand.id) : [];
      const effectsOf = tell ? await this.termsNotices(brand, affiliates, effectiveAt, words) : () => ({});
      const version = await this.repositories.commissionRules.append(
        {
          brand_id: brand.id,
          rules: JSON.stringify(next.rules),
          created_at: nowIso,
          created_by: `brand:${brand.id}${caller.keyId ? `:${caller.keyId}` : ''}`,
          effective_at: effectiveAt,
          default_transfer: next.default.transfer,
          default_value: next.default.value,
        },
        effectsOf,
        lowers ? undefined : { commission_transfer: next.default.transfer, commission_value: next.default.value },
      );
      if (version !== undefined) return;
    }
    throw conflict('concurrent_update', 'your terms were saved by another request at the same moment; read them again and retry');
  }

  /** program.terms_changed to each of the brand's affiliates, and mail to their owners: a lowering with its notice, a raise as a raise. */
  private async termsNotices(brand: BrandRow, affiliates: readonly string[], effectiveAt: string, words: TermsChangeWords): Promise<(version: number) => Effects> {
    const { lowers, raise, example } = words;
    const owners = (await Promise.all(affiliates.map((id) => ownersOf(this.repositories.users, { affiliateId: id })))).flat();
    const url = `${this.options.publicUrl}/app/brands/${encodeURIComponent(brand.id)}`;
    const told = {
      account: brand.name,
      when: effectiveAt,
      url,
      ...(lowers !== undefined && { lowers: true }),
      ...(raise !== undefined && { raises: true }),
      ...(example && { amount: example.value, before: example.before, after: example.after, currency: brand.currency }),
    };
    const mail = owners.map((owner) => mailRow({ to: owner.email, template: 'terms-changed', locale: owner.language ?? 'en', values: told }));
    return (version) => ({
      events: affiliates.map((id) =>
        webhookEvent(
          { kind: 'affiliate', id },
          'program.terms_changed',
          {
            brandId: brand.id,
            brandName: brand.name,
            version,
            effectiveAt,
            lowersEarnings: lowers !== undefined,
            raisesEarnings: raise !== undefined,
            ...(lowers !== undefined && { reason: lowers }),
            ...(raise !== undefined && { raise }),
          },
          this.clock,
        ),
      ),
      mail,
    });
  }

  /**
   * Shows each brand's default rule that came into force after its notice in the brand's profile
   * (and so in Brand.commission): orders are computed with the version in force whether or not
   * this has run yet.
   */
  async showTermsInForce(): Promise<number> {
    const now = this.clock.iso();
    const brands = await this.repositories.commissionRules.dueDefaults(now);
    for (const brandId of brands) {
      const inForce = await this.repositories.commissionRules.inForce(brandId, now);
      if (inForce) await this.repositories.brands.updateProfile(brandId, { commission_transfer: inForce.default_transfer, commission_value: inForce.default_value, updated_at: now });
    }
    return brands.length;
  }

  /** Refuses a rule naming a channel kind that does not exist, or a group the brand does not have (it could never match). */
  private async checkNames(brandId: string, rules: CommissionRule[]): Promise<void> {
    const groups = new Set((await this.repositories.affiliateGroups.list(brandId)).map((group) => group.id));
    for (const [i, rule] of rules.entries()) {
      for (const kind of rule.conditions?.channelKinds ?? []) {
        if (!(await this.repositories.affiliates.channelKindExists(kind))) {
          throw invalid('invalid_commission_rules', `rules[${i}].conditions.channelKinds: "${kind}" is not a channel kind (see GET /affiliate/channels/available for the kinds)`, { position: i + 1, rule: 'unknown_channel_kind', values: [kind] });
        }
      }
      const unknown = rule.conditions?.affiliateGroups?.find((id) => !groups.has(id));
      if (unknown !== undefined) {
        throw invalid('invalid_commission_rules', `rules[${i}].conditions.affiliateGroups: you have no group "${unknown}" (create it with PUT /advertiser/groups/{id} first)`, { position: i + 1, rule: 'unknown_group', values: [unknown] });
      }
    }
  }

  /** The rules of one of the brand's versions (none for version 0). */
  async rulesOf(brandId: string, version: number): Promise<CommissionRule[]> {
    if (version === 0) return [];
    const key = `${brandId}:${version}`;
    const known = this.versions.get(key);
    if (known) return known;
    const row = await this.repositories.commissionRules.find(brandId, version);
    if (!row) throw new Error(`commission rules version ${version} of brand ${brandId} is missing`);
    const rules = JSON.parse(row.rules) as CommissionRule[];
    if (this.versions.size >= KEPT_VERSIONS) this.versions.delete(this.versions.keys().next().value!);
    this.versions.set(key, rules);
    return rules;
  }

  /** The terms a new order of the brand is computed with: the version in force now (0, and the profile's default, before any). */
  async termsInForce(brand: Pick<BrandRow, 'id' | 'commission_transfer' | 'commission_value'>): Promise<TermsInForce> {
    const row = await this.repositories.commissionRules.inForce(brand.id, this.clock.iso());
    return row ? { version: row.version, transfer: row.default_transfer, value: row.default_value } : { version: 0, transfer: brand.commission_transfer, value: brand.commission_value };
  }

  /** An order's default rule, version and commission under the terms in force now. */
  async commissionInForce(order: CommissionFacts, brand: Pick<BrandRow, 'id' | 'commission_transfer' | 'commission_value'>): Promise<ComputedCommission & Pick<OrderRow, 'commission_transfer' | 'commission_value'>> {
    const terms = await this.termsInForce(brand);
    const withDefault = { ...order, commission_transfer: terms.transfer, commission_value: terms.value };
    return { commission_transfer: terms.transfer, commission_value: terms.value, ...(await this.commissionOf(withDefault, terms.version)) };
  }

  /**
   * The commission of an order under a version of its brand's rules and the default rule it keeps:
   * the explanation's total, or 0 when the network canceled it (commission_reason), the
   * explanation kept either way.
   */
  async commissionOf(order: CommissionFacts, version: number): Promise<ComputedCommission> {
    const explanation = await this.explain(order, version);
    return {
      commission: order.commission_reason ? 0 : explanation.total,
      commission_rules_version: version,
      commission_lines: JSON.stringify({ lines: explanation.lines, capped: explanation.capped, ...(explanation.rounding !== 0 && { rounding: explanation.rounding }) }),
    };
  }

  private async explain(order: CommissionFacts, version: number): Promise<CommissionExplanation> {
    const rules = await this.rulesOf(order.organization_id, version);
    const needsChannel = rules.some((rule) => rule.conditions?.channelKinds !== undefined);
    const channelKind = needsChannel && order.channel_id !== null ? await this.repositories.commissionRules.channelKind(order.channel_id) : undefined;
    return explainCommission(
      rules,
      { transfer: order.commission_transfer, value: order.commission_value },
      {
        value: order.value,
        items: await this.itemFacts(order.organization_id, rules, JSON.parse(order.items) as OrderItem[]),
        customerIsNew: order.customer_is_new === null ? undefined : order.customer_is_new === 1,
        channelKind,
        affiliateGroups: await this.groupsOf(order.affiliate_id, order.organization_id),
        coupon: order.coupon ?? undefined,
      },
    );
  }

  /**
   * What an example order would earn under the given rules (unsaved, to try them) or the saved
   * ones, with the brand's default rule after them: the same explainCommission as a reported
   * order, nothing stored. The rules are checked as a save checks them.
   */
  async preview(brandId: string, rules: CommissionRule[] | undefined, order: CommissionPreviewOrder): Promise<CommissionPreview> {
    const brand = await this.repositories.brands.find(brandId);
    if (!brand) throw notFound('brand not found', 'brand_not_found');
    if (rules) {
      checkRules(rules);
      await this.checkNames(brandId, rules);
    }
    const tried = rules ?? (await this.get(brandId)).rules;
    const value = order.value ?? order.items.reduce((sum, item) => sum + item.price * item.quantity, 0);
    const explanation = explainCommission(
      tried,
      { transfer: brand.commission_transfer, value: brand.commission_value },
      {
        value,
        items: await this.itemFacts(brandId, tried, order.items),
        customerIsNew: order.customer === undefined ? undefined : order.customer === 'new',
        channelKind: order.channelKind,
        affiliateGroups: order.affiliateGroups ?? [],
        coupon: order.coupon,
      },
    );
    const lines = explanation.lines.map((line) => {
      const name = tried[line.rule]?.name;
      return name === undefined ? line : { ...line, ruleName: name };
    });
    return { currency: brand.currency, value, lines, capped: explanation.capped, total: explanation.total, ...(explanation.rounding !== 0 && { rounding: explanation.rounding }) };
  }

  /** Items as the rules read them: with their catalogue categories, looked up only when a rule has a category condition. */
  private async itemFacts(brandId: string, rules: CommissionRule[], items: ReadonlyArray<Pick<OrderItem, 'id' | 'price' | 'quantity'>>): Promise<CommissionItemFacts[]> {
    const needsCategories = rules.some((rule) => rule.conditions?.categories !== undefined);
    const options = needsCategories ? await this.repositories.commissionRules.productOptions(brandId, [...new Set(items.map((item) => item.id))]) : [];
    const categories = new Map(options.map((row) => [row.id, categoriesOfOptions(row.options)]));
    return items.map((item) => ({ id: item.id, price: item.price, quantity: item.quantity, categories: categories.get(item.id) ?? [] }));
  }

  /** The brand's affiliate groups the affiliate is in, named by the brand or placed by a tier. */
  private groupsOf(affiliateId: string, brandId: string): Promise<string[]> {
    return this.repositories.affiliateGroups.groupsOf(brandId, affiliateId);
  }

  /** The affiliate's order (by network id, or its brand order id when that names one order only), explained. */
  async forAffiliate(affiliateId: string, id: string): Promise<OrderCommission> {
    const rows = await this.repositories.orders.findForAffiliate(affiliateId, id);
    const row = rows.find((r) => r.id === id) ?? (rows.length === 1 ? rows[0] : undefined);
    if (!row) throw notFound(rows.length > 1 ? `"${id}" names orders of several brands: use the order's network id` : 'Order not found');
    return this.explained(row, 'affiliate');
  }

  /** The brand's order by its own order id, explained. */
  async forBrand(brandId: string, orderId: string): Promise<OrderCommission> {
    const row = await this.repositories.orders.findBrandOrder(brandId, orderId);
    if (!row) throw notFound(`order "${orderId}" not found among your conversions`);
    return this.explained(row, 'brand');
  }

  private async explained(row: OrderRow, reader: 'affiliate' | 'brand'): Promise<OrderCommission> {
    // Orders reported before the arithmetic was kept were computed with their default rule alone.
    const kept = row.commission_lines === null ? (await this.explain(row, 0)) : (JSON.parse(row.commission_lines) as Omit<CommissionExplanation, 'total' | 'rounding'> & { rounding?: number });
    const rules = await this.rulesOf(row.organization_id, row.commission_rules_version);
    const lines = kept.lines.map((line) => {
      const name = rules[line.rule]?.name;
      return name === undefined ? line : { ...line, ruleName: name };
    });
    const channelKind = row.channel_id === null ? undefined : await this.repositories.commissionRules.channelKind(row.channel_id);
    const changes = (await this.repositories.orders.historyOf(row.id))
      .filter((event) => event.field === 'value' || event.field === 'commission')
      .map((event) => ({
        field: event.field as 'value' | 'commission',
        ...(event.from_value !== null && { from: Number(event.from_value) }),
        to: Number(event.to_value),
        at: event.created_at,
        by: event.actor.split(':')[0]!,
      }));
    const click = {
      ...(row.click_id !== null && { clickId: row.click_id }),
      ...(row.click_created_at !== null && { clickedAt: row.click_created_at }),
      ...(row.link_code !== null && { linkCode: row.link_code }),
      ...(row.channel_id !== null && { channelId: row.channel_id }),
      ...(channelKind !== undefined && { channelKind }),
      ...(row.click_country !== null && { country: row.click_country }),
    };
    // An affiliate is shown only codes of its own (as in its orders).
    const coupon = row.coupon !== null && (reader === 'brand' || row.coupon_affiliate_id === row.affiliate_id) ? row.coupon : undefined;
    return {
      id: row.id,
      orderId: row.order_id,
      currency: row.currency,
      value: row.value,
      rulesVersion: row.commission_rules_version,
      lines,
      capped: kept.capped,
      total: kept.lines.reduce((sum, line) => sum + line.commission, 0) + (kept.rounding ?? 0),
      ...(kept.rounding ? { rounding: kept.rounding } : {}),
      commission: row.commission,
      commissionStatus: row.commission_status,
      ...(row.commission_reason !== null && { commissionReason: row.commission_reason }),
      attribution: row.attribution,
      ...(Object.keys(click).length > 0 && { click }),
      ...(coupon !== undefined && { coupon }),
      changes,
    };
  }
}

/** A rule as stored: its fields in one order, nothing empty. */
function cleanRule(rule: CommissionRule): CommissionRule {
  const c = rule.conditions ?? {};
  const conditions = {
    ...(c.productIds && { productIds: c.productIds }),
    ...(c.categories && { categories: c.categories }),
    ...(c.customer && { customer: c.customer }),
    ...(c.channelKinds && { channelKinds: c.channelKinds }),
    ...(c.affiliateGroups && { affiliateGroups: c.affiliateGroups }),
    ...(c.coupon && { coupon: c.coupon.codes ? { codes: c.coupon.codes } : {} }),
    ...(c.orderValue && { orderValue: c.orderValue }),
  };
  return {
    ...(rule.name !== undefined && { name: rule.name }),
    ...(Object.keys(conditions).length > 0 && { conditions }),
    transfer: rule.transfer,
    value: rule.value,
    ...(rule.per !== undefined && { per: rule.per }),
    ...(rule.cap !== undefined && { cap: rule.cap }),
  };
}

type BrandCaller = { brandId: string; keyId?: string | undefined };

/** A version's terms, or the brand's default alone before any version. */
function termsOf(row: CommissionRuleVersionRow | undefined, brand: Pick<BrandRow, 'commission_transfer' | 'commission_value'>): CommissionTerms {
  return row
    ? { rules: JSON.parse(row.rules) as CommissionRule[], default: { transfer: row.default_transfer, value: row.default_value } }
    : { rules: [], default: { transfer: brand.commission_transfer, value: brand.commission_value } };
}

function versionView(row: CommissionRuleVersionRow): TermsView {
  return {
    version: row.version,
    rules: JSON.parse(row.rules) as CommissionRule[],
    default: defaultCommissionOf({ commission_transfer: row.default_transfer, commission_value: row.default_value }),
    savedAt: row.created_at,
    effectiveAt: row.effective_at,
  };
}
