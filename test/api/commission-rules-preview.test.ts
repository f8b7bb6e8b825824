// POST /advertiser/commission-rules/preview: what an example order would earn under rules not yet
// saved or those in force, computed as a reported order's commission, with nothing stored; the
// rules checked as a save checks them.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startWithKeys } from '../helpers/api.js';
import type { Harness } from '../helpers/harness.js';
import { BRANDS, productInput } from '../helpers/world.js';
import { brandKey } from '../helpers/tracking.js';
import { servicesFor } from '../helpers/databases.js';
import type { CommissionPreview } from '../../src/domain/orders/commission-rules-service.js';

let h: Harness;
let aff1: string;
let acme: string;

before(async () => {
  // Saved rules in force at once: notice is the subject of terms-notice.test.ts.
  ({ h, aff1 } = await startWithKeys({ TERMS_NOTICE_MIN_DAYS: '0' }));
  acme = await brandKey(h, BRANDS.acme);
  assert.equal((await h.request({ method: 'PATCH', url: '/advertiser/brand', payload: { termsNoticeDays: 0 }, headers: { 'x-api-key': acme } })).statusCode, 200);
  const product = productInput('pv-shoe', BRANDS.acme, 'Preview shoe', 5000);
  product.options = product.options!.map((option) => ({ ...option, categories: ['Shoes'] }));
  await servicesFor(h.service.database).imports.upsertProduct(product);
});
after(async () => {
  await h.close();
});

const preview = (payload: object, key = acme) => h.request({ method: 'POST', url: '/advertiser/commission-rules/preview', payload, headers: { 'x-api-key': key } });
async function previewed(payload: object): Promise<CommissionPreview> {
  const res = await preview(payload);
  assert.equal(res.statusCode, 200, res.body);
  return res.json<{ data: CommissionPreview }>().data;
}
const rulesOf = async () => {
  const res = await h.request({ method: 'GET', url: '/advertiser/commission-rules', headers: { 'x-api-key': acme } });
  assert.equal(res.statusCode, 200, res.body);
  return res.json<{ data: { version: number; rules: unknown[]; default: { transfer: string; value: number } } }>().data;
};
const shoesAndHat = { items: [{ id: 'pv-shoe', price: 5000, quantity: 2 }, { id: 'pv-hat', price: 1999, quantity: 1 }] };

describe('POST /advertiser/commission-rules/preview', () => {
  test('unsaved rules: each item to its first matching rule, the default after them, capped, nothing saved', async () => {
    const before = await rulesOf();
    assert.equal(before.default.transfer, 'cps');
    const result = await previewed({
      rules: [
        { name: 'Coupon sites', conditions: { coupon: {} }, transfer: 'cps', value: 2 },
        { name: 'Shoes', conditions: { categories: ['shoes'] }, transfer: 'cps', value: 10, cap: 800 },
      ],
      order: shoesAndHat,
    });
    assert.equal(result.currency, 'BRL', 'in the brand’s currency');
    assert.equal(result.value, 11_999, 'the items summed when no value is given');
    assert.equal(result.lines.length, 2);
    const [shoes, hat] = result.lines;
    assert.deepEqual([shoes!.rule, shoes!.ruleName, shoes!.itemId, shoes!.base, shoes!.result, shoes!.commission, shoes!.capped], [1, 'Shoes', 'pv-shoe', 10_000, 1000, 800, true]);
    const defaultShare = Math.floor((1999 * Math.round(before.default.value * 100) + 5000) / 10_000);
    assert.deepEqual([hat!.rule, hat!.isDefault, hat!.itemId, hat!.result, hat!.commission], [2, true, 'pv-hat', defaultShare, defaultShare]);
    assert.deepEqual(result.capped, [{ rule: 1, cap: 800, uncapped: 1000 }]);
    assert.equal(result.total, 800 + defaultShare);
    assert.equal((await rulesOf()).version, before.version, 'a preview saves no version');
  });

  test('the order facts decide: a coupon, a new customer, a value range', async () => {
    const rules = [
      { name: 'Coupon sites', conditions: { coupon: { codes: ['SPRING10'] } }, transfer: 'cps', value: 2 },
      { name: 'First order', conditions: { customer: 'new', orderValue: { min: 10_000 } }, transfer: 'cpa', value: 1500, per: 'order' },
    ];
    const coupon = await previewed({ rules, order: { ...shoesAndHat, coupon: 'spring10', customer: 'new' } });
    assert.deepEqual(coupon.lines.map((line) => [line.rule, line.result]), [[0, 200], [0, 40]]);
    assert.equal(coupon.total, 240);
    const firstOrder = await previewed({ rules, order: { ...shoesAndHat, customer: 'new' } });
    assert.deepEqual(firstOrder.lines.map((line) => [line.rule, line.per, line.items, line.commission]), [[1, 'order', [0, 1], 1500]]);
    const small = await previewed({ rules, order: { ...shoesAndHat, customer: 'new', value: 9_999 } });
    assert.ok(small.lines.every((line) => line.isDefault), 'below the range the default rule takes every item');
  });

  test('without rules in the body: the rules in force', async () => {
    const saved = await h.request({ method: 'PUT', url: '/advertiser/commission-rules', payload: { rules: [{ name: 'Flat', transfer: 'cpa', value: 300, per: 'item' }] }, headers: { 'x-api-key': acme } });
    assert.equal(saved.statusCode, 200, saved.body);
    const result = await previewed({ order: shoesAndHat });
    assert.deepEqual(result.lines.map((line) => [line.ruleName, line.base, line.amount, line.commission]), [['Flat', 2, 300, 600], ['Flat', 1, 300, 300]]);
    assert.equal(result.total, 900);
    const cleared = await h.request({ method: 'PUT', url: '/advertiser/commission-rules', payload: { rules: [] }, headers: { 'x-api-key': acme } });
    assert.equal(cleared.statusCode, 200, cleared.body);
    const none = await previewed({ order: shoesAndHat });
    assert.equal(none.lines.length, 1, 'no rules: the default rule once on the order value');
    assert.equal(none.lines[0]!.base, 11_999);
  });

  test('checked as a save: 400 invalid_commission_rules naming the rule; a bad body 400 invalid_body', async () => {
    const unreachable = await preview({ rules: [{ transfer: 'cps', value: 5 }, { conditions: { customer: 'new' }, transfer: 'cps', value: 9 }], order: shoesAndHat });
    assert.equal(unreachable.statusCode, 400);
    assert.equal(unreachable.json<{ code: string }>().code, 'invalid_commission_rules');
    assert.match(unreachable.json<{ message: string }>().message, /^rules\[1\]: unreachable/);
    const tooMuch = await preview({ rules: [{ conditions: { customer: 'new' }, transfer: 'cps', value: 101 }], order: shoesAndHat });
    assert.equal(tooMuch.statusCode, 400);
    assert.match(tooMuch.json<{ message: string }>().message, /^rules\[0\]\.value/);
    const kind = await preview({ rules: [{ conditions: { channelKinds: ['no-such-kind'] }, transfer: 'cps', value: 1 }], order: shoesAndHat });
    assert.equal(kind.statusCode, 400);
    assert.match(kind.json<{ message: string }>().message, /^rules\[0\]\.conditions\.channelKinds/);
    const noOrder = await preview({ rules: [] });
    assert.equal(noOrder.statusCode, 400);
    assert.equal(noOrder.json<{ code: string }>().code, 'invalid_body');
    const badItem = await preview({ order: { items: [{ id: 'x', price: -1, quantity: 1 }] } });
    assert.equal(badItem.statusCode, 400);
  });

  test('an affiliate key may not preview a brand’s rules', async () => {
    const res = await preview({ order: shoesAndHat }, aff1);
    assert.ok(res.statusCode === 401 || res.statusCode === 403, `${res.statusCode} ${res.body}`);
  });
});
