// What an affiliate needs to reconcile its earnings, through HTTP: each order traced to its link,
// channel and click; orders filtered by status and commission status, in its own time zone; a
// balance per currency; payouts as records; money that says which currency it is in.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../helpers/harness.js';
import { BRANDS, brandInput, productInput } from '../helpers/world.js';
import { assertError, newKey, qs } from '../helpers/api.js';
import { pollUntil } from '../helpers/wait.js';
import { affiliateOrder, allAffiliateOrders, backdateClick, brandKey, clickLink, conversionOf, createLink, item, patchStatus, report } from '../helpers/tracking.js';
import type { Balance } from '../../src/domain/orders/orders.js';
import type { Payout } from '../../src/schemas/payout.js';
import { givePayeeDetails, lockedIn, payMonth, releasePayeeHold } from '../helpers/money.js';
import { previousMonth } from '../../src/domain/time.js';
import type { Order } from '../../src/schemas/order.js';
import type { Pagination } from '../../src/schemas/common.js';
import { servicesFor } from '../helpers/databases.js';

const EURO = '66666666-6666-4666-8666-666666666666';

let h: Harness;
let aff1: string;
let aff2: string;
let acme: string;
let euro: string;
let seq = 0;
const oid = (label: string) => `REC-${label}-${++seq}`;

before(async () => {
  h = await startHarness();
  aff1 = (await newKey(h, 'aff-1', { rateLimit: 100_000 })).key;
  aff2 = (await newKey(h, 'aff-2', { rateLimit: 100_000 })).key;
  acme = await brandKey(h, BRANDS.acme);
  await servicesFor(h.service.database).imports.upsertBrand(brandInput({ id: EURO, name: 'Euroshop', slug: 'euroshop', site: 'https://euroshop.eu', currency: 'EUR', commission: { value: 10, transfer: 'cps' } }));
  euro = await brandKey(h, EURO);
});
after(async () => {
  await h.close();
});

async function balance(key: string, query = ''): Promise<Balance[]> {
  const res = await h.get(`/affiliate/balance${query}`, key);
  assert.equal(res.statusCode, 200, res.body);
  return (res.json<{ data: Balance[] }>()).data;
}

/** A conversion of `value` cents on a fresh click of aff-1's Instagram link of the brand, with that click's facts. */
async function convert(brandKeyValue: string, brandId: string, value: number, options: { mdasc?: string } = {}) {
  const link = await createLink(h, aff1, brandId, { channelId: 'ch-aff1-insta', ...options });
  const { clickId } = await clickLink(h, link.code);
  const conversion = conversionOf(await report(h, brandKeyValue, { clickId, orderId: oid('o'), value, items: [item(value)] }), 201);
  return { conversion, clickId, code: link.code };
}

describe('an order says where it came from', () => {
  test('link code, channel, click id and click time, and currency, as additions; none of them null', async () => {
    const { conversion, clickId, code } = await convert(acme, BRANDS.acme, 2000, { mdasc: 'story-7' });
    // The click may still be on its way to the table (written in the background).
    const clickRow = () => h.service.database.db.selectFrom('clicks').select('created_at').where('id', '=', clickId).executeTakeFirst();
    const click = await pollUntil(clickRow, (row) => row !== undefined);
    assert.ok(click, 'the click is stored');
    const order = await affiliateOrder(h, aff1, conversion.id);
    assert.equal(order.linkCode, code);
    assert.deepEqual(order.channel, { id: 'ch-aff1-insta', name: '@aff1', kind: 'instagram' });
    assert.equal(order.clickId, clickId);
    assert.equal(order.clickedAt, click.created_at);
    assert.equal(order.currency, 'BRL');
    assert.equal(order.mdasc, 'story-7');
    assert.ok(!('paidAt' in order) && !('payoutId' in order), 'not paid yet: no paidAt, no payoutId');
  });

  test('the click time stays on the order after the click record is gone', async () => {
    const { conversion, clickId } = await convert(acme, BRANDS.acme, 1000);
    const clickedAt = (await affiliateOrder(h, aff1, conversion.id)).clickedAt;
    const { db } = h.service.database;
    await pollUntil(() => db.selectFrom('clicks').select('id').where('id', '=', clickId).executeTakeFirst(), (row) => row !== undefined);
    await db.deleteFrom('clicks').where('id', '=', clickId).execute();
    const order = await affiliateOrder(h, aff1, conversion.id);
    assert.equal(order.clickedAt, clickedAt);
    assert.equal(order.clickId, clickId);
  });
});

describe('GET /affiliate/orders: status, commissionStatus and timezone', () => {
  test('status and commissionStatus keep the orders in any of the given statuses', async () => {
    const ids = async (query: string) => (await allAffiliateOrders(h, aff1, query)).map((o) => o.id).filter((id) => id.startsWith('o-aff1-')).sort();
    assert.deepEqual(await ids('status=approved'), ['o-aff1-2']);
    assert.deepEqual(await ids('status=approved,canceled'), ['o-aff1-2', 'o-aff1-4']);
    assert.deepEqual(await ids('status=approved&status=canceled'), ['o-aff1-2', 'o-aff1-4']);
    assert.deepEqual(await ids('commissionStatus=pending'), ['o-aff1-1', 'o-aff1-3']);
    assert.deepEqual(await ids('commissionStatus=canceled&status=canceled'), ['o-aff1-4']);
    assert.deepEqual(await ids('commissionStatus=paid'), []);
  });

  test('a date alone is a whole day in the given time zone', async () => {
    // o-aff2-1 was created 2026-01-15T10:00Z.
    const ids = async (query: string) => (await allAffiliateOrders(h, aff2, query)).map((o) => o.id).filter((id) => id === 'o-aff2-1');
    assert.deepEqual(await ids('from=2026-01-15&to=2026-01-15'), ['o-aff2-1'], 'UTC by default');
    // In Pacific/Kiritimati (UTC+14) 10:00Z is already midnight of the 16th.
    assert.deepEqual(await ids('from=2026-01-16&to=2026-01-16&timezone=Pacific/Kiritimati'), ['o-aff2-1']);
    assert.deepEqual(await ids('from=2026-01-15&to=2026-01-15&timezone=Pacific/Kiritimati'), []);
    // In America/Los_Angeles (UTC−8 in January) it is 02:00 on the 15th.
    assert.deepEqual(await ids('from=2026-01-15&to=2026-01-15&timezone=America/Los_Angeles'), ['o-aff2-1']);
    // A date-time is an instant whatever the zone.
    assert.deepEqual(await ids('from=2026-01-15T10:00:00Z&to=2026-01-15T10:00:00Z&timezone=Asia/Tokyo'), ['o-aff2-1']);
  });

  test('an unknown time zone, or an unknown status → 400 naming the parameter', async () => {
    let error = assertError(await h.get('/affiliate/orders?timezone=Mars/Olympus_Mons', aff1), 400, 'invalid_query');
    assert.match(error.message, /timezone/);
    error = assertError(await h.get('/affiliate/orders?commissionStatus=settled', aff1), 400, 'invalid_query');
    assert.match(error.message, /commissionStatus/);
  });
});

describe('GET /affiliate/balance', () => {
  test('commission totals per currency and commission status, every status present, never summed across currencies', async () => {
    const other = await h.get('/affiliate/balance', aff2);
    const before = (other.json<{ data: Balance[] }>()).data;
    const brl = (await balance(aff2)).find((b) => b.currency === 'BRL')!;
    assert.deepEqual(brl.pending, { commission: 750, orders: 1 }, "aff-2's world order");
    assert.deepEqual(Object.keys(brl).sort(), ['approved', 'canceled', 'currency', 'held', 'paid', 'payable', 'pending']);
    assert.deepEqual(before.map((b) => b.currency), ['BRL']);

    // aff-2 earns in euros too.
    const link = await createLink(h, aff2, EURO);
    const { clickId } = await clickLink(h, link.code);
    const conv = conversionOf(await report(h, euro, { clickId, orderId: oid('eur'), value: 12_345, items: [item(12_345)] }), 201);
    assert.equal(conv.commission, 1235); // 10 % of 123.45, rounded half up
    const after = await balance(aff2);
    assert.deepEqual(after.map((b) => b.currency), ['BRL', 'EUR'], 'one entry per currency, in code order');
    assert.deepEqual(after[1], {
      currency: 'EUR',
      pending: { commission: 1235, orders: 1 },
      held: { commission: 0, orders: 0 },
      approved: { commission: 0, orders: 0 },
      payable: { commission: 0, orders: 0 },
      paid: { commission: 0, orders: 0 },
      canceled: { commission: 0, orders: 0 },
    });
    assert.deepEqual(after[0], brl, 'the euro order changed nothing in reais');
    const order = await affiliateOrder(h, aff2, conv.id);
    assert.equal(order.currency, 'EUR');
  });

  test('for a brand and a date range (a date is a whole day in timezone)', async () => {
    const acmeOnly = await balance(aff1, qs({ organizationId: BRANDS.acme, from: '2026-01-01', to: '2026-02-28' }));
    // o-aff1-1 (pending, 750) and o-aff1-2 (approved, 750) are Acme's in that range.
    assert.deepEqual(acmeOnly, [
      { currency: 'BRL', pending: { commission: 750, orders: 1 }, held: { commission: 0, orders: 0 }, approved: { commission: 750, orders: 1 }, payable: { commission: 0, orders: 0 }, paid: { commission: 0, orders: 0 }, canceled: { commission: 0, orders: 0 } },
    ]);
    assert.deepEqual(await balance(aff1, qs({ from: '2020-01-01', to: '2020-12-31' })), [], 'nothing in the range: no entry');
    // o-aff1-1 (2026-01-10T10:00Z) falls on 11 January in UTC+14: the 10th there holds no Acme order.
    const kiritimati = await balance(aff1, qs({ organizationId: BRANDS.acme, from: '2026-01-10', to: '2026-01-10', timezone: 'Pacific/Kiritimati' }));
    assert.deepEqual(kiritimati, []);
  });

  test('bad input → 400 naming the parameter; only the caller’s own orders count', async () => {
    for (const [query, name] of [
      ['?timezone=Nowhere/Here', 'timezone'],
      ['?from=2026-02-01&to=2026-01-01', 'from'],
      ['?organizationId=acme', 'organizationId'],
      ['?status=pending', 'status'],
    ] as const) {
      const error = assertError(await h.get(`/affiliate/balance${query}`, aff1), 400, 'invalid_query');
      assert.match(error.message, new RegExp(name), query);
    }
    const aff3 = (await newKey(h, 'aff-3')).key;
    assert.deepEqual(await balance(aff3), []);
  });
});

describe('payouts', () => {
  test('paying makes one payout per currency; the orders point to it; the affiliate lists and reads it with its orders', async () => {
    const brlA = await convert(acme, BRANDS.acme, 4000); // 300
    const brlB = await convert(acme, BRANDS.acme, 2000); // 150
    const eur = await convert(euro, EURO, 1000); // 100
    for (const [key, c] of [[acme, brlA], [acme, brlB], [euro, eur]] as const) {
      assert.equal((await patchStatus(h, key, c.conversion.orderId, { status: 'approved' })).statusCode, 200);
    }
    const paidBefore = (await balance(aff1)).find((b) => b.currency === 'BRL')!.paid;
    // Their lock dates pass last month: its statements bill them, the brands pay, a run pays aff-1.
    const lastMonth = previousMonth(new Date().toISOString());
    await lockedIn(h.service.database, [brlA, brlB, eur].map((c) => c.conversion.id), lastMonth);
    await givePayeeDetails(h, 'aff-1');
    await releasePayeeHold(h.service.database, 'aff-1');
    const payouts = (await payMonth(h.service.services, lastMonth, 'aff-1')).sort((a, b) => (a.currency < b.currency ? -1 : 1));
    assert.deepEqual(payouts.map((p) => [p.currency, p.status]), [['BRL', 'sent'], ['EUR', 'sent']]);
    const [brl, euros] = payouts as [Payout, Payout];
    assert.equal(euros.total, 100);
    assert.equal(euros.orderCount, 1);
    // The world's approved o-aff1-2 (750) is paid in the same run, in reais.
    assert.equal(brl.total, 300 + 150 + 750);
    assert.equal(brl.orderCount, 3);

    const list = await h.get('/affiliate/payouts', aff1);
    assert.equal(list.statusCode, 200, list.body);
    const body = list.json<{ data: Payout[]; meta: Pagination }>();
    assert.deepEqual(body.data.map((p) => p.id).sort(), [brl.id, euros.id].sort());
    assert.deepEqual(body.meta, { total: 2, page: 1, limit: 20, totalPages: 1 });
    assert.deepEqual(body.data.find((p) => p.id === brl.id), { ...brl, affiliateId: 'aff-1' });

    const detail = await h.get(`/affiliate/payouts/${brl.id}`, aff1);
    assert.equal(detail.statusCode, 200, detail.body);
    const { data, meta } = detail.json<{ data: Payout & { orders: Order[] }; meta: Pagination }>();
    assert.equal(data.total, 1200);
    assert.deepEqual(data.orders.map((o) => o.id).sort(), [brlA.conversion.id, brlB.conversion.id, 'o-aff1-2'].sort());
    assert.equal(meta.total, 3);
    for (const order of data.orders) {
      assert.equal(order.commissionStatus, 'paid');
      assert.equal(order.payoutId, brl.id);
      assert.equal(order.paidAt, brl.sentAt);
    }
    assert.equal(data.periodStart, data.orders.map((o) => o.createdAt).sort()[0]);
    assert.equal(data.periodEnd, data.orders.map((o) => o.createdAt).sort().at(-1));
    const byFilter = await allAffiliateOrders(h, aff1, `payoutId=${euros.id}`);
    assert.deepEqual(byFilter.map((o) => o.id), [eur.conversion.id]);
    assert.equal((await balance(aff1)).find((b) => b.currency === 'BRL')!.paid.commission, paidBefore.commission + 1200);

    // Pages of a payout's orders.
    const page2 = (await h.get(`/affiliate/payouts/${brl.id}?limit=2&page=2`, aff1)).json<{ data: { orders: Order[] }; meta: Pagination }>();
    assert.equal(page2.data.orders.length, 1);
    assert.deepEqual(page2.meta, { total: 3, page: 2, limit: 2, totalPages: 2 });
  });

  test('another affiliate’s payout, or an unknown id → 404; its orders are never listed', async () => {
    const mine = (await h.get('/affiliate/payouts', aff1)).json<{ data: Payout[] }>();
    const id = mine.data[0]!.id;
    assertError(await h.get(`/affiliate/payouts/${id}`, aff2), 404, 'payout_not_found');
    assertError(await h.get('/affiliate/payouts/nope', aff1), 404, 'payout_not_found');
    assert.deepEqual((await h.get('/affiliate/payouts', aff2)).json(), { data: [], meta: { total: 0, page: 1, limit: 20, totalPages: 0 } });
    assert.deepEqual(await allAffiliateOrders(h, aff2, `payoutId=${id}`), []);
  });
});

describe('money carries its currency', () => {
  test('brands and products say their currency; a new brand without one is BRL; an update without one keeps it', async () => {
    const database = h.service.database;
    const get = async (id: string) => ((await h.get(`/affiliate/brands/${id}`, aff1)).json<{ data: { currency: string } }>()).data.currency;
    assert.equal(await get(BRANDS.acme), 'BRL');
    assert.equal(await get(EURO), 'EUR');
    await servicesFor(database).imports.upsertBrand(brandInput({ id: EURO, name: 'Euroshop', slug: 'euroshop', site: 'https://euroshop.eu' }));
    assert.equal(await get(EURO), 'EUR', 'an update without currency keeps the stored one');
    await servicesFor(database).imports.upsertProduct(productInput('p-euro-1', EURO, 'Euro scarf', 1999, { url: 'https://euroshop.eu/p/1' }));
    const res = await h.get(`/affiliate/products${qs({ organizationIds: EURO })}`, aff1);
    const products = (res.json<{ data: Array<{ id: string; currency: string }> }>()).data;
    assert.deepEqual(products.map((p) => [p.id, p.currency]), [['p-euro-1', 'EUR']]);
  });

  test('an order keeps the currency it was reported in when the brand changes its currency', async () => {
    const { conversion } = await convert(euro, EURO, 500);
    await servicesFor(h.service.database).imports.upsertBrand(brandInput({ id: EURO, name: 'Euroshop', slug: 'euroshop', site: 'https://euroshop.eu', currency: 'USD' }));
    assert.equal((await affiliateOrder(h, aff1, conversion.id)).currency, 'EUR');
    await servicesFor(h.service.database).imports.upsertBrand(brandInput({ id: EURO, name: 'Euroshop', slug: 'euroshop', site: 'https://euroshop.eu', currency: 'EUR' }));
  });

  test('an unknown currency code is refused at import', async () => {
    await assert.rejects(
      servicesFor(h.service.database).imports.upsertBrand(brandInput({ id: EURO, name: 'Euroshop', slug: 'euroshop', site: 'https://euroshop.eu', currency: 'XYZ' })),
      /currency "XYZ" is not an ISO 4217 currency code/,
    );
  });
});

test('a clicked link older than the window still yields its facts (backdated click)', async () => {
  const link = await createLink(h, aff1, BRANDS.acme);
  const { clickId } = await clickLink(h, link.code);
  const clickedAt = new Date(Date.now() - 3 * 86_400_000).toISOString();
  await backdateClick(h, clickId, clickedAt);
  const conv = conversionOf(await report(h, acme, { clickId, orderId: oid('old'), value: 100, items: [item(100)] }), 201);
  assert.equal((await affiliateOrder(h, aff1, conv.id)).clickedAt, clickedAt);
});
