// Signing in to the portal: a user created with a one-time link sets a password, signs in, and the
// session cookie then works on the API routes of their side (with the CSRF token on writes), until
// sign-out or inactivity. Wrong passwords, guessing, other sites and stale sessions are refused.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, PUBLIC_URL, type Harness } from '../helpers/harness.js';
import { BRANDS } from '../helpers/world.js';
import { assertError } from '../helpers/api.js';
import { ManualClock } from '../../src/lib/clock.js';
import { hashPassword } from '../../src/lib/passwords.js';
import { cookieOf, PASSWORD, signedUp as signedUpAs, tokenOf, withSession } from '../helpers/sessions.js';

const clock = new ManualClock(Date.now());
let h: Harness;

before(async () => {
  h = await startHarness({ SESSION_IDLE_MINUTES: '30' }, { clock });
});
after(async () => {
  await h.close();
});

const signedUp = (email: string, owner?: { affiliateId?: string; brandId?: string }, role?: 'owner' | 'member') => signedUpAs(h, email, owner, role);

describe('sign-up and sign-in', () => {
  test('the one-time link sets the password and signs in: an HttpOnly, SameSite=Lax cookie; the link works once', async () => {
    const { link } = await h.service.services.users.create({ affiliateId: 'aff-1' }, 'Ana@Example.com', 'owner');
    assert.match(link, new RegExp(`^${PUBLIC_URL}/app/set-password\\?token=[0-9A-Za-z]{40}$`));
    const res = await h.request({ method: 'POST', url: '/session/password', payload: { token: tokenOf(link), password: PASSWORD } });
    assert.equal(res.statusCode, 200, res.body);
    const setCookie = String([res.headers['set-cookie']].flat()[0]);
    assert.match(setCookie, /^affnet_session=[0-9A-Za-z]{43}; Path=\/; HttpOnly; SameSite=Lax$/);
    const session = res.json<{ data: { user: { email: string; role: string; affiliateId: string; active: boolean }; csrfToken: string } }>().data;
    assert.deepEqual([session.user.email, session.user.role, session.user.affiliateId, session.user.active], ['ana@example.com', 'owner', 'aff-1', true]);
    assertError(await h.request({ method: 'POST', url: '/session/password', payload: { token: tokenOf(link), password: 'another password' } }), 400, 'invalid_link');
  });

  test('sign in with the e-mail (any case) and password; a wrong password or unknown e-mail answers the same 401', async () => {
    await signedUp('bruno@example.com');
    const ok = await h.request({ method: 'POST', url: '/session', payload: { email: 'BRUNO@example.com', password: PASSWORD } });
    assert.equal(ok.statusCode, 200, ok.body);
    assert.ok(cookieOf(ok));
    const wrong = assertError(await h.request({ method: 'POST', url: '/session', payload: { email: 'bruno@example.com', password: 'not the password' } }), 401, 'invalid_credentials');
    const unknown = assertError(await h.request({ method: 'POST', url: '/session', payload: { email: 'nobody@example.com', password: PASSWORD } }), 401, 'invalid_credentials');
    assert.equal(wrong.message, unknown.message);
  });

  test('a password shorter than 10 characters is refused, saying so', async () => {
    const { link } = await h.service.services.users.create({ affiliateId: 'aff-1' }, 'short@example.com');
    const error = assertError(await h.request({ method: 'POST', url: '/session/password', payload: { token: tokenOf(link), password: 'short' } }), 400, 'invalid_body');
    assert.match(error.message, /password/);
  });

  test('a password among the most common ones is refused, saying why, whatever its case; the link still works after', async () => {
    const { link } = await h.service.services.users.create({ affiliateId: 'aff-1' }, 'common@example.com');
    for (const password of ['qwertyuiop', 'Password123', '1q2w3e4r5t']) {
      const error = assertError(await h.request({ method: 'POST', url: '/session/password', payload: { token: tokenOf(link), password } }), 400, 'invalid_password');
      assert.match(error.message, /one of the most common/);
    }
    const res = await h.request({ method: 'POST', url: '/session/password', payload: { token: tokenOf(link), password: PASSWORD } });
    assert.equal(res.statusCode, 200, res.body);
    await assert.rejects(h.service.services.users.createWithPassword({ affiliateId: 'aff-1' }, 'demo@example.com', 'owner', 'basketball'), /most common/);
  });

  test('failed sign-ins hold the next one back, longer each time: 429 with Retry-After, even with the right password, and never a lock-out', async () => {
    await signedUp('carla@example.com');
    const from = { remoteAddress: '192.0.2.10' };
    const attempt = (password: string) => h.request({ method: 'POST', url: '/session', ...from, payload: { email: 'carla@example.com', password } });
    for (let i = 0; i < 6; i++) assertError(await attempt(`guess number ${i}`), 401, 'invalid_credentials');
    const held = await attempt(PASSWORD);
    const error = assertError(held, 429, 'too_many_sign_ins');
    assert.match(error.message, /Too many failed sign-ins for this account or from this address: try again in 1 s/);
    assert.equal(held.headers['retry-after'], '1');
    await waitOut(1);
    assertError(await attempt('guess number 7'), 401, 'invalid_credentials');
    assert.equal(assertError(await attempt(PASSWORD), 429, 'too_many_sign_ins') && (await attempt(PASSWORD)).headers['retry-after'], '2', 'the hold doubled');
    await waitOut(2);
    const ok = await attempt(PASSWORD);
    assert.equal(ok.statusCode, 200, 'once the hold is over, the right password signs in');
  });
});

/** Moves past a hold: the service's clock, which judges the counters' windows in memory and in Redis alike. */
async function waitOut(seconds: number): Promise<void> {
  clock.advance(seconds * 1000);
}

describe('stored passwords', () => {
  test("a password is stored at the network's cost (PASSWORD_HASH_COST), and one stored at another cost still signs in", async () => {
    await signedUp('costs@example.com');
    const storedHash = async () => (await h.service.database.db.selectFrom('users').select('password_hash').where('email', '=', 'costs@example.com').executeTakeFirstOrThrow()).password_hash;
    assert.match((await storedHash())!, new RegExp(`^scrypt\\$${2 ** Number(h.config.passwordHashCost)}\\$`));
    await h.service.database.db.updateTable('users').set({ password_hash: await hashPassword(PASSWORD, h.config.passwordHashCost + 1) }).where('email', '=', 'costs@example.com').execute();
    const res = await h.request({ method: 'POST', url: '/session', payload: { email: 'costs@example.com', password: PASSWORD } });
    assert.equal(res.statusCode, 200, res.body);
    assertError(await h.request({ method: 'POST', url: '/session', payload: { email: 'costs@example.com', password: 'not the password' } }), 401, 'invalid_credentials');
  });
});

describe('the session as credential', () => {
  test('reads the API of its side; writes need the CSRF token and an Origin of this service', async () => {
    const session = await signedUp('dora@example.com');
    const brands = await h.request(withSession({ method: 'GET', url: '/affiliate/brands' }, { cookie: session.cookie }));
    assert.equal(brands.statusCode, 200, brands.body);
    assert.equal(brands.headers['x-ratelimit-limit'], '600', 'the per-user limit');

    const create = { method: 'POST' as const, url: '/affiliate/shortener/url', payload: { organizationId: BRANDS.acme, type: 'Home' } };
    const noToken = assertError(await h.request(withSession(create, { cookie: session.cookie })), 403, 'csrf_failed');
    assert.match(noToken.message, /x-csrf-token/);
    assertError(await h.request(withSession(create, { cookie: session.cookie, csrf: 'wrong-token-wrong-token-wrong-tok' })), 403, 'csrf_failed');
    assertError(await h.request(withSession(create, session, { origin: 'https://evil.example' })), 403, 'csrf_failed');
    const made = await h.request(withSession(create, session, { origin: PUBLIC_URL }));
    assert.equal(made.statusCode, 200, made.body);
  });

  test("an affiliate's session sees only its own data, and not the brand side", async () => {
    const other = await signedUp('eve@example.com', { affiliateId: 'aff-2' });
    const orders = await h.request(withSession({ method: 'GET', url: '/affiliate/orders/o-aff1-1' }, other));
    assertError(orders, 404);
    const wrongSide = assertError(await h.request(withSession({ method: 'GET', url: '/advertiser/conversions' }, other)), 403, 'forbidden');
    assert.equal(wrongSide.message, 'You are signed in for an affiliate; advertiser endpoints need a brand account');
  });

  test("a brand user's session works on the brand's routes", async () => {
    const brand = await signedUp('fabio@acme.example', { brandId: BRANDS.acme });
    const res = await h.request(withSession({ method: 'GET', url: '/advertiser/brand' }, brand));
    assert.equal(res.statusCode, 200, res.body);
    const wrongSide = assertError(await h.request(withSession({ method: 'GET', url: '/affiliate/brands' }, brand)), 403, 'forbidden');
    assert.equal(wrongSide.message, 'You are signed in for a brand; affiliate endpoints need an affiliate account');
  });

  test('GET /session says who is signed in; sign-out ends the session everywhere', async () => {
    const session = await signedUp('gil@example.com');
    const me = await h.request(withSession({ method: 'GET', url: '/session' }, { cookie: session.cookie }));
    assert.equal(me.statusCode, 200, me.body);
    assert.equal(me.json<{ data: { user: { email: string }; csrfToken: string } }>().data.csrfToken, session.csrf);
    assert.equal(me.headers['cache-control'], 'no-store', 'a session (its CSRF token) is never cached');
    assertError(await h.request(withSession({ method: 'DELETE', url: '/session' }, { cookie: session.cookie })), 403, 'csrf_failed');
    const out = await h.request(withSession({ method: 'DELETE', url: '/session' }, session));
    assert.equal(out.statusCode, 204);
    assert.match(String([out.headers['set-cookie']].flat()[0]), /^affnet_session=; .*Expires=Thu, 01 Jan 1970/);
    const after = assertError(await h.request(withSession({ method: 'GET', url: '/affiliate/brands' }, { cookie: session.cookie })), 401, 'session_expired');
    assert.match(after.message, /sign in again/);
  });

  test('a session unused for SESSION_IDLE_MINUTES ends; one in use goes on', async () => {
    const session = await signedUp('hana@example.com');
    clock.advance(20 * 60_000);
    assert.equal((await h.request(withSession({ method: 'GET', url: '/session' }, session))).statusCode, 200, 'used after 20 minutes');
    clock.advance(20 * 60_000);
    assert.equal((await h.request(withSession({ method: 'GET', url: '/session' }, session))).statusCode, 200, '20 minutes after the last use');
    clock.advance(31 * 60_000);
    assertError(await h.request(withSession({ method: 'GET', url: '/session' }, session)), 401, 'session_expired');
  });

  test('without a cookie GET /session answers 401; a made-up cookie too', async () => {
    assertError(await h.request({ method: 'GET', url: '/session' }), 401, 'unauthorized');
    assertError(await h.request({ method: 'GET', url: '/affiliate/brands', headers: { cookie: 'affnet_session=made-up' } }), 401, 'session_expired');
  });
});
