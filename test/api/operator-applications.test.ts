// The operator's console over applications, through the API: only an operator with a second factor
// reaches /operator/*; applications show what they sent; an operator approves or declines one or
// several (the applicant mailed, at a real SMTP server); each decision is in the audit trail, which
// operators search (and export) and the member reads about itself, without the operator's id or
// address.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../helpers/harness.js';
import { assertError } from '../helpers/api.js';
import { PASSWORD, signedUp, tokenOf, withSession } from '../helpers/sessions.js';
import { startMailbox, type Mailbox } from '../helpers/smtp.js';
import { operatorSession, type OperatorSession } from '../helpers/operators.js';
import { newKey } from '../helpers/api.js';

let h: Harness;
let mailbox: Mailbox;
let operator: OperatorSession;
let applicants = 0;

before(async () => {
  mailbox = await startMailbox();
  h = await startHarness({ SMTP_URL: mailbox.url });
  operator = await operatorSession(h);
});
after(async () => {
  await h?.close();
  await mailbox?.stop();
});

type Answer = { json<T>(): T; statusCode: number; body: string };
const dataOf = <T = Record<string, unknown>>(res: Answer): T => {
  assert.ok(res.statusCode < 300, `${res.statusCode}: ${res.body}`);
  return res.json<{ data: T }>().data;
};
const asOperator = (method: 'GET' | 'PATCH' | 'POST', url: string, payload?: object, who: OperatorSession = operator) => h.request({ method, url, headers: who.headers, remoteAddress: '203.0.113.50', ...(payload && { payload }) });

/** An affiliate's sign-up with its address confirmed: pending. */
async function pendingSignUp(name = 'Ana Lima'): Promise<{ id: string; email: string }> {
  const { applications } = h.service.services;
  const email = `applicant${++applicants}@blog.example`;
  await applications.signUp({ name, email, password: PASSWORD, country: 'BR', language: 'pt-BR', website: 'https://blog.example/ana', acceptTerms: true }, '198.51.100.9');
  const id = (await applications.list({ status: 'unverified' }, 1000)).find((a) => a.email === email)!.id;
  await applications.verify(tokenOf((await applications.issueVerifyLink(id))!));
  return { id, email };
}

/** Sends what is queued, then forgets it: what arrives next is the decision's. */
async function clearMailbox(): Promise<void> {
  await h.service.services.jobs.runOnce('mail');
  mailbox.received.length = 0;
}
const mailTo = (address: string) => mailbox.received.filter((mail) => mail.to && !Array.isArray(mail.to) && mail.to.value[0]?.address === address);

test('only an operator with a second factor reaches the console: no key, no member, no operator without a factor', async () => {
  const member = await signedUp(h, 'owner@aff1.example', { affiliateId: 'aff-1' }, 'owner');
  const refused = assertError(await h.request(withSession({ method: 'GET', url: '/operator/applications' }, member)), 403, 'forbidden');
  assert.match(refused.message, /operator/);
  const { key } = await newKey(h, 'aff-1');
  assertError(await h.request({ method: 'GET', url: '/operator/applications', headers: { 'x-api-key': key } }), 403, 'forbidden');
  assertError(await h.request({ method: 'GET', url: '/operator/applications' }), 401, 'unauthorized');

  const { link } = await h.service.services.users.createOperator('new-operator@network.example');
  const fresh = await h.service.services.users.setPassword(tokenOf(link), PASSWORD);
  const headers = { cookie: `affnet_session=${fresh.sessionToken}`, 'x-csrf-token': fresh.csrfToken };
  const error = assertError(await h.request({ method: 'GET', url: '/operator/applications', headers }), 403, 'second_factor_required');
  assert.match(error.message, /second factor/);
  const factors = dataOf<{ enrolmentRequired: boolean }>(await h.request({ method: 'GET', url: '/session/second-factors', headers }));
  assert.equal(factors.enrolmentRequired, true, 'the security page tells the operator to enrol');

  // An operator is no member: the members' routes refuse them.
  assertError(await asOperator('GET', '/affiliate/orders'), 403, 'forbidden');
});

test('applications show what they sent; one is approved, the applicant mailed, the account made', async () => {
  const { id, email } = await pendingSignUp('Bea Souza');
  const listed = dataOf<Array<{ id: string; name: string; website: string; terms: { version: string } }>>(await asOperator('GET', '/operator/applications?status=pending&kind=affiliate'));
  const mine = listed.find((a) => a.id === id)!;
  assert.equal(mine.name, 'Bea Souza');
  assert.equal(mine.website, 'https://blog.example/ana');
  assert.ok(mine.terms.version);
  assert.ok(!JSON.stringify(listed).includes('password'), 'never the chosen password');

  await clearMailbox();
  const approved = dataOf<{ status: string; decidedBy: string; affiliateId: string }>(await asOperator('PATCH', `/operator/applications/${id}`, { status: 'approved' }));
  assert.equal(approved.status, 'approved');
  assert.equal(approved.decidedBy, operator.userId);
  assert.ok(approved.affiliateId);
  await h.service.services.jobs.runOnce('mail');
  assert.equal(mailTo(email).length, 1, 'the applicant is mailed the approval');

  assertError(await asOperator('PATCH', `/operator/applications/${id}`, { status: 'declined', reason: 'late' }), 409, 'application_decided');
  assertError(await asOperator('PATCH', `/operator/applications/${(await pendingSignUp()).id}`, { status: 'declined' }), 400, 'invalid_reason');
  assertError(await asOperator('GET', '/operator/applications/apl_nothing'), 404, 'application_not_found');
});

test('several are declined at once with one reason; each one that cannot be says why, the others are decided', async () => {
  const [a, b] = [await pendingSignUp(), await pendingSignUp()];
  const decided = (await pendingSignUp()).id;
  dataOf(await asOperator('PATCH', `/operator/applications/${decided}`, { status: 'declined', reason: 'Duplicate' }));
  await clearMailbox();
  const outcomes = dataOf<Array<{ id: string; decided: boolean; status?: string; code?: string }>>(
    await asOperator('POST', '/operator/applications/decisions', { ids: [a.id, decided, b.id, 'apl_missing'], status: 'declined', reason: 'Your site has no content yet' }),
  );
  assert.deepEqual(outcomes.map((o) => [o.id, o.decided, o.status ?? o.code]), [
    [a.id, true, 'declined'],
    [decided, false, 'application_decided'],
    [b.id, true, 'declined'],
    ['apl_missing', false, 'application_not_found'],
  ]);
  await h.service.services.jobs.runOnce('mail');
  for (const applicant of [a, b]) assert.match(String(mailTo(applicant.email)[0]?.text), /no content yet/, 'each applicant reads the reason');
  assertError(await asOperator('POST', '/operator/applications/decisions', { ids: [(await pendingSignUp()).id], status: 'declined' }), 400, 'invalid_reason');
});

type Entry = { action: string; actor: { kind: string; id?: string }; address?: string; subject: { id: string }; affiliateId?: string; before?: object; after?: object; reason?: string };

test('each decision is in the audit trail: who, from where, before → after; searchable and exported as CSV', async () => {
  const { id } = await pendingSignUp();
  dataOf(await asOperator('PATCH', `/operator/applications/${id}`, { status: 'declined', reason: 'Spam' }));
  const entries = dataOf<Entry[]>(await asOperator('GET', `/operator/audit?action=application.declined&actorId=${operator.userId}`));
  const entry = entries.find((e) => e.subject.id === id)!;
  assert.deepEqual([entry.actor.kind, entry.actor.id, entry.address, entry.reason], ['operator', operator.userId, '203.0.113.50', 'Spam']);
  assert.deepEqual([entry.before, entry.after], [{ status: 'pending' }, { status: 'declined' }]);

  const kinds = dataOf<Entry[]>(await asOperator('GET', '/operator/audit?action=application.&limit=500')).map((e) => e.action);
  assert.ok(kinds.includes('application.approved') && kinds.includes('application.declined'));
  assert.equal(dataOf<Entry[]>(await asOperator('GET', '/operator/audit?to=2000-01-01')).length, 0, 'nothing before the network existed');

  const csv = await asOperator('GET', `/operator/audit.csv?actorId=${operator.userId}`);
  assert.equal(csv.statusCode, 200);
  assert.match(String(csv.headers['content-type']), /text\/csv/);
  const lines = csv.body.trim().split('\r\n');
  assert.match(lines[0]!, /^id,at,actor_kind,actor_id/);
  assert.ok(lines.some((line) => line.includes(id) && line.includes('application.declined')));
});

test('a member reads the entries about its own account, never the operator behind them', async () => {
  const { id, email } = await pendingSignUp();
  const { affiliateId } = dataOf<{ affiliateId: string }>(await asOperator('PATCH', `/operator/applications/${id}`, { status: 'approved' }));
  const signedIn = await h.service.services.users.signIn(email, PASSWORD);
  const headers = { cookie: `affnet_session=${signedIn!.sessionToken}`, 'x-csrf-token': signedIn!.csrfToken };
  const own = dataOf<Entry[]>(await h.request({ method: 'GET', url: '/affiliate/audit', headers }));
  const approval = own.find((e) => e.action === 'application.approved')!;
  assert.equal(approval.affiliateId, affiliateId);
  assert.deepEqual(approval.actor, { kind: 'operator' }, 'no operator id');
  assert.equal(approval.address, undefined, 'no address');
  assert.ok(own.every((e) => e.affiliateId === affiliateId), 'only its own account');

  const other = await signedUp(h, 'member@aff1.example', { affiliateId: 'aff-1' });
  const theirs = dataOf<Entry[]>(await h.request(withSession({ method: 'GET', url: '/affiliate/audit' }, other)));
  assert.ok(theirs.every((e) => e.affiliateId === 'aff-1'), 'another affiliate never sees it');
});

test('the list comes a page at a time: the pending ones oldest first, the decided ones newest first', async () => {
  const waiting = [await pendingSignUp('Page One'), await pendingSignUp('Page Two'), await pendingSignUp('Page Three')];
  type Page = { data: Array<{ id: string; createdAt: string }>; meta: { total: number; page: number; limit: number; totalPages: number } };
  const pageOf = async (url: string) => {
    const res = await asOperator('GET', url);
    assert.equal(res.statusCode, 200, res.body);
    return res.json<Page>();
  };
  const first = await pageOf('/operator/applications?status=pending&limit=2');
  assert.equal(first.meta.total >= 3, true, JSON.stringify(first.meta));
  assert.equal(first.data.length, 2);
  const all: string[] = [];
  for (let page = 1; page <= first.meta.totalPages; page++) all.push(...(await pageOf(`/operator/applications?status=pending&limit=2&page=${page}`)).data.map((a) => a.id));
  assert.equal(all.length, first.meta.total, 'every pending application once across the pages');
  assert.deepEqual(all.slice(-3), waiting.map((w) => w.id), 'the latest sign-ups wait at the end');
  const decided = (await pageOf('/operator/applications?status=approved&limit=50')).data.map((a) => a.createdAt);
  assert.deepEqual(decided, [...decided].sort().reverse(), 'decided ones newest first');
});
