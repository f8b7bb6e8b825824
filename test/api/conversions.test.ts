// The conversion side of the tracking loop, through HTTP: brands report orders for clicks
// (POST /advertiser/conversions, GET /postback), move them through the lifecycle (PATCH), the
// affiliate sees exactly its own orders, and operators pay approved commissions.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { startHarness, type Harness } from '../helpers/harness.js';
import { BRANDS } from '../helpers/world.js';
import { assertError, newKey, startWithKeys, type ErrorBodyShape } from '../helpers/api.js';
import { affiliateOrder, allAffiliateOrders, backdateClick, BROWSER_UA, brandKey, clickAs, clickLink, conversionOf, createLink, eventsOf, freshClick, hoursAfter, hoursFromNow, item, ordersWithBrandOrderId, patchStatus, postback, report, snapshot, withDatabaseLatency, type Conversion } from '../helpers/tracking.js';
import { clickIdTimePrefix } from '../../src/lib/click-id-time.js';
import { DEFAULT_BRAND_RATE_LIMIT } from '../../src/domain/access/access-service.js';
import { servicesFor } from '../helpers/databases.js';


let h: Harness;
let aff1: string;
let aff2: string;
let aff3: string;
let acme: string;
let umbrella: string;
let globex: string;
let initech: string;

before(async () => {
  ({ h, aff1, aff2, aff3 } = await startWithKeys());
  acme = await brandKey(h, BRANDS.acme);
  umbrella = await brandKey(h, BRANDS.umbrella);
  globex = await brandKey(h, BRANDS.globex);
  initech = await brandKey(h, BRANDS.initech);
});
after(async () => {
  await h.close();
});

let seq = 0;
/** A brand order id no other test uses. */
const oid = (label: string) => `T-${label}-${++seq}`;

const DAY_MS = 86_400_000;
const daysBefore = (iso: string, days: number) => new Date(Date.parse(iso) - days * DAY_MS).toISOString();

/** Runs a request that must be rejected and proves it wrote nothing. */
async function rejected(action: () => Promise<LightMyRequestResponse>, status: number, code?: string | RegExp): Promise<ErrorBodyShape> {
  const before = await snapshot(h);
  const res = await action();
  const body = assertError(res, status, code);
  assert.deepEqual(await snapshot(h), before, `a rejected request must write nothing: ${res.body}`);
  return body;
}

/** An acme order for aff-1, reported and checked to be 201. */
async function acmeOrder(value = 1999, options: { clickId?: string; orderId?: string; createdAt?: string; key?: string } = {}): Promise<Conversion> {
  const clickId = options.clickId ?? (await freshClick(h, aff1, BRANDS.acme));
  const body: Record<string, unknown> = { clickId, orderId: options.orderId ?? oid('acme'), value, items: [item(value)] };
  if (options.createdAt) body.createdAt = options.createdAt;
  return conversionOf(await report(h, options.key ?? acme, body), 201);
}

const approve = (orderId: string, key = acme) => patchStatus(h, key, orderId, { status: 'approved' });
const cancel = (orderId: string, key = acme) => patchStatus(h, key, orderId, { status: 'canceled' });

const eventSummary = async (networkId: string) =>
  (await eventsOf(h, networkId)).map((e) => ({ field: e.field, from: e.from_value, to: e.to_value, actor: e.actor }));

describe('the loop end to end', () => {
  test('link → browser click → conversion → affiliate’s orders → approve → pay, with the audit trail', async () => {
    const link = await createLink(h, aff1, BRANDS.acme, {
      type: 'Custom',
      url: 'https://www.acme.com/shoes/red?size=42',
      mdasc: 'summer-24',
      channelId: h.world.channels.aff1Site,
    });
    const { clickId, location } = await clickLink(h, link.code);
    assert.equal(location.origin + location.pathname, 'https://www.acme.com/shoes/red');
    assert.equal(location.searchParams.get('size'), '42');
    assert.equal(location.searchParams.get('mdasc'), 'summer-24', 'the redirect keeps mdasc of the link');
    assert.match(clickId, /^[0-9A-Za-z_-]{16,64}$/, 'the click id is long and random');

    const orderId = oid('loop');
    const items = [item(999, 1, 'sku-red'), item(500, 2, 'sku-socks')];
    const started = new Date().toISOString();
    const res = await report(h, acme, { clickId, orderId, value: 1999, items });
    const conv = conversionOf(res, 201);
    assert.equal(conv.orderId, orderId);
    assert.equal(conv.clickId, clickId);
    assert.equal(conv.value, 1999);
    assert.equal(conv.commission, 150, '7.5 % of 1,999 cents = 149.925 → 150');
    assert.equal(conv.status, 'pending');
    assert.equal(conv.commissionStatus, 'pending');
    assert.ok(conv.createdAt >= started, `createdAt defaults to now: ${conv.createdAt}`);

    // The stored row is attributed to the click's affiliate, link, channel and mdasc.
    const [row] = await ordersWithBrandOrderId(h, BRANDS.acme, orderId);
    const shortLink = await h.service.database.db.selectFrom('short_links').selectAll().where('code', '=', link.code).executeTakeFirstOrThrow();
    assert.ok(row);
    assert.equal(row.id, conv.id);
    assert.equal(row.affiliate_id, 'aff-1');
    assert.equal(row.link_id, shortLink.id);
    assert.equal(row.channel_id, h.world.channels.aff1Site);
    assert.equal(row.click_id, clickId);
    assert.equal(row.mdasc, 'summer-24');

    // The affiliate sees it in the list and by either id.
    const expected = {
      id: conv.id,
      orderId,
      status: 'pending',
      value: 1999,
      createdAt: conv.createdAt,
      commission: 150,
      commissionStatus: 'pending',
      items,
      organizationId: BRANDS.acme,
      brandName: 'Acme',
      mdasc: 'summer-24',
      currency: 'BRL',
      clickId,
      clickedAt: row.click_created_at!,
      linkCode: link.code,
      channel: { id: h.world.channels.aff1Site, name: 'My blog', kind: 'site' },
      lockAt: conv.lockAt,
      autoApproved: false,
      source: 'api',
      attribution: 'click',
    };
    const listed = (await allAffiliateOrders(h, aff1)).find((o) => o.id === conv.id);
    assert.deepEqual(listed, expected);
    assert.deepEqual(await affiliateOrder(h, aff1, conv.id), expected);
    assert.deepEqual(await affiliateOrder(h, aff1, orderId), expected);

    // The brand approves it.
    const approved = await approve(orderId);
    assert.equal(approved.statusCode, 200, approved.body);
    const approvedBody = (approved.json<{ data: Conversion }>()).data;
    assert.equal(approvedBody.status, 'approved');
    assert.equal(approvedBody.commissionStatus, 'approved');
    assert.equal(approvedBody.commission, 150);
    const seenApproved = await affiliateOrder(h, aff1, conv.id);
    assert.equal(seenApproved.status, 'approved');
    assert.equal(seenApproved.commissionStatus, 'approved');

    // Every change is in the audit trail, with who made it.
    assert.deepEqual(await eventSummary(conv.id), [
      { field: 'created', from: null, to: 'pending', actor: `brand:${BRANDS.acme}` },
      { field: 'status', from: 'pending', to: 'approved', actor: `brand:${BRANDS.acme}` },
      { field: 'commissionStatus', from: 'pending', to: 'approved', actor: `brand:${BRANDS.acme}` },
    ]);
    for (const event of await eventsOf(h, conv.id)) assert.ok(event.created_at >= started, `audit time ${event.created_at} is when the change was made`);
  });

  test('a backdated order is audited at the time it was recorded, not at the order’s own time', async () => {
    const clickId = await freshClick(h, aff1, BRANDS.acme);
    await backdateClick(h, clickId, daysBefore(new Date().toISOString(), 3));
    const orderTime = daysBefore(new Date().toISOString(), 2);
    const started = new Date().toISOString();
    const conv = await acmeOrder(1999, { clickId, createdAt: orderTime });
    assert.equal(conv.createdAt, orderTime, 'the order carries the time the brand gave');
    const [created] = await eventsOf(h, conv.id);
    assert.equal(created?.field, 'created');
    assert.ok(created.created_at >= started, `the audit entry says when the order was recorded (${created.created_at}), not when it was placed (${orderTime})`);
  });
});

describe('commission in integer cents', () => {
  test('cps 7.5 %: rounded half up to the cent', async () => {
    const clickId = await freshClick(h, aff1, BRANDS.acme);
    const cases: Array<[value: number, commission: number]> = [
      [1999, 150], // 149.925
      [20, 2], // 1.5
      [60, 5], // 4.5
      [100, 8], // 7.5
      [140, 11], // 10.5
      [7, 1], // 0.525
      [13, 1], // 0.975
      [6, 0], // 0.45
      [1, 0], // 0.075
      [10_001, 750], // 750.075
      [10_000, 750],
      [1_000_020, 75_002], // 75001.5
      [10_000_000_000, 750_000_000], // the largest value accepted
    ];
    for (const [value, commission] of cases) {
      const conv = await acmeOrder(value, { clickId });
      assert.equal(conv.commission, commission, `7.5 % of ${value} cents`);
      assert.equal((await affiliateOrder(h, aff1, conv.id)).commission, commission, `affiliate view of 7.5 % of ${value} cents`);
    }
  });

  test('cpa: the brand’s fixed 1,500 cents whatever the value', async () => {
    // Umbrella accepts site channels only: aff-1's site link.
    const clickId = await freshClick(h, aff1, BRANDS.umbrella);
    for (const value of [1, 1999, 250_000, 10_000_000_000]) {
      const res = await report(h, umbrella, { clickId, orderId: oid('cpa'), value, items: [item(value)] });
      const conv = conversionOf(res, 201);
      assert.equal(conv.commission, 1500, `cpa on ${value} cents`);
      const seen = await affiliateOrder(h, aff1, conv.id);
      assert.equal(seen.commission, 1500);
      assert.equal(seen.organizationId, BRANDS.umbrella);
    }
  });
});

describe('who sees a conversion', () => {
  test('another affiliate never sees it: not in its list, 404 by network id and by brand order id', async () => {
    const conv = await acmeOrder(4200);
    assert.equal((await affiliateOrder(h, aff1, conv.id)).id, conv.id);
    for (const key of [aff2, aff3]) {
      const all = await allAffiliateOrders(h, key);
      assert.ok(!all.some((o) => o.id === conv.id || o.orderId === conv.orderId), 'must not be listed');
      assertError(await h.get(`/affiliate/orders/${conv.id}`, key), 404);
      assertError(await h.get(`/affiliate/orders/${conv.orderId}`, key), 404);
    }
  });

  test('an order earned through aff-2’s link belongs to aff-2 only', async () => {
    const clickId = await freshClick(h, aff2, BRANDS.initech);
    const conv = conversionOf(await report(h, initech, { clickId, orderId: oid('aff2'), value: 900, items: [item(900)] }), 201);
    const seen = await affiliateOrder(h, aff2, conv.id);
    assert.equal(seen.organizationId, BRANDS.initech);
    assert.ok(!('mdasc' in seen), 'a link without mdasc gives an order without an mdasc key (never null)');
    assert.equal(seen.commission, 68); // 67.5 → 68
    assertError(await h.get(`/affiliate/orders/${conv.id}`, aff1), 404);
    assert.ok(!(await allAffiliateOrders(h, aff1)).some((o) => o.id === conv.id));
  });

  test('the filters of GET /affiliate/orders apply to conversions', async () => {
    const withMdasc = await acmeOrder(3000, { clickId: await freshClick(h, aff1, BRANDS.acme, { mdasc: 'filter-m' }) });
    const plain = await acmeOrder(3000);
    const cpa = conversionOf(
      await report(h, umbrella, { clickId: await freshClick(h, aff1, BRANDS.umbrella), orderId: oid('f'), value: 3000, items: [item(3000)] }),
      201,
    );
    const ids = async (query: string) => new Set((await allAffiliateOrders(h, aff1, query)).map((o) => o.id));

    const acmeOnly = await ids(`organizationId=${BRANDS.acme}`);
    assert.ok(acmeOnly.has(withMdasc.id) && acmeOnly.has(plain.id) && !acmeOnly.has(cpa.id));
    const both = await ids(`organizationIds=${BRANDS.acme},${BRANDS.umbrella}`);
    assert.ok(both.has(withMdasc.id) && both.has(plain.id) && both.has(cpa.id));
    const umbrellaOnly = await ids(`organizationIds=${BRANDS.umbrella}`);
    assert.ok(!umbrellaOnly.has(plain.id) && umbrellaOnly.has(cpa.id));
    const mdasc = await ids('mdasc=true');
    assert.ok(mdasc.has(withMdasc.id) && !mdasc.has(plain.id));
    const from = await ids(`from=${encodeURIComponent(withMdasc.createdAt)}`);
    assert.ok(from.has(withMdasc.id) && from.has(cpa.id));
    const to = await ids(`to=${encodeURIComponent(daysBefore(withMdasc.createdAt, 1))}`);
    assert.ok(!to.has(withMdasc.id) && !to.has(plain.id) && !to.has(cpa.id));
  });
});

describe('GET /postback', () => {
  test('201 with the new order, then 200 with the same order on a replay; the affiliate sees it', async () => {
    const clickId = await freshClick(h, aff1, BRANDS.acme);
    const orderId = oid('pb');
    const first = conversionOf(await postback(h, { clickId, orderId, value: 1999, token: acme }), 201);
    assert.equal(first.commission, 150);
    assert.equal(first.status, 'pending');
    assert.equal(first.commissionStatus, 'pending');
    const before = await snapshot(h);
    const replay = conversionOf(await postback(h, { clickId, orderId, value: 1999, token: acme }), 200);
    assert.deepEqual(replay, first);
    assert.deepEqual(await snapshot(h), before, 'a replay changes nothing');
    const seen = await affiliateOrder(h, aff1, first.id);
    assert.equal(seen.value, 1999);
    assert.equal(seen.organizationId, BRANDS.acme);
    assert.deepEqual(seen.items, []);
    assert.deepEqual(await eventSummary(first.id), [{ field: 'created', from: null, to: 'pending', actor: `brand:${BRANDS.acme}` }]);
  });

  test('value is digits only: hex, exponents, signs, decimals and zero are refused with 400 and write nothing', async () => {
    const clickId = await freshClick(h, aff1, BRANDS.acme);
    const before = await snapshot(h);
    for (const value of ['0x10', '1e3', '+16', '-5', '16.0', ' 16', '0', '']) {
      const error = assertError(await postback(h, { clickId, orderId: oid('pb-strict'), value, token: acme }), 400, 'invalid_query');
      assert.match(error.message, /value/, `value=${JSON.stringify(value)}: ${error.message}`);
    }
    assert.deepEqual(await snapshot(h), before);
    const ok = conversionOf(await postback(h, { clickId, orderId: oid('pb-strict'), value: '0016', token: acme }), 201);
    assert.equal(ok.value, 16);
  });

  test('the same order through POST and then through the postback is one order', async () => {
    const clickId = await freshClick(h, aff1, BRANDS.acme);
    const conv = await acmeOrder(2500, { clickId });
    const replay = conversionOf(await postback(h, { clickId, orderId: conv.orderId, value: 2500, token: acme }), 200);
    assert.equal(replay.id, conv.id);
    assertError(await postback(h, { clickId, orderId: conv.orderId, value: 2501, token: acme }), 409, 'order_conflict');
    assert.equal((await ordersWithBrandOrderId(h, BRANDS.acme, conv.orderId)).length, 1);
  });

  test('missing or unknown token → 401; an affiliate key as token → 403', async () => {
    const clickId = await freshClick(h, aff1, BRANDS.acme);
    const orderId = oid('pb-auth');
    await rejected(() => postback(h, { clickId, orderId, value: 1999 }), 401, 'unauthorized');
    await rejected(() => postback(h, { clickId, orderId, value: 1999, token: '' }), 401, 'unauthorized');
    await rejected(() => postback(h, { clickId, orderId, value: 1999, token: 'afn_notakeyatall000000000000000000' }), 401, 'unauthorized');
    await rejected(() => postback(h, { clickId, orderId, value: 1999, token: aff1 }), 403, 'forbidden');
  });

  test('a HEAD request to the postback URL (link checkers, prefetchers) records nothing', async () => {
    const clickId = await freshClick(h, aff1, BRANDS.acme);
    const orderId = oid('pb-head');
    const before = await snapshot(h);
    const res = await h.request({ method: 'HEAD', url: `/postback?clickId=${clickId}&orderId=${orderId}&value=1999&token=${acme}` });
    assert.notEqual(res.statusCode, 201, 'HEAD is a safe method: it must not create an order');
    assert.deepEqual(await snapshot(h), before, 'HEAD must write nothing');
    // The real postback afterwards is the first report of the order.
    conversionOf(await postback(h, { clickId, orderId, value: 1999, token: acme }), 201);
  });

  test('a bad value → 400, and the same rules as POST for clicks', async () => {
    const clickId = await freshClick(h, aff1, BRANDS.acme);
    for (const value of ['abc', '19.99', '0', '-5', '10000000001', '']) {
      await rejected(() => postback(h, { clickId, orderId: oid('pb-v'), value, token: acme }), 400);
    }
    await rejected(() => postback(h, { clickId, orderId: oid('pb-v'), token: acme }), 400);
    await rejected(() => postback(h, { clickId: 'f'.repeat(32), orderId: oid('pb-c'), value: 100, token: acme }), 404, 'click_not_found');
    await rejected(() => postback(h, { clickId, orderId: oid('pb-c'), value: 100, token: umbrella }), 404, 'click_not_found');
    await rejected(() => postback(h, { clickId, orderId: oid('pb-t'), value: 100, token: acme, createdAt: hoursFromNow(2) }), 422, 'invalid_order_time');
  });
});

describe('rate limits of brand keys', () => {
  /** Retry-After on a 429: whole seconds, at least 1, at most the 60 s window. */
  const assertRetryAfter = (res: LightMyRequestResponse) => {
    assert.match(String(res.headers['retry-after']), /^\d+$/, `Retry-After is whole seconds: ${JSON.stringify(res.headers)}`);
    const seconds = Number(res.headers['retry-after']);
    assert.ok(seconds >= 1 && seconds <= 60, `Retry-After ${seconds}`);
  };

  test('a brand key made without a limit allows 6,000 per 60 s: 100 postbacks in a minute all answer 201', async () => {
    assert.equal(DEFAULT_BRAND_RATE_LIMIT, 6000);
    const { key } = await servicesFor(h.service.database).access.createApiKey({ brandId: BRANDS.acme });
    const clickId = await freshClick(h, aff1, BRANDS.acme);
    for (let i = 0; i < 100; i++) {
      const res = await postback(h, { clickId, orderId: oid('burst'), value: 1000, token: key });
      conversionOf(res, 201);
      assert.equal(res.headers['x-ratelimit-limit'], '6000');
      assert.equal(res.headers['x-ratelimit-remaining'], String(5999 - i));
    }
  });

  test('an affiliate key made without a limit still gets 429 at its 61st request, with Retry-After', async () => {
    const { key } = await newKey(h, 'aff-1');
    for (let i = 0; i < 60; i++) {
      const res = await h.get('/affiliate/orders?limit=1', key);
      assert.equal(res.statusCode, 200, `request ${i + 1}: ${res.body}`);
      assert.equal(res.headers['x-ratelimit-limit'], '60');
    }
    const res = await h.get('/affiliate/orders?limit=1', key);
    assertError(res, 429, 'TOO_MANY_REQUESTS');
    assertRetryAfter(res);
  });

  test('a brand key given a limit of 5: the 6th report → 429 with Retry-After, nothing written; the retry is recorded once', async () => {
    const { key } = await servicesFor(h.service.database).access.createApiKey({ brandId: BRANDS.acme, rateLimit: 5 });
    const clickId = await freshClick(h, aff1, BRANDS.acme);
    for (let i = 0; i < 5; i++) {
      const res = await report(h, key, { clickId, orderId: oid('limited'), value: 1999, items: [item(1999)] });
      conversionOf(res, 201);
      assert.equal(res.headers['x-ratelimit-limit'], '5');
      assert.equal(res.headers['x-ratelimit-remaining'], String(4 - i));
    }
    const body = { clickId, orderId: oid('limited'), value: 1999, items: [item(1999)] };
    const refused = await report(h, key, body);
    const error = assertError(refused, 429, 'TOO_MANY_REQUESTS');
    assertRetryAfter(refused);
    assert.match(error.message, /retry in \d+ s/);
    assert.equal(refused.headers['x-ratelimit-remaining'], '0');
    assert.deepEqual(await ordersWithBrandOrderId(h, BRANDS.acme, body.orderId), [], 'a refused report writes nothing');
    assertError(await report(h, key, body), 429, 'TOO_MANY_REQUESTS');
    // Another key of the same brand is unaffected, and the retried report is recorded once.
    conversionOf(await report(h, acme, body), 201);
    conversionOf(await report(h, acme, body), 200);
  });
});

describe('idempotency', () => {
  test('a replay answers 200 with the same order and changes nothing', async () => {
    const clickId = await freshClick(h, aff1, BRANDS.acme);
    const body = { clickId, orderId: oid('replay'), value: 5000, items: [item(2500, 2)] };
    const first = conversionOf(await report(h, acme, body), 201);
    const before = await snapshot(h);
    for (let i = 0; i < 3; i++) {
      const again = conversionOf(await report(h, acme, body), 200);
      assert.deepEqual(again, first);
    }
    assert.deepEqual(await snapshot(h), before, 'orders and audit rows are unchanged');
  });

  test('a replay after approval returns the stored (approved) order and changes nothing', async () => {
    const clickId = await freshClick(h, aff1, BRANDS.acme);
    const conv = await acmeOrder(1000, { clickId });
    assert.equal((await approve(conv.orderId)).statusCode, 200);
    const before = await snapshot(h);
    const again = conversionOf(await report(h, acme, { clickId, orderId: conv.orderId, value: 1000, items: [item(1000)] }), 200);
    assert.equal(again.id, conv.id);
    assert.equal(again.status, 'approved', 'a replay must not reset the order to pending');
    assert.equal(again.commissionStatus, 'approved');
    assert.deepEqual(await snapshot(h), before);
  });

  test('the same orderId with another value or another click → 409 order_conflict, nothing changes', async () => {
    const clickId = await freshClick(h, aff1, BRANDS.acme);
    const conv = await acmeOrder(1999, { clickId });
    const body = await rejected(() => report(h, acme, { clickId, orderId: conv.orderId, value: 2999, items: [item(2999)] }), 409, 'order_conflict');
    assert.match(body.message, new RegExp(conv.orderId));
    const otherClick = await freshClick(h, aff1, BRANDS.acme);
    await rejected(() => report(h, acme, { clickId: otherClick, orderId: conv.orderId, value: 1999, items: [item(1999)] }), 409, 'order_conflict');
    const [row] = await ordersWithBrandOrderId(h, BRANDS.acme, conv.orderId);
    assert.equal(row?.value, 1999);
  });

  test('order ids are per brand: two brands may use the same id', async () => {
    const orderId = oid('shared');
    const a = await acmeOrder(1000, { orderId });
    const u = conversionOf(await report(h, umbrella, { clickId: await freshClick(h, aff1, BRANDS.umbrella), orderId, value: 1000, items: [item(1000)] }), 201);
    assert.notEqual(a.id, u.id);
    const res = await h.get(`/affiliate/orders/${orderId}`, aff1);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual((res.json<Array<{ data: { id: string } }>>()).map((e) => e.data.id).sort(), [a.id, u.id].sort());
  });
});

describe('concurrent reports of one order', () => {
  test('10 identical reports at once: exactly one order, one 201 and nine 200 with the same id', async () => {
    const clickId = await freshClick(h, aff1, BRANDS.acme);
    const body = { clickId, orderId: oid('race'), value: 7777, items: [item(7777)] };
    const responses = await withDatabaseLatency(h, () => Promise.all(Array.from({ length: 10 }, () => report(h, acme, body))));
    const statuses = responses.map((r) => r.statusCode).sort();
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 200, 200, 200, 200, 201], responses.map((r) => r.body).join('\n'));
    const ids = new Set(responses.map((r) => (r.json<{ data: Conversion }>()).data.id));
    assert.equal(ids.size, 1);
    const rows = await ordersWithBrandOrderId(h, BRANDS.acme, body.orderId);
    assert.equal(rows.length, 1);
    assert.equal(rows[0]!.id, [...ids][0]);
    assert.deepEqual(await eventSummary(rows[0]!.id), [{ field: 'created', from: null, to: 'pending', actor: `brand:${BRANDS.acme}` }]);
  });

  test('10 reports at once with different values: one stored, the others 409, never two rows', async () => {
    const clickId = await freshClick(h, aff1, BRANDS.acme);
    const orderId = oid('race-diff');
    const values = Array.from({ length: 10 }, (_, i) => 1000 + i);
    const responses = await withDatabaseLatency(h, () => Promise.all(values.map((value) => report(h, acme, { clickId, orderId, value, items: [item(value)] }))));
    const created = responses.filter((r) => r.statusCode === 201);
    assert.equal(created.length, 1, responses.map((r) => r.body).join('\n'));
    for (const r of responses) if (r.statusCode !== 201) assertError(r, 409, 'order_conflict');
    const rows = await ordersWithBrandOrderId(h, BRANDS.acme, orderId);
    assert.equal(rows.length, 1);
    assert.equal(rows[0]!.value, (created[0]!.json<{ data: Conversion }>()).data.value);
    assert.equal((await eventsOf(h, rows[0]!.id)).length, 1);
  });
});

describe('a conversion right after its click', () => {
  test('is attributed even before the click buffer is written', async () => {
    // Clicks are flushed once a minute here, so the click is certainly still in the buffer.
    const slow = await startHarness({ CLICK_FLUSH_MS: '60000' });
    try {
      const affKey = (await servicesFor(slow.service.database).access.createApiKey({ affiliateId: 'aff-1', rateLimit: 100_000 })).key;
      const key = await brandKey(slow, BRANDS.acme);
      const link = await createLink(slow, affKey, BRANDS.acme, { mdasc: 'fast-m', channelId: slow.world.channels.aff1Instagram });
      const { clickId } = await clickLink(slow, link.code);
      const stored = await slow.service.database.db.selectFrom('clicks').select('id').where('id', '=', clickId).executeTakeFirst();
      assert.equal(stored, undefined, 'the click is not written yet');
      const conv = conversionOf(await report(slow, key, { clickId, orderId: 'FAST-1', value: 1999, items: [item(1999)] }), 201);
      const seen = await affiliateOrder(slow, affKey, conv.id);
      assert.equal(seen.mdasc, 'fast-m');
      assert.equal(seen.organizationId, BRANDS.acme);
      assert.equal(seen.commission, 150);
      const [row] = await ordersWithBrandOrderId(slow, BRANDS.acme, 'FAST-1');
      assert.equal(row?.channel_id, slow.world.channels.aff1Instagram);
      assert.equal(row?.click_id, clickId);
      // Once written, the click is the one the order points at.
      await slow.service.services.tracking.flushClicks();
      const written = await slow.service.database.db.selectFrom('clicks').selectAll().where('id', '=', clickId).executeTakeFirst();
      assert.equal(written?.link_id, row?.link_id);
    } finally {
      await slow.close();
    }
  });
});

describe('a conversion on a click that did not count earns nothing', () => {
  const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
  /** Another browser each time: one address rotating user agents. */
  const browser = (i: number) => BROWSER_UA.replace('Chrome/124.0.0.0', `Chrome/${100 + i}.0.0.0`);
  let links = 0;
  /** A link of aff-1 on acme that no other test clicks (an mdasc of its own). */
  const freshLink = async (hh = h, key = aff1) => (await createLink(hh, key, BRANDS.acme, { mdasc: `uncounted-${++links}`, channelId: hh.world.channels.aff1Site })).code;
  let addresses = 0;
  /** A client address no other test uses (TEST-NET-3). */
  const freshIp = () => `203.0.113.${++addresses}`;
  const order = (clickId: string, orderId = oid('uncounted'), hh = h, key = acme) =>
    report(hh, key, { clickId, orderId, value: 1999, items: [item(1999)] });
  const commissionOf = (o: { status: string; commission: number; commissionStatus: string; commissionReason?: string }) => ({
    status: o.status,
    commission: o.commission,
    commissionStatus: o.commissionStatus,
    commissionReason: o.commissionReason,
  });

  test('a bot click → 201, commission 0 and canceled (bot_click); the affiliate sees why; approving and paying leave it canceled', async () => {
    const clickId = await clickAs(h, await freshLink(), { userAgent: GOOGLEBOT, ip: freshIp() });
    const orderId = oid('bot');
    const conv = conversionOf(await order(clickId, orderId), 201);
    assert.deepEqual(commissionOf(conv), { status: 'pending', commission: 0, commissionStatus: 'canceled', commissionReason: 'bot_click' });
    assert.equal(conv.clickId, clickId, 'the order is still stored for the brand’s records');
    assert.equal(conv.value, 1999);
    // The same report again answers the stored order, reason included.
    assert.deepEqual(conversionOf(await order(clickId, orderId), 200), conv);

    // The affiliate sees the order and why it earns nothing, in the list and by either id.
    const expected = { status: 'pending', commission: 0, commissionStatus: 'canceled', commissionReason: 'bot_click' };
    assert.deepEqual(commissionOf(await affiliateOrder(h, aff1, conv.id)), expected);
    assert.deepEqual(commissionOf(await affiliateOrder(h, aff1, orderId)), expected);
    const listed = (await allAffiliateOrders(h, aff1)).find((o) => o.id === conv.id);
    assert.ok(listed, 'the order is listed');
    assert.deepEqual(commissionOf(listed), expected);

    // Approving the order approves the order only: the commission stays canceled.
    const approved = await approve(orderId);
    assert.equal(approved.statusCode, 200, approved.body);
    assert.deepEqual(commissionOf((approved.json<{ data: Conversion }>()).data), { ...expected, status: 'approved' });
    assert.deepEqual(commissionOf(await affiliateOrder(h, aff1, conv.id)), { ...expected, status: 'approved' });
    assert.deepEqual(await eventSummary(conv.id), [
      { field: 'created', from: null, to: 'pending', actor: `brand:${BRANDS.acme}` },
      { field: 'status', from: 'pending', to: 'approved', actor: `brand:${BRANDS.acme}` },
    ]);
  });

  test('a HEAD click → head_click; canceling the order keeps the commission canceled', async () => {
    const clickId = await clickAs(h, await freshLink(), { method: 'HEAD', ip: freshIp() });
    const conv = conversionOf(await order(clickId), 201);
    assert.deepEqual(commissionOf(conv), { status: 'pending', commission: 0, commissionStatus: 'canceled', commissionReason: 'head_click' });
    assert.equal((await affiliateOrder(h, aff1, conv.id)).commissionReason, 'head_click');
    const canceled = await cancel(conv.orderId);
    assert.equal(canceled.statusCode, 200, canceled.body);
    assert.deepEqual(commissionOf((canceled.json<{ data: Conversion }>()).data), { status: 'canceled', commission: 0, commissionStatus: 'canceled', commissionReason: 'head_click' });
    assert.deepEqual(commissionOf(await affiliateOrder(h, aff1, conv.id)), { status: 'canceled', commission: 0, commissionStatus: 'canceled', commissionReason: 'head_click' });
    assert.deepEqual(
      (await eventSummary(conv.id)).map((e) => e.field),
      ['created', 'status'],
      'only the order moved',
    );
  });

  test('a person’s click earns, and so does their repeat click within the window; neither carries a commissionReason', async () => {
    const code = await freshLink();
    const ip = freshIp();
    const first = await clickAs(h, code, { ip });
    const repeat = await clickAs(h, code, { ip });
    await h.service.services.tracking.flushClicks();
    const stored = await h.service.database.db.selectFrom('clicks').select(['id', 'is_repeat', 'counted']).where('id', 'in', [first, repeat]).execute();
    assert.deepEqual(
      [first, repeat].map((id) => stored.find((row) => row.id === id)),
      [{ id: first, is_repeat: 0, counted: 1 }, { id: repeat, is_repeat: 1, counted: 0 }],
    );
    for (const clickId of [first, repeat]) {
      const conv = conversionOf(await order(clickId), 201);
      assert.deepEqual(commissionOf(conv), { status: 'pending', commission: 150, commissionStatus: 'pending', commissionReason: undefined });
      assert.ok(!('commissionReason' in conv), 'omitted, never null, when there is none');
      const seen = await affiliateOrder(h, aff1, conv.id);
      assert.ok(!('commissionReason' in seen), 'omitted, never null, when there is none');
      const approved = await approve(conv.orderId);
      assert.equal((approved.json<{ data: Conversion }>()).data.commissionStatus, 'approved');
    }
  });

  test('a click past its address’s velocity limit on the link → suspicious_click; the clicks before it earn', async () => {
    const code = await freshLink();
    const ip = freshIp();
    const ids: string[] = [];
    // One address, six user agents: the limit is 5 counted clicks per address, link and hour.
    for (let i = 0; i < 6; i++) ids.push(await clickAs(h, code, { ip, userAgent: browser(i) }));
    const within = conversionOf(await order(ids[4]!), 201);
    assert.deepEqual(commissionOf(within), { status: 'pending', commission: 150, commissionStatus: 'pending', commissionReason: undefined });
    const past = conversionOf(await order(ids[5]!), 201);
    assert.deepEqual(commissionOf(past), { status: 'pending', commission: 0, commissionStatus: 'canceled', commissionReason: 'suspicious_click' });
    assert.equal((await affiliateOrder(h, aff1, past.id)).commissionReason, 'suspicious_click');
    assert.equal((await approve(past.orderId)).statusCode, 200);
    assert.deepEqual(commissionOf(await affiliateOrder(h, aff1, past.id)), { status: 'approved', commission: 0, commissionStatus: 'canceled', commissionReason: 'suspicious_click' });
  });

  test('a click still in the buffer is judged as it will be stored (bot, HEAD, suspicious, person)', async () => {
    // Clicks are flushed once a minute here, so each is certainly still in the buffer when reported.
    const slow = await startHarness({ CLICK_FLUSH_MS: '60000' });
    try {
      const affKey = (await servicesFor(slow.service.database).access.createApiKey({ affiliateId: 'aff-1', rateLimit: 100_000 })).key;
      const key = await brandKey(slow, BRANDS.acme);
      const code = await freshLink(slow, affKey);
      const ip = freshIp();
      const bot = await clickAs(slow, code, { userAgent: GOOGLEBOT, ip });
      const head = await clickAs(slow, code, { method: 'HEAD', ip });
      const rotated: string[] = [];
      for (let i = 0; i < 6; i++) rotated.push(await clickAs(slow, code, { ip, userAgent: browser(i) }));
      const stored = await slow.service.database.db.selectFrom('clicks').select('id').execute();
      assert.deepEqual(stored, [], 'no click is written yet');

      const reasons: Array<string | undefined> = [];
      for (const clickId of [bot, head, rotated[0]!, rotated[5]!]) {
        const conv = conversionOf(await order(clickId, oid('buffered'), slow, key), 201);
        reasons.push(conv.commissionReason);
        assert.equal(conv.commission, conv.commissionReason ? 0 : 150);
        assert.equal(conv.commissionStatus, conv.commissionReason ? 'canceled' : 'pending');
      }
      assert.deepEqual(reasons, ['bot_click', 'head_click', undefined, 'suspicious_click']);
    } finally {
      await slow.close();
    }
  });
});

describe('rejected conversions (with the reason, writing nothing)', () => {
  test('an unknown click id → 404 click_not_found', async () => {
    for (const clickId of ['0123456789abcdef0123456789abcdef', 'nope']) {
      await rejected(() => report(h, acme, { clickId, orderId: oid('unknown'), value: 1999, items: [item(1999)] }), 404, 'click_not_found');
    }
  });

  test('a recent click id not stored yet → 503 click_not_stored_yet with Retry-After (it may wait in a buffer through an outage); 10 minutes on → 404', async () => {
    const unstored = (msAgo: number) => clickIdTimePrefix(Date.now() - msAgo) + 'a'.repeat(20);
    const res = await report(h, acme, { clickId: unstored(5_000), orderId: oid('pending'), value: 1999, items: [item(1999)] });
    assertError(res, 503, 'click_not_stored_yet');
    assert.equal(res.headers['retry-after'], '5');
    await rejected(() => report(h, acme, { clickId: unstored(9 * 60_000), orderId: oid('pending'), value: 1999, items: [item(1999)] }), 503, 'click_not_stored_yet');
    await rejected(() => report(h, acme, { clickId: unstored(11 * 60_000), orderId: oid('pending'), value: 1999, items: [item(1999)] }), 404, 'click_not_found');
  });

  test('a click on another brand’s link answers exactly like an unknown click', async () => {
    const acmeClick = await freshClick(h, aff1, BRANDS.acme);
    const unknownClick = 'ffffffffffffffffffffffffffffffff';
    const orderId = oid('foreign');
    const foreign = await rejected(() => report(h, umbrella, { clickId: acmeClick, orderId, value: 1999, items: [item(1999)] }), 404, 'click_not_found');
    const unknown = await rejected(() => report(h, umbrella, { clickId: unknownClick, orderId, value: 1999, items: [item(1999)] }), 404, 'click_not_found');
    assert.deepEqual({ ...foreign, message: foreign.message.replace(acmeClick, 'ID') }, { ...unknown, message: unknown.message.replace(unknownClick, 'ID') });
    // And the other way round: umbrella's click reported by acme; a private brand's click by another brand.
    const umbrellaClick = await freshClick(h, aff1, BRANDS.umbrella);
    await rejected(() => report(h, acme, { clickId: umbrellaClick, orderId, value: 1999, items: [item(1999)] }), 404, 'click_not_found');
    const initechClick = await freshClick(h, aff2, BRANDS.initech);
    await rejected(() => report(h, globex, { clickId: initechClick, orderId, value: 1999, items: [item(1999)] }), 404, 'click_not_found');
    // The rightful brand can still report it.
    conversionOf(await report(h, acme, { clickId: acmeClick, orderId, value: 1999, items: [item(1999)] }), 201);
  });

  test('a click older than the default attribution window of 30 days → 422 click_expired', async () => {
    const clickId = await freshClick(h, aff1, BRANDS.acme);
    const clickTime = daysBefore(new Date().toISOString(), 31);
    await backdateClick(h, clickId, clickTime);
    await rejected(() => report(h, acme, { clickId, orderId: oid('old'), value: 1999, items: [item(1999)] }), 422, 'click_expired');
    await rejected(() => report(h, acme, { clickId, orderId: oid('old'), value: 1999, items: [item(1999)], createdAt: hoursAfter(clickTime, 30 * 24 + 1) }), 422, 'click_expired');
    // An order placed within the window is accepted, even if reported later.
    const conv = await acmeOrder(1999, { clickId, createdAt: hoursAfter(clickTime, 29 * 24) });
    assert.equal(conv.createdAt, hoursAfter(clickTime, 29 * 24));
  });

  test('the brand’s own attribution window applies (1 day)', async () => {
    const { db } = h.service.database;
    await db.updateTable('brands').set({ attribution_window_days: 1 }).where('id', '=', BRANDS.globex).execute();
    try {
      const clickId = await freshClick(h, aff1, BRANDS.globex);
      const clickTime = daysBefore(new Date().toISOString(), 3);
      await backdateClick(h, clickId, clickTime);
      const body = await rejected(
        () => report(h, globex, { clickId, orderId: oid('win'), value: 1999, items: [item(1999)], createdAt: hoursAfter(clickTime, 48) }),
        422,
        'click_expired',
      );
      assert.match(body.message, /1 day/);
      await rejected(() => report(h, globex, { clickId, orderId: oid('win'), value: 1999, items: [item(1999)], createdAt: hoursAfter(clickTime, 25) }), 422, 'click_expired');
      const conv = conversionOf(await report(h, globex, { clickId, orderId: oid('win'), value: 1999, items: [item(1999)], createdAt: hoursAfter(clickTime, 23) }), 201);
      assert.equal((await affiliateOrder(h, aff1, conv.id)).organizationId, BRANDS.globex);
    } finally {
      await db.updateTable('brands').set({ attribution_window_days: 30 }).where('id', '=', BRANDS.globex).execute();
    }
  });

  test('an order time in the future or before the click → 422 invalid_order_time', async () => {
    const clickId = await freshClick(h, aff1, BRANDS.acme);
    await rejected(() => report(h, acme, { clickId, orderId: oid('t'), value: 1999, items: [item(1999)], createdAt: hoursFromNow(1) }), 422, 'invalid_order_time');
    await rejected(() => report(h, acme, { clickId, orderId: oid('t'), value: 1999, items: [item(1999)], createdAt: hoursFromNow(24 * 400) }), 422, 'invalid_order_time');
    await rejected(() => report(h, acme, { clickId, orderId: oid('t'), value: 1999, items: [item(1999)], createdAt: hoursFromNow(-1) }), 422, 'invalid_order_time');
    await rejected(() => report(h, acme, { clickId, orderId: oid('t'), value: 1999, items: [item(1999)], createdAt: '2020-01-01T00:00:00Z' }), 422, 'invalid_order_time');
    // A couple of minutes of clock skew is tolerated (documented: up to 5 minutes).
    conversionOf(await report(h, acme, { clickId, orderId: oid('t'), value: 1999, items: [item(1999)], createdAt: hoursFromNow(2 / 60) }), 201);
  });

  test('createdAt with a UTC offset is understood and stored in UTC', async () => {
    const clickId = await freshClick(h, aff1, BRANDS.acme);
    const clickTime = new Date(Date.now() - 3 * 3_600_000);
    await backdateClick(h, clickId, clickTime.toISOString());
    // One hour after the click, written in +02:00.
    const utc = new Date(clickTime.getTime() + 3_600_000);
    utc.setUTCMilliseconds(0);
    const local = new Date(utc.getTime() + 2 * 3_600_000).toISOString().replace(/\.\d{3}Z$/, '+02:00');
    const conv = await acmeOrder(1999, { clickId, createdAt: local });
    assert.equal(conv.createdAt, utc.toISOString());
    assert.equal((await affiliateOrder(h, aff1, conv.id)).createdAt, utc.toISOString());
    // Before the click when read correctly (click − 1 h, written in +05:00 so the text looks later).
    const early = new Date(clickTime.getTime() - 3_600_000 + 5 * 3_600_000).toISOString().replace(/\.\d{3}Z$/, '+05:00');
    await rejected(() => report(h, acme, { clickId, orderId: oid('tz'), value: 1999, items: [item(1999)], createdAt: early }), 422, 'invalid_order_time');
  });

  test('items that disagree with value beyond max(100 cents, 1 %) → 422 items_mismatch; within it → 201', async () => {
    const clickId = await freshClick(h, aff1, BRANDS.acme);
    const send = (value: number, items: ReturnType<typeof item>[]) => report(h, acme, { clickId, orderId: oid('items'), value, items });
    // Small orders: the tolerance is 100 cents.
    await rejected(() => send(1999, [item(2100)]), 422, 'items_mismatch');
    await rejected(() => send(1999, [item(1898)]), 422, 'items_mismatch');
    await rejected(() => send(1999, [item(500, 2), item(1)]), 422, 'items_mismatch'); // 1001: quantity counts
    conversionOf(await send(1999, [item(2099)]), 201);
    conversionOf(await send(1999, [item(1899)]), 201);
    conversionOf(await send(1999, [item(1000, 2)]), 201); // 2000
    // Large orders: 1 % of the value.
    await rejected(() => send(100_000, [item(101_001)]), 422, 'items_mismatch');
    await rejected(() => send(100_000, [item(98_999)]), 422, 'items_mismatch');
    conversionOf(await send(100_000, [item(101_000)]), 201);
    conversionOf(await send(100_000, [item(33_000, 3)]), 201); // 99,000
    const body = await rejected(() => send(50_000, [item(10_000, 2)]), 422, 'items_mismatch');
    assert.match(body.message, /20000/);
  });

  test('value 0, negative, above 10^10, not an integer, or a string → 400', async () => {
    const clickId = await freshClick(h, aff1, BRANDS.acme);
    for (const value of [0, -1, -1999, 10_000_000_001, 1e15, 19.99, 0.5, '1999', null, true]) {
      await rejected(() => report(h, acme, { clickId, orderId: oid('val'), value, items: [item(1999)] }), 400, 'invalid_body');
    }
  });

  test('missing fields, unknown fields, empty or malformed items → 400', async () => {
    const clickId = await freshClick(h, aff1, BRANDS.acme);
    const valid = { clickId, orderId: oid('shape'), value: 1999, items: [item(1999)] };
    for (const field of ['orderId', 'value', 'items'] as const) {
      const body: Record<string, unknown> = { ...valid };
      delete body[field];
      await rejected(() => report(h, acme, body), 400, 'invalid_body');
    }
    // clickId may be left out for a coupon; without either, the answer says to give one.
    const { clickId: _clickId, ...withoutClick } = valid;
    await rejected(() => report(h, acme, withoutClick), 400, 'click_or_coupon_required');
    const bad: unknown[] = [
      { ...valid, items: [] },
      { ...valid, commission: 1 },
      { ...valid, affiliateId: 'aff-2' },
      { ...valid, items: [{ ...item(1999), discount: 5 }] },
      { ...valid, items: [{ id: 'x', name: 'x', price: 1999, categories: 0 }] },
      { ...valid, items: [{ ...item(1999), quantity: 0 }] },
      { ...valid, items: [{ ...item(1999), price: -1 }] },
      { ...valid, items: [{ ...item(1999), price: 19.99 }] },
      { ...valid, items: [{ ...item(1999), categories: 'Shoes' }] },
      { ...valid, items: 'sku-1' },
      { ...valid, orderId: '' },
      { ...valid, orderId: 'A 1' },
      { ...valid, orderId: 1234 },
      { ...valid, clickId: '' },
      { ...valid, createdAt: 'yesterday' },
      [valid],
    ];
    for (const body of bad) await rejected(() => report(h, acme, body), 400);
    await rejected(() => h.request({ method: 'POST', url: '/advertiser/conversions', headers: { 'x-api-key': acme, 'content-type': 'application/json' }, payload: '{"clickId":' }), 400);
    // The valid body itself is accepted: the rejections above are about what changed.
    conversionOf(await report(h, acme, valid), 201);
  });
});

describe('authorisation', () => {
  test('an affiliate key on the advertiser endpoints → 403, nothing written', async () => {
    const conv = await acmeOrder(1999);
    const clickId = await freshClick(h, aff1, BRANDS.acme);
    for (const key of [aff1, aff2, h.world.keys.aff1]) {
      await rejected(() => report(h, key, { clickId, orderId: oid('affkey'), value: 1999, items: [item(1999)] }), 403, 'forbidden');
      await rejected(() => approve(conv.orderId, key), 403, 'forbidden');
      await rejected(() => cancel(conv.orderId, key), 403, 'forbidden');
    }
    assert.equal((await affiliateOrder(h, aff1, conv.id)).status, 'pending');
  });

  test('a brand key on affiliate endpoints → 403', async () => {
    for (const url of ['/affiliate/brands', `/affiliate/brands/${BRANDS.acme}`, '/affiliate/orders', '/affiliate/products', '/affiliate/campaigns', '/affiliate/shortener/urls']) {
      assertError(await h.get(url, acme), 403, 'forbidden');
    }
    await rejected(() => h.post('/affiliate/shortener/url', { organizationId: BRANDS.acme, type: 'Home' }, acme), 403, 'forbidden');
  });

  test('no key, an unknown key or a revoked brand key → 401', async () => {
    const conv = await acmeOrder(1999);
    const clickId = await freshClick(h, aff1, BRANDS.acme);
    const body = { clickId, orderId: oid('nokey'), value: 1999, items: [item(1999)] };
    await rejected(() => report(h, undefined, body), 401, 'unauthorized');
    await rejected(() => report(h, 'afn_00000000000000000000000000000000', body), 401, 'unauthorized');
    await rejected(() => patchStatus(h, undefined, conv.orderId, { status: 'approved' }), 401, 'unauthorized');
    const revoked = await servicesFor(h.service.database).access.createApiKey({ brandId: BRANDS.acme, rateLimit: 100_000 });
    await servicesFor(h.service.database).access.revokeApiKey(revoked.id);
    h.service.services.access.forgetKeys();
    await rejected(() => report(h, revoked.key, body), 401, 'unauthorized');
    await rejected(() => approve(conv.orderId, revoked.key), 401, 'unauthorized');
  });

  test('a brand key always carries conversions:write: keys with other or no scopes are refused', async () => {
    const { db } = h.service.database;
    const count = async () => Number((await db.selectFrom('api_keys').select((eb) => eb.fn.countAll<number>().as('n')).where('brand_id', '=', BRANDS.acme).executeTakeFirstOrThrow()).n);
    const before = await count();
    await assert.rejects(servicesFor(h.service.database).access.createApiKey({ brandId: BRANDS.acme, scopes: ['brands:read'] }), /brands:read/);
    await assert.rejects(servicesFor(h.service.database).access.createApiKey({ brandId: BRANDS.acme, scopes: [] }), 'a brand key with no scope at all must not be created');
    await assert.rejects(servicesFor(h.service.database).access.createApiKey({ affiliateId: 'aff-1', scopes: ['conversions:write'] }), /conversions:write/);
    assert.equal(await count(), before);
  });

  test('brand B cannot move brand A’s order: 404, like an unknown order, nothing changes', async () => {
    const conv = await acmeOrder(1999);
    const foreign = await rejected(() => approve(conv.orderId, umbrella), 404);
    await rejected(() => cancel(conv.orderId, globex), 404);
    const unknownId = oid('never-reported');
    const unknown = await rejected(() => approve(unknownId, umbrella), 404);
    assert.deepEqual({ ...foreign, message: foreign.message.replace(conv.orderId, 'ID') }, { ...unknown, message: unknown.message.replace(unknownId, 'ID') });
    // Nor by the network id.
    await rejected(() => approve(conv.id, umbrella), 404);
    assert.equal((await affiliateOrder(h, aff1, conv.id)).status, 'pending');
  });
});

describe('PATCH /advertiser/conversions/{orderId}: lifecycle', () => {
  test('pending → approved: the commission becomes approved', async () => {
    const conv = await acmeOrder(1999);
    const res = await approve(conv.orderId);
    assert.equal(res.statusCode, 200, res.body);
    const data = (res.json<{ data: Conversion }>()).data;
    assert.deepEqual({ ...data, updatedAt: '' }, { ...conv, status: 'approved', commissionStatus: 'approved', updatedAt: '' });
    assert.ok(data.updatedAt >= conv.updatedAt);
    const seen = await affiliateOrder(h, aff1, conv.id);
    assert.equal(seen.status, 'approved');
    assert.equal(seen.commissionStatus, 'approved');
  });

  test('pending → canceled: the commission is canceled', async () => {
    const conv = await acmeOrder(1999);
    const res = await cancel(conv.orderId);
    assert.equal(res.statusCode, 200, res.body);
    const data = (res.json<{ data: Conversion }>()).data;
    assert.equal(data.status, 'canceled');
    assert.equal(data.commissionStatus, 'canceled');
    const seen = await affiliateOrder(h, aff1, conv.id);
    assert.equal(seen.status, 'canceled');
    assert.equal(seen.commissionStatus, 'canceled');
    assert.deepEqual(await eventSummary(conv.id), [
      { field: 'created', from: null, to: 'pending', actor: `brand:${BRANDS.acme}` },
      { field: 'status', from: 'pending', to: 'canceled', actor: `brand:${BRANDS.acme}` },
      { field: 'commissionStatus', from: 'pending', to: 'canceled', actor: `brand:${BRANDS.acme}` },
    ]);
  });

  test('approved → canceled and canceled → approved → 409 invalid_transition, nothing changes', async () => {
    const a = await acmeOrder(1999);
    assert.equal((await approve(a.orderId)).statusCode, 200);
    await rejected(() => cancel(a.orderId), 409, 'invalid_transition');
    const c = await acmeOrder(1999);
    assert.equal((await cancel(c.orderId)).statusCode, 200);
    await rejected(() => approve(c.orderId), 409, 'invalid_transition');
    assert.equal((await affiliateOrder(h, aff1, a.id)).commissionStatus, 'approved');
    assert.equal((await affiliateOrder(h, aff1, c.id)).commissionStatus, 'canceled');
  });

  test('asking for the current status again → 200, unchanged', async () => {
    const conv = await acmeOrder(1999);
    const first = await approve(conv.orderId);
    assert.equal(first.statusCode, 200);
    const before = await snapshot(h);
    const again = await approve(conv.orderId);
    assert.equal(again.statusCode, 200, again.body);
    assert.deepEqual(again.json(), first.json());
    assert.deepEqual(await snapshot(h), before);

    const c = await acmeOrder(1999);
    const canceled = await cancel(c.orderId);
    const before2 = await snapshot(h);
    const again2 = await cancel(c.orderId);
    assert.equal(again2.statusCode, 200, again2.body);
    assert.deepEqual(again2.json(), canceled.json());
    assert.deepEqual(await snapshot(h), before2);
  });

  test('an invalid status value → 400; an unknown order → 404', async () => {
    const conv = await acmeOrder(1999);
    for (const body of [{ status: 'paid' }, { status: 'pending' }, { status: 'APPROVED' }, { status: 'foo' }, {}, { status: 'approved', commission: 1 }, { status: null }]) {
      await rejected(() => patchStatus(h, acme, conv.orderId, body), 400);
    }
    await rejected(() => approve(oid('missing')), 404);
    assert.equal((await affiliateOrder(h, aff1, conv.id)).status, 'pending');
  });

  test('an approve and a cancel at once: exactly one wins, the other → 409', async () => {
    const conv = await acmeOrder(1999);
    const [a, c] = await withDatabaseLatency(h, () => Promise.all([approve(conv.orderId), cancel(conv.orderId)]));
    const winners = [a, c].filter((r) => r.statusCode === 200);
    assert.equal(winners.length, 1, `${a.body}\n${c.body}`);
    const loser = a.statusCode === 200 ? c : a;
    assertError(loser, 409, /^(invalid_transition|concurrent_update)$/);
    const final = (winners[0]!.json<{ data: Conversion }>()).data.status;
    assert.equal((await affiliateOrder(h, aff1, conv.id)).status, final);
    assert.equal((await eventsOf(h, conv.id)).filter((e) => e.field === 'status').length, 1);
  });

  test('the same approval sent several times at once: every answer 200, one change recorded', async () => {
    const conv = await acmeOrder(1999);
    const responses = await withDatabaseLatency(h, () => Promise.all(Array.from({ length: 5 }, () => approve(conv.orderId))));
    for (const r of responses) {
      assert.equal(r.statusCode, 200, `a retried approval must answer 200: ${r.body}`);
      assert.equal((r.json<{ data: Conversion }>()).data.status, 'approved');
    }
    assert.equal((await eventsOf(h, conv.id)).filter((e) => e.field === 'status').length, 1);
  });
});
