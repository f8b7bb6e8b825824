// Whether a change of a brand's terms (its rules and its default rule) could lower what an
// affiliate earns, judged on the terms as a whole: only if some order could earn less. For every
// kind of unit the two lists tell apart (see terms-regions.ts), the rule that pays it now is
// compared with the rule that would pay it; a rule with a cap, or paying once per order, must also
// cover what all the rules whose units it takes could pay together. Only a change that provably
// pays no order less takes effect at once; any other waits for the brand's notice. See
// docs/decisions.md, "A raise is a raise".
import { isDeepStrictEqual } from 'node:util';
import type { CommissionRule, DefaultCommission } from './commission-rules.js';
import { ceilingOf, firstValuePayingLess, mostPaid, outcomeOfDefault, outcomeOfRule, paysUnitsNoLess, type Outcome } from './terms-outcomes.js';
import { RegionSpace, type Shape, type UnitAtoms } from './terms-regions.js';
import { findExample, type TermsExample } from './terms-examples.js';

export interface CommissionTerms {
  rules: readonly CommissionRule[];
  default: DefaultCommission;
}

/** A kind of unit: the rule of the current terms that pays it and the rule of the next that would (an index; the list's length is the default rule). */
export interface UnitKind {
  shape: Shape;
  before: number;
  after: number;
  /** Its facts, or 'assumed' when too many conditions kept the search from telling. */
  atoms: UnitAtoms | 'assumed';
  /** An order value at which such a unit earns less (an order without rules on either side). */
  value?: number;
}

/** Why the next terms could pay some order less. */
export type LoweringCause =
  /** Units `before` pays would go to `after`, which could pay them less. */
  | { kind: 'outcome'; unit: UnitKind }
  /** `after` pays at most its cap (or its amount once) in an order, less than the rules it takes units from could pay together. */
  | { kind: 'ceiling'; after: number; sources: number[]; unit: UnitKind }
  /** Back to no rules with a share: the default's share of the value, which may fall short of what the items earned. */
  | { kind: 'value-not-items' };

export interface TermsComparison {
  /** Some order could earn less: why, and an order that does when one was found. */
  lowering?: { cause: LoweringCause; example?: TermsExample | undefined };
  /** No order earns less, and this one earns more. */
  raise?: TermsExample;
}

/** Compares the next terms with the current ones as a whole: a lowering with its cause, else a raise when some order earns more. */
export function compareTerms(current: CommissionTerms, next: CommissionTerms): TermsComparison {
  const space = new RegionSpace(current.rules, next.rules);
  const units = unitKinds(space, current, next);
  const cause = loweringCause(space, units, current, next);
  if (cause) {
    const focus = 'unit' in cause ? [cause.unit, ...(cause.kind === 'ceiling' ? units.filter((u) => u.after === cause.after) : [])] : [];
    const example = findExample(current, next, 'less', { space, units: [...focus, ...units], focus: focus.length, together: cause.kind === 'ceiling' ? cause : undefined });
    return { lowering: { cause, example } };
  }
  const raise = findExample(current, next, 'more', { space, units, focus: 0 });
  return raise ? { raise } : {};
}

/**
 * Every kind of unit some order could have: the pairs of rules (now, next) some item goes to. An
 * order without items is one unit like an item no item condition names, so the items' kinds cover
 * it; it is a kind of its own only without rules on either side, where the default applies to the
 * whole order.
 */
function unitKinds(space: RegionSpace, current: CommissionTerms, next: CommissionTerms): UnitKind[] {
  const units: UnitKind[] = [];
  const shapes = current.rules.length === 0 && next.rules.length === 0 ? (['whole', 'items'] as const) : (['items'] as const);
  for (let before = 0; before <= current.rules.length; before++) {
    for (let after = 0; after <= next.rules.length; after++) {
      for (const shape of shapes) {
        const atoms = space.unit(shape, before, after);
        if (atoms) units.push({ shape, before, after, atoms });
      }
    }
  }
  return units;
}

const outcomesOf = (terms: CommissionTerms): Outcome[] => [...terms.rules.map(outcomeOfRule), outcomeOfDefault(terms.default)];

/** Whole order: no rules and a share, which applies to the order's value rather than to its items. */
const onValue = (terms: CommissionTerms) => terms.rules.length === 0 && terms.default.transfer !== 'cpa';

function loweringCause(space: RegionSpace, units: UnitKind[], current: CommissionTerms, next: CommissionTerms): LoweringCause | undefined {
  const before = outcomesOf(current);
  const after = outcomesOf(next);
  // Terms that pay nothing (whatever rule an order reaches) cannot be lowered.
  if (units.every((u) => mostPaid(before[u.before]!) === 0)) return undefined;
  if (current.rules.length === 0 && next.rules.length === 0) {
    // Either way the default alone, once on the whole order (an amount, or a share of the value).
    const value = firstValuePayingLess(before[0]!, after[0]!, 1, Infinity);
    const unit = units.find((u) => u.shape === 'whole')!;
    return value === undefined ? undefined : { kind: 'outcome', unit: { ...unit, value } };
  }
  // From no rules to rules, the items and the value they do not cover are each a unit the default
  // paid at its share (exactly the default's share of the value, as the total is rounded once): the
  // units below compare them one by one.
  if (onValue(next)) return { kind: 'value-not-items' };
  for (const unit of units) {
    if (!paysUnitsNoLess(before[unit.before]!, after[unit.after]!)) return { kind: 'outcome', unit };
  }
  // A rule with a ceiling may take units of several rules of the current terms in one order: it must pay what they could together.
  for (let a = 0; a < after.length; a++) {
    const ceiling = ceilingOf(after[a]!);
    if (!Number.isFinite(ceiling)) continue;
    const taken = units.filter((u) => u.after === a);
    const most = (b: number) => mostPaid(before[b]!);
    // The heaviest first (Infinity − Infinity is NaN: equal).
    const sources = [...new Set(taken.map((u) => u.before))].sort((x, y) => most(y) - most(x) || 0);
    const together = sourcesOverCeiling(space, a, sources, most, ceiling);
    if (together) return { kind: 'ceiling', after: a, sources: together, unit: taken.find((u) => u.before === together[0])! };
  }
  return undefined;
}

/**
 * Sources (rules of the current terms) whose units the rule `after` takes, that could be paid
 * together in one order more than its ceiling: a source with those it can share an order with (two
 * by two, so a few more than one order may hold), or undefined when none could.
 */
function sourcesOverCeiling(space: RegionSpace, after: number, sources: number[], most: (b: number) => number, ceiling: number): number[] | undefined {
  if (sources.reduce((sum, b) => sum + most(b), 0) <= ceiling) return undefined;
  for (const b of sources) {
    if (most(b) === 0) continue;
    const beside = sources.filter((o) => o !== b && most(o) > 0 && space.units('items', [[b, after], [o, after]]) !== undefined);
    if ([b, ...beside].reduce((sum, o) => sum + most(o), 0) > ceiling) return [b, ...beside];
  }
  return undefined;
}

/** Whether two terms are the same (a save that changes nothing is told to no one). */
export function sameTerms(a: CommissionTerms, b: CommissionTerms): boolean {
  return isDeepStrictEqual(JSON.parse(JSON.stringify(a.rules)), JSON.parse(JSON.stringify(b.rules))) && a.default.transfer === b.default.transfer && a.default.value === b.default.value;
}
