// A brand's commission rules: an ordered list, the first rule whose conditions hold wins, the
// brand's default rule (its profile's `commission`) after the last. One pure function,
// explainCommission, computes both the commission stored on an order and its explanation, so the
// two cannot differ: the total is the sum of the lines, each line's arithmetic in integer cents.
// See docs/decisions.md, "Commission rules".
import { invalid } from '../errors.js';

export interface CommissionRuleConditions {
  /** The brand's product ids: an item matches when its id is one of them. */
  productIds?: string[];
  /** Category names, compared without case: an item matches when its catalogue product has one of them. */
  categories?: string[];
  /** The brand's word on the customer: new, or returning; an order without it matches neither. */
  customer?: 'new' | 'returning';
  /** Channel kind ids (site, instagram…) of the channel whose link earned the order. */
  channelKinds?: string[];
  /** Affiliate group ids: the order's affiliate is a member of one of them. */
  affiliateGroups?: string[];
  /** A coupon was used: any (no codes), or one of these codes, compared without case. */
  coupon?: { codes?: string[] };
  /** The order's value, in cents, at least min and at most max (each optional). */
  orderValue?: { min?: number; max?: number };
}

export interface CommissionRule {
  /** The brand's own label, shown in explanations. */
  name?: string;
  conditions?: CommissionRuleConditions;
  transfer: 'cps' | 'cpa';
  /** cps: percent of each matching item's price × quantity (two decimals); cpa: cents. */
  value: number;
  /** cpa only: once per order (the default) or per unit of each matching item. */
  per?: 'order' | 'item';
  /** The most this rule pays in one order, in cents. */
  cap?: number;
}

/** The default rule as an order keeps it: cps in basis points, cpa in cents per order. */
export interface DefaultCommission {
  transfer: string;
  value: number;
}

export interface CommissionItemFacts {
  id: string;
  price: number;
  quantity: number;
  /** The categories of the catalogue product with the item's id, lowercased; none without one. */
  categories: readonly string[];
}

/** What the conditions are checked against. */
export interface CommissionOrderFacts {
  value: number;
  items: readonly CommissionItemFacts[];
  customerIsNew?: boolean | undefined;
  channelKind?: string | undefined;
  /** The groups the order's affiliate belongs to (none until groups exist). */
  affiliateGroups: readonly string[];
  coupon?: string | undefined;
}

export interface CommissionLine {
  /** Index of the rule in the version's list; the default rule's is the list's length. */
  rule: number;
  isDefault: boolean;
  /** The item (its index in the order's items, and its id) a per-item line is for. */
  item?: number;
  itemId?: string;
  /** A cpa rule paid once per order: the items it matched (none for an order without items). */
  items?: number[];
  transfer: 'cps' | 'cpa';
  per?: 'order' | 'item';
  /** cps: the cents the share applies to (price × quantity, or the order value); cpa: units (quantity per item, 1 per order). */
  base: number;
  /** cps: percent. */
  rate?: number;
  /** cpa: cents per unit. */
  amount?: number;
  /** base × rate rounded half up to the cent, or base × amount: before the rule's cap. */
  result: number;
  /** What the line pays: result, less what the rule's cap took. */
  commission: number;
  capped: boolean;
  /** The part of the order's value its items do not cover, paid as one more unit. */
  remainder?: boolean;
}

export interface CommissionCap {
  rule: number;
  cap: number;
  /** What the rule's lines came to before the cap. */
  uncapped: number;
}

export interface CommissionExplanation {
  lines: CommissionLine[];
  capped: CommissionCap[];
  /** The order's commission (unless the network canceled it): the lines' exact sum, rounded once. */
  total: number;
  /** What rounding the exact sum once adds to the lines' cents (a cent or two, either way; 0 most often). */
  rounding: number;
}

export const MAX_RULES = 50;

/** percent × base rounded half up to the cent; BigInt keeps the product exact beyond 2^53. */
export function shareOf(base: number, basisPoints: number): number {
  return Number((BigInt(base) * BigInt(basisPoints) + 5_000n) / 10_000n);
}

export const basisPointsOf = (percent: number) => Math.round(percent * 100);

const hasConditions = (rule: CommissionRule) => Object.values(rule.conditions ?? {}).some((c) => c !== undefined);

function orderMatches(c: CommissionRuleConditions, order: CommissionOrderFacts): boolean {
  if (c.customer !== undefined && (order.customerIsNew === undefined || order.customerIsNew !== (c.customer === 'new'))) return false;
  if (c.channelKinds !== undefined && (order.channelKind === undefined || !c.channelKinds.includes(order.channelKind))) return false;
  if (c.affiliateGroups !== undefined && !c.affiliateGroups.some((g) => order.affiliateGroups.includes(g))) return false;
  if (c.coupon !== undefined) {
    if (order.coupon === undefined) return false;
    const key = order.coupon.toLowerCase();
    if (c.coupon.codes !== undefined && !c.coupon.codes.some((code) => code.toLowerCase() === key)) return false;
  }
  if (c.orderValue?.min !== undefined && order.value < c.orderValue.min) return false;
  if (c.orderValue?.max !== undefined && order.value > c.orderValue.max) return false;
  return true;
}

/** Item conditions; the order as a whole (no items) has no product id and no category. */
function itemMatches(c: CommissionRuleConditions, item: CommissionItemFacts | undefined): boolean {
  if (c.productIds !== undefined && (item === undefined || !c.productIds.includes(item.id))) return false;
  if (c.categories !== undefined && (item === undefined || !c.categories.some((name) => item.categories.includes(name.toLowerCase())))) return false;
  return true;
}

interface Outcome {
  transfer: 'cps' | 'cpa';
  per: 'order' | 'item';
  /** Basis points (cps) or cents (cpa). */
  units: number;
  cap?: number | undefined;
}

const outcomeOf = (rule: CommissionRule): Outcome =>
  rule.transfer === 'cps' ? { transfer: 'cps', per: 'item', units: basisPointsOf(rule.value), cap: rule.cap } : { transfer: 'cpa', per: rule.per ?? 'order', units: rule.value, cap: rule.cap };
const defaultOutcome = (d: DefaultCommission): Outcome => (d.transfer === 'cpa' ? { transfer: 'cpa', per: 'order', units: d.value } : { transfer: 'cps', per: 'item', units: d.value });

function lineOf(rule: number, isDefault: boolean, outcome: Outcome, base: number, item?: { index: number; id: string }): CommissionLine {
  const result = outcome.transfer === 'cps' ? shareOf(base, outcome.units) : base * outcome.units;
  return {
    rule,
    isDefault,
    ...(item && { item: item.index, itemId: item.id }),
    transfer: outcome.transfer,
    ...(outcome.transfer === 'cpa' && { per: outcome.per }),
    base,
    ...(outcome.transfer === 'cps' ? { rate: outcome.units / 100 } : { amount: outcome.units }),
    result,
    commission: result,
    capped: false,
  };
}

/** Exact amounts are kept in ten-thousandths of a cent: a share in basis points of a base in cents is then a whole number. */
const EXACT = 10_000n;
const exactOf = (outcome: Outcome, base: number): bigint => (outcome.transfer === 'cps' ? BigInt(base) * BigInt(outcome.units) : BigInt(base) * BigInt(outcome.units) * EXACT);

/**
 * The commission of an order under a version's rules and the order's default rule, with its
 * arithmetic. No rules: the default alone on the order's value, one line, as before rules existed.
 * Otherwise each item (the order as one unit when it has none) goes to the first rule whose order
 * conditions and item conditions it meets, else to the default: a share is computed per item
 * (price × quantity), a cpa per item is amount × quantity, a cpa per order is paid once for all the
 * items the rule took. The part of the order's value its items do not cover (shipping, a fee) is
 * one more unit, like an order without items: a share pays on it, an amount does not. A rule's cap
 * then limits the sum of its lines, taken in line order. Each line shows its arithmetic rounded half
 * up to the cent; the total is the exact sum rounded once, so splitting an order between rules never
 * loses a cent to rounding (the order's whole value at the default's share earns what the default
 * alone earns), and `rounding` says what the total adds to the lines' cents.
 */
export function explainCommission(rules: readonly CommissionRule[], fallback: DefaultCommission, order: CommissionOrderFacts): CommissionExplanation {
  const lines: CommissionLine[] = [];
  if (rules.length === 0) {
    const outcome = defaultOutcome(fallback);
    lines.push(lineOf(0, true, outcome, outcome.transfer === 'cps' ? order.value : 1));
    return { lines, capped: [], total: lines[0]!.commission, rounding: 0 };
  }
  const orderWise = rules.map((rule) => orderMatches(rule.conditions ?? {}, order));
  const perOrder = new Map<number, CommissionLine>();
  const exact = new Map<CommissionLine, bigint>();
  const itemized = order.items.reduce((sum, item) => sum + item.price * item.quantity, 0);
  const units: Array<{ item: CommissionItemFacts | undefined; index: number; rest?: number }> = order.items.map((item, index) => ({ item, index }));
  if (units.length === 0) units.push({ item: undefined, index: -1 });
  else if (order.value > itemized) units.push({ item: undefined, index: -1, rest: order.value - itemized });
  for (const { item, index, rest } of units) {
    let matched = rules.findIndex((rule, i) => orderWise[i] && itemMatches(rule.conditions ?? {}, item));
    const isDefault = matched < 0;
    if (isDefault) matched = rules.length;
    const outcome = isDefault ? defaultOutcome(fallback) : outcomeOf(rules[matched]!);
    // The uncovered rest is value, not an item: an amount per order or per item pays nothing on it.
    if (rest !== undefined && outcome.transfer === 'cpa') continue;
    if (outcome.transfer === 'cpa' && outcome.per === 'order') {
      const known = perOrder.get(matched);
      if (known) {
        if (item) known.items!.push(index);
        continue;
      }
      const line = { ...lineOf(matched, isDefault, outcome, 1), items: item ? [index] : [] };
      perOrder.set(matched, line);
      exact.set(line, exactOf(outcome, 1));
      lines.push(line);
      continue;
    }
    const base = rest ?? (item === undefined ? (outcome.transfer === 'cps' ? order.value : 1) : outcome.transfer === 'cps' ? item.price * item.quantity : item.quantity);
    const line = { ...lineOf(matched, isDefault, outcome, base, item && { index, id: item.id }), ...(rest !== undefined && { remainder: true }) };
    exact.set(line, exactOf(outcome, base));
    lines.push(line);
  }
  const capped: CommissionCap[] = [];
  let owed = 0n;
  for (const [index, rule] of [...rules.entries(), [rules.length, undefined] as const]) {
    const own = lines.filter((line) => line.rule === index);
    const sum = own.reduce((total, line) => total + exact.get(line)!, 0n);
    const uncapped = own.reduce((total, line) => total + line.result, 0);
    if (rule?.cap === undefined || (sum <= BigInt(rule.cap) * EXACT && uncapped <= rule.cap)) {
      owed += sum;
      continue;
    }
    owed += BigInt(rule.cap) * EXACT < sum ? BigInt(rule.cap) * EXACT : sum;
    let left = rule.cap;
    for (const line of own) {
      line.commission = Math.min(line.result, left);
      line.capped = line.commission < line.result;
      left -= line.commission;
    }
    capped.push({ rule: index, cap: rule.cap, uncapped });
  }
  const total = Number((owed + EXACT / 2n) / EXACT);
  const shown = lines.reduce((sum, line) => sum + line.commission, 0);
  return { lines, capped, total, rounding: total - shown };
}

/** The facts' categories: the options' categories of a catalogue product, lowercased, once each. */
export function categoriesOfOptions(options: string): string[] {
  const parsed = JSON.parse(options) as Array<{ categories?: unknown }>;
  const names = new Set<string>();
  for (const option of Array.isArray(parsed) ? parsed : []) {
    if (!Array.isArray(option?.categories)) continue;
    for (const name of option.categories) if (typeof name === 'string') names.add(name.toLowerCase());
  }
  return [...names];
}

/**
 * Checks a list as a whole, refusing the first problem with the rule's index and what to fix: a
 * rule after one without conditions (it could never match), an impossible value range, a share
 * above 100 % or with more than two decimals, a cpa amount not in whole cents, `per` on a share.
 */
export function checkRules(rules: readonly CommissionRule[]): void {
  if (rules.length > MAX_RULES) throw invalid('invalid_commission_rules', `rules: at most ${MAX_RULES} rules`, { rule: 'too_many', limit: MAX_RULES });
  let catchAll = -1;
  rules.forEach((rule, i) => {
    const at = `rules[${i}]`;
    const refuse = (message: string, rule: string, values?: string[]) => invalid('invalid_commission_rules', message, { position: i + 1, rule, ...(values && { values }) });
    if (catchAll >= 0) throw refuse(`${at}: unreachable: rules[${catchAll}] has no conditions and takes every item before it; remove this rule or give rules[${catchAll}] conditions`, 'unreachable', [String(catchAll + 1)]);
    if (!hasConditions(rule)) catchAll = i;
    const range = rule.conditions?.orderValue;
    if (range?.min !== undefined && range.max !== undefined && range.min > range.max) {
      throw refuse(`${at}.conditions.orderValue: impossible range: min ${range.min} is greater than max ${range.max}`, 'impossible_range');
    }
    if (rule.value < 0) throw refuse(`${at}.value: must not be negative`, 'negative');
    if (rule.transfer === 'cps') {
      if (rule.value > 100) throw refuse(`${at}.value: a cps rule is a percentage: at most 100`, 'share_over_100');
      if (Math.abs(basisPointsOf(rule.value) - rule.value * 100) > 1e-6) throw refuse(`${at}.value: ${rule.value} has more than two decimals`, 'share_decimals');
      if (rule.per !== undefined) throw refuse(`${at}.per: only a cpa rule is paid per order or per item; leave per out of a cps rule`, 'per_on_share');
    } else if (!Number.isSafeInteger(rule.value)) {
      throw refuse(`${at}.value: a cpa rule is an amount in integer cents`, 'whole_cents');
    }
  });
}
