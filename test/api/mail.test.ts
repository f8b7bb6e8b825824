// Mail that really arrives: a real SMTP server in this process (with credentials), messages queued
// with what caused them and sent by the job runner's mail queue. An invitation and a new password
// link arrive with a link that works, made when the message is sent (the queue never holds a live
// token); while the SMTP server is away nothing is lost and each message arrives once; after 24
// hours a message is given up; two instances send each message once; without SMTP_URL each message
// is an .eml file in the outbox folder.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { startHarness, type Harness } from '../helpers/harness.js';
import { cookieOf, PASSWORD, signedUp, tokenOf, withSession, type TestSession } from '../helpers/sessions.js';
import { setPasswordLink, startMailbox, type Mailbox } from '../helpers/smtp.js';
import { ManualClock } from '../../src/lib/clock.js';
import { JobRunner } from '../../src/domain/jobs/job-runner.js';
import { MailQueue } from '../../src/domain/mail/mail-queue.js';
import { MailRepository } from '../../src/storage/repositories/mail.js';
import { smtpMailTransport } from '../../src/outbound/mail-transport.js';

const HOUR = 3_600_000;
const clock = new ManualClock();
let mailbox: Mailbox;
let h: Harness;
let owner: TestSession;

before(async () => {
  mailbox = await startMailbox();
  h = await startHarness({ SMTP_URL: mailbox.url, MAIL_POLL_MS: '0', MAIL_FROM: 'Rede Teste <no-reply@go.test>', NETWORK_NAME: 'Rede Teste' }, { clock });
  owner = await signedUp(h, 'owner@aff1.example', { affiliateId: 'aff-1' }, 'owner');
});
after(async () => {
  await h?.close();
  await mailbox?.stop();
});

const send = () => h.service.services.jobs.runOnce('mail');
const as = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) => h.request(withSession({ method, url, ...(payload && { payload }) }, owner));
const invite = async (email: string) => {
  const res = await as('POST', '/affiliate/team', { email });
  assert.equal(res.statusCode, 201, res.body);
  return res.json<{ data: { user: { id: string }; link: string } }>().data;
};
const rowsTo = (address: string) => h.service.database.db.selectFrom('mail_messages').selectAll().where('to_address', '=', address).execute();
const arrivedTo = (address: string) => mailbox.received.filter((mail) => mail.to && !Array.isArray(mail.to) && mail.to.value[0]?.address === address);

beforeEach(async () => {
  // Whatever earlier steps queued goes out first, so each test counts its own messages; the
  // owner signs in again, as the clock moved past their session.
  clock.advance(2 * HOUR);
  await send();
  const res = await h.request({ method: 'POST', url: '/session', headers: { cookie: owner.device }, payload: { email: 'owner@aff1.example', password: PASSWORD } });
  assert.equal(res.statusCode, 200, res.body);
  owner = { ...owner, cookie: cookieOf(res)!, csrf: res.json<{ data: { csrfToken: string } }>().data.csrfToken };
});

test('an owner adds a person: the invitation arrives in English with a link of its own that works once; the queue kept no token', async () => {
  const { link: handedOver } = await invite('new.person@aff1.example');
  const [queued] = await rowsTo('new.person@aff1.example');
  assert.equal(queued?.status, 'pending');
  assert.doesNotMatch(JSON.stringify(queued), new RegExp(tokenOf(handedOver)), 'the row does not hold the link handed over');
  assert.doesNotMatch(JSON.stringify(queued), /token|set-password/, 'nor any link');

  assert.equal(await send(), 1);
  const [mail] = arrivedTo('new.person@aff1.example');
  assert.ok(mail, 'the invitation arrived');
  assert.equal(mail.from?.text, '"Rede Teste" <no-reply@go.test>');
  assert.equal(mail.subject, 'You are invited to Affiliate One on Rede Teste');
  assert.equal(mail.messageId, `<${queued.id}@go.test>`);
  const link = setPasswordLink(mail);
  assert.notEqual(tokenOf(link), tokenOf(handedOver), 'the mailed link is its own');
  assert.match(String(mail.html), new RegExp(`href="${link.replace(/[?]/g, '\\?')}"`), 'the HTML has the same link');

  const signedIn = await h.request({ method: 'POST', url: '/session/password', payload: { token: tokenOf(link), password: PASSWORD } });
  assert.equal(signedIn.statusCode, 200, signedIn.body);
  const again = await h.request({ method: 'POST', url: '/session/password', payload: { token: tokenOf(link), password: PASSWORD } });
  assert.equal(again.statusCode, 400, 'a link works once');
  const [sent] = await rowsTo('new.person@aff1.example');
  assert.deepEqual([sent?.status, sent?.params, sent?.attempts], ['sent', null, 1], 'what it said is dropped once sent');
});

test('a new password link asked for a member is mailed to that member; a person removed before sending gets nothing', async () => {
  const { user } = await invite('member.two@aff1.example');
  await send();
  const linked = await as('POST', `/affiliate/team/${user.id}/password-link`);
  assert.equal(linked.statusCode, 201, linked.body);
  assert.equal(await send(), 1);
  const mails = arrivedTo('member.two@aff1.example');
  assert.equal(mails.length, 2);
  assert.equal(mails[1]!.subject, 'Set a new password for Rede Teste');
  assert.match(mails[1]!.text ?? '', /member\.two@aff1\.example/);

  await invite('gone.soon@aff1.example');
  const gone = (await rowsTo('gone.soon@aff1.example'))[0]!;
  const team = (await as('GET', '/affiliate/team')).json<{ data: Array<{ id: string; email: string }> }>().data;
  assert.equal((await as('DELETE', `/affiliate/team/${team.find((u) => u.email === 'gone.soon@aff1.example')!.id}`)).statusCode, 204);
  await send();
  assert.deepEqual(arrivedTo('gone.soon@aff1.example'), []);
  assert.equal((await rowsTo('gone.soon@aff1.example'))[0]?.status, 'canceled', `row ${gone.id}`);
});

test('while the SMTP server is away nothing is lost: each message arrives once when it is back', async () => {
  await mailbox.stop();
  const people = ['away.one@aff1.example', 'away.two@aff1.example', 'away.three@aff1.example'];
  for (const email of people) await invite(email);
  assert.equal(await send(), 3);
  for (const email of people) {
    const [row] = await rowsTo(email);
    assert.equal(row?.status, 'pending');
    assert.equal(row?.attempts, 1);
    assert.match(row?.last_error ?? '', /ECONNREFUSED|connect/i);
  }
  assert.equal(await send(), 0, 'not due again at once: they wait');
  clock.advance(10 * 60_000);
  assert.equal(await send(), 3, 'tried again a few minutes later');
  await mailbox.start();
  clock.advance(HOUR);
  assert.equal(await send(), 3);
  clock.advance(2 * HOUR);
  assert.equal(await send(), 0, 'nothing left');
  for (const email of people) {
    assert.equal(arrivedTo(email).length, 1, `${email} got one message`);
    assert.equal((await rowsTo(email))[0]?.status, 'sent');
  }
});

test('a message that cannot be sent for 24 hours is given up, keeping nothing of what it said', async () => {
  await mailbox.stop();
  try {
    await invite('never.reached@aff1.example');
    await send();
    clock.advance(12 * HOUR);
    await send();
    assert.equal((await rowsTo('never.reached@aff1.example'))[0]?.status, 'pending', 'still tried at 12 hours');
    clock.advance(12 * HOUR);
    await send();
    const [row] = await rowsTo('never.reached@aff1.example');
    assert.deepEqual([row?.status, row?.params], ['failed', null]);
  } finally {
    await mailbox.start();
  }
  clock.advance(HOUR);
  await send();
  assert.deepEqual(arrivedTo('never.reached@aff1.example'), []);
});

test('two instances sending from one queue send each message once', async () => {
  const people = Array.from({ length: 6 }, (_, i) => `pair.${i}@aff1.example`);
  for (const email of people) await invite(email);
  const settings = { from: h.config.mailFrom, network: h.config.networkName, publicUrl: h.config.publicUrl };
  const transport = smtpMailTransport(mailbox.url);
  const other = new JobRunner(clock, { instanceId: 'other', onError: () => {} }).add(
    new MailQueue(new MailRepository(h.service.database), transport, (user) => h.service.services.users.issueLink(user), settings),
    0,
  );
  try {
    const [a, b] = await Promise.all([send(), other.runOnce('mail')]);
    assert.equal(a + b, 6);
  } finally {
    transport.close();
  }
  const arrived = people.flatMap(arrivedTo);
  assert.equal(arrived.length, 6);
  assert.equal(new Set(arrived.map((mail) => mail.messageId)).size, 6);
});

test('"forgot the password": a known address is mailed a link that sets a new password; an unknown one gets the same answer and nothing is sent', async () => {
  const { user } = await invite('forgetful@aff1.example');
  await send();
  const ask = (email: string) => h.request({ method: 'POST', url: '/session/password-reset', payload: { email } });
  const known = await ask('Forgetful@aff1.example ');
  const unknown = await ask('nobody.here@aff1.example');
  assert.equal(known.statusCode, 202, known.body);
  assert.equal(unknown.statusCode, 202);
  assert.equal(known.body, unknown.body, 'the same answer either way');
  assert.equal((await rowsTo('nobody.here@aff1.example')).length, 1, 'the same work either way: a message queued');
  assert.equal(await send(), 2);
  assert.deepEqual(arrivedTo('nobody.here@aff1.example'), [], 'nothing goes to an address without an account');
  assert.deepEqual((await rowsTo('nobody.here@aff1.example')).map((row) => [row.status, row.params]), [['canceled', null]]);
  const mail = arrivedTo('forgetful@aff1.example').at(-1)!;
  assert.equal(mail.subject, 'Set a new password for Rede Teste');
  const res = await h.request({ method: 'POST', url: '/session/password', payload: { token: tokenOf(setPasswordLink(mail)), password: 'a brand new password' } });
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(res.json<{ data: { user: { id: string } } }>().data.user.id, user.id);
  const signIn = await h.request({ method: 'POST', url: '/session', payload: { email: 'forgetful@aff1.example', password: 'a brand new password' } });
  assert.equal(signIn.statusCode, 200);
});

test('a mailed reset link works once, and for an hour only', async () => {
  const { link: first } = await invite('careful@aff1.example');
  const set = await h.request({ method: 'POST', url: '/session/password', payload: { token: tokenOf(first), password: 'a first long password' } });
  assert.equal(set.statusCode, 200, set.body);
  await send();
  const ask = async () => {
    assert.equal((await h.request({ method: 'POST', url: '/session/password-reset', payload: { email: 'careful@aff1.example' } })).statusCode, 202);
    await send();
    return tokenOf(setPasswordLink(arrivedTo('careful@aff1.example').at(-1)!));
  };
  const setWith = (token: string, password: string) => h.request({ method: 'POST', url: '/session/password', payload: { token, password } });
  const late = await ask();
  clock.advance(HOUR + 60_000);
  const expired = await setWith(late, 'a second long password');
  assert.equal(expired.statusCode, 400, expired.body);
  assert.equal(expired.json<{ code: string }>().code, 'invalid_link');
  const fresh = await ask();
  assert.equal((await setWith(fresh, 'a second long password')).statusCode, 200);
  const again = await setWith(fresh, 'a third long password');
  assert.equal(again.statusCode, 400, 'a link works once');
  assert.equal(again.json<{ code: string }>().code, 'invalid_link');
});

test('"forgot the password" is limited to 3 links an hour per address asked for, saying when to try again', async () => {
  const ask = (email: string) => h.request({ method: 'POST', url: '/session/password-reset', payload: { email } });
  for (let i = 0; i < 3; i++) assert.equal((await ask('limited@aff1.example')).statusCode, 202);
  const refused = await ask('LIMITED@aff1.example');
  assert.equal(refused.statusCode, 429);
  assert.equal(refused.json<{ code: string }>().code, 'too_many_password_resets');
  assert.ok(Number(refused.headers['retry-after']) > 0);
  assert.equal((await ask('someone.else@aff1.example')).statusCode, 202, 'another address is still served');
  const bad = await h.request({ method: 'POST', url: '/session/password-reset', payload: { email: '' } });
  assert.equal(bad.statusCode, 400);
});

test("mail is written in the person's language: PATCH /session sets it; an invitation goes in the inviting owner's", async () => {
  const change = (language: string) => h.request(withSession({ method: 'PATCH', url: '/session', payload: { language } }, owner));
  const set = await change('pt-BR');
  assert.equal(set.statusCode, 200, set.body);
  assert.equal(set.json<{ data: { user: { language: string } } }>().data.user.language, 'pt-BR');
  assert.equal((await as('GET', '/session')).json<{ data: { user: { language: string } } }>().data.user.language, 'pt-BR');
  assert.equal((await change('fr')).statusCode, 400, 'only the languages of the portal');
  assert.equal((await h.request({ method: 'PATCH', url: '/session', payload: { language: 'en' }, headers: { cookie: owner.cookie } })).statusCode, 403, 'the CSRF token is required');

  await invite('convidada@aff1.example');
  await h.request({ method: 'POST', url: '/session/password-reset', payload: { email: 'owner@aff1.example' } });
  await send();
  assert.equal(arrivedTo('convidada@aff1.example')[0]?.subject, 'Você foi convidado para Affiliate One na Rede Teste');
  assert.equal(arrivedTo('owner@aff1.example').at(-1)?.subject, 'Defina uma nova senha na Rede Teste');
  await change('en');
});

test('messages over are deleted after MAIL_RETENTION_DAYS with their addresses; one still waiting is kept', async () => {
  await mailbox.stop();
  try {
    await invite('still.waiting@aff1.example');
    clock.advance(31 * 24 * HOUR);
    const deleted = await h.service.services.retention.mail.prune();
    assert.ok(deleted > 10, `the messages of the earlier tests went (${deleted})`);
    const left = await h.service.database.db.selectFrom('mail_messages').select(['to_address', 'status']).execute();
    assert.deepEqual(left, [{ to_address: 'still.waiting@aff1.example', status: 'pending' }]);
  } finally {
    await mailbox.start();
  }
});

describe('without SMTP_URL', () => {
  let outbox: string;
  let local: Harness;
  before(async () => {
    outbox = await mkdtemp(join(tmpdir(), 'affnet-outbox-'));
    local = await startHarness({ SMTP_URL: '', MAIL_OUTBOX_DIR: outbox, MAIL_POLL_MS: '0' });
  });
  after(async () => {
    await local?.close();
    await rm(outbox, { recursive: true, force: true });
  });

  test('each message is an .eml file in the outbox folder, readable by the service alone, with a link that works', async () => {
    await local.service.services.users.create({ affiliateId: 'aff-2' }, 'someone@aff2.example', 'owner');
    assert.equal(await local.service.services.jobs.runOnce('mail'), 1);
    const files = (await readdir(outbox)).filter((name) => name.endsWith('.eml'));
    assert.equal(files.length, 1);
    assert.equal((await stat(join(outbox, files[0]!))).mode & 0o777, 0o600);
    const mail = await simpleParser(await readFile(join(outbox, files[0]!)));
    assert.equal(mail.subject, 'You are invited to Affiliate Two on affnet');
    assert.equal(mail.from?.text, '"affnet" <no-reply@go.test>');
    const res = await local.request({ method: 'POST', url: '/session/password', payload: { token: tokenOf(setPasswordLink(mail)), password: PASSWORD } });
    assert.equal(res.statusCode, 200, res.body);
  });
});
