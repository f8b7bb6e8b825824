// The rules of second factors as docs/decisions.md tables them ("A session is as strong as its
// person's factors"), a test per row: a password link never signs in around the factor, a session
// that did not pass it is refused on every route (the console's too), and changes of factors or
// payee details ask for a current one: a code, or a code or passkey this session passed within ten
// minutes; never the password, never a recovery code.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PUBLIC_URL, startHarness, type Harness } from '../helpers/harness.js';
import { assertError } from '../helpers/api.js';
import { ManualClock } from '../../src/lib/clock.js';
import { cookieOf, deviceOf, PASSWORD, tokenOf, type TestSession, withSession } from '../helpers/sessions.js';
import { operatorSession, totpCode } from '../helpers/operators.js';
import { setPasswordLink, startMailbox, type Mailbox } from '../helpers/smtp.js';
import { SoftPasskey } from '../helpers/passkeys.js';

// In the middle of a 30-second step, so a code made "now" stays current while a test runs.
const clock = new ManualClock(Math.floor(Date.now() / 30_000) * 30_000 + 15_000);
const MINUTE = 60_000;
let h: Harness;
let mailbox: Mailbox;

before(async () => {
  mailbox = await startMailbox();
  h = await startHarness({ SMTP_URL: mailbox.url, MAIL_POLL_MS: '0', USER_RATE_LIMIT: '100000' }, { clock });
});
after(async () => {
  await h?.close();
  await mailbox?.stop();
});

let addresses = 0;
/** Each sign-in from an address of its own: the per-address limits are another test's. */
const nextAddress = () => `198.51.100.${(addresses++ % 250) + 1}`;
const signIn = (email: string, password = PASSWORD) => h.request({ method: 'POST', url: '/session', remoteAddress: nextAddress(), payload: { email, password } });
const sessionFrom = (res: { json<T>(): T; headers: Record<string, unknown> }): TestSession => ({ cookie: cookieOf(res)!, csrf: res.json<{ data: { csrfToken: string } }>().data.csrfToken, device: deviceOf(res) ?? '', setCookie: '' });
const codeAt = (secret: string, ms = clock.now()) => totpCode(secret, ms);

interface Person {
  email: string;
  session: TestSession;
  secret: string;
  recoveryCodes: string[];
}

/** A person of aff-1 with a password and an authenticator app, signed in (through the app). */
async function withApp(email: string, owner: { affiliateId?: string; brandId?: string } = { affiliateId: 'aff-1' }): Promise<Person> {
  await h.service.services.users.createWithPassword(owner, email, 'member', PASSWORD);
  const session = sessionFrom(await signIn(email));
  const { secret } = (await h.request(withSession({ method: 'POST', url: '/session/totp' }, session))).json<{ data: { secret: string } }>().data;
  const confirmed = await h.request(withSession({ method: 'POST', url: '/session/totp/confirm', payload: { code: codeAt(secret) } }, session));
  assert.equal(confirmed.statusCode, 200, confirmed.body);
  clock.advance(30_000); // the confirming code is used up
  return { email, session, secret, recoveryCodes: confirmed.json<{ data: { recoveryCodes: string[] } }>().data.recoveryCodes };
}

/** The ticket of a sign-in answer that asked for the second step (and set no cookie). */
function ticketOf(res: { statusCode: number; body: string; json<T>(): T; headers: Record<string, unknown> }): string {
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(cookieOf(res), undefined, 'no session before the second factor');
  return res.json<{ data: { secondFactor: { ticket: string } } }>().data.secondFactor.ticket;
}

const secondStep = (payload: object) => h.request({ method: 'POST', url: '/session/second-factor', remoteAddress: nextAddress(), payload });

/** Asks for a reset link for `email` by mail and answers the token it carries. */
async function mailedResetToken(email: string): Promise<string> {
  assert.equal((await h.request({ method: 'POST', url: '/session/password-reset', remoteAddress: nextAddress(), payload: { email } })).statusCode, 202);
  await h.service.services.jobs.runOnce('mail');
  const mail = mailbox.received.filter((m) => m.to && !Array.isArray(m.to) && m.to.value[0]?.address === email).at(-1);
  assert.ok(mail, `a reset link was mailed to ${email}`);
  return tokenOf(setPasswordLink(mail));
}

describe('a password link', () => {
  test('of a person with an app sets the password but opens no session: the factor step does, and the app stays', async () => {
    const person = await withApp('reset.app@aff1.example');
    const reset = await h.request({ method: 'POST', url: '/session/password', payload: { token: await mailedResetToken(person.email), password: 'a new long password' } });
    const ticket = ticketOf(reset);
    assertError(await h.request(withSession({ method: 'GET', url: '/session' }, person.session)), 401, 'session_expired');
    const opened = await secondStep({ ticket, code: codeAt(person.secret) });
    assert.equal(opened.statusCode, 200, opened.body);
    const status = await h.request(withSession({ method: 'GET', url: '/session/second-factors' }, sessionFrom(opened)));
    assert.equal(status.json<{ data: { totp: { enabled: boolean } } }>().data.totp.enabled, true, 'a reset never removes a factor');
    assert.equal(ticketOf(await signIn(person.email, 'a new long password')).length > 0, true, 'the new password leads to the second step');
  });

  test("of an operator leads to the factor step, and the console refuses a session that did not pass it", async () => {
    const operator = await operatorSession(h, clock.now());
    clock.advance(30_000);
    const reset = await h.request({ method: 'POST', url: '/session/password', payload: { token: await mailedResetToken(operator.email), password: 'an operator password' } });
    ticketOf(reset);
    // A session opened by the password alone (a tool's way in): the console refuses it.
    const byPassword = (await h.service.services.users.signIn(operator.email, 'an operator password'))!;
    const headers = { cookie: `affnet_session=${byPassword.sessionToken}`, 'x-csrf-token': byPassword.csrfToken };
    assertError(await h.request({ method: 'GET', url: '/operator/audit', headers }), 401, 'second_factor_pending');
    assertError(await h.request({ method: 'POST', url: '/operator/affiliates/aff-1/view-as', headers, payload: { reason: 'support ticket 12' } }), 401, 'second_factor_pending');
    assertError(await h.request({ method: 'GET', url: '/session', headers }), 401, 'second_factor_pending');
  });

  test("an owner's link for a member with an app leads to the factor step too", async () => {
    await h.service.services.users.createWithPassword({ affiliateId: 'aff-2' }, 'owner@aff2.example', 'owner', PASSWORD);
    const owner = sessionFrom(await signIn('owner@aff2.example'));
    const member = await withApp('member.app@aff2.example', { affiliateId: 'aff-2' });
    const team = (await h.request(withSession({ method: 'GET', url: '/affiliate/team' }, owner))).json<{ data: Array<{ id: string; email: string }> }>().data;
    const id = team.find((u) => u.email === member.email)!.id;
    const link = (await h.request(withSession({ method: 'POST', url: `/affiliate/team/${id}/password-link` }, owner))).json<{ data: { link: string } }>().data.link;
    ticketOf(await h.request({ method: 'POST', url: '/session/password', payload: { token: tokenOf(link), password: 'the owner chose this' } }));
  });
});

describe('a session that did not pass the factor', () => {
  test('is refused on every route: opened before the app was set up, or by the password alone', async () => {
    await h.service.services.users.createWithPassword({ affiliateId: 'aff-1' }, 'two.browsers@aff1.example', 'member', PASSWORD);
    const phone = sessionFrom(await signIn('two.browsers@aff1.example'));
    const laptop = sessionFrom(await signIn('two.browsers@aff1.example'));
    const { secret } = (await h.request(withSession({ method: 'POST', url: '/session/totp' }, laptop))).json<{ data: { secret: string } }>().data;
    assert.equal((await h.request(withSession({ method: 'POST', url: '/session/totp/confirm', payload: { code: codeAt(secret) } }, laptop))).statusCode, 200);
    for (const request of [{ method: 'GET', url: '/affiliate/brands' }, { method: 'GET', url: '/session/second-factors' }, { method: 'GET', url: '/session/sessions' }] as const) {
      assertError(await h.request(withSession(request, phone)), 401, 'second_factor_pending');
      assert.equal((await h.request(withSession(request, laptop))).statusCode, 200, `${request.url} works in the session that set the app up`);
    }
    const byPassword = (await h.service.services.users.signIn('two.browsers@aff1.example', PASSWORD))!;
    assertError(await h.request({ method: 'GET', url: '/affiliate/brands', headers: { cookie: `affnet_session=${byPassword.sessionToken}` } }), 401, 'second_factor_pending');
  });
});

describe('a change that asks for a current factor', () => {
  test('turning the app off and new recovery codes: never the password; a code now, or one within 10 minutes', async () => {
    const person = await withApp('changes@aff1.example');
    clock.advance(11 * MINUTE);
    for (const url of ['/session/recovery-codes', '/session/totp']) {
      const method = url === '/session/totp' ? 'DELETE' : 'POST';
      assertError(await h.request(withSession({ method, url, payload: { password: PASSWORD } }, person.session)), 400, 'second_factor_needed');
      assertError(await h.request(withSession({ method, url, payload: {} }, person.session)), 400, 'second_factor_needed');
    }
    const confirmed = await h.request(withSession({ method: 'POST', url: '/session/second-factor/confirm', payload: { code: codeAt(person.secret) } }, person.session));
    assert.equal(confirmed.statusCode, 200, confirmed.body);
    assert.equal(confirmed.json<{ data: { confirmedUntil: string } }>().data.confirmedUntil, new Date(clock.now() + 10 * MINUTE).toISOString());
    clock.advance(9 * MINUTE);
    assert.equal((await h.request(withSession({ method: 'POST', url: '/session/recovery-codes', payload: {} }, person.session))).statusCode, 200, 'within 10 minutes of a code');
    clock.advance(2 * MINUTE);
    assertError(await h.request(withSession({ method: 'DELETE', url: '/session/totp', payload: {} }, person.session)), 400, 'second_factor_needed');
    assert.equal((await h.request(withSession({ method: 'DELETE', url: '/session/totp', payload: { code: codeAt(person.secret) } }, person.session))).statusCode, 204);
  });

  test('a recovery code signs in once but confirms nothing: not the app off, not a passkey, not payee details', async () => {
    const person = await withApp('recovering@aff1.example', { affiliateId: 'aff-1' });
    const opened = await secondStep({ ticket: ticketOf(await signIn(person.email)), recoveryCode: person.recoveryCodes[0] });
    assert.equal(opened.statusCode, 200, opened.body);
    const session = sessionFrom(opened);
    assert.equal((await h.request(withSession({ method: 'GET', url: '/affiliate/brands' }, session))).statusCode, 200, 'the sign-in itself works');
    assertError(await h.request(withSession({ method: 'DELETE', url: '/session/totp', payload: {} }, session)), 400, 'second_factor_needed');
    assertError(await h.request(withSession({ method: 'POST', url: '/session/passkeys/options' }, session)), 400, 'second_factor_needed');
    assertError(await h.request(withSession({ method: 'POST', url: '/session/second-factor/confirm', payload: { recoveryCode: person.recoveryCodes[1] } }, session)), 400, 'invalid_body');
    assertError(await h.request(withSession({ method: 'POST', url: '/session/second-factor', payload: { ticket: 'x'.repeat(43), recoveryCode: person.recoveryCodes[1] } }, session)), 401, 'invalid_ticket');
  });

  test('adding and removing a passkey: a person with a factor confirms first; one with none needs nothing', async () => {
    // Someone with no factor adds their first passkey with the session alone; the session then counts as having passed it.
    await h.service.services.users.createWithPassword({ affiliateId: 'aff-1' }, 'first.passkey@aff1.example', 'member', PASSWORD);
    const fresh = sessionFrom(await signIn('first.passkey@aff1.example'));
    let device = new SoftPasskey(PUBLIC_URL);
    const register = async (session: TestSession, name: string) => {
      const options = await h.request(withSession({ method: 'POST', url: '/session/passkeys/options' }, session));
      if (options.statusCode !== 200) return options;
      return h.request(withSession({ method: 'POST', url: '/session/passkeys', payload: { name, passkey: device.register(options.json<{ data: { challenge: string; rp: { id: string }; user: { id: string } } }>().data) } }, session));
    };
    assertError(await h.request(withSession({ method: 'POST', url: '/session/second-factor/confirm', payload: { code: '123456' } }, fresh)), 409, 'second_factor_missing');
    const first = await register(fresh, 'Phone');
    assert.equal(first.statusCode, 201, first.body);
    assert.equal((await h.request(withSession({ method: 'GET', url: '/affiliate/brands' }, fresh))).statusCode, 200, 'the session that added it passed it');

    // Someone with an app: ten minutes after their code, a passkey needs the factor again.
    const person = await withApp('adding.passkey@aff1.example');
    device = new SoftPasskey(PUBLIC_URL);
    clock.advance(11 * MINUTE);
    assertError(await register(person.session, 'Laptop'), 400, 'second_factor_needed');
    assert.equal((await h.request(withSession({ method: 'POST', url: '/session/second-factor/confirm', payload: { code: codeAt(person.secret) } }, person.session))).statusCode, 200);
    const added = await register(person.session, 'Laptop');
    assert.equal(added.statusCode, 201, added.body);
    const passkeyId = added.json<{ data: { id: string } }>().data.id;
    clock.advance(11 * MINUTE);
    assertError(await h.request(withSession({ method: 'DELETE', url: `/session/passkeys/${passkeyId}` }, person.session)), 400, 'second_factor_needed');
    // The passkey itself confirms: options, then its signature.
    const options = await h.request(withSession({ method: 'POST', url: '/session/second-factor/confirm/passkey-options' }, person.session));
    assert.equal(options.statusCode, 200, options.body);
    const byPasskey = await h.request(withSession({ method: 'POST', url: '/session/second-factor/confirm', payload: { passkey: device.assert(options.json<{ data: { challenge: string } }>().data) } }, person.session));
    assert.equal(byPasskey.statusCode, 200, byPasskey.body);
    assert.equal((await h.request(withSession({ method: 'DELETE', url: `/session/passkeys/${passkeyId}` }, person.session))).statusCode, 204);
  });

  test('a passkey alone signs in as a session that passed; ten minutes later setting up an app asks for the passkey again', async () => {
    await h.service.services.users.createWithPassword({ affiliateId: 'aff-1' }, 'passkey.only@aff1.example', 'member', PASSWORD);
    const first = sessionFrom(await signIn('passkey.only@aff1.example'));
    const device = new SoftPasskey(PUBLIC_URL);
    const options = await h.request(withSession({ method: 'POST', url: '/session/passkeys/options' }, first));
    const added = await h.request(withSession({ method: 'POST', url: '/session/passkeys', payload: { name: 'Phone', passkey: device.register(options.json<{ data: { challenge: string; rp: { id: string }; user: { id: string } } }>().data) } }, first));
    assert.equal(added.statusCode, 201, added.body);
    clock.advance(11 * MINUTE);

    const challenge = await h.request({ method: 'POST', url: '/session/passkey/options', remoteAddress: nextAddress() });
    const opened = await h.request({ method: 'POST', url: '/session/passkey', remoteAddress: nextAddress(), payload: { passkey: device.assert(challenge.json<{ data: { challenge: string } }>().data) } });
    assert.equal(opened.statusCode, 200, opened.body);
    const session = sessionFrom(opened);
    assert.equal((await h.request(withSession({ method: 'POST', url: '/session/totp' }, session))).statusCode, 200, 'a passkey sign-in is a current factor');
    clock.advance(11 * MINUTE);
    assertError(await h.request(withSession({ method: 'POST', url: '/session/totp' }, session)), 400, 'second_factor_needed');
    assertError(await h.request(withSession({ method: 'POST', url: '/session/totp' }, first)), 400, 'second_factor_needed');
  });
});
