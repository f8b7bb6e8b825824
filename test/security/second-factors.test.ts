// Second factors: a person sets up an authenticator app (codes computed here, as the app would),
// after which a right password answers a ticket rather than a session, and the ticket with a
// current code or a recovery code opens it. Wrong codes, used codes, used recovery codes, used and
// expired tickets are refused; nobody reaches another person's factors; an owner can require a
// second factor of the team.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, PUBLIC_URL, type Harness } from '../helpers/harness.js';
import { assertError } from '../helpers/api.js';
import { ManualClock } from '../../src/lib/clock.js';
import { cookieOf, deviceOf, PASSWORD, type TestSession, withSession } from '../helpers/sessions.js';
import { recentlyVerifiedSecondFactor } from '../../src/domain/access/second-factors-service.js';
import { SoftPasskey } from '../helpers/passkeys.js';
import { operatorSession, totpCode } from '../helpers/operators.js';

// In the middle of a 30-second step, so a code made "now" stays current while a test runs.
const clock = new ManualClock(Math.floor(Date.now() / 30_000) * 30_000 + 15_000);
let h: Harness;

before(async () => {
  h = await startHarness({}, { clock });
});
after(async () => {
  await h.close();
});

// Sign-ins are limited per client address (30 in 15 minutes): each comes from an address of its own.
let addresses = 0;
const nextAddress = () => `198.51.100.${(addresses++ % 250) + 1}`;

/** A person with a password, signed in (no second factor yet). */
async function signedUp(_h: Harness, email: string, owner: { affiliateId?: string; brandId?: string } = { affiliateId: 'aff-1' }, role: 'owner' | 'member' = 'member'): Promise<TestSession> {
  await h.service.services.users.createWithPassword(owner, email, role, PASSWORD);
  const res = await signIn(email);
  assert.equal(res.statusCode, 200, res.body);
  return { cookie: cookieOf(res)!, csrf: res.json<{ data: { csrfToken: string } }>().data.csrfToken, device: deviceOf(res)!, setCookie: '' };
}

const codeAt = (secret: string, ms = clock.now()) => totpCode(secret, ms);
const nextStep = () => clock.advance(30_000);

interface Enrolled {
  session: TestSession;
  secret: string;
  recoveryCodes: string[];
}

/** A person of aff-1 with an authenticator app set up. */
async function enrolled(email: string, owner: { affiliateId?: string; brandId?: string } = { affiliateId: 'aff-1' }, role: 'owner' | 'member' = 'member'): Promise<Enrolled> {
  const session = await signedUp(h, email, owner, role);
  const start = await h.request(withSession({ method: 'POST', url: '/session/totp' }, session));
  assert.equal(start.statusCode, 200, start.body);
  const { secret, uri } = start.json<{ data: { secret: string; uri: string } }>().data;
  assert.match(uri, new RegExp(`^otpauth://totp/.*${encodeURIComponent(email).replace(/\./g, '\\.')}.*secret=${secret}`));
  const confirmed = await h.request(withSession({ method: 'POST', url: '/session/totp/confirm', payload: { code: codeAt(secret) } }, session));
  assert.equal(confirmed.statusCode, 200, confirmed.body);
  const { recoveryCodes } = confirmed.json<{ data: { recoveryCodes: string[] } }>().data;
  nextStep(); // the confirming code is used up
  return { session, secret, recoveryCodes };
}

const signIn = (email: string, password = PASSWORD) => h.request({ method: 'POST', url: '/session', remoteAddress: nextAddress(), payload: { email, password } });

async function ticketFor(email: string): Promise<string> {
  const res = await signIn(email);
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(cookieOf(res), undefined, 'no session before the second factor');
  const { secondFactor } = res.json<{ data: { secondFactor: { required: boolean; methods: string[]; ticket: string; expiresAt: string } } }>().data;
  assert.equal(secondFactor.required, true);
  assert.deepEqual(secondFactor.methods, ['totp', 'recovery_code']);
  assert.equal(Date.parse(secondFactor.expiresAt) - clock.now(), 5 * 60_000);
  return secondFactor.ticket;
}

// Each from an address of its own: wrong codes count per address too, and this file makes many on purpose.
const secondStep = (payload: object) => h.request({ method: 'POST', url: '/session/second-factor', remoteAddress: nextAddress(), payload });

describe('an authenticator app', () => {
  test('set up with a current code; recovery codes shown once; the secret is not in the database in clear', async () => {
    const { session, secret, recoveryCodes } = await enrolled('tia@example.com');
    assert.equal(recoveryCodes.length, 10);
    assert.equal(new Set(recoveryCodes).size, 10);
    for (const code of recoveryCodes) assert.match(code, /^[a-z0-9]{5}-[a-z0-9]{5}$/);
    const status = await h.request(withSession({ method: 'GET', url: '/session/second-factors' }, session));
    assert.deepEqual(status.json<{ data: unknown }>().data, { totp: { enabled: true }, recoveryCodesLeft: 10, passkeys: [], teamRequires: false, enrolmentRequired: false });
    const rows = await h.service.database.db.selectFrom('user_totp').select('secret').execute();
    assert.ok(rows.length > 0);
    for (const row of rows) assert.ok(!row.secret.includes(secret), 'encrypted');
    const codes = await h.service.database.db.selectFrom('user_recovery_codes').select('code_hash').execute();
    for (const code of recoveryCodes) assert.ok(!codes.some((c) => c.code_hash.includes(code.replace('-', ''))), 'hashed');
  });

  test('an enrolment counts only once confirmed, and a wrong code does not confirm it', async () => {
    const session = await signedUp(h, 'ugo@example.com');
    const { secret } = (await h.request(withSession({ method: 'POST', url: '/session/totp' }, session))).json<{ data: { secret: string } }>().data;
    assertError(await h.request(withSession({ method: 'POST', url: '/session/totp/confirm', payload: { code: codeAt(secret, clock.now() + 5 * 60_000) } }, session)), 400, 'invalid_code');
    const res = await signIn('ugo@example.com');
    assert.ok(cookieOf(res), 'signs in with the password alone while unconfirmed');
    assertError(await h.request(withSession({ method: 'POST', url: '/session/totp' }, { cookie: session.cookie })), 403, 'csrf_failed');
  });

  test('sign-in needs the code: a wrong one is refused, the right one opens the session, and it works once', async () => {
    const { secret } = await enrolled('vera@example.com');
    const ticket = await ticketFor('vera@example.com');
    assertError(await secondStep({ ticket, code: codeAt(secret, clock.now() + 10 * 60_000) }), 401, 'invalid_code');
    const code = codeAt(secret);
    const ok = await secondStep({ ticket, code });
    assert.equal(ok.statusCode, 200, ok.body);
    const cookie = cookieOf(ok)!;
    const me = await h.request({ method: 'GET', url: '/session', headers: { cookie } });
    assert.equal(me.json<{ data: { user: { email: string } } }>().data.user.email, 'vera@example.com');
    const verifiedAt = await h.service.services.secondFactors.sessionVerifiedAt(cookie.split('=')[1]!);
    assert.ok(recentlyVerifiedSecondFactor(verifiedAt, clock.now()), 'the session passed a second factor just now');
    assert.ok(!recentlyVerifiedSecondFactor(verifiedAt, clock.now() + 60 * 60_000), 'not an hour later');

    assertError(await secondStep({ ticket, code: codeAt(secret) }), 401, 'invalid_ticket');
    const again = await ticketFor('vera@example.com');
    assertError(await secondStep({ ticket: again, code }), 401, 'invalid_code');
    const previous = codeAt(secret, clock.now() - 30_000);
    assertError(await secondStep({ ticket: again, code: previous }), 401, 'invalid_code');
    nextStep();
    const next = await secondStep({ ticket: again, code: codeAt(secret) });
    assert.equal(next.statusCode, 200, next.body);
  });

  test('a code of the step before or after is accepted (a clock a little off); two steps away is not', async () => {
    const { secret } = await enrolled('walt@example.com');
    assert.equal((await secondStep({ ticket: await ticketFor('walt@example.com'), code: codeAt(secret, clock.now() + 30_000) })).statusCode, 200);
    nextStep();
    nextStep();
    assertError(await secondStep({ ticket: await ticketFor('walt@example.com'), code: codeAt(secret, clock.now() + 60_000) }), 401, 'invalid_code');
  });

  test('a ticket stops working after 5 wrong codes, and after five minutes', async () => {
    const { secret } = await enrolled('xena@example.com');
    const ticket = await ticketFor('xena@example.com');
    for (let i = 0; i < 5; i++) assertError(await secondStep({ ticket, code: '000000' === codeAt(secret) ? '111111' : '000000' }), 401, 'invalid_code');
    assertError(await secondStep({ ticket, code: codeAt(secret) }), 401, 'invalid_ticket');

    const slow = await ticketFor('xena@example.com');
    clock.advance(5 * 60_000 + 1_000);
    assertError(await secondStep({ ticket: slow, code: codeAt(secret) }), 401, 'invalid_ticket');
    assertError(await secondStep({ ticket: 'made-up', code: codeAt(secret) }), 401, 'invalid_ticket');
  });

  test('exactly one proof is sent with the ticket', async () => {
    const { secret, recoveryCodes } = await enrolled('yuri@example.com');
    const ticket = await ticketFor('yuri@example.com');
    assertError(await secondStep({ ticket }), 400, 'invalid_second_factor');
    assertError(await secondStep({ ticket, code: codeAt(secret), recoveryCode: recoveryCodes[0] }), 400, 'invalid_second_factor');
  });

  test('turning it off needs a current factor, never the password; then the password alone signs in', async () => {
    const { session, secret } = await enrolled('zeno@example.com');
    // The enrolment confirmed the app a moment ago: ten minutes later that no longer counts.
    clock.advance(11 * 60_000);
    assertError(await h.request(withSession({ method: 'DELETE', url: '/session/totp', payload: {} }, session)), 400, 'second_factor_needed');
    assertError(await h.request(withSession({ method: 'DELETE', url: '/session/totp', payload: { password: PASSWORD } }, session)), 400, 'second_factor_needed');
    assertError(await h.request(withSession({ method: 'DELETE', url: '/session/totp', payload: { code: codeAt(secret, clock.now() - 60_000) } }, session)), 400, 'invalid_code');
    const off = await h.request(withSession({ method: 'DELETE', url: '/session/totp', payload: { code: codeAt(secret) } }, session));
    assert.equal(off.statusCode, 204, off.body);
    assert.ok(cookieOf(await signIn('zeno@example.com')));
  });
});

describe('right after enrolment', () => {
  test('the code of any step after the enrolment\'s signs in, the clock moved 10 s at a time from early, mid and late in that step; no step\'s code works twice', async () => {
    for (const [index, into] of [1_000, 15_000, 29_000].entries()) {
      // Enrol `into` ms after a step began, with the code the app shows then.
      clock.advance(30_000 - (clock.now() % 30_000) + into);
      const email = `steps${index}@example.com`;
      const session = await signedUp(h, email);
      const { secret } = (await h.request(withSession({ method: 'POST', url: '/session/totp' }, session))).json<{ data: { secret: string } }>().data;
      assert.equal((await h.request(withSession({ method: 'POST', url: '/session/totp/confirm', payload: { code: codeAt(secret) } }, session))).statusCode, 200);
      let lastStep = Math.floor(clock.now() / 30_000);
      for (let seconds = 0; seconds <= 60; seconds += 10) {
        const step = Math.floor(clock.now() / 30_000);
        const res = await secondStep({ ticket: await ticketFor(email), code: codeAt(secret) });
        assert.equal(res.statusCode, step > lastStep ? 200 : 401, `enrolled ${into / 1000} s into a step, signing in ${seconds} s later: ${res.body}`);
        if (res.statusCode === 200) lastStep = step;
        clock.advance(10_000);
      }
    }
  });
});

describe('right after enrolment, step by step', () => {
  /** The clock in the middle of a step of its own, and that step's number. */
  const midStep = (): number => {
    clock.advance(30_000 - (clock.now() % 30_000) + 15_000);
    return Math.floor(clock.now() / 30_000);
  };
  const codeOfStep = (secret: string, step: number) => codeAt(secret, step * 30_000 + 1_000);
  const signInWith = async (email: string, code: string) => (await secondStep({ ticket: await ticketFor(email), code })).statusCode;

  test('an operator enrolled with step S’s code signs in 30 s later with step S+1’s; that code again is refused, and so is S’s', async () => {
    const enrolledAt = midStep();
    const operator = await operatorSession(h, clock.now());
    assert.equal(await signInWith(operator.email, codeOfStep(operator.secret, enrolledAt)), 401, 'the enrolment’s own code, in its step, is used up');
    nextStep();
    assert.equal(await signInWith(operator.email, codeOfStep(operator.secret, enrolledAt + 1)), 200, 'the next step’s code signs in');
    assert.equal(await signInWith(operator.email, codeOfStep(operator.secret, enrolledAt + 1)), 401, 'the same code again, in the same step');
    assert.equal(await signInWith(operator.email, codeOfStep(operator.secret, enrolledAt)), 401, 'the step before, within the drift allowed, is older than one used');
    nextStep();
    assert.equal(await signInWith(operator.email, codeOfStep(operator.secret, enrolledAt + 1)), 401, 'a step later, that code is still used up');
    assert.equal(await signInWith(operator.email, codeOfStep(operator.secret, enrolledAt + 2)), 200, 'the code of the step now signs in');
  });

  test('a phone a little ahead: still in the enrolment’s step, the next step’s code signs in; in that next step it is refused', async () => {
    const enrolledAt = midStep();
    const operator = await operatorSession(h, clock.now());
    assert.equal(await signInWith(operator.email, codeOfStep(operator.secret, enrolledAt + 1)), 200);
    nextStep();
    assert.equal(await signInWith(operator.email, codeOfStep(operator.secret, enrolledAt + 1)), 401, 'used in the step before: the same code is not taken twice');
    nextStep();
    assert.equal(await signInWith(operator.email, codeOfStep(operator.secret, enrolledAt + 2)), 200);
  });

  test('a phone a little behind: enrolled with the step before’s code, the enrolment’s own step’s code signs in', async () => {
    const now = midStep();
    const session = await signedUp(h, 'behind@example.com');
    const { secret } = (await h.request(withSession({ method: 'POST', url: '/session/totp' }, session))).json<{ data: { secret: string } }>().data;
    assert.equal((await h.request(withSession({ method: 'POST', url: '/session/totp/confirm', payload: { code: codeOfStep(secret, now - 1) } }, session))).statusCode, 200);
    assert.equal(await signInWith('behind@example.com', codeOfStep(secret, now - 1)), 401, 'the confirming code is used up');
    assert.equal(await signInWith('behind@example.com', codeOfStep(secret, now)), 200);
    assert.equal(await signInWith('behind@example.com', codeOfStep(secret, now)), 401);
  });
});

describe('recovery codes', () => {
  test('each works once in place of a code (any case, with or without its dash); a second use is refused', async () => {
    const { session, recoveryCodes } = await enrolled('abel@example.com');
    const [first, second] = recoveryCodes as [string, string];
    const ok = await secondStep({ ticket: await ticketFor('abel@example.com'), recoveryCode: first });
    assert.equal(ok.statusCode, 200, ok.body);
    assertError(await secondStep({ ticket: await ticketFor('abel@example.com'), recoveryCode: first }), 401, 'invalid_code');
    const upper = await secondStep({ ticket: await ticketFor('abel@example.com'), recoveryCode: second.toUpperCase().replace('-', '') });
    assert.equal(upper.statusCode, 200, upper.body);
    const status = await h.request(withSession({ method: 'GET', url: '/session/second-factors' }, session));
    assert.equal(status.json<{ data: { recoveryCodesLeft: number } }>().data.recoveryCodesLeft, 8);
  });

  test('new codes replace the old ones, with a current code', async () => {
    const { session, recoveryCodes, secret } = await enrolled('bia@example.com');
    const res = await h.request(withSession({ method: 'POST', url: '/session/recovery-codes', payload: { code: codeAt(secret) } }, session));
    assert.equal(res.statusCode, 200, res.body);
    const fresh = res.json<{ data: { recoveryCodes: string[] } }>().data.recoveryCodes;
    assert.equal(fresh.length, 10);
    assertError(await secondStep({ ticket: await ticketFor('bia@example.com'), recoveryCode: recoveryCodes[0] }), 401, 'invalid_code');
    assert.equal((await secondStep({ ticket: await ticketFor('bia@example.com'), recoveryCode: fresh[0] })).statusCode, 200);
  });

  test("one person's codes do not work for another", async () => {
    const a = await enrolled('caio@example.com');
    await enrolled('dina@example.com');
    assertError(await secondStep({ ticket: await ticketFor('dina@example.com'), recoveryCode: a.recoveryCodes[0] }), 401, 'invalid_code');
    assertError(await secondStep({ ticket: await ticketFor('dina@example.com'), code: codeAt(a.secret) }), 401, 'invalid_code');
  });
});

describe("another person's factors", () => {
  test('are out of reach: every route acts on the signed-in person, a passkey of someone else is 404', async () => {
    const other = await enrolled('ema@example.com');
    const me = await signedUp(h, 'fred@example.com');
    await h.service.database.db
      .insertInto('user_passkeys')
      .values({ id: 'cred-of-ema', user_id: (await h.service.services.users.team({ affiliateId: 'aff-1' })).find((u) => u.email === 'ema@example.com')!.id, name: 'Ema', public_key: 'AA', counter: 0, transports: '[]', created_at: clock.iso(), last_used_at: null })
      .execute();
    assertError(await h.request(withSession({ method: 'PATCH', url: '/session/passkeys/cred-of-ema', payload: { name: 'mine now' } }, me)), 404, 'passkey_not_found');
    assertError(await h.request(withSession({ method: 'DELETE', url: '/session/passkeys/cred-of-ema' }, me)), 404, 'passkey_not_found');
    const mine = await h.request(withSession({ method: 'GET', url: '/session/second-factors' }, me));
    assert.deepEqual(mine.json<{ data: { totp: unknown; passkeys: unknown[] } }>().data.passkeys, []);
    // Their code does not turn off (or confirm) anything of mine.
    assertError(await h.request(withSession({ method: 'DELETE', url: '/session/totp', payload: { code: codeAt(other.secret) } }, me)), 409, 'totp_not_enabled');
    const theirs = await h.request(withSession({ method: 'GET', url: '/session/second-factors' }, other.session));
    assert.equal(theirs.json<{ data: { passkeys: Array<{ name: string }> } }>().data.passkeys[0]?.name, 'Ema');
    assertError(await h.request({ method: 'GET', url: '/session/second-factors' }), 401, 'unauthorized');
  });
});

describe('a team that requires a second factor', () => {
  test('an owner needs one first; then a member without one signs in but reaches only the session routes until enrolled', async () => {
    const owner = await signedUp(h, 'gaia@example.com', { affiliateId: 'aff-2' }, 'owner');
    const put = (session: TestSession, required: boolean) => h.request(withSession({ method: 'PUT', url: '/affiliate/team/second-factor-required', payload: { required } }, session, { origin: PUBLIC_URL }));
    assertError(await put(owner, true), 409, 'second_factor_missing');
    const enrolledOwner = await enrolled('hugo@example.com', { affiliateId: 'aff-2' }, 'owner');
    const on = await put(enrolledOwner.session, true);
    assert.equal(on.statusCode, 200, on.body);
    assert.deepEqual(on.json<{ data: unknown }>().data, { required: true });

    const member = await signedUp(h, 'iris@example.com', { affiliateId: 'aff-2' });
    const blocked = assertError(await h.request(withSession({ method: 'GET', url: '/affiliate/brands' }, member)), 403, 'second_factor_required');
    assert.match(blocked.message, /Security page/);
    assertError(await h.request(withSession({ method: 'GET', url: '/affiliate/brands' }, owner)), 403, 'second_factor_required');
    const status = await h.request(withSession({ method: 'GET', url: '/session/second-factors' }, member));
    assert.deepEqual(status.json<{ data: { teamRequires: boolean; enrolmentRequired: boolean } }>().data.enrolmentRequired, true);
    assert.equal((await h.request(withSession({ method: 'GET', url: '/affiliate/brands' }, enrolledOwner.session))).statusCode, 200);

    const { secret } = (await h.request(withSession({ method: 'POST', url: '/session/totp' }, member))).json<{ data: { secret: string } }>().data;
    assert.equal((await h.request(withSession({ method: 'POST', url: '/session/totp/confirm', payload: { code: codeAt(secret) } }, member))).statusCode, 200);
    assert.equal((await h.request(withSession({ method: 'GET', url: '/affiliate/brands' }, member))).statusCode, 200, 'enrolled: the portal opens');

    const off = await put(enrolledOwner.session, false);
    assert.equal(off.statusCode, 200, off.body);
    assert.equal((await h.request(withSession({ method: 'GET', url: '/affiliate/brands' }, owner))).statusCode, 200);
    assertError(await h.request(withSession({ method: 'PUT', url: '/affiliate/team/second-factor-required', payload: { required: true } }, member)), 403, 'forbidden');
  });
});

describe('passkeys', () => {
  const post = (session: TestSession, url: string, payload?: object) => h.request(withSession({ method: 'POST', url, ...(payload && { payload }) }, session));

  async function registered(session: TestSession, name?: string): Promise<SoftPasskey> {
    const options = (await post(session, '/session/passkeys/options')).json<{ data: { challenge: string; rp: { id: string }; user: { id: string }; authenticatorSelection: { residentKey: string } } }>().data;
    assert.equal(options.rp.id, 'go.test', 'the RP ID is PUBLIC_URL’s host');
    assert.equal(options.authenticatorSelection.residentKey, 'required', 'a discoverable credential');
    const passkey = new SoftPasskey(PUBLIC_URL);
    const res = await post(session, '/session/passkeys', { ...(name && { name }), passkey: passkey.register(options) });
    assert.equal(res.statusCode, 201, res.body);
    return passkey;
  }

  test('registered, listed, renamed; then a password sign-in asks for it, and it completes the sign-in', async () => {
    const session = await signedUp(h, 'joana@example.com');
    const passkey = await registered(session, 'Laptop');
    const list = (await h.request(withSession({ method: 'GET', url: '/session/second-factors' }, session))).json<{ data: { passkeys: Array<{ id: string; name: string }> } }>().data.passkeys;
    assert.deepEqual(list.map((p) => [p.id, p.name]), [[passkey.id, 'Laptop']]);
    const renamed = await h.request(withSession({ method: 'PATCH', url: `/session/passkeys/${passkey.id}`, payload: { name: 'Work laptop' } }, session));
    assert.equal(renamed.json<{ data: { name: string } }>().data.name, 'Work laptop');

    const res = await signIn('joana@example.com');
    const { ticket, methods } = res.json<{ data: { secondFactor: { ticket: string; methods: string[] } } }>().data.secondFactor;
    assert.deepEqual(methods, ['passkey']);
    const options = (await h.request({ method: 'POST', url: '/session/second-factor/passkey-options', payload: { ticket } })).json<{ data: { challenge: string; rpId: string; allowCredentials: Array<{ id: string }> } }>().data;
    assert.deepEqual(options.allowCredentials.map((c) => c.id), [passkey.id]);
    const assertion = passkey.assert(options);
    const ok = await secondStep({ ticket, passkey: assertion });
    assert.equal(ok.statusCode, 200, ok.body);
    assert.ok(cookieOf(ok));
    // The same signature again: the challenge is used up.
    const again = await signIn('joana@example.com');
    assertError(await secondStep({ ticket: again.json<{ data: { secondFactor: { ticket: string } } }>().data.secondFactor.ticket, passkey: assertion }), 401, 'invalid_code');
  });

  test('signs in alone, without a password; a challenge works once; another origin is refused', async () => {
    const session = await signedUp(h, 'kiko@example.com');
    const passkey = await registered(session);
    const options = (await h.request({ method: 'POST', url: '/session/passkey/options', remoteAddress: nextAddress() })).json<{ data: { challenge: string; rpId: string; allowCredentials?: unknown[] } }>().data;
    assert.deepEqual(options.allowCredentials ?? [], [], 'discoverable: no list of credentials');
    const assertion = passkey.assert(options);
    const ok = await h.request({ method: 'POST', url: '/session/passkey', payload: { passkey: assertion } });
    assert.equal(ok.statusCode, 200, ok.body);
    const me = await h.request({ method: 'GET', url: '/session', headers: { cookie: cookieOf(ok)! } });
    assert.equal(me.json<{ data: { user: { email: string } } }>().data.user.email, 'kiko@example.com');
    assert.ok(await h.service.services.secondFactors.recentlyVerified(cookieOf(ok)!.split('=')[1]!));
    assertError(await h.request({ method: 'POST', url: '/session/passkey', payload: { passkey: assertion } }), 401, 'invalid_passkey');

    const other = (await h.request({ method: 'POST', url: '/session/passkey/options', remoteAddress: nextAddress() })).json<{ data: { challenge: string; rpId: string } }>().data;
    assertError(await h.request({ method: 'POST', url: '/session/passkey', payload: { passkey: passkey.assert(other, 'https://evil.example') } }), 401, 'invalid_passkey');
  });

  test("someone else's passkey does not complete my sign-in; a removed passkey no longer signs in", async () => {
    const mine = await signedUp(h, 'lara@example.com');
    await registered(mine);
    const theirs = await signedUp(h, 'milo@example.com');
    const theirPasskey = await registered(theirs);
    const { ticket } = (await signIn('lara@example.com')).json<{ data: { secondFactor: { ticket: string } } }>().data.secondFactor;
    const options = (await h.request({ method: 'POST', url: '/session/second-factor/passkey-options', payload: { ticket } })).json<{ data: { challenge: string; rpId: string } }>().data;
    assertError(await secondStep({ ticket, passkey: theirPasskey.assert(options) }), 401, 'invalid_code');

    assertError(await h.request(withSession({ method: 'DELETE', url: `/session/passkeys/${theirPasskey.id}` }, mine)), 404, 'passkey_not_found');
    const removed = await h.request(withSession({ method: 'DELETE', url: `/session/passkeys/${theirPasskey.id}` }, theirs));
    assert.equal(removed.statusCode, 204, removed.body);
    const alone = (await h.request({ method: 'POST', url: '/session/passkey/options', remoteAddress: nextAddress() })).json<{ data: { challenge: string; rpId: string } }>().data;
    assertError(await h.request({ method: 'POST', url: '/session/passkey', payload: { passkey: theirPasskey.assert(alone) } }), 401, 'invalid_passkey');
    const password = await signIn('milo@example.com');
    assert.ok(cookieOf(password), 'no factor left: the password alone signs in');
  });
});
