// The network's terms for a brand's statements, changed by an operator through the console's API:
// the fee and the due days with a reason; the brand's page shows them, the change is audited
// before → after, the brand's owners are mailed and its webhook endpoint receives it; the next
// statement bills with them. Bad changes are refused saying what to fix; no member reaches it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../helpers/harness.js';
import { assertError, newKey } from '../helpers/api.js';
import { operatorSession, type OperatorSession } from '../helpers/operators.js';
import { brandKey } from '../helpers/tracking.js';
import { BRANDS } from '../helpers/world.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { pollUntil } from '../helpers/wait.js';
import { renderMail } from '../../src/domain/mail/templates.js';

let h: Harness;
let operator: OperatorSession;
let receiver: Receiver;
let globex: string;

before(async () => {
  h = await startHarness({ WEBHOOK_ALLOW_LOCAL_TARGETS: 'true', WEBHOOK_POLL_MS: '0' });
  operator = await operatorSession(h);
  receiver = await startReceiver();
  globex = await brandKey(h, BRANDS.globex);
  const hook = await h.request({ method: 'POST', url: '/advertiser/webhooks', headers: { 'x-api-key': globex }, payload: { url: receiver.url, events: ['statement.terms_changed'] } });
  assert.equal(hook.statusCode, 201, hook.body);
  const { user } = await h.service.services.users.create({ brandId: BRANDS.globex }, 'owner@globex.example', 'owner');
  await h.service.services.users.setLanguage(user.id, 'pt-BR');
});
after(async () => {
  await h?.close();
  await receiver?.close();
});

type Terms = { feeBasisPoints: number; dueDays: number };
const put = (id: string, payload: object, headers: Record<string, string> = operator.headers) => h.request({ method: 'PUT', url: `/operator/brands/${id}/terms`, headers, payload });
const termsOf = async (id: string): Promise<Terms> => {
  const res = await h.request({ method: 'GET', url: `/operator/brands/${id}`, headers: operator.headers });
  assert.equal(res.statusCode, 200, res.body);
  return res.json<{ data: { networkTerms: Terms } }>().data.networkTerms;
};

test('an operator changes a brand’s fee with a reason: the brand’s page shows it, the trail keeps before → after, the owners are mailed, the webhook receives it', async () => {
  const before = await termsOf(BRANDS.globex);
  const res = await put(BRANDS.globex, { feeBasisPoints: 250, reason: 'Volume agreement of November' });
  assert.equal(res.statusCode, 200, res.body);
  const changed = res.json<{ data: Terms & { brandId: string; previous: Terms; reason: string; changedAt: string } }>().data;
  assert.deepEqual({ ...changed, changedAt: undefined }, { brandId: BRANDS.globex, feeBasisPoints: 250, dueDays: before.dueDays, previous: before, reason: 'Volume agreement of November', changedAt: undefined });
  assert.deepEqual(await termsOf(BRANDS.globex), { feeBasisPoints: 250, dueDays: before.dueDays });

  const profile = await h.request({ method: 'GET', url: '/advertiser/brand', headers: { 'x-api-key': globex } });
  assert.deepEqual(profile.json<{ data: { networkTerms: Terms } }>().data.networkTerms, { feeBasisPoints: 250, dueDays: before.dueDays }, 'the brand reads its new terms');

  const audit = await h.request({ method: 'GET', url: `/operator/audit?action=brand.terms_changed&brandId=${BRANDS.globex}`, headers: operator.headers });
  assert.equal(audit.statusCode, 200, audit.body);
  const [entry] = audit.json<{ data: Array<{ actor: { kind: string; id?: string }; before: Terms; after: Terms; reason: string }> }>().data;
  assert.ok(entry, audit.body);
  assert.equal(entry.actor.kind, 'operator');
  assert.deepEqual([entry.before, entry.after, entry.reason], [before, { feeBasisPoints: 250, dueDays: before.dueDays }, 'Volume agreement of November']);

  const mail = await h.service.database.db.selectFrom('mail_messages').select(['template', 'locale', 'params']).where('to_address', '=', 'owner@globex.example').where('template', '=', 'network-terms-changed').execute();
  assert.equal(mail.length, 1);
  assert.equal(mail[0]!.locale, 'pt-BR', 'in the owner’s language');
  const words = renderMail('network-terms-changed', mail[0]!.locale, { ...(JSON.parse(mail[0]!.params ?? '{}') as object), network: 'Rede' });
  assert.match(words.text, /taxa é de 2,5\s?% de cada comissão \(era 30\s?%\)/);
  assert.match(words.text, /Motivo: Volume agreement of November/);

  await h.service.services.jobs.runOnce('webhooks');
  const received = await pollUntil(async () => receiver.received.map((r) => JSON.parse(r.body) as { type: string; data: { feeBasisPoints: number; previous: Terms; reason: string } }), (all) => all.length > 0, { timeoutMs: 10_000 });
  assert.deepEqual(
    received.map((r) => [r.type, r.data.feeBasisPoints, r.data.previous.feeBasisPoints, r.data.reason]),
    [['statement.terms_changed', 250, before.feeBasisPoints, 'Volume agreement of November']],
  );
});

test('the due days alone, or both; what is left out stays', async () => {
  const res = await put(BRANDS.globex, { dueDays: 45, reason: 'Longer payment terms agreed' });
  assert.equal(res.statusCode, 200, res.body);
  assert.deepEqual(await termsOf(BRANDS.globex), { feeBasisPoints: 250, dueDays: 45 });
  assert.equal((await put(BRANDS.globex, { feeBasisPoints: 3000, dueDays: 30, reason: 'Back to the standard terms' })).statusCode, 200);
  assert.deepEqual(await termsOf(BRANDS.globex), { feeBasisPoints: 3000, dueDays: 30 });
});

test('refusals say what to fix, and change nothing', async () => {
  const kept = await termsOf(BRANDS.globex);
  assertError(await put(BRANDS.globex, { feeBasisPoints: 250 }), 400);
  assertError(await put(BRANDS.globex, { feeBasisPoints: 250, reason: '   ' }), 400, 'invalid_reason');
  assertError(await put(BRANDS.globex, { reason: 'Nothing given' }), 400, 'terms_missing');
  assertError(await put(BRANDS.globex, { feeBasisPoints: 10_001, reason: 'Too much' }), 400);
  assertError(await put(BRANDS.globex, { feeBasisPoints: 2.5, reason: 'Not in basis points' }), 400);
  assertError(await put(BRANDS.globex, { dueDays: -1, reason: 'Negative' }), 400);
  assertError(await put(BRANDS.globex, { dueDays: 5, reason: 'Extra', fee: 3 }), 400);
  assertError(await put(BRANDS.globex, { ...kept, reason: 'The same again' }), 409, 'terms_unchanged');
  assertError(await put('brand-nobody', { dueDays: 5, reason: 'No such brand' }), 404, 'brand_not_found');
  assert.deepEqual(await termsOf(BRANDS.globex), kept);
});

test('no member reaches it: a brand’s key, an affiliate’s key, no credential', async () => {
  const kept = await termsOf(BRANDS.acme);
  const acme = await brandKey(h, BRANDS.acme);
  const affiliate = (await newKey(h, 'aff-1')).key;
  for (const headers of [{ 'x-api-key': acme }, { 'x-api-key': affiliate }, {}] as Array<Record<string, string>>) {
    const res = await put(BRANDS.acme, { feeBasisPoints: 0, reason: 'Free for us' }, headers);
    assert.ok(res.statusCode === 401 || res.statusCode === 403, `${res.statusCode} ${res.body}`);
  }
  assert.deepEqual(await termsOf(BRANDS.acme), kept);
});
