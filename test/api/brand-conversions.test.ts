// The brand reads back what it reported (GET /advertiser/conversions, GET …/{orderId} with the
// order's history) and corrects pending orders (PATCH value/items), the commission recomputed
// with the rule the order was created under. A brand never reads or changes another's orders.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../helpers/harness.js';
import { BRANDS } from '../helpers/world.js';
import { assertError, newKey } from '../helpers/api.js';
import { servicesFor } from '../helpers/databases.js';
import { clickAs, createLink, freshClick, item, patchStatus, report, type Conversion } from '../helpers/tracking.js';

type Event = { field: string; from?: string; to: string; at: string; by: string; keyId?: string };
type Detailed = Conversion & { history: Event[] };

let h: Harness;
let aff1: string;
let aff2: string;
let acme: { id: string; key: string };
let globex: { id: string; key: string };
let seq = 0;

before(async () => {
  h = await startHarness();
  aff1 = (await newKey(h, 'aff-1', { rateLimit: 100_000 })).key;
  aff2 = (await newKey(h, 'aff-2', { rateLimit: 100_000 })).key;
  acme = await servicesFor(h.service.database).access.createApiKey({ brandId: BRANDS.acme, rateLimit: 100_000 });
  globex = await servicesFor(h.service.database).access.createApiKey({ brandId: BRANDS.globex, rateLimit: 100_000 });
});
after(async () => {
  await h.close();
});

/** Reports an order of `value` cents (one item) on a fresh click of the affiliate on Acme. */
async function reported(affiliateKey: string, value: number, orderId = `bc-${++seq}`): Promise<Conversion> {
  const res = await report(h, acme.key, { clickId: await freshClick(h, affiliateKey, BRANDS.acme), orderId, value, items: [item(value)] });
  assert.equal(res.statusCode, 201, res.body);
  return res.json<{ data: Conversion }>().data;
}

const list = async (query: string, key = acme.key) => {
  const res = await h.get(`/advertiser/conversions${query}`, key);
  assert.equal(res.statusCode, 200, res.body);
  return res.json<{ data: Conversion[]; meta: { total: number; page: number; limit: number; totalPages: number } }>();
};

const detail = async (orderId: string, key = acme.key) => {
  const res = await h.get(`/advertiser/conversions/${encodeURIComponent(orderId)}`, key);
  assert.equal(res.statusCode, 200, res.body);
  return res.json<{ data: Detailed }>().data;
};

describe('GET /advertiser/conversions', () => {
  test("lists the brand's orders newest first, with the affiliate, items and currency, and filters them", async () => {
    const first = await reported(aff1, 10_000);
    const second = await reported(aff2, 20_000);
    const third = await reported(aff1, 30_000);
    const page = await list('?limit=3');
    assert.deepEqual(page.data.map((c) => c.orderId), [third.orderId, second.orderId, first.orderId]);
    assert.equal(page.meta.limit, 3);
    assert.ok(page.meta.total >= 3);
    const shown = page.data[2]!;
    assert.equal(shown.affiliateId, 'aff-1');
    assert.equal(shown.currency, 'BRL');
    assert.deepEqual(shown.items, [item(10_000)]);
    assert.equal(shown.commission, 750, '7.5 % of 100.00');

    assert.deepEqual((await list(`?affiliateId=aff-2&limit=100`)).data.map((c) => c.orderId).includes(second.orderId), true);
    assert.ok((await list(`?affiliateId=aff-2&limit=100`)).data.every((c) => c.affiliateId === 'aff-2'));
    assert.deepEqual((await list(`?orderId=${first.orderId}`)).data.map((c) => c.id), [first.id]);
    assert.ok((await list('?status=approved,canceled&limit=100')).data.every((c) => c.status !== 'pending'));
    const today = new Date().toISOString().slice(0, 10);
    assert.ok((await list(`?from=${today}&to=${today}&limit=100`)).data.some((c) => c.id === third.id));
    assert.equal((await list('?to=2000-01-01')).meta.total, 0);
  });

  test("another brand never sees the brand's orders, nor reads one by its order id", async () => {
    const mine = await reported(aff1, 5_000);
    const theirs = await list('?limit=100', globex.key);
    assert.ok(theirs.data.every((c) => c.id !== mine.id));
    assertError(await h.get(`/advertiser/conversions/${mine.orderId}`, globex.key), 404, 'not_found');
  });

  test('refuses bad filters with 400 and an affiliate key with 403', async () => {
    assertError(await h.get('/advertiser/conversions?status=paid', acme.key), 400, 'invalid_query');
    assertError(await h.get('/advertiser/conversions?from=2026-02-01&to=2026-01-01', acme.key), 400, 'invalid_query');
    assertError(await h.get('/advertiser/conversions', aff1), 403, 'forbidden');
  });
});

describe('GET /advertiser/conversions/{orderId}', () => {
  test('answers the order with its history: created, then each change with the key that made it', async () => {
    const order = await reported(aff1, 8_000);
    assert.equal((await patchStatus(h, acme.key, order.orderId, { status: 'approved' })).statusCode, 200);
    const shown = await detail(order.orderId);
    assert.equal(shown.status, 'approved');
    assert.deepEqual(
      shown.history.map(({ field, from, to, by, keyId }) => ({ field, from, to, by, keyId })),
      [
        { field: 'created', from: undefined, to: 'pending', by: 'brand', keyId: acme.id },
        { field: 'status', from: 'pending', to: 'approved', by: 'brand', keyId: acme.id },
        { field: 'commissionStatus', from: 'pending', to: 'approved', by: 'brand', keyId: acme.id },
      ],
    );
  });
});

describe('PATCH /advertiser/conversions/{orderId}: corrections', () => {
  test('a new value and items recompute the commission exactly and are audited', async () => {
    const order = await reported(aff1, 10_000);
    const res = await patchStatus(h, acme.key, order.orderId, { value: 6_000, items: [item(3_000, 2)] });
    assert.equal(res.statusCode, 200, res.body);
    const corrected = res.json<{ data: Conversion }>().data;
    assert.equal(corrected.value, 6_000);
    assert.equal(corrected.commission, 450, '7.5 % of 60.00');
    assert.deepEqual(corrected.items, [item(3_000, 2)]);
    assert.equal(corrected.status, 'pending');
    const changes = (await detail(order.orderId)).history.filter((e) => e.field !== 'created');
    assert.deepEqual(
      changes.map(({ field, from, to, keyId }) => ({ field, from, to, keyId })),
      [
        { field: 'value', from: '10000', to: '6000', keyId: acme.id },
        { field: 'items', from: JSON.stringify([item(10_000)]), to: JSON.stringify([item(3_000, 2)]), keyId: acme.id },
        { field: 'commission', from: '750', to: '450', keyId: acme.id },
      ],
    );
    // The affiliate sees the corrected order.
    const seen = await h.get(`/affiliate/orders/${order.id}`, aff1);
    const [affiliateView] = seen.json<Array<{ data: { value: number; commission: number } }>>();
    assert.deepEqual({ value: affiliateView!.data.value, commission: affiliateView!.data.commission }, { value: 6_000, commission: 450 });
  });

  test("a correction uses the rule the order was created under, not the brand's rule of today", async () => {
    const before = await reported(aff1, 10_000);
    const { db } = h.service.database;
    await db.updateTable('brands').set({ commission_value: 1_000, updated_at: new Date().toISOString() }).where('id', '=', BRANDS.acme).execute();
    try {
      const res = await patchStatus(h, acme.key, before.orderId, { value: 5_000, items: [item(5_000)] });
      assert.equal(res.json<{ data: Conversion }>().data.commission, 375, 'still 7.5 %: the rule of the order');
      const after = await reported(aff1, 5_000);
      assert.equal(after.commission, 500, 'a new order takes the new rule, 10 %');
    } finally {
      await db.updateTable('brands').set({ commission_value: 750, updated_at: new Date().toISOString() }).where('id', '=', BRANDS.acme).execute();
    }
  });

  test('items that do not add up to the value are refused with 422 and change nothing', async () => {
    const order = await reported(aff1, 10_000);
    assertError(await patchStatus(h, acme.key, order.orderId, { value: 6_000 }), 422, 'items_mismatch');
    assertError(await patchStatus(h, acme.key, order.orderId, { items: [item(2_000)] }), 422, 'items_mismatch');
    const shown = await detail(order.orderId);
    assert.deepEqual({ value: shown.value, commission: shown.commission }, { value: 10_000, commission: 750 });
    assert.deepEqual(shown.history.map((e) => e.field), ['created']);
  });

  test('after approval a correction answers 409 order_not_pending; repeating what the order already is answers 200', async () => {
    const order = await reported(aff1, 10_000);
    assert.equal((await patchStatus(h, acme.key, order.orderId, { status: 'approved' })).statusCode, 200);
    const error = assertError(await patchStatus(h, acme.key, order.orderId, { value: 5_000, items: [item(5_000)] }), 409, 'order_not_pending');
    assert.match(error.message, /approved/);
    const same = await patchStatus(h, acme.key, order.orderId, { status: 'approved', value: 10_000 });
    assert.equal(same.statusCode, 200, same.body);
    assert.equal((await detail(order.orderId)).history.length, 3, 'created, status, commissionStatus: nothing more');
  });

  test('a value and a status in one request: corrected, then approved', async () => {
    const order = await reported(aff1, 10_000);
    const res = await patchStatus(h, acme.key, order.orderId, { status: 'approved', value: 9_000, items: [item(9_000)] });
    const done = res.json<{ data: Conversion }>().data;
    assert.deepEqual({ status: done.status, commissionStatus: done.commissionStatus, value: done.value, commission: done.commission }, { status: 'approved', commissionStatus: 'approved', value: 9_000, commission: 675 });
  });

  test('an order on a bot click keeps commission 0 when corrected', async () => {
    const { code } = await createLink(h, aff1, BRANDS.acme);
    const clickId = await clickAs(h, code, { userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' });
    const res = await report(h, acme.key, { clickId, orderId: `bc-bot-${++seq}`, value: 10_000, items: [item(10_000)] });
    const order = res.json<{ data: Conversion }>().data;
    assert.equal(order.commissionReason, 'bot_click');
    const corrected = (await patchStatus(h, acme.key, order.orderId, { value: 4_000, items: [item(4_000)] })).json<{ data: Conversion }>().data;
    assert.deepEqual({ value: corrected.value, commission: corrected.commission, commissionStatus: corrected.commissionStatus }, { value: 4_000, commission: 0, commissionStatus: 'canceled' });
  });

  test("an empty change is a 400; another brand's order is a 404", async () => {
    const order = await reported(aff1, 10_000);
    assertError(await patchStatus(h, acme.key, order.orderId, {}), 400, 'invalid_body');
    assertError(await patchStatus(h, globex.key, order.orderId, { value: 1_000, items: [item(1_000)] }), 404, 'not_found');
    assertError(await patchStatus(h, acme.key, order.orderId, { value: 0 }), 400, 'invalid_body');
  });
});
