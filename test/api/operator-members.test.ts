// Members in the operator's console, through the API: affiliates and brands found by id or name,
// and one member's figures over a range, computed from what happened (clicks counted and not,
// orders with their sales, commission, approval and decline rates), with its people, keys and
// channels; never reachable by a member.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../helpers/harness.js';
import { assertError, newKey } from '../helpers/api.js';
import { operatorSession, type OperatorSession } from '../helpers/operators.js';
import { brandKey, clickAs, createLink, item, patchStatus, report } from '../helpers/tracking.js';
import { BRANDS } from '../helpers/world.js';
import { pollUntil } from '../helpers/wait.js';

let h: Harness;
let operator: OperatorSession;
const today = new Date().toISOString().slice(0, 10);

before(async () => {
  h = await startHarness();
  operator = await operatorSession(h);
  // Today, for aff-1 on Acme: three counted clicks and a bot's, three orders (one approved, one canceled).
  const affiliateKey = (await newKey(h, 'aff-1')).key;
  const acme = await brandKey(h, BRANDS.acme);
  const { code } = await createLink(h, affiliateKey, BRANDS.acme);
  const clicks = [];
  for (const ip of ['198.51.100.1', '198.51.100.2', '198.51.100.3']) clicks.push(await clickAs(h, code, { ip }));
  await clickAs(h, code, { ip: '198.51.100.4', userAgent: 'Googlebot/2.1 (+http://www.google.com/bot.html)' });
  for (const [n, clickId] of clicks.entries()) assert.equal((await report(h, acme, { clickId, orderId: `members-${n}`, value: 10_000 * (n + 1), items: [item(10_000 * (n + 1))] })).statusCode, 201);
  assert.equal((await patchStatus(h, acme, 'members-0', { status: 'approved' })).statusCode, 200);
  assert.equal((await patchStatus(h, acme, 'members-1', { status: 'canceled' })).statusCode, 200);
  await h.service.services.tracking.flushClicks();
});
after(() => h?.close());

const get = (url: string) => h.request({ method: 'GET', url, headers: operator.headers });
const dataOf = <T>(res: { statusCode: number; body: string; json<U>(): U }): T => {
  assert.equal(res.statusCode, 200, res.body);
  return res.json<{ data: T }>().data;
};

type Detail = {
  name: string;
  figures: { from: string; to: string; clicks: number; uncountedClicks: number; orders: Array<{ currency: string; orders: number; sales: number; commission: number; approved: number; canceled: number; approvalRateBp: number; declineRateBp: number }> };
  users: unknown[];
  keys: Array<{ id: string }>;
  channels?: Array<{ name: string }>;
};

test('affiliates and brands are found by part of their id or name', async () => {
  const affiliates = dataOf<Array<{ id: string }>>(await get('/operator/affiliates?q=aff-1'));
  assert.ok(affiliates.some((a) => a.id === 'aff-1'));
  assert.ok(affiliates.every((a) => a.id.includes('aff-1')));
  assert.deepEqual(dataOf<Array<{ id: string }>>(await get('/operator/brands?q=acme')).map((b) => b.id), [BRANDS.acme]);
  assert.deepEqual(dataOf(await get('/operator/brands?q=nothing-like-it')), []);
});

test('an affiliate’s figures over today are what happened today: clicks counted and not, orders, sales, commission, rates', async () => {
  // The rollups are written in the background: the clicks arrive in them shortly.
  const read = async () => dataOf<Detail>(await get(`/operator/affiliates/aff-1?from=${today}&to=${today}`));
  const detail = await pollUntil(read, (d) => d.figures.clicks + d.figures.uncountedClicks === 4, { timeoutMs: 10_000 });
  assert.deepEqual([detail.figures.from, detail.figures.to], [today, today]);
  assert.equal(detail.figures.clicks, 3);
  assert.equal(detail.figures.uncountedClicks, 1);
  const [brl] = detail.figures.orders;
  assert.equal(detail.figures.orders.length, 1);
  assert.deepEqual([brl!.currency, brl!.orders, brl!.sales, brl!.approved, brl!.canceled], ['BRL', 3, 10_000 + 30_000, 1, 1]);
  assert.deepEqual([brl!.approvalRateBp, brl!.declineRateBp], [3333, 3333]);
  assert.ok(brl!.commission > 0);
  assert.ok(detail.keys.length >= 1, 'its API keys');
  assert.ok((detail.channels ?? []).length >= 1, 'its channels');

  const brand = dataOf<Detail>(await get(`/operator/brands/${BRANDS.acme}?from=${today}`));
  assert.equal(brand.figures.clicks, 3, 'the brand sees the same clicks');
  assert.equal(brand.figures.orders[0]!.orders, 3);
  assert.equal(brand.channels, undefined);
});

test('a range before anything happened is empty; a wrong range or member says what to fix', async () => {
  const empty = dataOf<Detail>(await get('/operator/affiliates/aff-1?from=2020-01-01&to=2020-01-31'));
  assert.deepEqual([empty.figures.clicks, empty.figures.uncountedClicks, empty.figures.orders], [0, 0, []]);
  assertError(await get('/operator/affiliates/aff-1?from=2026-02-01&to=2026-01-01'), 400, 'invalid_date');
  assertError(await get('/operator/affiliates/aff-404'), 404, 'affiliate_not_found');
  assertError(await get('/operator/brands/00000000-0000-4000-8000-000000000000'), 404, 'brand_not_found');
  const { key } = await newKey(h, 'aff-1');
  assertError(await h.request({ method: 'GET', url: '/operator/affiliates/aff-1', headers: { 'x-api-key': key } }), 403, 'forbidden');
});
