// What an affiliate earns on a brand's products: each product's figure is what an order of one unit
// of it earns, as that order's own explanation says, under the rules in force and the affiliate's
// groups; a brand the affiliate may not see answers 404.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startWithKeys } from '../helpers/api.js';
import type { Harness } from '../helpers/harness.js';
import { BRANDS, productInput } from '../helpers/world.js';
import { brandKey, conversionOf, freshClick, item, report } from '../helpers/tracking.js';
import { servicesFor } from '../helpers/databases.js';
import type { OrderCommission } from '../../src/domain/orders/commission-rules-service.js';

let h: Harness;
let aff1: string;
let aff2: string;
let acme: string;
type Earning = { productId: string; currency: string; price: number; commission: number };

before(async () => {
  ({ h, aff1, aff2 } = await startWithKeys({ TERMS_NOTICE_MIN_DAYS: '0' }));
  acme = await brandKey(h, BRANDS.acme);
  assert.equal((await h.request({ method: 'PATCH', url: '/advertiser/brand', payload: { termsNoticeDays: 0 }, headers: { 'x-api-key': acme } })).statusCode, 200);
  for (const [id, price, categories] of [['pe-shoe', 12_990, ['Shoes']], ['pe-hat', 4_590, ['Hats']]] as const) {
    const product = productInput(id, BRANDS.acme, `Product ${id}`, price);
    product.options = product.options!.map((option) => ({ ...option, categories: [...categories] }));
    await servicesFor(h.service.database).imports.upsertProduct(product);
  }
  // Shoes earn 15 %; everything else the brand's default.
  const rules = await h.request({ method: 'PUT', url: '/advertiser/commission-rules', payload: { rules: [{ name: 'Shoes', conditions: { categories: ['Shoes'] }, transfer: 'cps', value: 15 }] }, headers: { 'x-api-key': acme } });
  assert.equal(rules.statusCode, 200, rules.body);
});
after(() => h.close());

const earnings = (key: string, brandId: string, products: string[]) =>
  h.request({ method: 'GET', url: `/affiliate/brands/${brandId}/earnings?${products.map((p) => `products=${encodeURIComponent(p)}`).join('&')}`, headers: { 'x-api-key': key } });

test("each product's earning is what an order of one unit of it earns, as that order's explanation says", async () => {
  const res = await earnings(aff1, BRANDS.acme, ['pe-shoe', 'pe-hat', 'pe-unknown']);
  assert.equal(res.statusCode, 200, res.body);
  const listed = res.json<{ data: Earning[] }>().data;
  assert.deepEqual(listed.map((e) => e.productId).sort(), ['pe-hat', 'pe-shoe'], 'a product the brand does not have is left out');
  for (const earning of listed) {
    const orderId = `PE-${earning.productId}`;
    const created = conversionOf(await report(h, acme, { clickId: await freshClick(h, aff1, BRANDS.acme), orderId, value: earning.price, items: [item(earning.price, 1, earning.productId)] }), 201);
    const explained = await h.request({ method: 'GET', url: `/affiliate/orders/${created.id}/commission`, headers: { 'x-api-key': aff1 } });
    assert.equal(explained.statusCode, 200, explained.body);
    assert.equal(earning.commission, explained.json<{ data: OrderCommission }>().data.total, `${earning.productId}: the page's figure is the order's`);
    assert.equal(earning.currency, 'BRL');
  }
  const shoe = listed.find((e) => e.productId === 'pe-shoe')!;
  assert.deepEqual([shoe.price, shoe.commission], [12_990, 1_949], '15 % of R$ 129,90, rounded to the cent');
});

test('a brand the affiliate may not see, or a request without products, is refused', async () => {
  assert.equal((await earnings(aff1, BRANDS.initech, ['x'])).statusCode, 404, 'initech is private and aff-1 not approved');
  assert.equal((await earnings(aff2, BRANDS.initech, ['x'])).statusCode, 200, 'aff-2 is approved');
  const none = await h.request({ method: 'GET', url: `/affiliate/brands/${BRANDS.acme}/earnings`, headers: { 'x-api-key': aff1 } });
  assert.equal(none.statusCode, 400, none.body);
});
