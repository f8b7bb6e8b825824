// The arithmetic of explainCommission on hand-computed orders: per-item rounding, amounts per
// order and per item, caps, orders without items, and sums beyond 2^53 kept exact.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { explainCommission, type CommissionItemFacts, type CommissionOrderFacts } from '../../src/domain/orders/commission-rules.js';

const CPS_750 = { transfer: 'cps', value: 750 };
const item = (id: string, price: number, quantity = 1, categories: string[] = []): CommissionItemFacts => ({ id, price, quantity, categories });
const order = (items: CommissionItemFacts[], more: Partial<CommissionOrderFacts> = {}): CommissionOrderFacts => ({ value: items.reduce((s, i) => s + i.price * i.quantity, 0), items, affiliateGroups: [], ...more });

test('no rules: the default on the value, rounded once; with rules, a share is rounded half up per item', () => {
  const o = order([item('a', 333), item('b', 333), item('c', 333)]);
  assert.deepEqual(explainCommission([], CPS_750, { ...o, value: 1999 }).total, 150); // 149.925
  // 7.5 % of 333 = 24.975 → 25, three times.
  const e = explainCommission([{ conditions: { productIds: ['zzz'] }, transfer: 'cps', value: 1 }], CPS_750, o);
  assert.deepEqual(e.lines.map((l) => [l.rule, l.isDefault, l.item, l.base, l.result]), [[1, true, 0, 333, 25], [1, true, 1, 333, 25], [1, true, 2, 333, 25]]);
  assert.equal(e.total, 75);
});

test('with rules, the total is the lines’ exact sum rounded once, and says what that adds to the lines', () => {
  // 10 % of 4 cents is 0.4: each line shows 0, the order earns 1 (10 % of 8), as without rules.
  const o = order([item('a', 4), item('b', 4)]);
  const e = explainCommission([{ conditions: { productIds: ['zzz'] }, transfer: 'cps', value: 1 }], { transfer: 'cps', value: 1000 }, o);
  assert.deepEqual(e.lines.map((l) => l.commission), [0, 0]);
  assert.deepEqual([e.total, e.rounding], [1, 1]);
  assert.equal(explainCommission([], { transfer: 'cps', value: 1000 }, o).total, 1);
});

test('the value the items do not cover is one more unit: a share pays on it, an amount does not', () => {
  const o = order([item('a', 9000)], { value: 10_000, coupon: 'ANY' });
  const coupons = { conditions: { coupon: {} }, transfer: 'cps' as const, value: 15 };
  const e = explainCommission([coupons], { transfer: 'cps', value: 1000 }, o);
  assert.deepEqual(e.lines.map((l) => [l.rule, l.item, l.base, l.result, l.remainder ?? false]), [[0, 0, 9000, 1350, false], [0, undefined, 1000, 150, true]]);
  assert.equal(e.total, 1500);
  // Without a coupon the default takes both: 10 % of the value, as with no rules at all.
  assert.equal(explainCommission([coupons], { transfer: 'cps', value: 1000 }, { ...o, coupon: undefined }).total, 1000);
  // An amount per order is paid for items, never for the uncovered value alone.
  const shoes = { conditions: { productIds: ['a'] }, transfer: 'cps' as const, value: 10 };
  const amounts = explainCommission([shoes], { transfer: 'cpa', value: 500 }, o);
  assert.deepEqual(amounts.lines.map((l) => [l.rule, l.result]), [[0, 900]]);
  assert.equal(amounts.total, 900);
});

test('a cpa per order is paid once for all the items its rule took; per item, per unit', () => {
  const o = order([item('a', 1000, 2, ['shoes']), item('b', 500, 1, ['hats']), item('c', 700, 3, ['shoes'])]);
  const perOrder = explainCommission([{ conditions: { categories: ['Shoes'] }, transfer: 'cpa', value: 400 }], CPS_750, o);
  assert.deepEqual(perOrder.lines.map((l) => [l.rule, l.items ?? l.item, l.result]), [[0, [0, 2], 400], [1, 1, 38]]); // 37.5 → 38
  assert.equal(perOrder.total, 438);
  const perItem = explainCommission([{ conditions: { categories: ['shoes'] }, transfer: 'cpa', value: 400, per: 'item' }], CPS_750, o);
  assert.deepEqual(perItem.lines.map((l) => [l.item, l.base, l.result]), [[0, 2, 800], [1, 500, 38], [2, 3, 1200]]);
  assert.equal(perItem.total, 2038);
});

test('a cap takes the lines in order; the lines still sum to the total', () => {
  const o = order([item('a', 1000), item('b', 1000), item('c', 1000)]);
  const e = explainCommission([{ transfer: 'cpa', value: 300, per: 'item', cap: 700 }], CPS_750, o);
  assert.deepEqual(e.lines.map((l) => [l.result, l.commission, l.capped]), [[300, 300, false], [300, 300, false], [300, 100, true]]);
  assert.deepEqual(e.capped, [{ rule: 0, cap: 700, uncapped: 900 }]);
  assert.equal(e.total, 700);
});

test('an order without items is one unit: no item condition matches it, a share applies to its value', () => {
  const o: CommissionOrderFacts = { value: 4321, items: [], affiliateGroups: [], coupon: 'Save10' };
  const e = explainCommission([{ conditions: { productIds: ['a'] }, transfer: 'cps', value: 50 }, { conditions: { coupon: { codes: ['SAVE10'] } }, transfer: 'cps', value: 2 }], CPS_750, o);
  assert.deepEqual(e.lines.map((l) => [l.rule, l.item, l.base, l.result]), [[1, undefined, 4321, 86]]); // 86.42
});

test('order conditions: customer, channel, groups (none yet), value range', () => {
  const o = order([item('a', 1000)], { customerIsNew: false, channelKind: 'instagram' });
  const rules = [
    { conditions: { customer: 'new' as const }, transfer: 'cps' as const, value: 50 },
    { conditions: { affiliateGroups: ['best'] }, transfer: 'cps' as const, value: 40 },
    { conditions: { channelKinds: ['site'] }, transfer: 'cps' as const, value: 30 },
    { conditions: { orderValue: { min: 1001 } }, transfer: 'cps' as const, value: 20 },
    { conditions: { channelKinds: ['instagram'], orderValue: { max: 1000 } }, transfer: 'cps' as const, value: 10 },
  ];
  assert.deepEqual(explainCommission(rules, CPS_750, o).lines.map((l) => [l.rule, l.result]), [[4, 100]]);
  // A customer the brand said nothing of is neither new nor returning.
  assert.equal(explainCommission([{ conditions: { customer: 'returning' }, transfer: 'cps', value: 50 }], CPS_750, { ...o, customerIsNew: undefined }).lines[0]!.isDefault, true);
});

test('amounts beyond 2^53 stay exact', () => {
  const e = explainCommission([{ transfer: 'cps', value: 33.33 }], CPS_750, order([item('a', 900_000_000_000, 10)]));
  // 9e12 × 3333 / 10000 = 2,999,700,000,000 exactly.
  assert.equal(e.total, 2_999_700_000_000);
});
