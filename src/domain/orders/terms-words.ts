// A comparison of terms in words, as the brand reads it in `upcoming.lowers` and its affiliates in
// the program.terms_changed webhook: why a change could pay less, or what a raise pays more, with
// an example order. Coupon codes are never named: affiliates read these, and a code is the
// business of the affiliate it was given to.
import { isDeepStrictEqual } from 'node:util';
import { formatMinor } from '../money.js';
import type { CommissionOrderFacts } from './commission-rules.js';
import { ceilingOf, mostPaid, outcomeOfDefault, outcomeOfRule, type Outcome } from './terms-outcomes.js';
import type { CommissionTerms, LoweringCause, TermsComparison } from './terms-changes.js';
import type { TermsExample } from './terms-examples.js';

type Lowering = NonNullable<TermsComparison['lowering']>;

/** A rule as a page names it: its place among the rules (from 1) and its name; neither: the default rule. */
export interface RuleRef {
  position?: number;
  name?: string;
}

/** Why a change could pay some order less, as values a page words in the person's language. */
export type LoweringReason =
  | { kind: 'outcome'; rule: RuleRef; pays: Outcome; paidNowBy: RuleRef; paidNow: Outcome; fromValue?: number }
  | { kind: 'ceiling'; rule: RuleRef; most: number }
  | { kind: 'valueNotItems' };

/** A change's reason to wait, for pages: the cause, and an order that earns less when one was found. */
export interface TermsLowering {
  cause: LoweringReason;
  example?: { value: number; before: number; after: number };
}

/** The lowering as values (the pages' words; see loweringInWords for the API's English). */
export function loweringReason(lowering: Lowering, current: CommissionTerms, next: CommissionTerms): TermsLowering {
  const ref = (rules: CommissionTerms['rules'], index: number): RuleRef => {
    const rule = rules[index];
    return rule ? { position: index + 1, ...(rule.name !== undefined && { name: rule.name }) } : {};
  };
  const before = [...current.rules.map(outcomeOfRule), outcomeOfDefault(current.default)];
  const after = [...next.rules.map(outcomeOfRule), outcomeOfDefault(next.default)];
  const { cause: c, example } = lowering;
  const cause: LoweringReason =
    c.kind === 'outcome'
      ? {
          kind: 'outcome',
          rule: ref(next.rules, c.unit.after),
          pays: after[c.unit.after]!,
          paidNowBy: ref(current.rules, c.unit.before),
          paidNow: before[c.unit.before]!,
          ...(before[c.unit.before]!.kind === 'share' && after[c.unit.after]!.kind !== 'share' && c.unit.value !== undefined && { fromValue: c.unit.value }),
        }
      : c.kind === 'ceiling'
        ? { kind: 'ceiling', rule: ref(next.rules, c.after), most: ceilingOf(after[c.after]!) }
        : { kind: 'valueNotItems' };
  return { cause, ...(example && { example: { value: example.order.value, before: example.before, after: example.after } }) };
}

/** Why the change could pay some order less, with an order that does when one was found. */
export function loweringInWords(lowering: Lowering, current: CommissionTerms, next: CommissionTerms, currency: string): string {
  const words = new Words(current, next, currency);
  const cause = words.cause(lowering.cause);
  return lowering.example ? `${cause}: e.g. ${words.example(lowering.example, 'would earn')}` : cause;
}

/** What a raise pays more, with an order that earns more. */
export function raiseInWords(raise: TermsExample, current: CommissionTerms, next: CommissionTerms, currency: string): string {
  return `no order earns less, and some earn more: e.g. ${new Words(current, next, currency).example(raise, 'earns')}`;
}

class Words {
  private readonly before: Outcome[];
  private readonly after: Outcome[];
  /** The condition kinds some rule of either terms has. */
  private readonly used: Set<string>;

  constructor(
    private readonly current: CommissionTerms,
    private readonly next: CommissionTerms,
    private readonly currency: string,
  ) {
    this.before = [...current.rules.map(outcomeOfRule), outcomeOfDefault(current.default)];
    this.after = [...next.rules.map(outcomeOfRule), outcomeOfDefault(next.default)];
    this.used = new Set([...current.rules, ...next.rules].flatMap((rule) => Object.entries(rule.conditions ?? {}).filter(([, v]) => v !== undefined).map(([k]) => k)));
  }

  private money(cents: number): string {
    return formatMinor(cents, this.currency);
  }

  private outcome(o: Outcome): string {
    const paid = o.kind === 'share' ? `${o.units / 100} %` : `${this.money(o.units)} per ${o.kind === 'perUnit' ? 'unit' : 'order'}`;
    return o.cap === undefined ? paid : `${paid} up to ${this.money(o.cap)} an order`;
  }

  /** A rule of the current terms (before) or of the next: its index and name, or the default rule. */
  private rule(which: 'before' | 'after', index: number): string {
    const rules = which === 'before' ? this.current.rules : this.next.rules;
    if (index >= rules.length) return 'the default rule';
    const name = rules[index]!.name;
    return `rules[${index}]${name === undefined ? '' : ` (${name})`}`;
  }

  /** The same rule in both terms: the default rule, or a rule at the same place with the same name and conditions. */
  private sameRule(before: number, after: number): boolean {
    const was = this.current.rules[before];
    const will = this.next.rules[after];
    if (!was || !will) return !was && !will;
    return before === after && was.name === will.name && isDeepStrictEqual(was.conditions ?? {}, will.conditions ?? {});
  }

  cause(cause: LoweringCause): string {
    switch (cause.kind) {
      case 'outcome': {
        const { before, after, value } = cause.unit;
        const outBefore = this.before[before]!;
        const outAfter = this.after[after]!;
        const from = outBefore.kind === 'share' && outAfter.kind !== 'share' && value !== undefined ? `, less on orders from ${this.money(value)}` : '';
        const will = this.rule('after', after);
        const payment = this.sameRule(before, after)
          ? `${will} would pay ${this.outcome(outAfter)} instead of ${this.outcome(outBefore)}`
          : `${will} would pay ${this.outcome(outAfter)} where ${this.rule('before', before)} pays ${this.outcome(outBefore)} now`;
        return `${payment}${from}`;
      }
      case 'ceiling': {
        const will = this.rule('after', cause.after);
        const most = this.money(ceilingOf(this.after[cause.after]!));
        const sources = cause.sources.map((b) => `${this.sameRule(b, cause.after) ? 'it' : this.rule('before', b)} pays ${this.outcome(this.before[b]!)}`);
        const together = cause.sources.reduce((sum, b) => sum + mostPaid(this.before[b]!), 0);
        const limit = !Number.isFinite(together) ? ' with no such limit' : cause.sources.length > 1 ? `, up to ${this.money(together)} together` : '';
        return `${will} would pay at most ${most} an order, where ${sources.join(' and ')}${limit}`;
      }
      case 'value-not-items':
        return 'without rules, the default rule alone applies, to the order’s value, which its items may exceed';
    }
  }

  example({ order, before, after }: TermsExample, verb: string): string {
    return `${this.order(order)} ${verb} ${this.money(after)} instead of ${this.money(before)}`;
  }

  private order(o: CommissionOrderFacts): string {
    const parts = [`an order of ${this.money(o.value)}`];
    if (this.used.has('customer')) parts.push(o.customerIsNew === undefined ? 'from a customer reported neither new nor returning' : `from a ${o.customerIsNew ? 'new' : 'returning'} customer`);
    if (this.used.has('channelKinds')) parts.push(o.channelKind === undefined ? 'without a channel' : this.named('channelKinds', o.channelKind) ? `through a ${o.channelKind} channel` : 'through a channel of another kind');
    if (this.used.has('coupon')) parts.push(o.coupon === undefined ? 'without a coupon code' : this.couponWords(o.coupon));
    if (this.used.has('affiliateGroups')) parts.push(o.affiliateGroups.length === 0 ? 'by an affiliate in none of the groups the rules name' : `by an affiliate in ${o.affiliateGroups.length > 1 ? 'groups' : 'group'} ${o.affiliateGroups.join(', ')}`);
    // Without rules on either side an order's items do not matter.
    if (this.current.rules.length === 0 && this.next.rules.length === 0) return parts.join(' ');
    const items = o.items.length === 0 ? 'reported without items' : `of ${o.items.map((item) => this.item(item)).join(' and ')}`;
    return `${parts.join(' ')}${parts.length > 1 ? ',' : ''} ${items}`;
  }

  private item(item: CommissionOrderFacts['items'][number]): string {
    const what = this.used.has('productIds') ? (this.named('productIds', item.id) ? `product ${item.id}` : 'a product no rule names') : 'an item';
    const categories = !this.used.has('categories') ? '' : item.categories.length === 0 ? ' in no category the rules name' : ` in ${item.categories.join(', ')}`;
    return `${item.quantity > 1 ? `${item.quantity} × ` : ''}${what}${categories} at ${this.money(item.price)}`;
  }

  private named(kind: 'channelKinds' | 'productIds', name: string): boolean {
    return [...this.current.rules, ...this.next.rules].some((rule) => rule.conditions?.[kind]?.includes(name));
  }

  /** Which rule's codes the coupon is among, never the code itself. */
  private couponWords(code: string): string {
    for (const [which, rules] of [['after', this.next.rules], ['before', this.current.rules]] as const) {
      const index = rules.findIndex((rule) => rule.conditions?.coupon?.codes?.some((c) => c.toLowerCase() === code.toLowerCase()));
      if (index >= 0) return `with a coupon code of ${this.rule(which, index)}${which === 'before' ? ' now' : ''}`;
    }
    return 'with a coupon code';
  }
}
