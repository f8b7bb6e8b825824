// "View as" for support, through the API: an operator opens a member's portal as its owner sees
// it, read-only. Reads answer as they do for the member's owner (downloads too), every change is
// refused with 403 read_only_view, the start is in the audit trail under the operator acting as
// the member, the member's people see the view in their session list as the network's support
// (never who) and end it there, it expires by itself, and the operator's own session stays theirs.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../helpers/harness.js';
import { assertError, newKey } from '../helpers/api.js';
import { operatorSession, type OperatorSession } from '../helpers/operators.js';
import { credentialHeaders, ownerSession } from '../helpers/route-samples.js';
import { signedUp, withSession } from '../helpers/sessions.js';
import { brandKey } from '../helpers/tracking.js';
import { BRANDS } from '../helpers/world.js';
import { ManualClock } from '../../src/lib/clock.js';
import { ROUTE_SCOPES } from '../../src/http/route-scopes.js';

const MINUTE = 60_000;
const clock = new ManualClock();
let h: Harness;
let operator: OperatorSession;

before(async () => {
  h = await startHarness({}, { clock });
  operator = await operatorSession(h, clock.now());
});
after(() => h?.close());

type View = { id: string; kind: string; affiliateId?: string; brandId?: string; name: string; reason: string; startedAt: string; expiresAt: string; suspendedAt?: string };
type OpenSession = { id: string; device: string; country: string; address?: string; current: boolean; viewedByNetwork?: boolean; reason?: string; expiresAt?: string };

/** The `affnet_view_as=…` pair an answer sets, and the whole Set-Cookie line of it. */
function viewCookieOf(res: { headers: Record<string, unknown> }): { pair: string; line: string } | undefined {
  const line = [res.headers['set-cookie'] as string | string[] | undefined].flat().find((c) => c?.startsWith('affnet_view_as='));
  return line ? { pair: line.split(';')[0]!, line } : undefined;
}

/** The operator's headers with a view's cookie beside their session's. */
const viewing = (pair: string, who: OperatorSession = operator) => ({ ...who.headers, cookie: `${who.headers.cookie}; ${pair}` });

async function startView(path: string, reason = 'Ticket 4512: the orders page shows no payouts', who: OperatorSession = operator) {
  const res = await h.request({ method: 'POST', url: `${path}/view-as`, headers: who.headers, payload: { reason } });
  assert.equal(res.statusCode, 201, res.body);
  return { view: res.json<{ data: View }>().data, cookie: viewCookieOf(res)!.pair, line: viewCookieOf(res)!.line, who };
}

const sessionsOf = async (credential: string) => (await h.request({ method: 'GET', url: '/session/sessions', headers: credentialHeaders(credential) })).json<{ data: OpenSession[] }>().data;

test('an operator views as an affiliate: a cookie of its own, reads answered as for its owner, downloads included', async () => {
  const { view, cookie, line } = await startView('/operator/affiliates/aff-1');
  assert.equal(view.kind, 'affiliate');
  assert.equal(view.affiliateId, 'aff-1');
  assert.equal(view.name, 'Affiliate One');
  assert.equal(view.reason, 'Ticket 4512: the orders page shows no payouts');
  assert.equal(view.startedAt, clock.iso());
  assert.equal(Date.parse(view.expiresAt) - Date.parse(view.startedAt), 30 * MINUTE);
  assert.match(view.id, /^vas_/);
  assert.match(line, /HttpOnly/i);
  assert.match(line, /SameSite=Lax/i);
  assert.match(line, /Path=\//);

  const key = (await newKey(h, 'aff-1')).key;
  for (const url of ['/affiliate/orders?limit=5', '/affiliate/balance', '/affiliate/brands', '/affiliate/channels']) {
    const asViewed = await h.request({ method: 'GET', url, headers: viewing(cookie) });
    assert.equal(asViewed.statusCode, 200, `${url}: ${asViewed.body}`);
    assert.deepEqual(asViewed.json(), (await h.get(url, key)).json(), url);
  }
  // The owner's pages: team, keys (masked as always), the account's history; and a download.
  for (const url of ['/affiliate/team', '/affiliate/keys', '/affiliate/audit', '/affiliate/orders.csv']) {
    assert.equal((await h.request({ method: 'GET', url, headers: viewing(cookie) })).statusCode, 200, url);
  }
  // The other side's routes are not the affiliate's.
  assertError(await h.request({ method: 'GET', url: '/advertiser/conversions', headers: viewing(cookie) }), 403, 'forbidden');

  // The operator's own session is untouched: the console answers, and GET /session names the view.
  assert.equal((await h.request({ method: 'GET', url: '/operator/affiliates?q=aff', headers: viewing(cookie) })).statusCode, 200);
  const session = (await h.request({ method: 'GET', url: '/session', headers: viewing(cookie) })).json<{ data: { user: { id: string; role: string }; viewingAs?: View } }>().data;
  assert.equal(session.user.id, operator.userId);
  assert.equal(session.user.role, 'operator');
  assert.deepEqual(session.viewingAs, view);
  const alone = (await h.request({ method: 'GET', url: '/session', headers: operator.headers })).json<{ data: { viewingAs?: View } }>().data;
  assert.equal(alone.viewingAs, undefined, 'without the view cookie the operator is only themself');
  await h.request({ method: 'DELETE', url: '/operator/view-as', headers: viewing(cookie) });
});

test('every change through a view is refused with read_only_view, whatever the route, and nothing is written', async () => {
  const affiliate = await startView('/operator/affiliates/aff-2');
  const writes = Object.keys(ROUTE_SCOPES)
    .map((route) => route.split(' ') as [string, string])
    .filter(([method, path]) => method !== 'GET' && /^\/(affiliate|advertiser)\//.test(path));
  assert.ok(writes.length > 20, 'every member route that changes something');
  const brand = await startView(`/operator/brands/${BRANDS.acme}`, 'Ticket 4513', await operatorSession(h, clock.now()));
  const auditBefore = (await h.request({ method: 'GET', url: '/operator/audit?limit=1', headers: operator.headers })).json<{ meta: { total: number } }>().meta.total;
  const keys = async () => (await h.request({ method: 'GET', url: '/affiliate/keys', headers: viewing(affiliate.cookie) })).json<{ data: unknown[] }>().data.length;
  const keysBefore = await keys();
  for (const [method, path] of writes) {
    const view = path.startsWith('/affiliate/') ? affiliate : brand;
    const res = await h.request({ method: method, url: path.replace(/:[a-zA-Z]+/g, 'x'), headers: viewing(view.cookie, view.who), payload: {} });
    assert.equal(res.statusCode, 403, `${method} ${path}: ${res.body}`);
    assert.match(assertError(res, 403, 'read_only_view').message, /read-only/, `${method} ${path}`);
  }
  const auditAfter = (await h.request({ method: 'GET', url: '/operator/audit?limit=1', headers: operator.headers })).json<{ meta: { total: number } }>().meta.total;
  assert.equal(auditAfter, auditBefore, 'no entry written');
  assert.equal(await keys(), keysBefore, 'no key was made');
  await h.request({ method: 'DELETE', url: '/operator/view-as', headers: viewing(affiliate.cookie) });
  await h.request({ method: 'DELETE', url: '/operator/view-as', headers: viewing(brand.cookie, brand.who) });
});

test('a brand is viewed the same way: its conversions read, a decision refused', async () => {
  const other = await operatorSession(h, clock.now());
  const { view, cookie } = await startView(`/operator/brands/${BRANDS.acme}`, 'Ticket 4514', other);
  assert.equal(view.kind, 'brand');
  assert.equal(view.brandId, BRANDS.acme);
  const key = await brandKey(h, BRANDS.acme);
  const read = await h.request({ method: 'GET', url: '/advertiser/conversions?limit=5', headers: viewing(cookie, other) });
  assert.equal(read.statusCode, 200, read.body);
  assert.deepEqual(read.json(), (await h.get('/advertiser/conversions?limit=5', key)).json());
  assertError(await h.request({ method: 'PATCH', url: '/advertiser/conversions/o-aff1-1', headers: viewing(cookie, other), payload: { status: 'canceled' } }), 403, 'read_only_view');
  assertError(await h.request({ method: 'GET', url: '/affiliate/orders', headers: viewing(cookie, other) }), 403, 'forbidden');
  await h.request({ method: 'DELETE', url: '/operator/view-as', headers: viewing(cookie, other) });
});

test('the start is audited under the operator acting as the member, with the reason; the member reads it without the operator', async () => {
  const { view, cookie } = await startView('/operator/affiliates/aff-3', 'Payout question from the owner');
  type Entry = { action: string; actor: { kind: string; id?: string; actingAs?: string }; address?: string; subject: { kind: string; id: string }; affiliateId?: string; after?: Record<string, unknown>; reason?: string };
  const entries = (await h.request({ method: 'GET', url: '/operator/audit?action=member.viewed_as&affiliateId=aff-3', headers: operator.headers })).json<{ data: Entry[] }>().data;
  assert.equal(entries.length, 1);
  const [entry] = entries;
  assert.deepEqual(entry!.actor, { kind: 'operator', id: operator.userId, actingAs: 'aff-3' });
  assert.deepEqual(entry!.subject, { kind: 'affiliate', id: 'aff-3' });
  assert.equal(entry!.reason, 'Payout question from the owner');
  assert.equal(entry!.after?.view, view.id);
  assert.ok(entry!.address, 'the operator’s address, for operators');

  const owner = await ownerSession(h, { affiliateId: 'aff-3' });
  const own = (await h.request({ method: 'GET', url: '/affiliate/audit', headers: credentialHeaders(owner) })).json<{ data: Entry[] }>().data.find((e) => e.action === 'member.viewed_as');
  assert.ok(own, 'the member reads it in its history');
  assert.deepEqual(own.actor, { kind: 'operator' });
  assert.equal(own.address, undefined);
  assert.equal(own.reason, 'Payout question from the owner');
  // Reads made through the view write nothing.
  await h.request({ method: 'GET', url: '/affiliate/orders', headers: viewing(cookie) });
  assert.equal((await h.request({ method: 'GET', url: '/operator/audit?action=member.viewed_as&affiliateId=aff-3', headers: operator.headers })).json<{ data: Entry[] }>().data.length, 1);
  await h.request({ method: 'DELETE', url: '/operator/view-as', headers: viewing(cookie) });
});

test('the member’s people see the view in their session list as the network’s support, never who, and end it there', async () => {
  const owner = await ownerSession(h, { affiliateId: 'aff-1' });
  const member = await signedUp(h, `member-${Date.now()}@aff1.example`, { affiliateId: 'aff-1' }, 'member');
  const stranger = await ownerSession(h, { affiliateId: 'aff-2' });
  const { view, cookie } = await startView('/operator/affiliates/aff-1', 'Checking the channels page');
  clock.advance(2 * MINUTE);
  assert.equal((await h.request({ method: 'GET', url: '/affiliate/channels', headers: viewing(cookie) })).statusCode, 200);

  const listed = (await sessionsOf(owner)).find((s) => s.id === view.id);
  assert.ok(listed, 'the owner sees it');
  assert.equal(listed.viewedByNetwork, true);
  assert.equal(listed.reason, 'Checking the channels page');
  assert.equal(listed.expiresAt, view.expiresAt);
  assert.equal(listed.current, false);
  assert.equal(listed.address, undefined, 'never the operator’s address');
  const text = JSON.stringify(await sessionsOf(owner));
  assert.ok(!text.includes(operator.userId) && !text.includes(operator.email), 'never the operator’s id or e-mail');
  const asMember = (await h.request(withSession({ method: 'GET', url: '/session/sessions' }, member))).json<{ data: OpenSession[] }>().data;
  assert.ok(asMember.some((s) => s.id === view.id), 'every person of the account sees it');
  assert.ok(!(await sessionsOf(stranger)).some((s) => s.viewedByNetwork), 'another affiliate sees nothing of it');
  assertError(await h.request({ method: 'DELETE', url: `/session/sessions/${view.id}`, headers: credentialHeaders(stranger) }), 404, 'session_not_found');

  // The member ends it like a session: the operator's next read through it is refused, the console still works.
  const ended = await h.request(withSession({ method: 'DELETE', url: `/session/sessions/${view.id}` }, member));
  assert.equal(ended.statusCode, 204, ended.body);
  assert.ok(!(await sessionsOf(owner)).some((s) => s.id === view.id));
  assert.match(assertError(await h.request({ method: 'GET', url: '/affiliate/orders', headers: viewing(cookie) }), 401, 'view_as_ended').message, /member ended your view/);
  const session = await h.request({ method: 'GET', url: '/session', headers: viewing(cookie) });
  assert.equal(session.statusCode, 200);
  assert.equal(session.json<{ data: { viewingAs?: View } }>().data.viewingAs, undefined);
  assert.match(viewCookieOf(session)?.line ?? '', /Expires=Thu, 01 Jan 1970/, 'the ended view’s cookie is cleared');
  assert.equal((await h.request({ method: 'GET', url: '/operator/affiliates/aff-1', headers: viewing(cookie) })).statusCode, 200);
});

test('signing out everywhere else ends the network’s view too', async () => {
  const owner = await ownerSession(h, { affiliateId: 'aff-2' });
  const { cookie } = await startView('/operator/affiliates/aff-2', 'Second look');
  const res = await h.request({ method: 'POST', url: '/session/sessions/sign-out-others', headers: credentialHeaders(owner) });
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(res.json<{ data: { signedOut: number } }>().data.signedOut, 1);
  assertError(await h.request({ method: 'GET', url: '/affiliate/orders', headers: viewing(cookie) }), 401, 'view_as_ended');
});

test('a view expires by itself after VIEW_AS_MINUTES, and leaves the member’s list', async () => {
  const owner = await ownerSession(h, { affiliateId: 'aff-1' });
  const { view, cookie } = await startView('/operator/affiliates/aff-1', 'Expiry');
  clock.advance(29 * MINUTE);
  assert.equal((await h.request({ method: 'GET', url: '/affiliate/orders', headers: viewing(cookie) })).statusCode, 200);
  assert.ok((await sessionsOf(owner)).some((s) => s.id === view.id));
  clock.advance(MINUTE);
  assert.match(assertError(await h.request({ method: 'GET', url: '/affiliate/orders', headers: viewing(cookie) }), 401, 'view_as_ended').message, /expired/);
  assert.ok(!(await sessionsOf(owner)).some((s) => s.id === view.id));
});

test('ending, another view, signing out: each ends the view; a view cookie works only with the session that opened it', async () => {
  const first = await startView('/operator/affiliates/aff-1', 'First');
  const second = await startView('/operator/affiliates/aff-2', 'Second');
  assertError(await h.request({ method: 'GET', url: '/affiliate/orders', headers: viewing(first.cookie) }), 401, 'view_as_ended');
  assert.equal((await h.request({ method: 'GET', url: '/affiliate/orders', headers: viewing(second.cookie) })).statusCode, 200);

  // Another operator's session with this view's cookie, or the cookie alone, is not the view.
  const other = await operatorSession(h, clock.now());
  assertError(await h.request({ method: 'GET', url: '/affiliate/orders', headers: viewing(second.cookie, other) }), 401, 'view_as_ended');
  assertError(await h.request({ method: 'GET', url: '/affiliate/orders', headers: { cookie: second.cookie } }), 401, 'unauthorized');

  const ended = await h.request({ method: 'DELETE', url: '/operator/view-as', headers: viewing(second.cookie) });
  assert.equal(ended.statusCode, 204, ended.body);
  assert.match(viewCookieOf(ended)?.line ?? '', /Expires=Thu, 01 Jan 1970/);
  assertError(await h.request({ method: 'GET', url: '/affiliate/orders', headers: viewing(second.cookie) }), 401, 'view_as_ended');
  assert.equal((await h.request({ method: 'DELETE', url: '/operator/view-as', headers: operator.headers })).statusCode, 204, 'nothing to end answers the same');

  // Signing out ends the operator's session, and the view with it: the member no longer sees it.
  const leaving = await operatorSession(h, clock.now());
  const owner = await ownerSession(h, { affiliateId: 'aff-3' });
  const { view, cookie } = await startView('/operator/affiliates/aff-3', 'Before signing out', leaving);
  assert.ok((await sessionsOf(owner)).some((s) => s.id === view.id));
  assert.equal((await h.request({ method: 'DELETE', url: '/session', headers: viewing(cookie, leaving) })).statusCode, 204);
  assert.ok(!(await sessionsOf(owner)).some((s) => s.id === view.id));
  assertError(await h.request({ method: 'GET', url: '/affiliate/orders', headers: viewing(cookie, leaving) }), 401);
});

test('a suspended member can still be viewed', async () => {
  await h.service.services.suspensions.suspend({ kind: 'cli' }, { affiliateId: 'aff-3' }, 'Clicks from a click farm');
  const { view, cookie } = await startView('/operator/affiliates/aff-3', 'Reviewing the suspension');
  assert.ok(view.suspendedAt);
  const res = await h.request({ method: 'GET', url: '/affiliate/orders', headers: viewing(cookie) });
  assert.equal(res.statusCode, 200, res.body);
  assertError(await h.get('/affiliate/orders', (await newKey(h, 'aff-3')).key), 403, 'account_suspended');
  await h.request({ method: 'DELETE', url: '/operator/view-as', headers: viewing(cookie) });
  await h.service.services.suspensions.reactivate({ kind: 'cli' }, { affiliateId: 'aff-3' }, 'Reviewed');
});

test('a member cannot view as anyone, nor can a key', async () => {
  const owner = await ownerSession(h, { affiliateId: 'aff-1' });
  assertError(await h.request({ method: 'POST', url: '/operator/affiliates/aff-2/view-as', headers: credentialHeaders(owner), payload: { reason: 'curious' } }), 403, 'forbidden');
  assertError(await h.request({ method: 'POST', url: '/operator/brands/' + BRANDS.acme + '/view-as', headers: { 'x-api-key': (await newKey(h, 'aff-1')).key }, payload: { reason: 'curious' } }), 403);
  assertError(await h.request({ method: 'POST', url: '/operator/affiliates/aff-2/view-as', payload: { reason: 'curious' } }), 401);
  // A member's browser holding a view cookie it got somehow is still only the member.
  const { cookie } = await startView('/operator/affiliates/aff-2', 'Leaked cookie');
  const res = await h.request({ method: 'GET', url: '/affiliate/brands', headers: { ...credentialHeaders(owner), cookie: `${credentialHeaders(owner).cookie}; ${cookie}` } });
  assert.equal(res.statusCode, 200);
  const mine = (await h.request({ method: 'GET', url: '/affiliate/team', headers: { ...credentialHeaders(owner), cookie: `${credentialHeaders(owner).cookie}; ${cookie}` } })).json<{ data: Array<{ affiliateId?: string }> }>().data;
  assert.ok(mine.every((u) => u.affiliateId === 'aff-1'), 'aff-1’s team, not aff-2’s');
  await h.request({ method: 'DELETE', url: '/operator/view-as', headers: viewing(cookie) });
});

test('bad input is refused, saying what to fix', async () => {
  const post = (url: string, payload: unknown) => h.request({ method: 'POST', url, headers: operator.headers, payload: payload as object });
  assertError(await post('/operator/affiliates/aff-1/view-as', {}), 400);
  assert.match(assertError(await post('/operator/affiliates/aff-1/view-as', { reason: '   ' }), 400, 'invalid_reason').message, /say why/);
  assertError(await post('/operator/affiliates/aff-1/view-as', { reason: 'x'.repeat(501) }), 400);
  assertError(await post('/operator/affiliates/aff-1/view-as', { reason: 'ok', extra: 1 }), 400);
  assertError(await post('/operator/affiliates/aff-nobody/view-as', { reason: 'who' }), 404, 'affiliate_not_found');
  assertError(await post('/operator/brands/brand-nobody/view-as', { reason: 'who' }), 404, 'brand_not_found');
  assertError(await h.request({ method: 'POST', url: '/operator/affiliates/aff-1/view-as', headers: { cookie: operator.headers.cookie! }, payload: { reason: 'no csrf' } }), 403, 'csrf_failed');
});
