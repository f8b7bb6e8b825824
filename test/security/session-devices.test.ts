// What a person sees of their sessions and devices: the list of their open sessions (device,
// country, address while it is kept, last use, which one is this), signing out one or every other
// one, and never anyone else's; a sign-in from a browser new to them is mailed (not their first
// sign-in); a stranger guessing at their account is held back while they, at their own browser,
// are not; addresses go after SESSION_ADDRESS_DAYS.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { InjectOptions } from 'light-my-request';
import { startHarness, type Harness } from '../helpers/harness.js';
import { assertError } from '../helpers/api.js';
import { cookieOf, deviceOf, PASSWORD, signedUp, withSession, type TestSession } from '../helpers/sessions.js';
import { startMailbox, type Mailbox } from '../helpers/smtp.js';
import { ManualClock } from '../../src/lib/clock.js';

const DAY = 86_400_000;
const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const SAFARI_IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
/** A public address the bundled IP database places in Brazil. */
const BRAZIL = '200.147.67.142';

const clock = new ManualClock(Date.now());
let mailbox: Mailbox;
let h: Harness;

before(async () => {
  mailbox = await startMailbox();
  // Sessions last up to 30 days unused here, so one can outlive its address (kept 2 days).
  h = await startHarness({ SMTP_URL: mailbox.url, NETWORK_NAME: 'Rede Teste', SESSION_IDLE_MINUTES: String(30 * 24 * 60), SESSION_ADDRESS_DAYS: '2' }, { clock });
});
after(async () => {
  await h?.close();
  await mailbox?.stop();
});

interface Listed {
  id: string;
  device: string;
  country: string;
  address?: string;
  createdAt: string;
  lastSeenAt: string;
  current: boolean;
}

/** Signs in from a browser: its address, user agent and cookies (a device cookie makes it a known browser). */
async function signIn(email: string, from: { address: string; userAgent?: string; device?: string }): Promise<TestSession> {
  const res = await h.request({
    method: 'POST',
    url: '/session',
    remoteAddress: from.address,
    headers: { ...(from.userAgent && { 'user-agent': from.userAgent }), ...(from.device && { cookie: from.device }) },
    payload: { email, password: PASSWORD },
  });
  assert.equal(res.statusCode, 200, res.body);
  return { cookie: cookieOf(res)!, csrf: res.json<{ data: { csrfToken: string } }>().data.csrfToken, device: deviceOf(res)!, setCookie: '' };
}

const list = async (session: TestSession): Promise<Listed[]> => {
  const res = await h.request(withSession({ method: 'GET', url: '/session/sessions' }, session));
  assert.equal(res.statusCode, 200, res.body);
  return res.json<{ data: Listed[] }>().data;
};
/** A request from the session's browser: its session cookie and its device cookie (the browser sends both below /session). */
const as = (session: Pick<TestSession, 'cookie' | 'device'> & { csrf?: string }, options: InjectOptions) => h.request(withSession(options, { ...session, cookie: `${session.cookie}; ${session.device}` }));
const send = () => h.service.services.jobs.runOnce('mail');
/** The sign-ins from a new device told to this address (not the invitation every test person got first). */
const arrivedTo = (address: string) =>
  mailbox.received.filter((mail) => mail.to && !Array.isArray(mail.to) && mail.to.value[0]?.address === address && /^(New sign-in|Novo acesso)/.test(mail.subject ?? ''));

describe('sessions people see', () => {
  test('the list shows each open session: device, country, address, last use, which one is this; never a token', async () => {
    const first = await signedUp(h, 'lia@example.com');
    clock.advance(5 * 60_000);
    const phone = await signIn('lia@example.com', { address: BRAZIL, userAgent: SAFARI_IPHONE });
    const sessions = await list(first);
    assert.equal(sessions.length, 2);
    const [newest, oldest] = sessions;
    assert.deepEqual({ ...newest, id: undefined, createdAt: undefined, lastSeenAt: undefined }, { id: undefined, device: 'Safari on iOS (mobile)', country: 'BR', address: BRAZIL, current: false, createdAt: undefined, lastSeenAt: undefined });
    assert.match(newest!.id, /^ses_[0-9A-Za-z]{16}$/);
    assert.equal(oldest!.current, true, 'the session asking is marked');
    const body = JSON.stringify(sessions);
    for (const secret of [first.cookie, phone.cookie, first.device, phone.device]) assert.ok(!body.includes(secret.split('=')[1]!), 'no token or device token is shown');
    // From the phone, the phone is this one.
    assert.deepEqual((await list(phone)).map((s) => s.current), [true, false]);
  });

  test('sign out one session: it stops working at once; the others go on; it needs the CSRF token', async () => {
    const laptop = await signedUp(h, 'mia@example.com');
    const phone = await signIn('mia@example.com', { address: '192.0.2.20', userAgent: SAFARI_IPHONE });
    const phoneId = (await list(phone)).find((s) => s.current)!.id;
    assertError(await as({ cookie: laptop.cookie, device: laptop.device }, { method: 'DELETE', url: `/session/sessions/${phoneId}` }), 403, 'csrf_failed');
    const out = await as(laptop, { method: 'DELETE', url: `/session/sessions/${phoneId}` });
    assert.equal(out.statusCode, 204, out.body);
    assertError(await as(phone, { method: 'GET', url: '/session' }), 401, 'session_expired');
    assert.deepEqual((await list(laptop)).map((s) => s.current), [true]);
    assertError(await as(laptop, { method: 'DELETE', url: `/session/sessions/${phoneId}` }), 404, 'session_not_found');
  });

  test("nobody sees or ends another person's session: its id answers 404 and the session goes on", async () => {
    const noa = await signedUp(h, 'noa@example.com');
    const other = await signedUp(h, 'otto@example.com', { affiliateId: 'aff-2' });
    const teammate = await signedUp(h, 'nina@example.com');
    const noaId = (await list(noa))[0]!.id;
    for (const stranger of [other, teammate]) {
      assert.ok(!(await list(stranger)).some((s) => s.id === noaId), 'not in anyone else’s list');
      assertError(await as(stranger, { method: 'DELETE', url: `/session/sessions/${noaId}` }), 404, 'session_not_found');
    }
    assert.equal((await as(noa, { method: 'GET', url: '/session' })).statusCode, 200, 'still signed in');
  });

  test('sign out everywhere else: every other session ends, this one goes on, and the devices signed out are new again', async () => {
    const here = await signedUp(h, 'olga@example.com');
    const elsewhere = [await signIn('olga@example.com', { address: '192.0.2.30', userAgent: FIREFOX_LINUX }), await signIn('olga@example.com', { address: '192.0.2.31', userAgent: SAFARI_IPHONE })];
    assertError(await as({ cookie: here.cookie, device: here.device }, { method: 'POST', url: '/session/sessions/sign-out-others' }), 403, 'csrf_failed');
    const res = await as(here, { method: 'POST', url: '/session/sessions/sign-out-others' });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { data: { signedOut: 2 } });
    for (const session of elsewhere) assertError(await as(session, { method: 'GET', url: '/session' }), 401, 'session_expired');
    assert.deepEqual((await list(here)).map((s) => s.current), [true]);
    await send();
    const before = arrivedTo('olga@example.com').length;
    await signIn('olga@example.com', { address: '192.0.2.30', userAgent: FIREFOX_LINUX, device: elsewhere[0]!.device });
    await signIn('olga@example.com', { address: '192.0.2.1', device: here.device });
    await send();
    assert.deepEqual(
      arrivedTo('olga@example.com').slice(before).map((mail) => mail.text?.match(/Device: (.*)/)?.[1]),
      ['Firefox on Linux'],
      'the browser signed out from elsewhere is announced again; the one that stayed is not',
    );
  });

  test('a client address is kept SESSION_ADDRESS_DAYS, then the scheduled task blanks it; the rest of the session stays', async () => {
    await signedUp(h, 'pia@example.com');
    const old = await signIn('pia@example.com', { address: '192.0.2.40', userAgent: FIREFOX_LINUX });
    clock.advance(DAY);
    assert.equal((await list(old)).find((s) => s.current)!.address, '192.0.2.40', 'a day later it is there');
    clock.advance(1.5 * DAY);
    const fresh = await signIn('pia@example.com', { address: '192.0.2.41', userAgent: SAFARI_IPHONE });
    await h.service.services.jobs.runOnce('scheduled');
    const seen = await list(fresh);
    const oldOne = seen.find((s) => s.device === 'Firefox on Linux')!;
    assert.equal(oldOne.address, undefined, 'two and a half days after its sign-in, its address is gone');
    assert.equal(oldOne.country, 'ZZ', 'its country stays (a documentation address has none)');
    assert.equal(seen.find((s) => s.current)!.address, '192.0.2.41', 'a new session keeps its own');
  });
});

test('the known-device cookie: random, HttpOnly, SameSite=Lax, sent only below /session, kept 400 days; the same browser keeps its token', async () => {
  const session = await signedUp(h, 'vera@example.com');
  const res = await h.request({ method: 'POST', url: '/session', remoteAddress: '192.0.2.80', headers: { cookie: session.device }, payload: { email: 'vera@example.com', password: PASSWORD } });
  assert.equal(res.statusCode, 200, res.body);
  const header = [res.headers['set-cookie']].flat().find((c) => String(c).startsWith('affnet_device='))!;
  assert.match(header, /^affnet_device=[0-9A-Za-z]{43};/);
  for (const attribute of ['Max-Age=34560000', 'Path=/session', 'HttpOnly', 'SameSite=Lax']) assert.ok(header.split('; ').includes(attribute), `${attribute} in ${header}`);
  assert.ok(!/Secure/.test(header), 'not Secure while PUBLIC_URL is http');
  assert.equal(deviceOf(res), session.device, 'a known browser keeps its token');
  const row = await h.service.database.db.selectFrom('sessions').select('device_hash').where('device_hash', 'is not', null).executeTakeFirstOrThrow();
  assert.ok(!session.device.includes(row.device_hash!), 'only a hash is stored');
});

describe('a sign-in from a new device is mailed', () => {
  test('not the first sign-in (setting the password), not a known browser; a new browser is, in the person’s language', async () => {
    const first = await signedUp(h, 'rui@example.com');
    await signIn('rui@example.com', { address: '192.0.2.50', device: first.device, userAgent: FIREFOX_LINUX });
    await send();
    assert.equal(arrivedTo('rui@example.com').length, 0, 'nothing for the first sign-in nor for the same browser again');
    await signIn('rui@example.com', { address: BRAZIL, userAgent: SAFARI_IPHONE });
    await send();
    const [mail] = arrivedTo('rui@example.com');
    assert.equal(mail?.subject, 'New sign-in to your Rede Teste account');
    assert.match(mail.text!, /Device: Safari on iOS \(phone\)/);
    assert.match(mail.text!, /Country: Brazil/);
    assert.match(mail.text!, /When: \w+ \d+, \d{4} at \d+:\d\d (AM|PM) UTC/);
    assert.match(mail.text!, /change your password.*sign out your other sessions.*http:\/\/go\.test\/app\/security/s);
    assert.match(String(mail.html), /Safari on iOS \(phone\)/);

    const user = (await h.service.database.db.selectFrom('users').select('id').where('email', '=', 'rui@example.com').executeTakeFirstOrThrow()).id;
    await h.service.services.users.setLanguage(user, 'pt-BR');
    await signIn('rui@example.com', { address: BRAZIL, userAgent: FIREFOX_LINUX });
    await send();
    const pt = arrivedTo('rui@example.com')[1]!;
    assert.equal(pt.subject, 'Novo acesso à sua conta na Rede Teste');
    assert.match(pt.text!, /Dispositivo: Firefox no Linux\nPaís: Brasil/);
  });

  test('the first sign-in of a person who never signed in is not mailed either', async () => {
    await h.service.services.users.createWithPassword({ affiliateId: 'aff-1' }, 'sam@example.com', 'member', PASSWORD);
    await signIn('sam@example.com', { address: '192.0.2.60', userAgent: FIREFOX_LINUX });
    await send();
    assert.equal(arrivedTo('sam@example.com').length, 0);
  });
});

describe('delays that never shut the owner out', () => {
  test('a stranger hammering an account is held back; its owner at their known browser signs in at once, and is counted apart', async () => {
    const owner = await signedUp(h, 'tina@example.com');
    const other = await signedUp(h, 'ugo@example.com');
    const guess = (address: string, password: string) => h.request({ method: 'POST', url: '/session', remoteAddress: address, payload: { email: 'tina@example.com', password } });
    for (let i = 0; i < 8; i++) {
      const res = await guess(`198.51.100.${i + 1}`, `guess ${i}`);
      assert.ok([401, 429].includes(res.statusCode), res.body);
    }
    const held = assertError(await guess('198.51.100.99', PASSWORD), 429, 'too_many_sign_ins');
    assert.match(held.message, /try again in \d+ s/);
    // Another person's known browser is no way around the hold on this account.
    const sideways = await h.request({ method: 'POST', url: '/session', remoteAddress: '198.51.100.50', headers: { cookie: other.device }, payload: { email: 'tina@example.com', password: PASSWORD } });
    assertError(sideways, 429, 'too_many_sign_ins');
    // The owner, at the browser they signed up with: at once, right password or a typo.
    const typo = await h.request({ method: 'POST', url: '/session', remoteAddress: '192.0.2.70', headers: { cookie: owner.device }, payload: { email: 'tina@example.com', password: 'a typo here' } });
    assertError(typo, 401, 'invalid_credentials');
    const ok = await h.request({ method: 'POST', url: '/session', remoteAddress: '192.0.2.70', headers: { cookie: owner.device }, payload: { email: 'tina@example.com', password: PASSWORD } });
    assert.equal(ok.statusCode, 200, ok.body);
  });
});
