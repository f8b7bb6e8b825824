// Sub-ids through HTTP: a click's sub1 … sub5 (a tracker's labels) are kept with the click, never
// passed on to the brand, and reach the order the click earns: the affiliate's order, its list
// filters, its CSV, the analytics by sub-id and the order webhook carry them; the brand's view of
// the conversion and another affiliate never see them. Values a click cannot keep (too long, with
// control or invisible characters) are dropped, and the visitor is redirected as usual.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../helpers/harness.js';
import { BRANDS } from '../helpers/world.js';
import { assertError, newKey, qs } from '../helpers/api.js';
import { BROWSER_UA, affiliateOrder, allAffiliateOrders, brandKey, conversionOf, createLink, item, report } from '../helpers/tracking.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';

let h: Harness;
let receiver: Receiver;
let aff1: string;
let aff2: string;
let acme: string;
let seq = 0;
let visitor = 0;

before(async () => {
  h = await startHarness({ WEBHOOK_ALLOW_LOCAL_TARGETS: 'true', WEBHOOK_POLL_MS: '0' });
  receiver = await startReceiver();
  aff1 = (await newKey(h, 'aff-1', { rateLimit: 100_000 })).key;
  aff2 = (await newKey(h, 'aff-2', { rateLimit: 100_000 })).key;
  acme = await brandKey(h, BRANDS.acme);
});
after(async () => {
  await h.close();
  await receiver.close();
});

/** Follows the short link with this query string (as sent), as a person would; the redirect's Location and click id. */
async function visit(code: string, query?: string): Promise<{ location: URL; clickId: string }> {
  visitor++;
  const res = await h.request({
    method: 'GET',
    url: query === undefined ? `/${code}` : `/${code}?${query}`,
    headers: { 'user-agent': BROWSER_UA },
    // A distinct address per visit: no click is a repeat of another.
    remoteAddress: `198.51.${visitor >> 8}.${visitor & 255}`,
  });
  assert.equal(res.statusCode, 302, res.body);
  const location = new URL(String(res.headers.location));
  const clickId = location.searchParams.get('clickId');
  assert.ok(clickId, `no clickId in ${res.headers.location}`);
  return { location, clickId };
}

/** The brand reports an order on the click; the affiliate's view of it. */
async function orderOn(clickId: string, value = 10_000) {
  const orderId = `sub-${++seq}`;
  const conversion = conversionOf(await report(h, acme, { clickId, orderId, value, items: [item(value)] }), 201);
  assert.equal('subIds' in conversion, false, "the brand's view of the conversion has no sub-ids");
  return affiliateOrder(h, aff1, conversion.id);
}

/** The CSV's lines as arrays of cells (the cells here hold no comma or quote). */
const csvRows = (body: string) =>
  body
    .split('\r\n')
    .filter(Boolean)
    .map((line) => line.split(','));

async function analytics(key: string, query: Record<string, string | number | undefined>): Promise<Array<Record<string, unknown>>> {
  const res = await h.get(`/affiliate/analytics${qs(query)}`, key);
  assert.equal(res.statusCode, 200, res.body);
  return res.json<{ data: Array<Record<string, unknown>> }>().data;
}

describe('sub-ids from the click to the order', () => {
  test('a click with sub1 and sub2 earns an order that carries both: the order, the list filters, the CSV, the analytics and the order webhook', async () => {
    const hook = await h.request({ method: 'POST', url: '/affiliate/webhooks', headers: { 'x-api-key': aff1 }, payload: { url: receiver.url, events: ['order.created'] } });
    assert.equal(hook.statusCode, 201, hook.body);
    const { code } = await createLink(h, aff1, BRANDS.acme);
    const { location, clickId } = await visit(code, 'sub1=adset-7&sub2=creative-3&utm_source=tracker');
    assert.equal(location.searchParams.get('utm_source'), 'tracker', 'the visitor’s other parameters go on');
    assert.deepEqual([...location.searchParams.keys()].filter((name) => name.startsWith('sub')), [], 'the sub-ids are not passed on to the brand');

    const received = receiver.received.length;
    const order = await orderOn(clickId);
    assert.deepEqual(order.subIds, { sub1: 'adset-7', sub2: 'creative-3' });

    // The list, filtered by one sub-id or several, exactly.
    const ids = async (query: string) => (await allAffiliateOrders(h, aff1, query)).map((o) => o.id);
    assert.ok((await ids('sub1=adset-7')).includes(order.id));
    assert.ok((await ids('sub1=adset-7&sub2=creative-3')).includes(order.id));
    assert.ok(!(await ids('sub1=adset-7&sub2=creative-4')).includes(order.id));
    assert.ok(!(await ids('sub1=ADSET-7')).includes(order.id), 'the filter is exact, case included');
    assert.deepEqual(
      (await allAffiliateOrders(h, aff1, 'sub2=creative-3')).map((o) => o.subIds),
      [{ sub1: 'adset-7', sub2: 'creative-3' }],
    );

    // The CSV, in API names and in words.
    const [header, ...rows] = csvRows((await h.get('/affiliate/orders.csv?sub1=adset-7', aff1)).body);
    assert.deepEqual(header!.slice(-5), ['sub1', 'sub2', 'sub3', 'sub4', 'sub5']);
    assert.deepEqual(rows.map((r) => r.slice(-5)), [['adset-7', 'creative-3', '', '', '']]);
    const [wordsHeader, ...wordsRows] = csvRows((await h.get('/affiliate/orders.csv?columns=words&sub1=adset-7', aff1)).body);
    assert.deepEqual(wordsHeader!.slice(-5), ['Sub-ID 1', 'Sub-ID 2', 'Sub-ID 3', 'Sub-ID 4', 'Sub-ID 5']);
    assert.deepEqual(wordsRows.map((r) => r.slice(-5)), [['adset-7', 'creative-3', '', '', '']]);

    // The analytics by sub-id: clicks, orders and commission per value; filtered by another.
    const other = await visit(code, 'sub1=adset-8');
    await h.service.services.tracking.flushClicks();
    assert.deepEqual(await analytics(aff1, { groupBy: 'sub1' }), [
      { sub1: 'adset-7', clicks: 1 },
      { sub1: 'adset-8', clicks: 1 },
    ]);
    assert.deepEqual(await analytics(aff1, { groupBy: 'sub2' }), [{ sub2: 'creative-3', clicks: 1 }]);
    assert.deepEqual(await analytics(aff1, { event: 'orders', groupBy: 'sub1' }), [{ sub1: 'adset-7', currency: 'BRL', orders: 1 }]);
    assert.deepEqual(await analytics(aff1, { event: 'commission', groupBy: 'sub1' }), [{ sub1: 'adset-7', currency: 'BRL', commission: order.commission }]);
    assert.deepEqual(await analytics(aff1, { groupBy: 'sub2', sub1: 'adset-8' }), [], 'adset-8’s click carried no sub2');
    const series = await analytics(aff1, { groupBy: 'timeseries', interval: '7d', sub1: 'adset-8' });
    assert.equal(series.reduce((n, row) => n + Number(row.clicks), 0), 1);
    assert.ok(other.clickId);
    const exported = csvRows((await h.get('/affiliate/analytics/export?groupBy=sub1', aff1)).body);
    assert.deepEqual(exported, [['sub1', 'clicks'], ['adset-7', '1'], ['adset-8', '1']]);

    // The webhook's order carries them.
    await h.service.services.jobs.runOnce('webhooks');
    const payloads = receiver.received.slice(received).map((r) => JSON.parse(r.body) as { type: string; data: { id: string; subIds?: unknown } });
    const created = payloads.find((p) => p.type === 'order.created' && p.data.id === order.id);
    assert.ok(created, 'order.created was delivered');
    assert.deepEqual(created.data.subIds, { sub1: 'adset-7', sub2: 'creative-3' });

    // Another affiliate sees none of it.
    assertError(await h.get(`/affiliate/orders/${order.id}`, aff2), 404);
    assert.deepEqual(await allAffiliateOrders(h, aff2, 'sub1=adset-7'), []);
    assert.deepEqual(await analytics(aff2, { groupBy: 'sub1' }), []);
    assert.equal(csvRows((await h.get('/affiliate/orders.csv?sub1=adset-7', aff2)).body).length, 1, 'a header alone');
  });

  test('a value too long or holding a control or invisible character is not kept; the redirect answers 302 all the same', async () => {
    const { code } = await createLink(h, aff1, BRANDS.acme);
    const hundred = 'x'.repeat(100);
    const query = qs({ sub1: 'a'.repeat(101), sub2: 'bell\u0007', sub3: hundred, sub4: 'right\u202Eleft', sub5: 'line\nbreak' });
    const { location, clickId } = await visit(code, query);
    assert.deepEqual([...location.searchParams.keys()].filter((name) => name.startsWith('sub')), []);
    assert.deepEqual((await orderOn(clickId)).subIds, { sub3: hundred });
    // Broken percent-encoding alone drops that value; the others stay.
    const broken = await visit(code, 'sub1=%E0%A4%A&sub2=ok%20go');
    assert.deepEqual((await orderOn(broken.clickId)).subIds, { sub2: 'ok go' });
  });

  test('names are compared as the redirect compares a visitor’s: percent-decoded, ignoring case; a name given twice keeps its first value', async () => {
    const { code } = await createLink(h, aff1, BRANDS.acme);
    const { location, clickId } = await visit(code, 'SUB1=upper&%73ub2=escaped&sub3=first&sub3=second&subway=line');
    assert.deepEqual([...location.searchParams.keys()].filter((name) => /^(%73|s)ub\d$/i.test(name)), []);
    assert.equal(location.searchParams.get('subway'), 'line', 'other names that begin with sub go on');
    assert.deepEqual((await orderOn(clickId)).subIds, { sub1: 'upper', sub2: 'escaped', sub3: 'first' });
  });

  test('a click without a query, or whose query names no sub-id, earns an order without subIds', async () => {
    const { code } = await createLink(h, aff1, BRANDS.acme);
    const plain = await orderOn((await visit(code)).clickId);
    assert.equal('subIds' in plain, false);
    const tagged = await orderOn((await visit(code, 'utm_source=newsletter')).clickId);
    assert.equal('subIds' in tagged, false);
    const empty = await orderOn((await visit(code, 'sub1=')).clickId);
    assert.equal('subIds' in empty, false, 'an empty value is no sub-id');
  });

  test('analytics by sub-id refuse what they cannot answer', async () => {
    assertError(await h.get('/affiliate/analytics?groupBy=countries&sub1=adset-7', aff1), 400, 'unsupported_combination');
    assertError(await h.get('/affiliate/analytics?event=orders&groupBy=sub1&device=mobile', aff1), 400, 'unsupported_combination');
    assertError(await h.get(`/affiliate/analytics?sub1=${'a'.repeat(101)}`, aff1), 400);
    assertError(await h.get('/advertiser/analytics?groupBy=sub1', acme), 400);
    assertError(await h.get('/advertiser/analytics?sub1=adset-7', acme), 400);
  });
});
