// The shop's own pages report conversions: the first-party tag (GET /tag.js, POST
// /track/conversions) and the pixel (GET /track/pixel.gif), with the brand's publishable key. A
// brand makes and replaces the key and reads what the tag sent; the key works from the brand's
// domains only, for clicks of that brand; the brand's server reporting the same order takes it
// over; an order only the pages reported is canceled at its lock date unless the brand confirmed
// it or trusts its tag.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { startHarness, type Harness } from '../helpers/harness.js';
import { BRANDS } from '../helpers/world.js';
import { brandKey, conversionOf, freshClick, item, patchStatus, report, type Conversion } from '../helpers/tracking.js';
import { ManualClock } from '../../src/lib/clock.js';

const DAY = 86_400_000;
const SHOP = 'https://www.acme.com';
const clock = new ManualClock();
let h: Harness;
let acme: string;
let initech: string;
let key: string;
let orderNumber = 0;
let visitor = 0;

interface Install {
  publishableKey?: string;
  scriptUrl: string;
  integrity: string;
  snippets?: { everyPage: string };
  clickIdParam: string;
  attributionWindowDays: number;
  trustTagConversions: boolean;
  reports: Array<{ source: string; orderId?: string; outcome: string; reason?: string; origin?: string }>;
}

before(async () => {
  h = await startHarness({ TRACK_LIMIT_PER_MINUTE: '5' }, { clock });
  acme = await brandKey(h, BRANDS.acme);
  initech = await brandKey(h, BRANDS.initech);
});
after(() => h?.close());

const install = async (brandKeyValue = acme): Promise<Install> => {
  const res = await h.request({ method: 'GET', url: '/advertiser/tag', headers: { 'x-api-key': brandKeyValue } });
  assert.equal(res.statusCode, 200, res.body);
  return res.json<{ data: Install }>().data;
};
const newKey = async (brandKeyValue = acme): Promise<string> => {
  const res = await h.request({ method: 'POST', url: '/advertiser/tag/publishable-key', headers: { 'x-api-key': brandKeyValue } });
  assert.equal(res.statusCode, 201, res.body);
  return res.json<{ data: Install }>().data.publishableKey!;
};
/** A report as the tag sends it through sendBeacon: text/plain JSON, from a page of `origin`, from its own client address. */
const tagReport = (body: object, origin: string | undefined = SHOP, address = `203.0.113.${++visitor % 250}`): Promise<LightMyRequestResponse> =>
  h.request({ method: 'POST', url: '/track/conversions', payload: JSON.stringify(body), headers: { 'content-type': 'text/plain;charset=UTF-8', ...(origin && { origin }) }, remoteAddress: address });
const pixel = (query: Record<string, string>, headers: Record<string, string> = { referer: `${SHOP}/thanks` }) =>
  h.request({ method: 'GET', url: `/track/pixel.gif?${new URLSearchParams(query)}`, headers, remoteAddress: `198.18.0.${++visitor % 250}` });
const conversion = async (orderId: string, brandKeyValue = acme) => {
  const res = await h.request({ method: 'GET', url: `/advertiser/conversions/${orderId}`, headers: { 'x-api-key': brandKeyValue } });
  return { status: res.statusCode, data: res.json<{ data: Conversion & { history: Array<{ field: string; from?: string; to: string; by: string }> } }>().data };
};
/** The affiliate's orders and sales on the brand over the last 30 days, from the rollups its analytics read. */
const figures = async (affiliateKey: string) => {
  const total = async (event: 'orders' | 'sales') => {
    const res = await h.get(`/affiliate/analytics?interval=30d&event=${event}&groupBy=brands`, affiliateKey);
    assert.equal(res.statusCode, 200, res.body);
    return res.json<{ data: Array<Record<string, unknown>> }>().data.filter((r) => r.organizationId === BRANDS.acme).reduce((sum, r) => sum + Number(r[event]), 0);
  };
  return { orders: await total('orders'), sales: await total('sales') };
};
const affiliateSees = async (affiliateKey: string, orderId: string) => (await h.get(`/affiliate/orders/${orderId}`, affiliateKey)).statusCode === 200;
const nextOrder = () => `tag-${++orderNumber}`;
const lockWork = () => h.service.services.locks.approveLocked();

test('a brand makes its publishable key, reads the snippet’s parts, and a new key replaces the old one at once', async () => {
  const first = await install();
  assert.equal(first.publishableKey, undefined, 'no key until the brand makes one');
  assert.equal(first.clickIdParam, 'clickId');
  assert.equal(first.trustTagConversions, false);
  const old = await newKey();
  assert.match(old, /^afpub_[0-9A-Za-z]{24}$/);
  key = await newKey();
  assert.notEqual(key, old);
  assert.equal((await install()).publishableKey, key, 'the key is shown again: it is public by design');
  const clickId = await freshClick(h, h.world.keys.aff1, BRANDS.acme);
  const refused = await tagReport({ key: old, orderId: nextOrder(), value: 1000, clickId });
  assert.equal(refused.statusCode, 403, refused.body);
  assert.equal(refused.json<{ code: string }>().code, 'invalid_publishable_key');
  assert.equal((await install(initech)).publishableKey, undefined, 'another brand has its own, none yet');
});

test('the tag is one small script, kept a day behind its versioned address, with the integrity the brand is shown', async () => {
  const { scriptUrl, integrity, snippets } = await install();
  // A snippet pasted today loads whichever version its address serves after an update: an
  // integrity attribute would block every newer tag.
  assert.doesNotMatch(snippets!.everyPage, /integrity=/);
  const url = new URL(scriptUrl);
  const current = await h.request({ method: 'GET', url: `${url.pathname}${url.search}`, headers: { origin: SHOP } });
  assert.equal(current.statusCode, 200);
  assert.match(String(current.headers['content-type']), /^text\/javascript/);
  assert.equal(current.headers['cache-control'], 'public, max-age=86400, immutable');
  assert.equal(integrity, `sha384-${createHash('sha384').update(current.rawPayload).digest('base64')}`, 'the integrity value matches what is served');
  assert.ok(gzipSync(current.rawPayload).length <= 2048, `at most 2 KB gzipped, is ${gzipSync(current.rawPayload).length} bytes`);
  assert.equal(current.headers['cross-origin-resource-policy'], 'cross-origin', 'shops load it from their own origin');
  assert.equal(current.headers['access-control-allow-origin'], SHOP);
  const unversioned = await h.request({ method: 'GET', url: '/tag.js' });
  assert.equal(unversioned.headers['cache-control'], 'public, max-age=300', 'an old or missing version is kept minutes only');
  assert.equal(unversioned.body, current.body);
});

test('the tag reports an order of the brand’s click from the brand’s pages: source tag, the click’s affiliate', async () => {
  const clickId = await freshClick(h, h.world.keys.aff1, BRANDS.acme);
  const orderId = nextOrder();
  const res = await tagReport({ key, orderId, value: 12_990, currency: 'BRL', clickId, items: [item(12_990)], customer: { isNew: true } });
  assert.equal(res.statusCode, 202, res.body);
  assert.deepEqual(res.json(), { data: { orderId, outcome: 'recorded' } }, 'the public answer says nothing of the commission or the affiliate');
  assert.equal(res.headers['access-control-allow-origin'], SHOP);
  const { data } = await conversion(orderId);
  assert.equal(data.source, 'tag');
  assert.equal(data.attribution, 'click');
  assert.equal(data.value, 12_990);
  assert.equal(data.status, 'pending');
  assert.ok(await affiliateSees(h.world.keys.aff1, orderId));

  const again = await tagReport({ key, orderId, value: 99_999, clickId });
  assert.equal(again.statusCode, 202, again.body);
  assert.deepEqual(again.json(), { data: { orderId, outcome: 'recorded' } }, 'a reload of the order page changes nothing, and is answered as a new order is');
  assert.equal((await conversion(orderId)).data.value, 12_990);

  const json = await h.request({ method: 'POST', url: '/track/conversions', payload: { key, orderId: nextOrder(), value: 500, clickId: await freshClick(h, h.world.keys.aff1, BRANDS.acme) }, headers: { origin: 'https://checkout.acme.com' }, remoteAddress: '192.0.2.200' });
  assert.equal(json.statusCode, 202, `JSON from a subdomain of the brand’s site: ${json.body}`);
});

test('the tag is refused outside the brand’s domains, for another brand’s click, without a click, and in another currency; the brand reads why', async () => {
  const clickId = await freshClick(h, h.world.keys.aff1, BRANDS.acme);
  const cases: Array<[LightMyRequestResponse, number, string]> = [
    [await tagReport({ key, orderId: nextOrder(), value: 1000, clickId }, 'https://evil.example'), 403, 'origin_not_allowed'],
    [await tagReport({ key, orderId: nextOrder(), value: 1000, clickId }, 'https://acme.com.evil.example'), 403, 'origin_not_allowed'],
    [await tagReport({ key, orderId: nextOrder(), value: 1000, clickId: await freshClick(h, h.world.keys.aff1, BRANDS.globex) }), 404, 'click_not_found'],
    [await tagReport({ key, orderId: nextOrder(), value: 1000 }), 400, 'click_or_coupon_required'],
    [await tagReport({ key, orderId: nextOrder(), value: 1000, clickId, currency: 'USD' }), 422, 'currency_mismatch'],
    [await tagReport({ key, orderId: 'has space', value: 1000, clickId }), 400, 'invalid_body'],
  ];
  for (const [res, status, code] of cases) {
    assert.equal(res.statusCode, status, res.body);
    assert.equal(res.json<{ code: string }>().code, code);
  }
  const notJson = await h.request({ method: 'POST', url: '/track/conversions', payload: 'orderId=1', headers: { 'content-type': 'text/plain', origin: SHOP }, remoteAddress: '192.0.2.201' });
  assert.equal(notJson.statusCode, 400, notJson.body);
  const { reports } = await install();
  const reasons = reports.filter((r) => r.outcome === 'refused').map((r) => r.reason!.split(':')[0]);
  for (const code of ['origin_not_allowed', 'click_not_found', 'click_or_coupon_required', 'currency_mismatch']) assert.ok(reasons.includes(code), `${code} in ${reasons.join(', ')}`);
  assert.ok(reports.some((r) => r.outcome === 'accepted' && r.origin === SHOP));
  assert.deepEqual((await install(initech)).reports, [], 'another brand reads none of them');
});

test('the tag’s answers never tell whether an order id exists: a known one is checked and answered as a new one', async () => {
  const clickId = await freshClick(h, h.world.keys.aff1, BRANDS.acme);
  const known = nextOrder();
  assert.equal((await tagReport({ key, orderId: known, value: 6_000, clickId })).statusCode, 202);
  const server = nextOrder();
  assert.equal((await report(h, acme, { clickId, orderId: server, value: 6_000, items: [item(6_000)] })).statusCode, 201);
  const otherBrandsClick = await freshClick(h, h.world.keys.aff1, BRANDS.globex);
  const answers = async (orderIdOf: () => string) => {
    const outcomes: string[] = [];
    for (const body of [
      { value: 6_000, clickId },
      { value: 9_999, clickId, items: [item(9_999)] },
      { value: 6_000, clickId: otherBrandsClick },
      { value: 6_000, clickId: '0123456789abcdef0123456789abcdef' },
      { value: 6_000, clickId, items: [item(100)] },
      { value: 6_000, coupon: 'NOBODY' },
    ]) {
      const res = await tagReport({ key, orderId: orderIdOf(), ...body });
      outcomes.push(`${res.statusCode} ${res.statusCode === 202 ? res.json<{ data: { outcome: string } }>().data.outcome : res.json<{ code: string }>().code}`);
    }
    return outcomes;
  };
  const forNew = await answers(nextOrder);
  assert.deepEqual(forNew, ['202 recorded', '202 recorded', '404 click_not_found', '404 click_not_found', '422 items_mismatch', '422 coupon_not_registered']);
  assert.deepEqual(await answers(() => known), forNew, 'an order id the tag reported');
  assert.deepEqual(await answers(() => server), forNew, 'an order id the brand’s server reported');
  const { data } = await conversion(known);
  assert.equal(data.value, 6_000, 'none of them changed the order');
  assert.equal((await conversion(server)).data.source, 'api');
});

test('the brand’s server reporting the tag’s order takes it over: its value, its source, one order; the tag after it changes nothing', async () => {
  const clickId = await freshClick(h, h.world.keys.aff1, BRANDS.acme);
  const orderId = nextOrder();
  assert.equal((await tagReport({ key, orderId, value: 10_000, clickId })).statusCode, 202);
  const server = conversionOf(await report(h, acme, { clickId, orderId, value: 9_000, items: [item(9_000)] }), 200);
  assert.equal(server.value, 9_000);
  assert.equal(server.source, 'api');
  const { data } = await conversion(orderId);
  assert.equal(data.value, 9_000);
  assert.equal(data.commission, server.commission);
  assert.ok(data.history.some((e) => e.field === 'source' && e.from === 'tag' && e.to === 'api' && e.by === 'brand'), JSON.stringify(data.history));
  const orders = await h.service.database.db.selectFrom('orders').select('id').where('order_id', '=', orderId).execute();
  assert.equal(orders.length, 1, 'never a second order');

  assert.equal((await tagReport({ key, orderId, value: 10_000, clickId })).json<{ data: { outcome: string } }>().data.outcome, 'recorded');
  assert.equal((await conversion(orderId)).data.value, 9_000, 'the tag after the server changes nothing');
  const conflicting = await report(h, acme, { clickId, orderId, value: 8_000, items: [item(8_000)] });
  assert.equal(conflicting.statusCode, 409, 'the server’s own order follows today’s rule');
});

test('the server naming another affiliate’s click moves the tag’s order to that affiliate, in the figures too', async () => {
  const tagged = await freshClick(h, h.world.keys.aff1, BRANDS.acme);
  const serverClick = await freshClick(h, h.world.keys.aff2, BRANDS.acme);
  const orderId = nextOrder();
  const before = { aff1: await figures(h.world.keys.aff1), aff2: await figures(h.world.keys.aff2) };
  assert.equal((await tagReport({ key, orderId, value: 5_000, clickId: tagged })).statusCode, 202);
  assert.deepEqual(await figures(h.world.keys.aff1), { orders: before.aff1.orders + 1, sales: before.aff1.sales + 5_000 });
  const moved = conversionOf(await report(h, acme, { clickId: serverClick, orderId, value: 5_000, items: [item(5_000)] }), 200);
  assert.equal(moved.clickId, serverClick);
  assert.notEqual(moved.affiliateId, (await conversion(orderId)).data.history.find((e) => e.field === 'affiliateId')?.from);
  assert.equal(await affiliateSees(h.world.keys.aff1, orderId), false, 'the first affiliate no longer has it');
  assert.equal(await affiliateSees(h.world.keys.aff2, orderId), true);
  assert.deepEqual(await figures(h.world.keys.aff1), before.aff1, 'nor counts it');
  assert.deepEqual(await figures(h.world.keys.aff2), { orders: before.aff2.orders + 1, sales: before.aff2.sales + 5_000 });
});

test('a tag order the brand approved follows today’s rule: the same data is the same order, other data 409', async () => {
  const clickId = await freshClick(h, h.world.keys.aff1, BRANDS.acme);
  const orderId = nextOrder();
  await tagReport({ key, orderId, value: 3_000, clickId });
  assert.equal((await patchStatus(h, acme, orderId, { status: 'approved' })).statusCode, 200);
  assert.equal((await report(h, acme, { clickId, orderId, value: 3_000, items: [item(3_000)] })).statusCode, 200);
  assert.equal((await report(h, acme, { clickId, orderId, value: 3_500, items: [item(3_500)] })).statusCode, 409);
});

test('at its lock date an unconfirmed tag order is canceled; a confirmed one, or one of a brand that trusts its tag, is approved', async () => {
  const order = async () => {
    const clickId = await freshClick(h, h.world.keys.aff1, BRANDS.acme);
    const orderId = nextOrder();
    assert.equal((await tagReport({ key, orderId, value: 2_000, clickId })).statusCode, 202);
    return { clickId, orderId };
  };
  const unconfirmed = await order();
  const confirmed = await order();
  assert.equal((await report(h, acme, { ...confirmed, value: 2_000, items: [item(2_000)] })).statusCode, 200);
  clock.advance(31 * DAY);
  await lockWork();
  const canceled = (await conversion(unconfirmed.orderId)).data;
  assert.equal(canceled.status, 'canceled');
  assert.equal(canceled.commissionStatus, 'canceled');
  assert.equal(canceled.commissionReason, 'unconfirmed');
  assert.equal(canceled.commission, 0);
  assert.equal((await conversion(confirmed.orderId)).data.status, 'approved');

  const trust = await h.request({ method: 'PATCH', url: '/advertiser/brand', payload: { trustTagConversions: true }, headers: { 'x-api-key': acme } });
  assert.equal(trust.statusCode, 200, trust.body);
  assert.equal(trust.json<{ data: { trustTagConversions: boolean } }>().data.trustTagConversions, true);
  const trusted = await order();
  clock.advance(31 * DAY);
  await lockWork();
  const approved = (await conversion(trusted.orderId)).data;
  assert.equal(approved.status, 'approved');
  assert.equal(approved.autoApproved, true);
  await h.request({ method: 'PATCH', url: '/advertiser/brand', payload: { trustTagConversions: false }, headers: { 'x-api-key': acme } });
});

test('the pixel always answers its image; a good report becomes an order of source pixel, a bad one is only counted and shown to the brand', async () => {
  const clickId = await freshClick(h, h.world.keys.aff1, BRANDS.acme);
  const orderId = nextOrder();
  const good = await pixel({ pk: key, orderId, value: '4500', clickId, currency: 'BRL', customerIsNew: 'true' });
  assert.equal(good.statusCode, 200);
  assert.equal(good.headers['content-type'], 'image/gif');
  assert.equal(good.rawPayload.subarray(0, 6).toString(), 'GIF89a');
  assert.equal(good.headers['cross-origin-resource-policy'], 'cross-origin');
  const { data } = await conversion(orderId);
  assert.equal(data.source, 'pixel');
  assert.equal(data.value, 4500);
  assert.deepEqual(data.customer, { isNew: true });

  const bad: Array<Record<string, string>> = [
    { pk: key, orderId: nextOrder(), value: '4500', clickId, utm: 'x' },
    { pk: key, orderId: nextOrder(), value: '45.00', clickId },
    { pk: 'afpub_nobody', orderId: nextOrder(), value: '4500', clickId },
  ];
  for (const query of bad) {
    const res = await pixel(query);
    assert.equal(res.statusCode, 200, 'the page never sees a refusal');
    assert.equal(res.headers['content-type'], 'image/gif');
    assert.equal((await conversion(query.orderId!)).status, 404, `no order for ${JSON.stringify(query)}`);
  }
  const offSite = await pixel({ pk: key, orderId: nextOrder(), value: '4500', clickId }, { referer: 'https://evil.example/thanks' });
  assert.equal(offSite.statusCode, 200);
  const { reports } = await install();
  assert.ok(reports.some((r) => r.source === 'pixel' && r.outcome === 'refused' && r.reason!.startsWith('origin_not_allowed')), JSON.stringify(reports));
  const metrics = await h.service.metrics.text();
  assert.match(metrics, /affnet_page_reports_total\{source="pixel",outcome="recorded"\} 1/);
  assert.match(metrics, /affnet_page_reports_total\{source="pixel",outcome="invalid_query"\} 2/);
});

test('a coupon the brand gave an affiliate attributes the tag’s and the pixel’s orders without a click; an unknown code alone is refused', async () => {
  const given = await h.request({ method: 'PUT', url: '/advertiser/coupons/MARIA15', payload: { affiliateId: 'aff-2' }, headers: { 'x-api-key': acme } });
  assert.ok([200, 201].includes(given.statusCode), given.body);
  const byTag = nextOrder();
  assert.equal((await tagReport({ key, orderId: byTag, value: 7_000, coupon: 'maria15' })).statusCode, 202);
  const tagged = (await conversion(byTag)).data;
  assert.equal(tagged.attribution, 'coupon');
  assert.equal(tagged.affiliateId, 'aff-2');
  assert.equal(tagged.coupon, 'maria15');
  const byPixel = nextOrder();
  assert.equal((await pixel({ pk: key, orderId: byPixel, value: '7000', coupon: 'MARIA15' })).statusCode, 200);
  assert.equal((await conversion(byPixel)).data.attribution, 'coupon');
  const unknown = await tagReport({ key, orderId: nextOrder(), value: 7_000, coupon: 'NOBODY' });
  assert.equal(unknown.statusCode, 422, unknown.body);
  assert.equal(unknown.json<{ code: string }>().code, 'coupon_not_registered');
});

test('a client address past TRACK_LIMIT_PER_MINUTE is answered 429 by the tag', async () => {
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) statuses.push((await tagReport({ key, orderId: nextOrder(), value: 1000 }, SHOP, '192.0.2.99')).statusCode);
  assert.deepEqual(statuses, [400, 400, 400, 400, 400, 429]);
});

test('a shop page may call the tag’s routes from its origin; the API still answers no foreign origin', async () => {
  const preflight = (url: string) =>
    h.request({ method: 'OPTIONS', url, headers: { origin: SHOP, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } });
  const track = await preflight('/track/conversions');
  assert.equal(track.headers['access-control-allow-origin'], SHOP);
  assert.equal(track.headers['access-control-allow-credentials'], undefined, 'never with credentials');
  const api = await preflight('/advertiser/conversions');
  assert.equal(api.headers['access-control-allow-origin'], undefined);
});
