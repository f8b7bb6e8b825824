// Joining without an operator at a shell: an affiliate signs up and a brand applies through the
// public routes, confirm their address with the link that arrives at a real SMTP server, and the
// operator approves or declines. Links are single-use and expire; an address in use answers like a
// new one; throwaway addresses, robots and floods are refused; a brand stays out of affiliates'
// sight until its owner launches it.
import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ParsedMail } from 'mailparser';
import { startHarness, type Harness } from '../helpers/harness.js';
import { cookieOf, PASSWORD, signedUp, tokenOf, withSession } from '../helpers/sessions.js';
import { pageLink, setPasswordLink, startMailbox, type Mailbox } from '../helpers/smtp.js';
import { ManualClock } from '../../src/lib/clock.js';
import { CLI } from '../../src/domain/audit/audit-entry.js';

const HOUR = 3_600_000;
const clock = new ManualClock();
let mailbox: Mailbox;
let h: Harness;
let client = 0;

before(async () => {
  mailbox = await startMailbox();
  h = await startHarness({ SMTP_URL: mailbox.url, NETWORK_NAME: 'Rede Teste', TERMS_VERSION: '2026-11' }, { clock });
  await signedUp(h, 'taken@aff1.example', { affiliateId: 'aff-1' }, 'owner');
});
after(async () => {
  await h?.close();
  await mailbox?.stop();
});
beforeEach(async () => {
  // Each test starts from an empty mailbox, on a client address of its own (the limits count per address).
  clock.advance(2 * HOUR);
  await send();
  mailbox.received.length = 0;
  client++;
});

const send = () => h.service.services.jobs.runOnce('mail');
const from = () => `198.51.100.${client}`;
const applications = () => h.service.services.applications;
const arrivedTo = (address: string): ParsedMail[] => mailbox.received.filter((mail) => mail.to && !Array.isArray(mail.to) && mail.to.value[0]?.address === address);

const affiliate = (email: string, extra: Record<string, unknown> = {}) => ({ name: 'Ana Lima', email, password: PASSWORD, country: 'BR', language: 'pt-BR', website: 'https://www.instagram.com/ana.lima', acceptTerms: true, ...extra });
const brand = (email: string, extra: Record<string, unknown> = {}) => ({
  company: 'Loja Azul',
  name: 'Bruno Reis',
  email,
  country: 'BR',
  language: 'en',
  website: 'https://lojaazul.example',
  taxId: '11.222.333/0001-81',
  currency: 'BRL',
  expectedMonthlyOrders: 300,
  acceptTerms: true,
  ...extra,
});
type Answer = { json<T>(): T };
const dataOf = <T = Record<string, unknown>>(res: Answer): T => res.json<{ data: T }>().data;
const errorOf = (res: Answer) => res.json<{ code: string; message: string }>();
const post = (url: string, payload: object) => h.request({ method: 'POST', url, payload, remoteAddress: from() });

/** Signs up (or applies) and returns the verification link that arrived. */
async function joined(url: '/signup' | '/brand-applications', payload: { email: string }): Promise<string> {
  const res = await post(url, payload);
  assert.equal(res.statusCode, 202, res.body);
  await send();
  const [mail] = arrivedTo(payload.email);
  assert.ok(mail, `a verification mail reaches ${payload.email}`);
  return pageLink(mail, 'verify');
}
const verify = (link: string) => post('/signup/verify', { token: tokenOf(link) });
const pendingId = async (email: string) => (await applications().list({ status: 'pending' })).find((a) => a.email === email)!.id;

test('an affiliate signs up, confirms the address once, is approved by the operator, and signs in with its own password to its first channel', async () => {
  const link = await joined('/signup', affiliate('ana@blog.example'));
  const [verifyMail] = arrivedTo('ana@blog.example');
  assert.match(verifyMail!.subject ?? '', /Confirme seu endereço na Rede Teste/, 'written in the language chosen at sign-up');
  const queued = await h.service.database.db.selectFrom('mail_messages').selectAll().where('to_address', '=', 'ana@blog.example').execute();
  assert.ok(queued.every((row) => !row.params?.includes(tokenOf(link))), 'the queue never held the token');

  const confirmed = await verify(link);
  assert.equal(confirmed.statusCode, 200, confirmed.body);
  assert.deepEqual(dataOf(confirmed), { kind: 'affiliate', status: 'pending' });
  const again = await verify(link);
  assert.equal(again.statusCode, 400);
  assert.equal(errorOf(again).code, 'invalid_link');
  await send();
  assert.match(arrivedTo('ana@blog.example')[1]?.subject ?? '', /Recebemos seu pedido/);

  const signIn = () => h.request({ method: 'POST', url: '/session', payload: { email: 'ana@blog.example', password: PASSWORD } });
  assert.equal((await signIn()).statusCode, 401, 'no account before the decision');

  const id = await pendingId('ana@blog.example');
  const pending = await applications().get(id);
  assert.deepEqual(pending.terms, { version: '2026-11', acceptedAt: pending.terms.acceptedAt, address: from() });
  const approved = await applications().approve(id, CLI);
  assert.equal(approved.status, 'approved');
  assert.equal(approved.affiliateId, 'ana-lima');
  await send();
  const welcome = arrivedTo('ana@blog.example')[2]!;
  assert.match(welcome.subject ?? '', /Boas-vindas à Rede Teste/);
  assert.match(welcome.text ?? '', /http:\/\/go\.test\/app\//);

  const session = await signIn();
  assert.equal(session.statusCode, 200, session.body);
  assert.deepEqual({ ...dataOf<{ user: object }>(session).user, id: undefined, createdAt: undefined }, { id: undefined, createdAt: undefined, email: 'ana@blog.example', role: 'owner', affiliateId: 'ana-lima', active: true, language: 'pt-BR' });
  const channels = await h.request(withSession({ method: 'GET', url: '/affiliate/channels' }, { cookie: cookieOf(session)! }));
  assert.equal(channels.statusCode, 200, channels.body);
  assert.deepEqual(
    dataOf<Array<{ availableChannel: { id: string }; name: string }>>(channels).map((c) => [c.availableChannel.id, c.name]),
    [['instagram', 'instagram.com/ana.lima']],
  );
  await assert.rejects(applications().approve(id, CLI), /decided already/);
});

test('a second affiliate of the same name gets an id of its own', async () => {
  await verify(await joined('/signup', affiliate('ana@other.example', { website: 'https://ana-other.example' })));
  const approved = await applications().approve(await pendingId('ana@other.example'), CLI);
  assert.equal(approved.affiliateId, 'ana-lima-2');
});

test('a verification link expires after 24 hours, and a new sign-up makes a new one', async () => {
  const link = await joined('/signup', affiliate('late@blog.example'));
  clock.advance(25 * HOUR);
  const expired = await verify(link);
  assert.equal(expired.statusCode, 400);
  assert.equal(errorOf(expired).code, 'invalid_link');
  mailbox.received.length = 0;
  const fresh = await joined('/signup', affiliate('late@blog.example'));
  assert.equal((await verify(fresh)).statusCode, 200);
  assert.equal((await verify(link)).statusCode, 400, 'the old link stays dead');
});

test('a sign-up with an address that has an account answers like a new one, and the owner is told instead', async () => {
  const fresh = await post('/signup', affiliate('nobody.yet@blog.example'));
  const taken = await post('/signup', affiliate('Taken@aff1.example'));
  assert.equal(taken.statusCode, fresh.statusCode);
  assert.equal(taken.body, fresh.body);
  await send();
  const [notice] = arrivedTo('taken@aff1.example');
  assert.match(notice!.subject ?? '', /Você já tem uma conta/, 'in the language the sign-up chose, the member having none yet');
  assert.doesNotMatch(notice!.text ?? '', /token=/, 'no link that does anything');
  assert.equal((await applications().list({ status: 'unverified' })).filter((a) => a.email === 'taken@aff1.example').length, 0, 'no application made');
});

test('the operator declines with a reason the person reads', async () => {
  await verify(await joined('/signup', affiliate('spam@blog.example')));
  const declined = await applications().decline(await pendingId('spam@blog.example'), 'Your site has no content yet', CLI);
  assert.equal(declined.status, 'declined');
  await send();
  // Sent with the one saying it was received, in either order.
  const mail = arrivedTo('spam@blog.example').find((m) => m.subject === 'Seu pedido para a Rede Teste');
  assert.match(mail?.text ?? '', /O motivo: Your site has no content yet/);
  await assert.rejects(applications().decline(declined.id, 'again', CLI), /decided already/);
});

test('bad sign-ups are refused with what to fix', async () => {
  const cases: Array<[Record<string, unknown>, string]> = [
    [affiliate('a@mailinator.com'), 'disposable_email'],
    [affiliate('not-an-address'), 'invalid_email'],
    [affiliate('bot@blog.example', { nickname: 'x' }), 'invalid_request'],
    [affiliate('c@blog.example', { country: 'XX' }), 'invalid_country'],
    [affiliate('d@blog.example', { website: 'ftp://files.example' }), 'invalid_website'],
    [affiliate('e@blog.example', { password: 'short' }), 'invalid_body'],
    [affiliate('f@blog.example', { acceptTerms: false }), 'invalid_body'],
    [affiliate('g@blog.example', { language: 'fr' }), 'invalid_body'],
  ];
  for (const [payload, code] of cases) {
    const res = await post('/signup', payload);
    assert.equal(res.statusCode, 400, `${JSON.stringify(payload)}: ${res.body}`);
    assert.equal(errorOf(res).code, code, res.body);
  }
  const unknownField = await post('/signup', affiliate('h@blog.example', { role: 'owner' }));
  assert.equal(unknownField.statusCode, 400);
});

test('sign-ups are limited per address given and per client address', async () => {
  for (let i = 0; i < 3; i++) assert.equal((await h.request({ method: 'POST', url: '/signup', payload: affiliate('flood@blog.example'), remoteAddress: `203.0.113.${i}` })).statusCode, 202);
  const fourth = await h.request({ method: 'POST', url: '/signup', payload: affiliate('flood@blog.example'), remoteAddress: '203.0.113.9' });
  assert.equal(fourth.statusCode, 429);
  assert.ok(Number(fourth.headers['retry-after']) > 0);
  const statuses = [];
  for (let i = 0; i < 11; i++) statuses.push((await post('/signup', affiliate(`many${i}@blog.example`))).statusCode);
  assert.deepEqual(statuses, [...Array<number>(10).fill(202), 429]);
});

test('a brand applies, is approved, its owner sets a password from the mail, and launches it once set up', async () => {
  const badTaxId = await post('/brand-applications', brand('bruno@lojaazul.example', { taxId: '11.222.333/0001-82' }));
  assert.equal(badTaxId.statusCode, 400);
  assert.equal(errorOf(badTaxId).code, 'invalid_tax_id');

  const confirmed = await verify(await joined('/brand-applications', brand('bruno@lojaazul.example')));
  assert.deepEqual(dataOf(confirmed), { kind: 'brand', status: 'pending' });
  const application = await applications().get(await pendingId('bruno@lojaazul.example'));
  assert.equal(application.taxId, '11222333000181');
  const approved = await applications().approve(application.id, CLI);
  await send();
  // Sent with the one saying it was received, in either order.
  const welcome = arrivedTo('bruno@lojaazul.example').find((m) => m.subject === 'Welcome to Rede Teste');
  assert.ok(welcome, 'the welcome mail arrives');
  const set = await h.request({ method: 'POST', url: '/session/password', payload: { token: tokenOf(setPasswordLink(welcome)), password: PASSWORD } });
  assert.equal(set.statusCode, 200, set.body);
  const owner = { cookie: cookieOf(set)!, csrf: dataOf<{ csrfToken: string }>(set).csrfToken };
  assert.equal(dataOf<{ user: { brandId: string } }>(set).user.brandId, approved.brandId);
  const as = (method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, payload?: object) => h.request(withSession({ method, url, ...(payload && { payload }) }, owner));

  const hidden = await h.get(`/affiliate/brands/${approved.brandId}`, h.world.keys.aff1);
  assert.equal(hidden.statusCode, 404, 'affiliates do not see a brand before its launch');
  assert.deepEqual(dataOf(await as('GET', '/advertiser/brand/launch')), { launched: false, steps: { commission: false, catalogue: false, tracking: false } });
  const early = await as('POST', '/advertiser/brand/launch');
  assert.equal(early.statusCode, 409);
  assert.match(errorOf(early).message, /set a commission.*add a product or a campaign/);

  assert.equal((await as('PATCH', '/advertiser/brand', { commission: { transfer: 'cps', value: 8 } })).statusCode, 200);
  const product = await as('PUT', '/advertiser/products/shirt-1', { name: 'Camisa azul', url: 'https://lojaazul.example/camisa', available: true, price: 8990 });
  assert.equal(product.statusCode, 201, product.body);
  const launched = await as('POST', '/advertiser/brand/launch');
  assert.equal(launched.statusCode, 200, launched.body);
  // Tracking not yet installed is shown, and does not hold the launch.
  assert.deepEqual(dataOf(launched), { launched: true, steps: { commission: true, catalogue: true, tracking: false } });
  const stated = await as('PATCH', '/advertiser/brand', { reportsOrdersFromServer: true });
  assert.equal(stated.statusCode, 200, stated.body);
  assert.equal(dataOf<{ reportsOrdersFromServer: boolean }>(stated).reportsOrdersFromServer, true);
  assert.deepEqual(dataOf(await as('GET', '/advertiser/brand/launch')), { launched: true, steps: { commission: true, catalogue: true, tracking: true } });
  const seen = await h.get(`/affiliate/brands/${approved.brandId}`, h.world.keys.aff1);
  assert.equal(seen.statusCode, 200, seen.body);
  assert.equal(dataOf<{ name: string }>(seen).name, 'Loja Azul');
});

test('the forms learn the terms version, countries and currencies', async () => {
  const res = await h.request({ method: 'GET', url: '/signup/options' });
  assert.equal(res.statusCode, 200);
  const { termsVersion, countries, currencies } = dataOf<{ termsVersion: string; countries: string[]; currencies: string[] }>(res);
  assert.equal(termsVersion, '2026-11');
  assert.ok(countries.includes('BR') && countries.includes('PT') && !countries.includes('UK'));
  assert.ok(currencies.includes('BRL') && currencies.includes('EUR'));
});

test('with SIGNUP_AUTO_APPROVE an affiliate is approved as soon as the address is confirmed', async () => {
  const auto = await startHarness({ SMTP_URL: mailbox.url, SIGNUP_AUTO_APPROVE: 'true' });
  try {
    const res = await auto.request({ method: 'POST', url: '/signup', payload: affiliate('quick@blog.example', { language: 'en' }) });
    assert.equal(res.statusCode, 202);
    await auto.service.services.jobs.runOnce('mail');
    const link = pageLink(arrivedTo('quick@blog.example')[0]!, 'verify');
    const confirmed = await auto.request({ method: 'POST', url: '/signup/verify', payload: { token: tokenOf(link) } });
    assert.deepEqual(dataOf(confirmed), { kind: 'affiliate', status: 'approved' });
    await auto.service.services.jobs.runOnce('mail');
    assert.deepEqual(
      arrivedTo('quick@blog.example').map((m) => m.subject),
      ['Confirm your address for affnet', 'Welcome to affnet'],
    );
    const session = await auto.request({ method: 'POST', url: '/session', payload: { email: 'quick@blog.example', password: PASSWORD } });
    assert.equal(session.statusCode, 200);
  } finally {
    await auto.close();
  }
});

test('a sign-up never confirmed is deleted after APPLICATION_RETENTION_DAYS; one waiting for a decision stays', async () => {
  await post('/signup', affiliate('forgot.to.click@blog.example'));
  await verify(await joined('/signup', affiliate('clicked@blog.example')));
  const addresses = async () => (await applications().list({}, 10_000)).map((a) => a.email);
  assert.ok((await addresses()).includes('forgot.to.click@blog.example'));
  clock.advance(6 * 24 * HOUR);
  await h.service.services.jobs.runOnce('scheduled');
  assert.ok((await addresses()).includes('forgot.to.click@blog.example'), 'kept for 7 days');
  clock.advance(2 * 24 * HOUR);
  await h.service.services.jobs.runOnce('scheduled');
  const left = await addresses();
  assert.ok(!left.includes('forgot.to.click@blog.example'), 'gone after 7 days');
  assert.ok(left.includes('clicked@blog.example'), 'a confirmed one stays');
});
