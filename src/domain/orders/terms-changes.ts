// Whether a change of a brand's terms (its rules and its default rule) could lower what an
// affiliate earns: compared rule by rule with the terms in force. Only a change that provably pays
// no less for every order takes effect at once; any other waits for the brand's notice. See
// docs/decisions.md, "Changes of terms with notice".
import { isDeepStrictEqual } from 'node:util';
import type { CommissionRule, DefaultCommission } from './commission-rules.js';

export interface CommissionTerms {
  rules: readonly CommissionRule[];
  default: DefaultCommission;
}

/**
 * The reason the next terms could pay some order less than the current ones, or undefined when
 * they cannot: the same rules in the same order with the same conditions, each paying the same
 * way at least as much (a value no lower, a cap no lower or none), and a default no lower.
 */
export function loweringIn(current: CommissionTerms, next: CommissionTerms): string | undefined {
  if (next.rules.length !== current.rules.length) return current.rules.length === 0 ? 'rules were added' : next.rules.length === 0 ? 'the rules were removed' : 'rules were added or removed';
  for (const [i, rule] of next.rules.entries()) {
    const before = current.rules[i]!;
    if (!isDeepStrictEqual(rule.conditions ?? {}, before.conditions ?? {})) return `rules[${i}]: its conditions changed`;
    const why = outcomeLowering(before, rule);
    if (why) return `rules[${i}]: ${why}`;
  }
  if (next.default.transfer !== current.default.transfer) return 'the default rule changed between cps and cpa';
  if (next.default.value < current.default.value) return 'the default rule pays less';
  return undefined;
}

function outcomeLowering(before: CommissionRule, after: CommissionRule): string | undefined {
  if (after.transfer !== before.transfer) return 'it changed between cps and cpa';
  if (after.transfer === 'cpa' && (after.per ?? 'order') !== (before.per ?? 'order')) return 'it pays per order instead of per item, or the other way';
  if (after.value < before.value) return 'it pays less';
  if (after.cap !== undefined && (before.cap === undefined || after.cap < before.cap)) return 'its cap is new or lower';
  return undefined;
}

/** Whether two terms are the same (a save that changes nothing is told to no one). */
export function sameTerms(a: CommissionTerms, b: CommissionTerms): boolean {
  return isDeepStrictEqual(JSON.parse(JSON.stringify(a.rules)), JSON.parse(JSON.stringify(b.rules))) && a.default.transfer === b.default.transfer && a.default.value === b.default.value;
}
