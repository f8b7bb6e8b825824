// Brands manage their own products through the API (PUT, PATCH, DELETE /advertiser/products/{id}):
// ids are unique per brand, so another brand using the same id has another product, and no brand
// can read or change another's.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../helpers/harness.js';
import { BRANDS, campaignInput, productInput } from '../helpers/world.js';
import { assertError, newKey } from '../helpers/api.js';
import { brandKey, createLink, freshClick, item, report } from '../helpers/tracking.js';
import { servicesFor } from '../helpers/databases.js';

type Product = { id: string; organizationId: string; name: string; available: boolean; currency: string };

let h: Harness;
let aff1: string;
let acme: string;
let globex: string;

before(async () => {
  h = await startHarness();
  aff1 = (await newKey(h, 'aff-1', { rateLimit: 100_000 })).key;
  acme = await brandKey(h, BRANDS.acme);
  globex = await brandKey(h, BRANDS.globex);
});
after(async () => {
  await h.close();
});

/** A product body as a brand sends it: without organizationId and id. */
function body(name: string, price = 12_900): Record<string, unknown> {
  const { organizationId: _o, id: _i, ...rest } = productInput('x', BRANDS.acme, name, price);
  return rest;
}

const put = (key: string, id: string, payload: object) => h.request({ method: 'PUT', url: `/advertiser/products/${id}`, headers: { 'x-api-key': key }, payload });
const patch = (key: string, id: string, payload: object) => h.request({ method: 'PATCH', url: `/advertiser/products/${id}`, headers: { 'x-api-key': key }, payload });
const remove = (key: string, id: string) => h.request({ method: 'DELETE', url: `/advertiser/products/${id}`, headers: { 'x-api-key': key } });
const seen = async (brandId: string) => {
  const res = await h.get(`/affiliate/products?organizationIds=${brandId}&limit=100`, aff1);
  return res.json<{ data: Product[] }>().data;
};

describe('PUT /advertiser/products/{id}', () => {
  test('creates (201) then replaces (200) the brand\'s product, which affiliates then find', async () => {
    const created = await put(acme, 'sku-api-1', body('Trail runner'));
    assert.equal(created.statusCode, 201, created.body);
    assert.deepEqual(
      (({ id, organizationId, name, currency }) => ({ id, organizationId, name, currency }))(created.json<{ data: Product }>().data),
      { id: 'sku-api-1', organizationId: BRANDS.acme, name: 'Trail runner', currency: 'BRL' },
    );
    const replaced = await put(acme, 'sku-api-1', body('Trail runner 2'));
    assert.equal(replaced.statusCode, 200, replaced.body);
    assert.equal((await seen(BRANDS.acme)).filter((p) => p.id === 'sku-api-1').map((p) => p.name).join(), 'Trail runner 2');
  });

  test("the same id at another brand is that brand's own product: neither overwrites the other", async () => {
    assert.equal((await put(acme, 'shared-sku', body('Acme shoe'))).statusCode, 201);
    const theirs = await put(globex, 'shared-sku', body('Globex shoe'));
    assert.equal(theirs.statusCode, 201, 'a new product, not a conflict naming the other brand');
    assert.deepEqual((await seen(BRANDS.acme)).filter((p) => p.id === 'shared-sku').map((p) => p.name), ['Acme shoe']);
    assert.deepEqual((await seen(BRANDS.globex)).filter((p) => p.id === 'shared-sku').map((p) => p.name), ['Globex shoe']);
  });

  test('the import follows the same rule: one id, two brands, two products', async () => {
    const { imports } = servicesFor(h.service.database);
    assert.equal(await imports.upsertProduct(productInput('imported-sku', BRANDS.acme, 'Imported A', 1_000)), 'inserted');
    assert.equal(await imports.upsertProduct(productInput('imported-sku', BRANDS.umbrella, 'Imported U', 1_000)), 'inserted');
    const rows = await h.service.database.db.selectFrom('products').select(['organization_id', 'name']).where('id', '=', 'imported-sku').orderBy('name').execute();
    assert.deepEqual(rows, [
      { organization_id: BRANDS.acme, name: 'Imported A' },
      { organization_id: BRANDS.umbrella, name: 'Imported U' },
    ]);
  });

  test("a body naming another brand or another id is refused; an affiliate key is forbidden", async () => {
    assertError(await put(acme, 'sku-x', { ...body('X'), organizationId: BRANDS.globex }), 400, 'invalid_body');
    assertError(await put(acme, 'sku-x', { ...body('X'), id: 'sku-y' }), 400, 'invalid_body');
    assertError(await put(acme, 'sku-x', { ...body('X'), available: 'yes' }), 400, 'invalid_body');
    assertError(await put(aff1, 'sku-x', body('X')), 403, 'forbidden');
  });
});

describe('PATCH and DELETE /advertiser/products/{id}', () => {
  test('metadata holding a null anywhere (or a number JSON cannot carry) is refused, naming where; nothing is stored', async () => {
    const withOption = body('Metadata shoe') as { options: Array<{ pricing: Array<{ metadata: unknown[] }> }> };
    withOption.options[0]!.pricing[0]!.metadata = [{ key: 'size', value: null }];
    const nested = assertError(await put(acme, 'sku-null-meta', withOption), 400, 'invalid_body');
    assert.match(nested.message, /^options\[0\]\.pricing\[0\]\.metadata\[0\]\.value is null or a number too large to represent: leave the entry out/);
    const huge = await h.request({ method: 'PUT', url: '/advertiser/products/sku-null-meta', headers: { 'x-api-key': acme, 'content-type': 'application/json' }, payload: JSON.stringify({ ...body('Metadata shoe'), metadata: ['__HUGE__'] }).replace('"__HUGE__"', '1e400') });
    assert.match(assertError(huge, 400, 'invalid_body').message, /^metadata\[0\] is null or a number too large/);
    assertError(await patch(acme, 'sku-null-meta', { metadata: [null] }), 404, 'product_not_found');
    assert.equal((await seen(BRANDS.acme)).some((p) => p.id === 'sku-null-meta'), false);
  });

  test('PATCH changes the fields given and keeps the others', async () => {
    await put(acme, 'sku-patch', body('Before', 5_000));
    const res = await patch(acme, 'sku-patch', { name: 'After', available: false });
    assert.equal(res.statusCode, 200, res.body);
    const product = res.json<{ data: Product & { options: Array<{ pricing: Array<{ price: number }> }> } }>().data;
    assert.deepEqual([product.name, product.available, product.options[0]!.pricing[0]!.price], ['After', false, 5_000]);
    assertError(await patch(acme, 'sku-patch', { name: '' }), 400, 'invalid_body');
    assertError(await patch(acme, 'sku-patch', {}), 400, 'invalid_body');
  });

  test("another brand's product is out of reach: its id answers 404 product_not_found", async () => {
    await put(acme, 'sku-mine', body('Mine'));
    assertError(await patch(globex, 'sku-mine', { name: 'Theirs now' }), 404, 'product_not_found');
    assertError(await remove(globex, 'sku-mine'), 404, 'product_not_found');
    assert.deepEqual((await seen(BRANDS.acme)).filter((p) => p.id === 'sku-mine').map((p) => p.name), ['Mine']);
  });

  test('DELETE removes the product from what affiliates find', async () => {
    await put(acme, 'sku-gone', body('Gone soon'));
    assert.equal((await remove(acme, 'sku-gone')).statusCode, 204);
    assert.ok((await seen(BRANDS.acme)).every((p) => p.id !== 'sku-gone'));
    assertError(await remove(acme, 'sku-gone'), 404, 'product_not_found');
  });
});

type BrandCampaign = { id: string; organizationId: string; name: string; url: string; status: string; categories: string[] };

/** A campaign body as a brand sends it: without organizationId and id. */
function campaignBody(name: string, url = 'https://www.acme.com/promo/x'): Record<string, unknown> {
  const { organizationId: _o, id: _i, ...rest } = campaignInput({ id: 'x', organizationId: BRANDS.acme, type: 'GenericCoupon', name, url });
  return rest;
}
const campaignRequest = (method: 'PUT' | 'PATCH' | 'DELETE', key: string, id: string, payload?: object) =>
  h.request({ method, url: `/advertiser/campaigns/${id}`, headers: { 'x-api-key': key }, ...(payload && { payload }) });
const campaignsSeen = async (brandId: string) => {
  const res = await h.get(`/affiliate/campaigns?organizationIds=${brandId}&limit=20`, aff1);
  return res.json<{ data: BrandCampaign[] }>().data;
};

describe('PUT, PATCH and DELETE /advertiser/campaigns/{id}', () => {
  test('creates, replaces, changes and deletes the brand\'s campaign, as affiliates then see it', async () => {
    const created = await campaignRequest('PUT', acme, 'camp-api', campaignBody('Black week'));
    assert.equal(created.statusCode, 201, created.body);
    assert.deepEqual((({ id, organizationId, status }) => ({ id, organizationId, status }))(created.json<{ data: BrandCampaign }>().data), { id: 'camp-api', organizationId: BRANDS.acme, status: 'onTime' });
    assert.equal((await campaignRequest('PUT', acme, 'camp-api', campaignBody('Black week 2'))).statusCode, 200);
    const patched = await campaignRequest('PATCH', acme, 'camp-api', { name: 'Cyber week', categories: ['Deals'] });
    assert.equal(patched.statusCode, 200, patched.body);
    assert.deepEqual((({ name, categories }) => ({ name, categories }))(patched.json<{ data: BrandCampaign }>().data), { name: 'Cyber week', categories: ['Deals'] });
    assert.deepEqual((await campaignsSeen(BRANDS.acme)).filter((c) => c.id === 'camp-api').map((c) => c.name), ['Cyber week']);
    assert.equal((await campaignRequest('DELETE', acme, 'camp-api')).statusCode, 204);
    assert.ok((await campaignsSeen(BRANDS.acme)).every((c) => c.id !== 'camp-api'));
    assertError(await campaignRequest('DELETE', acme, 'camp-api'), 404, 'campaign_not_found');
  });

  test("a url off the brand's domain is refused, through the API and through the import", async () => {
    assertError(await campaignRequest('PUT', acme, 'camp-off', campaignBody('Off', 'https://evil.example/promo')), 400, 'invalid_domain');
    assertError(await campaignRequest('PUT', acme, 'camp-off', campaignBody('Off', 'https://acme.com.evil.example/promo')), 400, 'invalid_domain');
    const { imports } = servicesFor(h.service.database);
    await assert.rejects(imports.upsertCampaign(campaignInput({ id: 'camp-off', organizationId: BRANDS.acme, type: 'GenericCoupon', url: 'https://globex.com/deal' })), /brand domain acme\.com/);
    assert.equal((await campaignRequest('PUT', acme, 'camp-sub', campaignBody('Sub', 'https://shop.acme.com/promo'))).statusCode, 201, 'a subdomain is the brand\'s');
  });

  test("the same id at another brand is that brand's campaign, and another brand's campaign is out of reach", async () => {
    assert.equal((await campaignRequest('PUT', acme, 'camp-shared', campaignBody('Acme deal'))).statusCode, 201);
    const theirs = await campaignRequest('PUT', globex, 'camp-shared', campaignBody('Globex deal', 'https://globex.com/deal'));
    assert.equal(theirs.statusCode, 201, theirs.body);
    assert.deepEqual((await campaignsSeen(BRANDS.acme)).filter((c) => c.id === 'camp-shared').map((c) => c.name), ['Acme deal']);
    assert.deepEqual((await campaignsSeen(BRANDS.globex)).filter((c) => c.id === 'camp-shared').map((c) => c.name), ['Globex deal']);
    assertError(await campaignRequest('PATCH', globex, 'camp-api-none', { name: 'x' }), 404, 'campaign_not_found');
    const link = await h.post('/affiliate/shortener/url', { organizationId: BRANDS.globex, type: 'Coupon', featureId: 'camp-shared' }, aff1);
    assert.equal(link.statusCode, 200, link.body);
    const links = await h.get('/affiliate/shortener/urls?type=Coupon&featureId=camp-shared&limit=100', aff1);
    const [page] = links.json<Array<{ data: Array<{ organizationId: string; originalUrl: string }> }>>();
    assert.ok(page!.data.length > 0 && page!.data.every((l) => l.organizationId === BRANDS.globex && l.originalUrl.startsWith('https://globex.com/')), links.body);
  });
});

describe('POST /advertiser/products/bulk', () => {
  const bulk = (key: string, payload: string, contentType = 'application/x-ndjson') =>
    h.request({ method: 'POST', url: '/advertiser/products/bulk', headers: { 'x-api-key': key, 'content-type': contentType }, payload });
  type Outcome = { lines: number; inserted: number; updated: number; rejected: number; truncated: boolean; results: Array<{ line: number; status: string; id?: string; reason?: string }> };

  test('applies each line on its own and answers a result per line; a bad line never stops the rest', async () => {
    const line = (id: string, name: string, extra: object = {}) => JSON.stringify({ ...body(name), id, ...extra });
    const payload = [line('bulk-1', 'One'), '{not json', '', line('bulk-2', 'Two', { organizationId: BRANDS.globex }), line('bulk-3', 'Three'), line('bulk-1', 'One again'), JSON.stringify({ name: 'no id' })].join('\n');
    const res = await bulk(acme, payload);
    assert.equal(res.statusCode, 200, res.body);
    const outcome = res.json<{ data: Outcome }>().data;
    assert.deepEqual(
      outcome.results.map((r) => [r.line, r.status, r.id]),
      [
        [1, 'inserted', 'bulk-1'],
        [2, 'rejected', undefined],
        [4, 'rejected', undefined],
        [5, 'inserted', 'bulk-3'],
        [6, 'updated', 'bulk-1'],
        [7, 'rejected', undefined],
      ],
    );
    assert.match(outcome.results[1]!.reason!, /not valid JSON/);
    assert.match(outcome.results[2]!.reason!, /organizationId/);
    assert.deepEqual([outcome.lines, outcome.inserted, outcome.updated, outcome.rejected, outcome.truncated], [7, 2, 1, 3, false]);
    const names = (await seen(BRANDS.acme)).filter((p) => p.id.startsWith('bulk-')).map((p) => `${p.id}:${p.name}`).sort();
    assert.deepEqual(names, ['bulk-1:One again', 'bulk-3:Three']);
  });

  test('a line with a control character in any field is rejected, naming the field', async () => {
    const payload = [JSON.stringify({ ...body('Ok'), id: 'bulk-ok' }), JSON.stringify({ ...body('Bad\u0000name'), id: 'bulk-nul' })].join('\n');
    const outcome = (await bulk(acme, payload)).json<{ data: Outcome }>().data;
    assert.deepEqual(outcome.results.map((r) => r.status), ['inserted', 'rejected']);
    assert.match(outcome.results[1]!.reason!, /^name must not contain control characters \(found U\+0000\)/);
  });

  test('past 10,000 lines the rest is not read, and the last result says so', async () => {
    const payload = Array.from({ length: 10_001 }, () => '{}').join('\n');
    const outcome = (await bulk(acme, payload)).json<{ data: Outcome }>().data;
    assert.equal(outcome.truncated, true);
    assert.equal(outcome.results.length, 10_001);
    assert.deepEqual([outcome.results.at(-1)!.line, outcome.results.at(-1)!.status], [10_001, 'rejected']);
    assert.match(outcome.results.at(-1)!.reason!, /10000 lines/);
  });

  test('the OpenAPI document declares the body: NDJSON text', async () => {
    type Operation = { requestBody?: { required?: boolean; content: Record<string, { schema: { type: string } }> } };
    const document = (await h.request({ method: 'GET', url: '/openapi.json' })).json<{ paths: Record<string, Record<string, Operation>> }>();
    const requestBody = document.paths['/advertiser/products/bulk']!.post!.requestBody;
    assert.deepEqual(Object.keys(requestBody?.content ?? {}), ['application/x-ndjson']);
    assert.equal(requestBody!.content['application/x-ndjson']!.schema.type, 'string');
    assert.equal(requestBody!.required, true);
  });

  test('a body over 10 MB is refused with 413; JSON instead of NDJSON with 415', async () => {
    assertError(await bulk(acme, 'x'.repeat(10 * 1024 * 1024 + 10)), 413, 'payload_too_large');
    assertError(await bulk(acme, JSON.stringify({ ...body('json'), id: 'j' }), 'application/json'), 415, 'unsupported_media_type');
  });
});

describe('GET and PATCH /advertiser/brand', () => {
  type Commission = { transfer: string; value: number };
  type Profile = { id: string; site: string; homeUrl: string; domains: string[]; clickIdParam: string; allowedChannels?: string[]; commission: Commission; upcomingCommission?: { commission: Commission; effectiveAt: string } };
  const profile = async (key: string) => {
    const res = await h.get('/advertiser/brand', key);
    assert.equal(res.statusCode, 200, res.body);
    return res.json<{ data: Profile }>().data;
  };
  const change = (key: string, payload: object) => h.request({ method: 'PATCH', url: '/advertiser/brand', headers: { 'x-api-key': key }, payload });

  test("answers the caller's brand, never another's", async () => {
    const mine = await profile(globex);
    assert.deepEqual([mine.id, mine.site, mine.homeUrl, mine.domains], [BRANDS.globex, 'https://globex.com', 'https://globex.com/', ['globex.com']]);
    assert.equal((await profile(acme)).id, BRANDS.acme);
  });

  test('domains widen where campaign and Custom link URLs may point; the home page moves Home links', async () => {
    assertError(await campaignRequest('PUT', globex, 'camp-other-domain', campaignBody('Other', 'https://globex-shop.net/deal')), 400, 'invalid_domain');
    const changed = await change(globex, { domains: ['globex-shop.net'], homeUrl: 'https://globex-shop.net/welcome' });
    assert.equal(changed.statusCode, 200, changed.body);
    assert.deepEqual(changed.json<{ data: Profile }>().data.domains, ['globex.com', 'globex-shop.net']);
    assert.equal((await campaignRequest('PUT', globex, 'camp-other-domain', campaignBody('Other', 'https://www.globex-shop.net/deal'))).statusCode, 201);
    const custom = await h.post('/affiliate/shortener/url', { organizationId: BRANDS.globex, type: 'Custom', url: 'https://globex-shop.net/p/1' }, aff1);
    assert.equal(custom.statusCode, 200, custom.body);
    const home = await h.post('/affiliate/shortener/url', { organizationId: BRANDS.globex, type: 'Home' }, aff1);
    const code = home.json<Array<{ shortUrls: string[] }>>().find((c) => c.shortUrls.length)!.shortUrls[0]!.split('/').pop()!;
    const followed = await h.request({ method: 'GET', url: `/${code}`, headers: { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36' } });
    assert.match(String(followed.headers.location), /^https:\/\/globex-shop\.net\/welcome\?clickId=/);
    assertError(await change(globex, { homeUrl: 'https://elsewhere.example/' }), 400, 'invalid_domain');
    assertError(await change(globex, { domains: ['Not A Domain'] }), 400, 'invalid_body');
  });

  test('a new commission rule applies to later orders only; bad rules and kinds are refused', async () => {
    const changed = await change(globex, { commission: { transfer: 'cpa', value: 2_500 }, allowedChannels: ['site'], clickIdParam: 'gclid_aff' });
    assert.equal(changed.statusCode, 200, changed.body);
    const now = changed.json<{ data: Profile }>().data;
    // A switch from cps to cpa could pay some orders less: it waits for the notice.
    assert.deepEqual([now.commission, now.upcomingCommission?.commission, now.allowedChannels, now.clickIdParam], [{ transfer: 'cps', value: 7.5 }, { transfer: 'cpa', value: 2_500 }, ['site'], 'gclid_aff']);
    assertError(await change(globex, { commission: { transfer: 'cps', value: 250 } }), 400, 'invalid_commission');
    assertError(await change(globex, { allowedChannels: ['carrier-pigeon'] }), 400, 'invalid_channel_kind');
    assertError(await change(globex, {}), 400, 'invalid_body');
    assertError(await change(aff1, { clickIdParam: 'x' }), 403, 'forbidden');
    assert.equal((await change(globex, { allowedChannels: null, clickIdParam: 'clickId', commission: { transfer: 'cps', value: 7.5 } })).statusCode, 200);
    const back = await profile(globex);
    assert.equal(back.allowedChannels, undefined);
    assert.equal(back.upcomingCommission, undefined, 'back to the terms in force: nothing waits');
  });
});

describe('GET /advertiser/products', () => {
  type Listed = { data: Product[]; meta: { total: number; page: number; limit: number; totalPages: number } };
  const list = async (key: string, query = '') => {
    const res = await h.get(`/advertiser/products${query}`, key);
    assert.equal(res.statusCode, 200, res.body);
    return res.json<Listed>();
  };

  test("a brand reads its own products, unavailable ones too, newest first, with the page metadata; never another brand's", async () => {
    assert.equal((await put(acme, 'listed-new', body('Listed newest'))).statusCode, 201);
    const all = await list(acme, '?limit=100');
    assert.equal(all.data[0]!.id, 'listed-new', 'newest first');
    assert.ok(all.data.every((p) => p.organizationId === BRANDS.acme && p.currency === 'BRL'));
    assert.ok(all.data.some((p) => p.id === 'p-acme-2' && !p.available), 'an unavailable product is listed');
    assert.equal(all.meta.total, all.data.length);
    const stored = await h.service.database.db.selectFrom('products').select('id').where('organization_id', '=', BRANDS.acme).execute();
    assert.deepEqual(all.data.map((p) => p.id).sort(), stored.map((p) => p.id).sort());
    const available = await list(acme, '?isAvailable=true&limit=100');
    assert.ok(!available.data.some((p) => p.id === 'p-acme-2'));
    const pageTwo = await list(acme, '?limit=1&page=2');
    assert.deepEqual([pageTwo.data[0]!.id, pageTwo.meta.totalPages], [all.data[1]!.id, all.meta.total]);
    assert.ok((await list(globex, '?limit=100')).data.every((p) => p.organizationId === BRANDS.globex));
  });

  test('a bad page answers 400; a key without catalog:read 403', async () => {
    assertError(await h.get('/advertiser/products?limit=101', acme), 400, 'invalid_query');
    const narrow = (await servicesFor(h.service.database).access.createApiKey({ brandId: BRANDS.acme, scopes: ['conversions:read'] })).key;
    assert.match(assertError(await h.get('/advertiser/products', narrow), 403).message, /catalog:read/);
  });
});

describe('GET /advertiser/campaigns', () => {
  type Listed = { data: Array<BrandCampaign & { channels?: unknown; type: string; createdAt: string }>; meta: { total: number; page: number; limit: number; totalPages: number } };
  const list = async (key: string, query = '') => {
    const res = await h.get(`/advertiser/campaigns${query}`, key);
    assert.equal(res.statusCode, 200, res.body);
    return res.json<Listed>();
  };

  test("a brand reads its own campaigns, expired and scheduled too, newest first, with the page metadata; never another brand's", async () => {
    assert.equal((await campaignRequest('PUT', acme, 'listed-camp', { ...campaignBody('Listed newest'), createdAt: '2099-01-01T00:00:00.000Z' })).statusCode, 201);
    const all = await list(acme, '?limit=100');
    assert.equal(all.data[0]!.id, 'listed-camp', 'newest first');
    assert.ok(all.data.every((c) => c.organizationId === BRANDS.acme && c.channels === undefined));
    const statuses = new Map(all.data.map((c) => [c.id, c.status]));
    assert.deepEqual([statuses.get('c-acme-expired'), statuses.get('c-acme-scheduled'), statuses.get('c-acme-coupon')], ['expired', 'scheduled', 'onTime']);
    assert.equal(all.meta.total, all.data.length);
    const stored = await h.service.database.db.selectFrom('campaigns').select('id').where('organization_id', '=', BRANDS.acme).execute();
    assert.deepEqual(all.data.map((c) => c.id).sort(), stored.map((c) => c.id).sort());
    const createdAt = all.data.map((c) => c.createdAt);
    assert.deepEqual(createdAt, [...createdAt].sort().reverse(), 'ordered by createdAt, newest first');
    const pageTwo = await list(acme, '?limit=1&page=2');
    assert.deepEqual([pageTwo.data[0]!.id, pageTwo.meta.totalPages, pageTwo.meta.page], [all.data[1]!.id, all.meta.total, 2]);
    const theirs = await list(globex, '?limit=100');
    assert.ok(theirs.data.length > 0 && theirs.data.every((c) => c.organizationId === BRANDS.globex));
    assert.ok(!theirs.data.some((c) => c.id === 'listed-camp'));
  });

  test('a bad page answers 400; an affiliate key or a key without catalog:read 403', async () => {
    assertError(await h.get('/advertiser/campaigns?limit=101', acme), 400, 'invalid_query');
    assertError(await h.get('/advertiser/campaigns?page=0', acme), 400, 'invalid_query');
    assertError(await h.get('/advertiser/campaigns?status=onTime', acme), 400, 'invalid_query');
    assertError(await h.get('/advertiser/campaigns', aff1), 403, 'forbidden');
    const narrow = (await servicesFor(h.service.database).access.createApiKey({ brandId: BRANDS.acme, scopes: ['conversions:read'] })).key;
    assert.match(assertError(await h.get('/advertiser/campaigns', narrow), 403).message, /catalog:read/);
  });
});

describe('GET /advertiser/products: search and order by change', () => {
  type Listed = { data: Array<Product & { updatedAt: string }>; meta: { total: number } };
  const list = async (key: string, query: string) => {
    const res = await h.get(`/advertiser/products?limit=100&${query}`, key);
    assert.equal(res.statusCode, 200, res.body);
    return res.json<Listed>();
  };

  test('q finds the words of a name (accents and case ignored) or the start of an id, only among the caller\'s products', async () => {
    assert.equal((await put(acme, 'busca-tenis-azul', body('Tênis Corrida Azul'))).statusCode, 201);
    assert.equal((await put(acme, 'busca-meia', { ...body('Meia esportiva'), available: false })).statusCode, 201);
    assert.equal((await put(globex, 'busca-tenis-globex', body('Tênis Corrida Globex'))).statusCode, 201);
    assert.deepEqual((await list(acme, 'q=tenis%20corr')).data.map((p) => p.id), ['busca-tenis-azul']);
    assert.deepEqual((await list(acme, 'q=BUSCA-')).data.map((p) => p.id).sort(), ['busca-meia', 'busca-tenis-azul']);
    const unavailable = await list(acme, 'q=busca&isAvailable=false');
    assert.deepEqual([unavailable.data.map((p) => p.id), unavailable.meta.total], [['busca-meia'], 1]);
    assert.deepEqual((await list(acme, 'q=globex')).data, [], "another brand's product is never found");
    assert.deepEqual((await list(acme, 'q=%20%20')).data, []);
    assertError(await h.get(`/advertiser/products?q=${'x'.repeat(201)}`, acme), 400, 'invalid_query');
  });

  test('sort=changed lists the most recently changed first; without sort the order stays the order of addition', async () => {
    assert.equal((await put(acme, 'order-first', body('Added first'))).statusCode, 201);
    assert.equal((await put(acme, 'order-second', body('Added second'))).statusCode, 201);
    await new Promise((resolve) => setTimeout(resolve, 5));
    assert.equal((await patch(acme, 'order-first', { name: 'Added first, changed last' })).statusCode, 200);
    const ids = (listed: Listed) => listed.data.map((p) => p.id).filter((id) => id.startsWith('order-'));
    assert.deepEqual(ids(await list(acme, 'sort=changed')), ['order-first', 'order-second']);
    assert.deepEqual(ids(await list(acme, '')), ['order-second', 'order-first']);
    assert.deepEqual(ids(await list(acme, 'sort=added')), ['order-second', 'order-first']);
    const changed = (await list(acme, 'sort=changed')).data.map((p) => p.updatedAt);
    assert.deepEqual(changed, [...changed].sort().reverse());
    assertError(await h.get('/advertiser/products?sort=price', acme), 400, 'invalid_query');
  });
});

describe('GET /advertiser/product-categories', () => {
  test("answers the categories the caller's products name, each once, alphabetically; never another brand's", async () => {
    const filed = (id: string, categories: string[]) => ({ ...body(id), options: [{ id, available: true, categories, pricing: [{ listPrice: 100, price: 100 }] }] });
    assert.equal((await put(acme, 'cat-1', filed('cat-1', ['Calçados', 'Corrida']))).statusCode, 201);
    assert.equal((await put(acme, 'cat-2', filed('cat-2', ['corrida', 'Acessórios']))).statusCode, 201);
    assert.equal((await put(globex, 'cat-3', filed('cat-3', ['Só da Globex']))).statusCode, 201);
    const res = await h.get('/advertiser/product-categories', acme);
    assert.equal(res.statusCode, 200, res.body);
    const categories = res.json<{ data: string[] }>().data;
    for (const expected of ['Acessórios', 'Calçados', 'Corrida']) assert.ok(categories.includes(expected), `${expected} in ${categories.join(', ')}`);
    assert.equal(categories.filter((c) => c.toLowerCase() === 'corrida').length, 1, 'one spelling per category');
    assert.ok(!categories.includes('Só da Globex'));
    assertError(await h.get('/advertiser/product-categories', aff1), 403, 'forbidden');
  });
});

describe('DELETE /advertiser/products/{id} of a product an order or a link names', () => {
  const stored = (brandId: string, id: string) => h.service.database.db.selectFrom('products').select(['available', 'options']).where('organization_id', '=', brandId).where('id', '=', id).executeTakeFirst();

  test('a product an order lists is made unavailable, not removed: still 204, the header says so', async () => {
    await put(acme, 'sold-sku', body('Sold once'));
    const clickId = await freshClick(h, aff1, BRANDS.acme);
    const reported = await report(h, acme, { clickId, orderId: 'order-sold-sku', value: 12_900, items: [item(12_900, 1, 'sold-sku')] });
    assert.equal(reported.statusCode, 201, reported.body);
    const res = await remove(acme, 'sold-sku');
    assert.equal(res.statusCode, 204, res.body);
    assert.equal(res.headers['x-product-outcome'], 'made_unavailable');
    const row = await stored(BRANDS.acme, 'sold-sku');
    assert.equal(row?.available, 0, 'kept, unavailable');
    assert.ok((JSON.parse(row.options) as Array<{ available: boolean }>).every((o) => !o.available), 'its options too');
    assert.ok((await seen(BRANDS.acme)).every((p) => p.id !== 'sold-sku' || !p.available));
    const again = await remove(acme, 'sold-sku');
    assert.deepEqual([again.statusCode, again.headers['x-product-outcome']], [204, 'made_unavailable']);
  });

  test("an order naming one of the product's options keeps it too", async () => {
    await put(acme, 'option-sold', { ...body('Option sold'), options: [{ id: 'option-sold-41', available: true, pricing: [{ listPrice: 500, price: 500 }] }] });
    const clickId = await freshClick(h, aff1, BRANDS.acme);
    assert.equal((await report(h, acme, { clickId, orderId: 'order-option-sold', value: 500, items: [item(500, 1, 'option-sold-41')] })).statusCode, 201);
    assert.equal((await remove(acme, 'option-sold')).headers['x-product-outcome'], 'made_unavailable');
    assert.equal((await stored(BRANDS.acme, 'option-sold'))?.available, 0);
  });

  test("a product an affiliate's link leads to is made unavailable, not removed", async () => {
    await put(acme, 'linked-sku', { ...body('Linked'), url: 'https://www.acme.com/p/linked-sku' });
    await createLink(h, aff1, BRANDS.acme, { type: 'Custom', url: 'https://www.acme.com/p/linked-sku?utm_source=blog' });
    const res = await remove(acme, 'linked-sku');
    assert.deepEqual([res.statusCode, res.headers['x-product-outcome']], [204, 'made_unavailable']);
    assert.equal((await stored(BRANDS.acme, 'linked-sku'))?.available, 0);
  });

  test("a product nothing names is removed; another brand's order or link naming the same id does not keep it", async () => {
    await put(globex, 'sold-sku', { ...body('Globex, never sold'), url: 'https://www.acme.com/p/linked-sku' });
    const res = await remove(globex, 'sold-sku');
    assert.deepEqual([res.statusCode, res.headers['x-product-outcome']], [204, 'deleted']);
    assert.equal(await stored(BRANDS.globex, 'sold-sku'), undefined);
    assert.equal((await stored(BRANDS.acme, 'sold-sku'))?.available, 0, "acme's product of the same id is untouched");
    assertError(await remove(globex, 'linked-sku'), 404, 'product_not_found');
    assert.equal((await stored(BRANDS.acme, 'linked-sku'))?.available, 0);
  });
});

describe('GTIN/EAN check digit', () => {
  const withEan = (id: string, ean: string) => ({ ...body(id), options: [{ id, ean, available: true, pricing: [{ listPrice: 100, price: 100 }] }] });

  test('a barcode-shaped ean with a wrong check digit is refused (400 invalid_ean), through PUT, PATCH and the bulk upload; nothing is stored', async () => {
    const refused = assertError(await put(acme, 'ean-bad', withEan('ean-bad', '7891234567890')), 400, 'invalid_ean');
    assert.match(refused.message, /options\[0\]\.ean "7891234567890".*5/);
    assert.equal(await h.service.database.db.selectFrom('products').select('id').where('id', '=', 'ean-bad').executeTakeFirst(), undefined);
    assert.equal((await put(acme, 'ean-good', withEan('ean-good', '7891234567895'))).statusCode, 201);
    assertError(await patch(acme, 'ean-good', { options: withEan('ean-good', '96385075').options }), 400, 'invalid_ean');
    assert.equal((await patch(acme, 'ean-good', { options: withEan('ean-good', '96385074').options })).statusCode, 200);
    const bulk = await h.request({
      method: 'POST',
      url: '/advertiser/products/bulk',
      headers: { 'x-api-key': acme, 'content-type': 'application/x-ndjson' },
      payload: JSON.stringify({ id: 'ean-bulk', ...withEan('ean-bulk', '036000291453') }),
    });
    assert.equal(bulk.json<{ data: { rejected: number } }>().data.rejected, 1, bulk.body);
  });

  test("an ean that is not barcode-shaped (a seller's own code) is kept as sent", async () => {
    assert.equal((await put(acme, 'ean-own', withEan('ean-own', 'ACME-41-AZ'))).statusCode, 201);
    assert.equal((await put(acme, 'ean-short', withEan('ean-short', '12345'))).statusCode, 201);
  });
});
