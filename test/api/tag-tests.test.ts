// A test order proves a brand's install without a real sale: the test's link carries a click id
// the tag keeps, the tag announces the visit, and an order reported with that click id is shown
// with what the tag read, or why it was refused, and is never an order: absent from the brand's
// and the affiliates' lists and figures.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { runInNewContext } from 'node:vm';
import type { LightMyRequestResponse } from 'fastify';
import { startHarness, type Harness } from '../helpers/harness.js';
import { BRANDS } from '../helpers/world.js';
import { brandKey } from '../helpers/tracking.js';

const SHOP = 'https://www.acme.com';
let h: Harness;
let acme: string;
let initech: string;
let publishable = '';
let initechPublishable = '';
let visitor = 0;

interface Report {
  outcome: string;
  orderId?: string;
  source: string;
  code?: string;
  details?: Record<string, unknown>;
  test?: boolean;
  value?: number;
  currency?: string;
  coupon?: string;
  items?: number;
  origin?: string;
}
interface TagTest {
  id: string;
  url: string;
  createdAt: string;
  visit?: { at: string; origin?: string; onDomains: boolean };
  orders: Report[];
  otherRefusals: Report[];
}

before(async () => {
  h = await startHarness();
  acme = await brandKey(h, BRANDS.acme);
  initech = await brandKey(h, BRANDS.initech);
  const made = async (key: string) => {
    const res = await h.request({ method: 'POST', url: '/advertiser/tag/publishable-key', headers: { 'x-api-key': key } });
    assert.equal(res.statusCode, 201, res.body);
    return res.json<{ data: { publishableKey: string } }>().data.publishableKey;
  };
  publishable = await made(acme);
  initechPublishable = await made(initech);
});
after(() => h?.close());

const startTest = async (key = acme): Promise<TagTest> => {
  const res = await h.request({ method: 'POST', url: '/advertiser/tag/tests', headers: { 'x-api-key': key } });
  assert.equal(res.statusCode, 201, res.body);
  return res.json<{ data: TagTest }>().data;
};
const readTest = async (id: string, key = acme) => h.request({ method: 'GET', url: `/advertiser/tag/tests/${id}`, headers: { 'x-api-key': key } });
const testOf = async (id: string): Promise<TagTest> => {
  const res = await readTest(id);
  assert.equal(res.statusCode, 200, res.body);
  return res.json<{ data: TagTest }>().data;
};
/** What the tag sends, as sendBeacon sends it: text/plain JSON, from a page of `origin`. */
const beacon = (path: string, body: object, origin = SHOP): Promise<LightMyRequestResponse> =>
  h.request({ method: 'POST', url: path, payload: JSON.stringify(body), headers: { 'content-type': 'text/plain;charset=UTF-8', origin }, remoteAddress: `203.0.113.${++visitor % 250}` });

test('a test link opens the brand’s home page with a click id the tag keeps, and the tag’s announcement of the visit is shown with its page', async () => {
  const made = await startTest();
  assert.match(made.id, /^[0-9a-f]{32}$/, 'shaped as a click id, so the tag keeps it');
  const url = new URL(made.url);
  assert.equal(`${url.origin}${url.pathname}`, 'https://www.acme.com/', 'the brand’s home page');
  assert.equal(url.searchParams.get('clickId'), made.id);
  assert.equal(url.searchParams.get('affnet_test'), '1');
  assert.equal(made.visit, undefined);
  assert.deepEqual(made.orders, []);

  const visit = await beacon('/track/visits', { key: publishable, clickId: made.id }, 'https://www.acme.com');
  assert.equal(visit.statusCode, 204, visit.body);
  const seen = await testOf(made.id);
  assert.equal(seen.visit?.origin, 'https://www.acme.com');
  assert.equal(seen.visit?.onDomains, true);

  // A page outside the brand's domains: the visit is shown, and said to be off its domains.
  const elsewhere = await startTest();
  assert.equal((await beacon('/track/visits', { key: publishable, clickId: elsewhere.id }, 'https://staging.example.net')).statusCode, 204);
  assert.deepEqual((await testOf(elsewhere.id)).visit && { origin: (await testOf(elsewhere.id)).visit!.origin, onDomains: (await testOf(elsewhere.id)).visit!.onDomains }, {
    origin: 'https://staging.example.net',
    onDomains: false,
  });

  // A click id of no test, or another brand's key: the same answer, nothing noted.
  assert.equal((await beacon('/track/visits', { key: publishable, clickId: 'f'.repeat(32) })).statusCode, 204);
  const other = await startTest();
  assert.equal((await beacon('/track/visits', { key: initechPublishable, clickId: other.id }, 'https://initech.com')).statusCode, 204);
  assert.equal((await testOf(other.id)).visit, undefined, 'another brand’s key does not visit Acme’s test');
  const badKey = await beacon('/track/visits', { key: 'afpub_nothing', clickId: other.id });
  assert.equal(badKey.statusCode, 403);
  assert.equal(badKey.json<{ code: string }>().code, 'invalid_publishable_key');
});

test('an order reported with the test’s click id is shown with what the tag read and is never an order: no list, figure or affiliate meets it', async () => {
  const made = await startTest();
  const before = await h.get('/advertiser/conversions?orderId=TEST-1', acme);
  assert.equal(before.statusCode, 200, before.body);

  const res = await beacon('/track/conversions', {
    key: publishable,
    orderId: 'TEST-1',
    value: 12990,
    currency: 'BRL',
    coupon: 'ANA10',
    clickId: made.id,
    items: [{ id: 'sku-1', name: 'Sneakers', quantity: 1, price: 12990 }],
  });
  assert.equal(res.statusCode, 202, res.body);
  assert.deepEqual(res.json(), { data: { orderId: 'TEST-1', outcome: 'recorded' } }, 'answered as any report is');

  const [order] = (await testOf(made.id)).orders;
  assert.equal(order?.outcome, 'accepted');
  assert.equal(order?.test, true);
  assert.equal(order?.orderId, 'TEST-1');
  assert.equal(order?.value, 12990);
  assert.equal(order?.currency, 'BRL');
  assert.equal(order?.coupon, 'ANA10');
  assert.equal(order?.items, 1);
  assert.equal(order?.source, 'tag');

  assert.equal((await h.get('/advertiser/conversions/TEST-1', acme)).statusCode, 404, 'no order');
  // Statements, payouts, rollups and the ledger are made from orders: none was written.
  assert.deepEqual(await h.service.database.db.selectFrom('orders').select('id').where('order_id', '=', 'TEST-1').execute(), []);
  assert.deepEqual((await h.get('/advertiser/conversions?orderId=TEST-1', acme)).json<{ data: unknown[] }>().data, []);
  const install = (await h.get('/advertiser/tag', acme)).json<{ data: { reports: Report[]; awaitingConfirmation?: { orders: number } } }>().data;
  assert.equal(install.reports[0]?.test, true, 'the install check marks it as a test');
  assert.equal(install.awaitingConfirmation?.orders, 0, 'no order waits for confirmation');
  const figures = await h.get('/advertiser/analytics?interval=30d&event=orders', acme);
  assert.equal(figures.statusCode, 200, figures.body);
  assert.ok(figures.json<{ data: Array<{ orders?: number }> }>().data.every((row) => !row.orders), 'no order in the brand’s figures');
  for (const affiliate of [h.world.keys.aff1, h.world.keys.aff2]) {
    assert.equal((await h.get('/affiliate/orders/TEST-1', affiliate)).statusCode, 404);
  }
});

test('a test order the network refuses says why in codes the page words: the currency, the page’s origin, an order without the test’s click', async () => {
  const made = await startTest();
  const currency = await beacon('/track/conversions', { key: publishable, orderId: 'TEST-USD', value: 1000, currency: 'USD', clickId: made.id });
  assert.equal(currency.statusCode, 422, currency.body);
  assert.deepEqual(currency.json<{ details?: unknown }>().details, { currency: 'USD', expected: 'BRL' }, 'the answer names them too');
  const origin = await beacon('/track/conversions', { key: publishable, orderId: 'TEST-ORIGIN', value: 1000, clickId: made.id }, 'https://staging.example.net');
  assert.equal(origin.statusCode, 403, origin.body);
  assert.deepEqual(origin.json<{ details?: unknown }>().details, { origin: 'https://staging.example.net', domains: ['acme.com'] });
  const lines = await beacon('/track/conversions', { key: publishable, orderId: 'TEST-LINES', value: 10_000, clickId: made.id, items: [{ id: 'sku-1', name: 'Sneakers', quantity: 1, price: 5000 }] });
  assert.equal(lines.statusCode, 422, 'lines that do not add up are refused for a test as for an order');
  const noClick = await beacon('/track/conversions', { key: publishable, orderId: 'TEST-NOCLICK', value: 1000 });
  assert.equal(noClick.statusCode, 400, noClick.body);

  const seen = await testOf(made.id);
  assert.deepEqual(
    seen.orders.map((o) => [o.orderId, o.outcome, o.code, o.details, o.test]),
    [
      ['TEST-USD', 'refused', 'currency_mismatch', { currency: 'USD', expected: 'BRL' }, true],
      ['TEST-ORIGIN', 'refused', 'origin_not_allowed', { origin: 'https://staging.example.net', domains: ['acme.com'] }, true],
      ['TEST-LINES', 'refused', 'items_mismatch', undefined, true],
    ],
  );
  assert.deepEqual(
    seen.otherRefusals.map((o) => [o.orderId, o.code]),
    [['TEST-NOCLICK', 'click_or_coupon_required']],
    'an order without the test’s click id is shown beside the test',
  );
});

test('the pixel reports a test order too, and a brand reads only its own tests', async () => {
  const made = await startTest();
  const res = await h.request({ method: 'GET', url: `/track/pixel.gif?pk=${publishable}&orderId=TEST-PX&value=5000&clickId=${made.id}`, headers: { referer: `${SHOP}/thanks` }, remoteAddress: '198.18.0.7' });
  assert.equal(res.statusCode, 200);
  const [order] = (await testOf(made.id)).orders;
  assert.deepEqual([order?.source, order?.orderId, order?.value, order?.outcome], ['pixel', 'TEST-PX', 5000, 'accepted']);
  assert.equal((await h.get('/advertiser/conversions/TEST-PX', acme)).statusCode, 404);

  const foreign = await readTest(made.id, initech);
  assert.equal(foreign.statusCode, 404);
  assert.equal(foreign.json<{ code: string }>().code, 'tag_test_not_found');
  // Another brand's key with Acme's test click id: no test of that brand, an unknown click there.
  const crossed = await beacon('/track/conversions', { key: initechPublishable, orderId: 'TEST-X', value: 1000, clickId: made.id }, 'https://initech.com');
  assert.ok(crossed.statusCode >= 400 && crossed.statusCode < 500, crossed.body);
  assert.equal((await testOf(made.id)).orders.length, 1, 'Acme’s test is unchanged');
});

test('a Shopify shop’s custom pixel keeps the test link’s click id, announces the visit and reports the completed checkout in cents with its discount code', async () => {
  const made = await startTest();
  const install = (await h.get('/advertiser/tag', acme)).json<{ data: { snippets: { shopifyPixel: string } } }>().data;
  // What Shopify's Web Pixels API gives a custom pixel: events to subscribe to and the shop's storage.
  const handlers = new Map<string, (event: unknown) => Promise<void>>();
  const storage = new Map<string, string>();
  const sent: Array<{ url: string; body: string }> = [];
  const analytics = { subscribe: (name: string, handler: (event: unknown) => Promise<void>) => handlers.set(name, handler) };
  const browser = { localStorage: { setItem: async (k: string, v: string) => void storage.set(k, v), getItem: async (k: string) => storage.get(k) ?? null } };
  const fetchCalls = async (url: string, init: { body: string }) => void sent.push({ url, body: init.body });
  // Run as Shopify runs it: a script of its own, given only these.
  runInNewContext(install.snippets.shopifyPixel, { analytics, browser, fetch: fetchCalls, URLSearchParams });

  const landing = new URL(made.url);
  await handlers.get('page_viewed')!({ context: { document: { location: { search: landing.search } } } });
  await handlers.get('checkout_completed')!({
    data: {
      checkout: {
        order: { id: 'gid://shopify/OrderIdentity/5312345678901' },
        totalPrice: { amount: 129.9, currencyCode: 'BRL' },
        currencyCode: 'BRL',
        discountApplications: [{ type: 'AUTOMATIC', title: 'Summer' }, { type: 'DISCOUNT_CODE', title: 'ANA10' }],
      },
    },
  });
  assert.deepEqual(
    sent.map((s) => new URL(s.url).pathname),
    ['/track/visits', '/track/conversions'],
  );
  assert.deepEqual(JSON.parse(sent[1]!.body), { key: publishable, orderId: '5312345678901', value: 12990, currency: 'BRL', coupon: 'ANA10', clickId: made.id }, 'the order’s number, as the export’s Id column has it');
  // A code the network would refuse (two words), and an order of nothing: the code is left out, the free order not sent.
  await handlers.get('checkout_completed')!({ data: { checkout: { order: { id: '77' }, totalPrice: { amount: '59.90' }, currencyCode: 'BRL', discountApplications: [{ type: 'DISCOUNT_CODE', title: 'TWO WORDS' }] } } });
  await handlers.get('checkout_completed')!({ data: { checkout: { order: { id: '78' }, totalPrice: { amount: '0.00' }, currencyCode: 'BRL', discountApplications: [] } } });
  assert.equal(sent.length, 3);
  assert.deepEqual(JSON.parse(sent[2]!.body), { key: publishable, orderId: '77', value: 5990, currency: 'BRL', clickId: made.id });
  sent.pop();

  // Sent from the pixel's sandboxed frame: Origin "null", the shop's page as Referer.
  for (const { url, body } of sent) {
    const res = await h.request({ method: 'POST', url: new URL(url).pathname, payload: body, headers: { 'content-type': 'text/plain', origin: 'null', referer: 'https://www.acme.com/' }, remoteAddress: '198.51.100.9' });
    assert.ok([202, 204].includes(res.statusCode), res.body);
  }
  const seen = await testOf(made.id);
  assert.equal(seen.visit?.origin, 'https://www.acme.com');
  assert.deepEqual([seen.orders[0]?.orderId, seen.orders[0]?.value, seen.orders[0]?.coupon, seen.orders[0]?.outcome], ['5312345678901', 12990, 'ANA10', 'accepted']);
});

test('a brand starts at most 30 test orders an hour', async () => {
  for (let i = 0; i < 30; i++) await startTest(initech);
  const refused = await h.request({ method: 'POST', url: '/advertiser/tag/tests', headers: { 'x-api-key': initech } });
  assert.equal(refused.statusCode, 429, refused.body);
  assert.equal(refused.json<{ code: string }>().code, 'too_many_tag_tests');
  await startTest(acme);
});
