// The comparison of a change of terms with the terms in force, as a whole, on the examples of
// docs/decisions.md ("A raise is a raise"): what is a raise, what could pay less and why, with an
// example order that each verdict's words name, checked with explainCommission.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compareTerms, type CommissionTerms } from '../../src/domain/orders/terms-changes.js';
import { loweringInWords, raiseInWords } from '../../src/domain/orders/terms-words.js';
import { firstValuePayingLess } from '../../src/domain/orders/terms-outcomes.js';
import { explainCommission, type CommissionOrderFacts, type CommissionRule } from '../../src/domain/orders/commission-rules.js';

const TEN = { transfer: 'cps', value: 1000 };
const terms = (rules: CommissionRule[], fallback = TEN): CommissionTerms => ({ rules, default: fallback });
const earned = (t: CommissionTerms, order: CommissionOrderFacts) => explainCommission(t.rules, t.default, order).total;
const order = (value: number, more: Partial<CommissionOrderFacts> = {}): CommissionOrderFacts => ({ value, items: [{ id: 'sku', price: value, quantity: 1, categories: [] }], affiliateGroups: [], ...more });

const COUPON_15: CommissionRule = { name: 'Coupon orders', conditions: { coupon: {} }, transfer: 'cps', value: 15 };
const SHOES_12: CommissionRule = { name: 'Shoes', conditions: { categories: ['Shoes'] }, transfer: 'cps', value: 12 };

/** The comparison's verdict, its words, and (checked) its example. */
function compare(current: CommissionTerms, next: CommissionTerms) {
  const c = compareTerms(current, next);
  const example = c.lowering?.example ?? c.raise;
  if (example) {
    assert.equal(earned(current, example.order), example.before, 'the example earns what it says now');
    assert.equal(earned(next, example.order), example.after, 'and what it says next');
    assert.ok(c.lowering ? example.after < example.before : example.after > example.before);
  }
  return {
    lowers: c.lowering && loweringInWords(c.lowering, current, next, 'BRL'),
    raise: c.raise && raiseInWords(c.raise, current, next, 'BRL'),
  };
}

describe('a raise', () => {
  test('a rule paying 15 % on coupon orders above a 10 % default, with rules in force', () => {
    const verdict = compare(terms([SHOES_12]), terms([COUPON_15, SHOES_12]));
    assert.equal(verdict.lowers, undefined);
    assert.match(verdict.raise ?? '', /^no order earns less, and some earn more: e\.g\. an order of 100\.00 BRL with a coupon code, of an item .*earns 15\.00 BRL instead of 1[02]\.00 BRL$/);
  });

  test('a cap removed, or raised; a share raised; the default raised', () => {
    const capped = { ...SHOES_12, cap: 2000 };
    for (const [from, to] of [
      [terms([capped]), terms([SHOES_12])],
      [terms([capped]), terms([{ ...capped, cap: 2500 }])],
      [terms([SHOES_12]), terms([{ ...SHOES_12, value: 12.5 }])],
      [terms([SHOES_12]), terms([SHOES_12], { transfer: 'cps', value: 1100 })],
    ] as const) {
      const verdict = compare(from, to);
      assert.equal(verdict.lowers, undefined, JSON.stringify(to));
      assert.ok(verdict.raise, JSON.stringify(to));
    }
  });

  test('a rule widened to more orders that it pays more than the default', () => {
    const maria = { ...COUPON_15, conditions: { coupon: { codes: ['MARIA10'] } } };
    assert.ok(compare(terms([maria]), terms([COUPON_15])).raise);
  });

  test('a fixed amount replacing a share capped at no more than it', () => {
    const capped: CommissionRule = { conditions: { coupon: {} }, transfer: 'cps', value: 10, cap: 500 };
    const fixed: CommissionRule = { conditions: { coupon: {} }, transfer: 'cpa', value: 500 };
    assert.equal(compare(terms([capped]), terms([fixed])).lowers, undefined);
  });

  test('amounts per order merged where no order has both: new customers R$ 10, others R$ 5, then everyone R$ 10', () => {
    const fiveOrTen = terms([{ conditions: { customer: 'new' }, transfer: 'cpa', value: 1000 }], { transfer: 'cpa', value: 500 });
    const verdict = compare(fiveOrTen, terms([], { transfer: 'cpa', value: 1000 }));
    assert.equal(verdict.lowers, undefined);
    assert.ok(verdict.raise);
  });

  test('a first rule over a fixed default that pays more: an amount per order is the same with rules or without', () => {
    const verdict = compare(terms([], { transfer: 'cpa', value: 500 }), terms([{ conditions: { coupon: {} }, transfer: 'cpa', value: 700 }], { transfer: 'cpa', value: 500 }));
    assert.equal(verdict.lowers, undefined);
    assert.ok(verdict.raise);
  });

  test('a change that pays every order the same (a rule renamed) is neither', () => {
    assert.deepEqual(compare(terms([COUPON_15]), terms([{ ...COUPON_15, name: 'Cupons' }])), { lowers: undefined, raise: undefined });
  });
});

describe('a change that could pay less', () => {
  test('a fixed R$ 5 replacing a 10 % default: less on orders above R$ 50', () => {
    const fixed = terms([], { transfer: 'cpa', value: 500 });
    const { lowers } = compare(terms([]), fixed);
    assert.equal(lowers, 'the default rule would pay 5.00 BRL per order instead of 10 %, less on orders from 50.05 BRL: e.g. an order of 100.00 BRL would earn 5.00 BRL instead of 10.00 BRL');
    assert.equal(earned(fixed, order(5004)), earned(terms([]), order(5004)), '50.04: 10 % rounds to 5.00');
    assert.ok(earned(fixed, order(5005)) < earned(terms([]), order(5005)));
  });

  test('a share replacing a fixed amount: less on small orders', () => {
    const { lowers } = compare(terms([], { transfer: 'cpa', value: 500 }), terms([]));
    assert.match(lowers ?? '', /^the default rule would pay 10 % instead of 5\.00 BRL per order: e\.g\. an order of 10\.00 BRL would earn 1\.00 BRL instead of 5\.00 BRL$/);
  });

  test('a cap added', () => {
    const { lowers } = compare(terms([SHOES_12]), terms([{ ...SHOES_12, cap: 2000 }]));
    assert.match(lowers ?? '', /^rules\[0\] \(Shoes\) would pay at most 20\.00 BRL an order, where it pays 12 % with no such limit: e\.g\. an order of 1000\.00 BRL of an item in shoes at 1000\.00 BRL would earn 20\.00 BRL instead of 120\.00 BRL$/);
  });

  test('a rule narrowed to fewer orders, which paid above the default', () => {
    const { lowers } = compare(terms([COUPON_15]), terms([{ ...COUPON_15, conditions: { coupon: { codes: ['MARIA10'] } } }]));
    assert.match(lowers ?? '', /^the default rule would pay 10 % where rules\[0\] \(Coupon orders\) pays 15 % now: e\.g\. an order of 100\.00 BRL with a coupon code, of an item at 100\.00 BRL would earn 10\.00 BRL instead of 15\.00 BRL$/);
    assert.doesNotMatch(lowers ?? '', /maria10/i, 'coupon codes are never named');
  });

  test('a rule paying less moved above one paying more for the same items', () => {
    const { lowers } = compare(terms([SHOES_12, COUPON_15]), terms([COUPON_15, SHOES_12], { transfer: 'cps', value: 1000 }));
    assert.equal(lowers, undefined, 'coupon shoes: 12 % → 15 %');
    const reversed = compare(terms([COUPON_15, SHOES_12]), terms([SHOES_12, COUPON_15]));
    assert.match(reversed.lowers ?? '', /^rules\[0\] \(Shoes\) would pay 12 % where rules\[0\] \(Coupon orders\) pays 15 % now: e\.g\. an order of 100\.00 BRL with a coupon code, of an item in shoes/);
  });

  test('a fixed amount per order replacing a share on items', () => {
    const { lowers } = compare(terms([SHOES_12]), terms([{ ...SHOES_12, transfer: 'cpa', value: 1000 }]));
    assert.match(lowers ?? '', /^rules\[0\] \(Shoes\) would pay 10\.00 BRL per order instead of 12 %: e\.g\. /);
  });

  test('an amount per unit replaced by one per order: an order of several units earns less', () => {
    const { lowers } = compare(terms([{ transfer: 'cpa', value: 200, per: 'item' }]), terms([{ transfer: 'cpa', value: 300 }]));
    assert.match(lowers ?? '', /would earn 3\.00 BRL instead of 4\.00 BRL$/);
  });

  test('one capped rule taking the units of two capped ones that an order can hold together', () => {
    const current = terms([
      { conditions: { categories: ['shoes'] }, transfer: 'cps', value: 10, cap: 1000 },
      { conditions: { categories: ['bags'] }, transfer: 'cps', value: 10, cap: 1000 },
    ]);
    const { lowers } = compare(current, terms([{ conditions: { categories: ['shoes', 'bags'] }, transfer: 'cps', value: 10, cap: 1500 }]));
    assert.match(lowers ?? '', /^rules\[0\] would pay at most 15\.00 BRL an order, where rules\[0\] pays 10 % up to 10\.00 BRL an order and rules\[1\] pays 10 % up to 10\.00 BRL an order, up to 20\.00 BRL together: e\.g\. an order of .* of an item in shoes at .* and an item in bags at /);
  });

  test('a brand’s first rule over a share of the order value: its items and the value they do not cover each keep the default’s share, so a higher share on coupon orders is a raise', () => {
    const verdict = compare(terms([]), terms([COUPON_15]));
    assert.equal(verdict.lowers, undefined);
    assert.match(verdict.raise ?? '', /^no order earns less, and some earn more: e\.g\. an order of .* with a coupon code.* earns .* instead of /);
  });

  test('a brand’s first rule paying a lower share on some items could pay less', () => {
    const { lowers } = compare(terms([]), terms([{ conditions: { categories: ['sale'] }, transfer: 'cps', value: 5 }]));
    assert.match(lowers ?? '', /^rules\[0\] would pay 5 % where the default rule pays 10 % now: e\.g\. an order of .* of an item in sale .* would earn /);
  });

  test('back to no rules with a share: the value may be less than the items added up', () => {
    const { lowers } = compare(terms([SHOES_12]), terms([], { transfer: 'cps', value: 1500 }));
    assert.match(lowers ?? '', /^without rules, the default rule alone applies, to the order’s value, which its items may exceed: e\.g\. /);
  });

});

test('terms that pay nothing cannot be lowered', () => {
  assert.equal(compare(terms([{ transfer: 'cps', value: 0 }]), terms([], { transfer: 'cps', value: 0 })).lowers, undefined);
});

test('the least value from which a whole order earns less is exact', () => {
  const share = (bp: number, cap?: number) => ({ kind: 'share' as const, units: bp, ...(cap !== undefined && { cap }) });
  const fixed = (cents: number) => ({ kind: 'perOrder' as const, units: cents });
  assert.equal(firstValuePayingLess(share(1000), fixed(500), 1, Infinity), 5005);
  assert.equal(firstValuePayingLess(share(1000), fixed(500), 1, 5004), undefined);
  assert.equal(firstValuePayingLess(fixed(500), share(1000), 1, Infinity), 1);
  assert.equal(firstValuePayingLess(fixed(500), share(1000), 4995, Infinity), undefined);
  // 7.5 % and 5 % of 7 cents: 0.525 → 1 against 0.35 → 0.
  assert.equal(firstValuePayingLess(share(750), share(500), 1, Infinity), 7);
  assert.equal(firstValuePayingLess(share(750), share(500), 10, 10), undefined, '0.75 and 0.5: 1 each');
  assert.equal(firstValuePayingLess(share(1000), share(1200, 300), 1, Infinity), 3005);
  assert.equal(firstValuePayingLess(share(1000, 300), share(1200), 1, Infinity), undefined);
});
