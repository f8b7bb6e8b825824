// Suspending and reactivating members from the operator's console, through the API: the standing
// shows in the search and on the member's page, the member's credentials are refused, its link
// redirects without counting (the figures say so), every change is in the audit trail under the
// operator's name, and bad requests are refused saying what to fix.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../helpers/harness.js';
import { assertError, newKey } from '../helpers/api.js';
import { operatorSession, type OperatorSession } from '../helpers/operators.js';
import { brandKey, clickAs, createLink } from '../helpers/tracking.js';
import { BRANDS } from '../helpers/world.js';
import { pollUntil } from '../helpers/wait.js';
import { ownerSession, credentialHeaders } from '../helpers/route-samples.js';

let h: Harness;
let operator: OperatorSession;
let affiliateKey: string;
let code: string;
const today = new Date().toISOString().slice(0, 10);

before(async () => {
  h = await startHarness();
  operator = await operatorSession(h);
  affiliateKey = (await newKey(h, 'aff-2')).key;
  ({ code } = await createLink(h, affiliateKey, BRANDS.acme));
});
after(() => h?.close());

const post = (url: string, payload: unknown) => h.request({ method: 'POST', url, headers: operator.headers, payload: payload as object });
const get = (url: string) => h.request({ method: 'GET', url, headers: operator.headers });

type Summary = { id: string; name: string; createdAt: string; suspended: boolean; suspendedAt?: string; suspensionReason?: string };

test('an operator suspends an affiliate with a reason: its standing shows, its key is refused, its link redirects without counting', async () => {
  const res = await post('/operator/affiliates/aff-2/suspend', { reason: 'Clicks from a click farm' });
  assert.equal(res.statusCode, 200, res.body);
  const standing = res.json<{ data: Summary }>().data;
  assert.equal(standing.id, 'aff-2');
  assert.equal(standing.suspended, true);
  assert.equal(standing.suspensionReason, 'Clicks from a click farm');
  assert.ok(standing.suspendedAt);

  const found = (await get('/operator/affiliates?q=aff-2')).json<{ data: Summary[] }>().data.find((a) => a.id === 'aff-2');
  assert.deepEqual(found, { ...standing, name: 'Affiliate Two', createdAt: found?.createdAt });
  assertError(await h.get('/affiliate/brands', affiliateKey), 403, 'account_suspended');

  await clickAs(h, code, { ip: '198.51.100.20' });
  await h.service.services.tracking.flushClicks();
  const detail = await pollUntil(
    async () => (await get(`/operator/affiliates/aff-2?from=${today}&to=${today}`)).json<{ data: Summary & { figures: { clicks: number; uncountedClicks: number } } }>().data,
    (d) => d.figures.uncountedClicks === 1,
  );
  assert.equal(detail.suspended, true);
  assert.equal(detail.figures.clicks, 0, 'a suspended affiliate’s click counts nothing');
});

test('suspending again, a blank reason, no reason, an unknown member are refused, saying what to fix', async () => {
  assert.match(assertError(await post('/operator/affiliates/aff-2/suspend', { reason: 'again' }), 409, 'already_suspended').message, /suspended already/);
  assert.match(assertError(await post('/operator/affiliates/aff-3/suspend', { reason: '   ' }), 400, 'invalid_reason').message, /give a reason/);
  assertError(await post('/operator/affiliates/aff-3/suspend', {}), 400);
  assertError(await post('/operator/affiliates/aff-3/reactivate', { reason: 'never suspended' }), 409, 'not_suspended');
  assertError(await post('/operator/affiliates/aff-nobody/suspend', { reason: 'who' }), 404);
  assertError(await post('/operator/brands/brand-nobody/suspend', { reason: 'who' }), 404);
});

test('a member’s owner cannot suspend anyone', async () => {
  const owner = await ownerSession(h, { affiliateId: 'aff-1' });
  const res = await h.request({ method: 'POST', url: '/operator/affiliates/aff-3/suspend', headers: credentialHeaders(owner), payload: { reason: 'rival' } });
  assertError(res, 403);
  assert.equal((await get('/operator/affiliates/aff-3')).json<{ data: Summary }>().data.suspended, false);
});

test('reactivated with a reason: its key works and its clicks count again', async () => {
  const res = await post('/operator/affiliates/aff-2/reactivate', { reason: 'Traffic sources reviewed' });
  assert.equal(res.statusCode, 200, res.body);
  assert.deepEqual(
    (({ suspended, suspendedAt, suspensionReason }) => ({ suspended, suspendedAt, suspensionReason }))(res.json<{ data: Summary }>().data),
    { suspended: false, suspendedAt: undefined, suspensionReason: undefined },
  );
  assert.equal((await h.get('/affiliate/brands', affiliateKey)).statusCode, 200);
});

test('a brand is suspended and reactivated the same way, and leaves affiliates’ sight meanwhile', async () => {
  const aff1 = (await newKey(h, 'aff-1')).key;
  assert.equal((await post(`/operator/brands/${BRANDS.globex}/suspend`, { reason: 'Unpaid statements' })).statusCode, 200);
  assertError(await h.get(`/affiliate/brands/${BRANDS.globex}`, aff1), 404);
  assertError(await h.get('/advertiser/claims', await brandKey(h, BRANDS.globex)), 403, 'account_suspended');
  assert.equal((await post(`/operator/brands/${BRANDS.globex}/reactivate`, { reason: 'Paid' })).statusCode, 200);
  assert.equal((await h.get(`/affiliate/brands/${BRANDS.globex}`, aff1)).statusCode, 200);
});

test('each change is in the audit trail, under the operator, with the reason', async () => {
  type Entry = { action: string; actor: { kind: string; id?: string }; subject: { kind: string; id: string }; reason?: string };
  const entries = async (action: string) => (await get(`/operator/audit?action=${action}`)).json<{ data: Entry[] }>().data;
  const changes = [...(await entries('affiliate.')), ...(await entries('brand.'))].filter((e) => /suspended|reactivated/.test(e.action));
  assert.deepEqual(changes.map((e) => [e.action, e.subject.id, e.reason]).sort(), [
    ['affiliate.reactivated', 'aff-2', 'Traffic sources reviewed'],
    ['affiliate.suspended', 'aff-2', 'Clicks from a click farm'],
    ['brand.reactivated', BRANDS.globex, 'Paid'],
    ['brand.suspended', BRANDS.globex, 'Unpaid statements'],
  ]);
  assert.ok(changes.every((e) => e.actor.kind === 'operator' && e.actor.id === operator.userId), JSON.stringify(changes));
});
