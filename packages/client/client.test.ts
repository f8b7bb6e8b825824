// The typed client against a live server (a real `affnet serve` over HTTP): an affiliate browses
// and makes a link, the brand reports a sale through its own key, the affiliate reads the order;
// errors arrive typed in the API's error shape.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createAffnetClient, type AffnetClient } from './index.js';
import { freshDatabase, redisEnv, servicesFor, type TestDatabase } from '../../test/helpers/databases.js';
import { startServerProcess, type ServerProcess } from '../../test/helpers/processes.js';
import { buildWorld, BRANDS, productInput } from '../../test/helpers/world.js';
import { BROWSER_UA } from '../../test/helpers/tracking.js';
import { openDatabase } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrate.js';

let testDb: TestDatabase;
let server: ServerProcess;
let affiliate: AffnetClient;
let brand: AffnetClient;

before(async () => {
  testDb = await freshDatabase();
  const database = openDatabase(testDb.url);
  let keys: { affiliate: string; brand: string };
  try {
    await migrateToLatest(database);
    const world = await buildWorld(database);
    keys = { affiliate: world.keys.aff1, brand: (await servicesFor(database).access.createApiKey({ brandId: BRANDS.acme })).key };
  } finally {
    await database.close();
  }
  server = await startServerProcess({ DATABASE_URL: testDb.url, REDIS_URL: '', ...redisEnv(), WEBHOOK_POLL_MS: '0' });
  affiliate = createAffnetClient({ baseUrl: server.url, apiKey: keys.affiliate });
  brand = createAffnetClient({ baseUrl: server.url, apiKey: keys.brand });
});
after(async () => {
  await server?.stop();
  await testDb?.drop();
});

test('an affiliate finds a brand and makes a link; the brand reports a sale; the affiliate reads the order', async () => {
  const brands = await affiliate.GET('/affiliate/brands', { params: { query: { limit: 5 } } });
  assert.equal(brands.response.status, 200);
  assert.ok(brands.data?.data.some((b) => b.id === BRANDS.acme), 'acme is listed');

  const link = await affiliate.POST('/affiliate/shortener/url', { body: { organizationId: BRANDS.acme, type: 'Home' } });
  assert.equal(link.response.status, 200, JSON.stringify(link.error));
  const shortUrl = link.data?.flatMap((channel) => channel.shortUrls)[0];
  assert.ok(shortUrl, 'a short link for a channel');

  const visit = await fetch(shortUrl.replace(/^https?:\/\/[^/]+/, server.url), { redirect: 'manual', headers: { 'user-agent': BROWSER_UA } });
  const clickId = new URL(visit.headers.get('location')!).searchParams.get('clickId')!;

  const sale = await brand.POST('/advertiser/conversions', { body: { clickId, orderId: 'client-order-1', value: 12_900, items: [{ id: 'sku-1', name: 'Shoe', quantity: 1, price: 12_900, categories: 1 }] } });
  assert.equal(sale.response.status, 201, JSON.stringify(sale.error));
  assert.equal(sale.data?.data.orderId, 'client-order-1');

  const orders = await affiliate.GET('/affiliate/orders', { params: { query: { limit: 100 } } });
  assert.equal(orders.response.status, 200);
  // The spec's shape: one { data, meta } element per order.
  const order = orders.data?.find((element) => element.data.clickId === clickId)?.data;
  assert.ok(order, 'the order of that click');
  assert.equal(order.value, 12_900);
});

test('errors come back typed, in the API error shape', async () => {
  const anonymous = createAffnetClient({ baseUrl: server.url });
  const refused = await anonymous.GET('/affiliate/brands', {});
  assert.equal(refused.response.status, 401);
  assert.equal(refused.error?.code, 'unauthorized');
  assert.equal(refused.error?.success, false);

  const invalid = await affiliate.GET('/affiliate/brands', { params: { query: { limit: 500 } } });
  assert.equal(invalid.response.status, 400);
  assert.equal(invalid.error?.code, 'invalid_query');
  assert.match(invalid.error?.message ?? '', /limit/);
});

test('a brand uploads NDJSON text as the document types it, and lists its campaigns', async () => {
  const line = (id: string, name: string) => {
    const { organizationId: _o, ...product } = productInput(id, BRANDS.acme, name, 4_990);
    return JSON.stringify(product);
  };
  const body = [line('client-ndjson-1', 'Client sock'), '{broken', line('client-ndjson-2', 'Client cap')].join('\n');
  const upload = await brand.POST('/advertiser/products/bulk', { body, bodySerializer: (text) => text, headers: { 'content-type': 'application/x-ndjson' } });
  assert.equal(upload.response.status, 200, JSON.stringify(upload.error));
  assert.deepEqual(upload.data?.data.results.map((r) => r.status), ['inserted', 'rejected', 'inserted'], JSON.stringify(upload.data));

  const campaigns = await brand.GET('/advertiser/campaigns', { params: { query: { limit: 100 } } });
  assert.equal(campaigns.response.status, 200, JSON.stringify(campaigns.error));
  assert.ok(campaigns.data?.data.some((c) => c.id === 'c-acme-coupon' && c.status === 'onTime'));
  assert.equal(campaigns.data?.meta.total, campaigns.data?.data.length);
});
