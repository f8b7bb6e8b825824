// What one rule (or the default rule) pays for the units it takes in one order, reduced to what a
// comparison of terms needs: a share, an amount per unit or per order, and a cap; and how two such
// outcomes compare. The arithmetic is explainCommission's (shareOf, caps on a rule's sum).
import { basisPointsOf, shareOf, type CommissionRule, type DefaultCommission } from './commission-rules.js';

export interface Outcome {
  kind: 'share' | 'perUnit' | 'perOrder';
  /** share: basis points of each unit's base; perUnit: cents per unit of quantity; perOrder: cents once. */
  units: number;
  /** The most the rule pays in one order, in cents. */
  cap?: number | undefined;
}

export const outcomeOfRule = (rule: CommissionRule): Outcome =>
  rule.transfer === 'cps'
    ? { kind: 'share', units: basisPointsOf(rule.value), cap: rule.cap }
    : { kind: (rule.per ?? 'order') === 'item' ? 'perUnit' : 'perOrder', units: rule.value, cap: rule.cap };

/** The default rule has no cap: a share (basis points) of each unit, or an amount once per order. */
export const outcomeOfDefault = (d: DefaultCommission): Outcome => (d.transfer === 'cpa' ? { kind: 'perOrder', units: d.value } : { kind: 'share', units: d.value });

const capOf = (o: Outcome) => o.cap ?? Infinity;

/** The most the outcome can pay in one order, however many units it takes (Infinity: no limit). */
export function mostPaid(o: Outcome): number {
  const uncapped = o.kind === 'perOrder' ? o.units : o.units > 0 ? Infinity : 0;
  return Math.min(uncapped, capOf(o));
}

/** The least it pays for one unit it takes: a share of a free item is nothing; an amount is paid for a unit of quantity 1. */
export function leastPaid(o: Outcome): number {
  return Math.min(o.kind === 'share' ? 0 : o.units, capOf(o));
}

/** The most it pays in one order whatever it takes: its amount per order, or its cap (Infinity: none). */
export function ceilingOf(o: Outcome): number {
  return o.kind === 'perOrder' ? Math.min(o.units, capOf(o)) : capOf(o);
}

/**
 * Whether units that `before` paid, now paid by `after`, earn at least as much before either's cap:
 * what `before` could ever pay in an order is no more than the least `after` pays for one unit
 * (R$ 5 per order replaced by R$ 5 per unit), or both pay per unit in the same way at a rate no
 * lower (a share of the same base, an amount per unit of the same quantity). The caps are the
 * caller's: an `after` with a ceiling must cover what all its sources could pay together.
 */
export function paysUnitsNoLess(before: Outcome, after: Outcome): boolean {
  if (mostPaid(before) <= leastPaid(after)) return true;
  return before.kind === after.kind && before.kind !== 'perOrder' && after.units >= before.units;
}

/** What the outcome pays for an order taken as one unit: a share of its value, or its amount once. */
export function paidForWhole(o: Outcome, value: number): number {
  return Math.min(o.kind === 'share' ? shareOf(value, o.units) : o.units, capOf(o));
}

/** The least value from which a share pays more than `amount` (before any cap), or undefined when it never does. */
function firstValuePayingMore(basisPoints: number, amount: number): number | undefined {
  if (basisPoints <= 0) return undefined;
  // shareOf(v, bp) >= amount + 1  ⇔  v·bp + 5000 >= 10000·(amount + 1).
  const needed = BigInt(amount + 1) * 10_000n - 5_000n;
  return Math.max(1, Number((needed + BigInt(basisPoints) - 1n) / BigInt(basisPoints)));
}

/**
 * The least order value in [lo, hi] (hi may be Infinity) at which an order taken as one unit earns
 * less under `after` than under `before`, or undefined when none does. Exact: both pay a value
 * that never falls as the order's value grows, so the first value where `before` passes a ceiling
 * of `after` is found by arithmetic, and where two shares differ only by rounding a scan of fewer
 * than 10,000 values settles it.
 */
export function firstValuePayingLess(before: Outcome, after: Outcome, lo: number, hi: number): number | undefined {
  if (lo > hi) return undefined;
  const less = (v: number) => paidForWhole(after, v) < paidForWhole(before, v);
  if (before.kind !== 'share') return less(lo) ? lo : undefined;
  const candidates: number[] = [];
  // Where `before` pays more than the most `after` can pay an order.
  const afterMost = after.kind === 'share' ? capOf(after) : paidForWhole(after, lo);
  if (afterMost < capOf(before) && Number.isFinite(afterMost)) {
    const from = firstValuePayingMore(before.units, afterMost);
    if (from !== undefined) candidates.push(Math.max(lo, from));
  }
  if (after.kind === 'share' && after.units < before.units) {
    // From 10,000 / (difference in basis points) on, the two shares differ by a cent at least.
    const apart = Math.ceil(10_000 / (before.units - after.units));
    const from = Math.max(lo, apart);
    if (from <= hi && less(from)) candidates.push(from);
    for (let v = lo; v < Math.min(apart, hi + 1); v++) {
      if (less(v)) {
        candidates.push(v);
        break;
      }
    }
  }
  const first = Math.min(...candidates.filter((v) => v <= hi && less(v)));
  return Number.isFinite(first) ? first : undefined;
}
