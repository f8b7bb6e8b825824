// Every brand decision is in the audit trail, through the API: approving, canceling or correcting
// a conversion, accepting or declining a claim (and the network accepting one the brand left
// unanswered), approving, withdrawing or declining an affiliate of a private brand. Each decision
// writes exactly one entry, in its own transaction, under the brand and the key or person that
// decided, with the state before and after and the reason; a refused decision writes none. The
// brand and the affiliate each read it in their own trail (the affiliate without the brand's key
// or person); other brands and affiliates read nothing of it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../helpers/harness.js';
import { assertError } from '../helpers/api.js';
import { operatorSession, type OperatorSession } from '../helpers/operators.js';
import { credentialHeaders, sessionCredential } from '../helpers/route-samples.js';
import { PASSWORD, tokenOf } from '../helpers/sessions.js';
import { brandKey, conversionOf, freshClick, item, report } from '../helpers/tracking.js';
import { BRANDS } from '../helpers/world.js';
import { ManualClock } from '../../src/lib/clock.js';

const DAY = 86_400_000;
const clock = new ManualClock();
let h: Harness;
let operator: OperatorSession;
let acme: { key: string; id: string };
let umbrella: string;
let seq = 0;

type Entry = {
  id: number;
  action: string;
  actor: { kind: string; id?: string; actingAs?: string };
  address?: string;
  subject: { kind: string; id: string };
  affiliateId?: string;
  brandId?: string;
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
  reason?: string;
  names?: Record<string, string>;
};

before(async () => {
  h = await startHarness({}, { clock });
  operator = await operatorSession(h, clock.now());
  const created = await h.service.services.access.createApiKey({ brandId: BRANDS.acme, rateLimit: 100_000 });
  acme = { key: created.key, id: created.id };
  umbrella = await brandKey(h, BRANDS.umbrella);
});
after(() => h?.close());

/** A signed-in owner of the account: their credential and user id. */
async function owner(account: { affiliateId?: string; brandId?: string }) {
  const { user, link } = await h.service.services.users.create(account, `owner-${++seq}-${process.pid}@decisions.example`, 'owner');
  return { userId: user.id, email: user.email, credential: sessionCredential(await h.service.services.users.setPassword(tokenOf(link), PASSWORD)) };
}

/** Entries of the member's own trail about `subject`, as one of its owners reads them. */
async function trailOf(account: { affiliateId: string } | { brandId: string }, subjectId: string): Promise<Entry[]> {
  const { credential } = await owner(account);
  const url = 'affiliateId' in account ? '/affiliate/audit?limit=200' : '/advertiser/audit?limit=200';
  const res = await h.request({ method: 'GET', url, headers: credentialHeaders(credential) });
  assert.equal(res.statusCode, 200, res.body);
  return res.json<{ data: Entry[] }>().data.filter((e) => e.subject.id === subjectId);
}

/** Every entry of the trail about `subject`, as an operator reads them. */
async function networkTrail(subjectId: string): Promise<Entry[]> {
  const res = await h.request({ method: 'GET', url: '/operator/audit?limit=500', headers: operator.headers });
  assert.equal(res.statusCode, 200, res.body);
  return res.json<{ data: Entry[] }>().data.filter((e) => e.subject.id === subjectId);
}

const patch = (orderId: string, body: object, headers: Record<string, string> = { 'x-api-key': acme.key }) => h.request({ method: 'PATCH', url: `/advertiser/conversions/${orderId}`, headers, payload: body });

async function newConversion(value = 10_000) {
  const orderId = `decided-${++seq}`;
  const conversion = conversionOf(await report(h, acme.key, { clickId: await freshClick(h, h.world.keys.aff1, BRANDS.acme), orderId, value, items: [item(value)] }), 201);
  return { orderId, id: conversion.id, commission: conversion.commission };
}

/** What each member reads of one entry: the brand names its key or person, the affiliate only the brand; neither sees the address. */
async function assertSeenByBoth(subjectId: string, expected: Entry, brandActorId: string) {
  const brandSide = await trailOf({ brandId: BRANDS.acme }, subjectId);
  assert.equal(brandSide.length, 1, JSON.stringify(brandSide));
  assert.deepEqual(brandSide[0]!.actor, { kind: 'brand', id: brandActorId });
  assert.equal(brandSide[0]!.address, undefined);
  assert.deepEqual(
    { action: brandSide[0]!.action, before: brandSide[0]!.before, after: brandSide[0]!.after, reason: brandSide[0]!.reason },
    { action: expected.action, before: expected.before, after: expected.after, reason: expected.reason },
  );
  const affiliateSide = await trailOf({ affiliateId: 'aff-1' }, subjectId);
  assert.equal(affiliateSide.length, 1);
  assert.deepEqual(affiliateSide[0]!.actor, { kind: 'brand' }, 'the affiliate learns that the brand decided, not which key or person');
  assert.equal(affiliateSide[0]!.address, undefined);
  assert.deepEqual(affiliateSide[0]!.after, expected.after);
  // Nobody else reads it.
  assert.deepEqual(await trailOf({ brandId: BRANDS.umbrella }, subjectId), []);
  assert.deepEqual(await trailOf({ affiliateId: 'aff-2' }, subjectId), []);
}

test('a brand approves a conversion with its key: one entry, the key, before and after, the reason; both sides read it', async () => {
  const order = await newConversion();
  const res = await patch(order.orderId, { status: 'approved', reason: 'Delivered and not returned' });
  assert.equal(res.statusCode, 200, res.body);
  const entries = await networkTrail(order.id);
  assert.equal(entries.length, 1, JSON.stringify(entries));
  const [entry] = entries;
  assert.equal(entry!.action, 'conversion.approved');
  assert.deepEqual(entry!.actor, { kind: 'brand', id: acme.id });
  assert.ok(entry!.address, 'the operator reads the address');
  assert.deepEqual(entry!.subject, { kind: 'order', id: order.id });
  assert.equal(entry!.affiliateId, 'aff-1');
  assert.equal(entry!.brandId, BRANDS.acme);
  assert.deepEqual(entry!.before, { status: 'pending', commissionStatus: 'pending' });
  assert.deepEqual(entry!.after, { status: 'approved', commissionStatus: 'approved' });
  assert.equal(entry!.reason, 'Delivered and not returned');
  await assertSeenByBoth(order.id, entry!, acme.id);
});

test('a brand’s person cancels a conversion in the portal: the entry names them', async () => {
  const order = await newConversion();
  const person = await owner({ brandId: BRANDS.acme });
  const res = await patch(order.orderId, { status: 'canceled', reason: 'Refunded' }, credentialHeaders(person.credential));
  assert.equal(res.statusCode, 200, res.body);
  const entries = await networkTrail(order.id);
  assert.equal(entries.length, 1);
  assert.equal(entries[0]!.action, 'conversion.canceled');
  assert.deepEqual(entries[0]!.actor, { kind: 'brand', id: person.userId });
  assert.deepEqual(entries[0]!.before, { status: 'pending', commissionStatus: 'pending' });
  assert.deepEqual(entries[0]!.after, { status: 'canceled', commissionStatus: 'canceled' });
  assert.equal(entries[0]!.reason, 'Refunded');
  await assertSeenByBoth(order.id, entries[0]!, person.userId);
  // Names for a page's sentence: the person's e-mail, the brand's order number, both members' names.
  assert.deepEqual(entries[0]!.names, { actor: person.email, subject: order.orderId, affiliate: 'Affiliate One', brand: 'Acme' });
  const [affiliateReads] = await trailOf({ affiliateId: 'aff-1' }, order.id);
  assert.deepEqual(affiliateReads!.names, { subject: order.orderId, affiliate: 'Affiliate One', brand: 'Acme' }, 'the affiliate is not told who at the brand decided');
});

test('a correction keeps the value and the commission before and after; without a reason there is none', async () => {
  const order = await newConversion(10_000);
  const res = await patch(order.orderId, { value: 8_000, items: [item(8_000)] });
  assert.equal(res.statusCode, 200, res.body);
  const commission = res.json<{ data: { commission: number } }>().data.commission;
  const entries = await networkTrail(order.id);
  assert.equal(entries.length, 1);
  assert.equal(entries[0]!.action, 'conversion.corrected');
  assert.deepEqual(entries[0]!.before, { status: 'pending', commissionStatus: 'pending', value: 10_000, commission: order.commission, items: 1 });
  assert.deepEqual(entries[0]!.after, { status: 'pending', commissionStatus: 'pending', value: 8_000, commission, items: 1 });
  assert.equal(entries[0]!.reason, undefined);
});

test('refused decisions, and asking for what the order already is, write nothing', async () => {
  const order = await newConversion();
  assert.equal((await patch(order.orderId, { status: 'approved' })).statusCode, 200);
  const count = (await networkTrail(order.id)).length;
  assert.equal(count, 1);
  assertError(await patch(order.orderId, { status: 'canceled' }), 409, 'invalid_transition');
  assertError(await patch(order.orderId, { value: 5_000 }), 409, 'order_not_pending');
  assert.equal((await patch(order.orderId, { status: 'approved' })).statusCode, 200, 'the same again changes nothing');
  assert.equal((await patch(order.orderId, { reason: 'only a reason' })).statusCode, 200);
  assertError(await patch(order.orderId, { status: 'canceled' }, { 'x-api-key': umbrella }), 404);
  assertError(await patch(order.orderId, { status: 'canceled', reason: '' }), 400);
  const locked = await newConversion();
  clock.advance(31 * DAY);
  assertError(await patch(locked.orderId, { status: 'canceled' }), 409, 'order_locked');
  clock.advance(-31 * DAY);
  assert.equal((await networkTrail(order.id)).length, 1);
  assert.deepEqual(await networkTrail(locked.id), []);
});

const fileClaim = async (value = 12_000) => {
  const res = await h.post('/affiliate/claims', { organizationId: BRANDS.acme, orderId: `claimed-${++seq}`, orderedAt: new Date(clock.now() - DAY).toISOString(), value }, h.world.keys.aff1);
  assert.equal(res.statusCode, 201, res.body);
  return res.json<{ data: { id: string } }>().data.id;
};
const answer = (id: string, body: object, key = acme.key) => h.request({ method: 'PATCH', url: `/advertiser/claims/${id}`, headers: { 'x-api-key': key }, payload: body });

test('a brand accepts a claim at a corrected value: one entry with the order it made and its commission', async () => {
  const id = await fileClaim(12_000);
  const res = await answer(id, { status: 'accepted', value: 11_000 });
  assert.equal(res.statusCode, 200, res.body);
  const orderNetworkId = res.json<{ data: { orderNetworkId: string } }>().data.orderNetworkId;
  const entries = await networkTrail(id);
  assert.equal(entries.length, 1);
  const [entry] = entries;
  assert.equal(entry!.action, 'claim.accepted');
  assert.deepEqual(entry!.actor, { kind: 'brand', id: acme.id });
  assert.deepEqual(entry!.subject, { kind: 'claim', id });
  assert.deepEqual(entry!.before, { status: 'open', value: 12_000 });
  const order = (await h.get(`/affiliate/orders/${orderNetworkId}`, h.world.keys.aff1)).json<Array<{ data: { commission: number } }>>()[0]!.data;
  assert.deepEqual(entry!.after, { status: 'accepted', value: 11_000, order: orderNetworkId, commissionStatus: 'pending', commission: order.commission });
  await assertSeenByBoth(id, entry!, acme.id);

  // Answered: another answer is refused and writes nothing; the same answer again changes nothing.
  assertError(await answer(id, { status: 'declined', reason: 'changed our mind' }), 409, 'claim_resolved');
  assert.equal((await answer(id, { status: 'accepted', value: 11_000 })).statusCode, 200);
  assertError(await answer(id, { status: 'accepted' }, umbrella), 404, 'claim_not_found');
  assert.equal((await networkTrail(id)).length, 1);
});

test('a brand declines a claim with its reason; a decline without one is refused and writes nothing', async () => {
  const id = await fileClaim();
  assertError(await answer(id, { status: 'declined' }), 422, 'reason_required');
  assert.deepEqual(await networkTrail(id), []);
  assert.equal((await answer(id, { status: 'declined', reason: 'No such order in our shop' })).statusCode, 200);
  const entries = await networkTrail(id);
  assert.equal(entries.length, 1);
  assert.equal(entries[0]!.action, 'claim.declined');
  assert.deepEqual(entries[0]!.before, { status: 'open', value: 12_000 });
  assert.deepEqual(entries[0]!.after, { status: 'declined' });
  assert.equal(entries[0]!.reason, 'No such order in our shop');
  await assertSeenByBoth(id, entries[0]!, acme.id);
});

test('a private brand approves an affiliate that asked, withdraws it, and declines a request: one entry each', async () => {
  const globex = await h.service.services.access.createApiKey({ brandId: BRANDS.globex, rateLimit: 100_000 });
  const ask = () => h.request({ method: 'POST', url: `/affiliate/brands/${BRANDS.globex}/approval-request`, headers: { 'x-api-key': h.world.keys.aff2 }, payload: {} });
  const decide = (method: 'POST' | 'DELETE') => h.request({ method, url: '/advertiser/affiliates/aff-2/approval', headers: { 'x-api-key': globex.key } });
  const actions = async () => (await networkTrail('aff-2')).filter((e) => e.action.startsWith('approval.')).reverse();

  assert.ok([200, 201].includes((await ask()).statusCode));
  assert.equal((await decide('POST')).statusCode, 200);
  assert.equal((await decide('POST')).statusCode, 200, 'approving again changes nothing');
  assert.equal((await decide('DELETE')).statusCode, 204);
  assertError(await decide('DELETE'), 404, 'approval_not_found');
  assert.ok([200, 201].includes((await ask()).statusCode));
  assert.equal((await decide('DELETE')).statusCode, 204);

  const entries = await actions();
  assert.deepEqual(
    entries.map((e) => [e.action, e.before, e.after]),
    [
      ['approval.granted', { approval: 'pending' }, { approval: 'approved' }],
      ['approval.withdrawn', { approval: 'approved' }, { approval: 'none' }],
      ['approval.declined', { approval: 'pending' }, { approval: 'declined' }],
    ],
  );
  assert.ok(entries.every((e) => e.actor.kind === 'brand' && e.actor.id === globex.id && e.brandId === BRANDS.globex && e.affiliateId === 'aff-2'));
  const affiliateSide = (await trailOf({ affiliateId: 'aff-2' }, 'aff-2')).filter((e) => e.action.startsWith('approval.'));
  assert.equal(affiliateSide.length, 3);
  assert.ok(affiliateSide.every((e) => e.actor.id === undefined), 'the affiliate does not read the brand’s key');
  assert.equal((await trailOf({ brandId: BRANDS.globex }, 'aff-2')).filter((e) => e.action.startsWith('approval.')).length, 3);
  assert.deepEqual((await trailOf({ brandId: BRANDS.acme }, 'aff-2')).filter((e) => e.action.startsWith('approval.')), []);
  assert.deepEqual((await trailOf({ affiliateId: 'aff-1' }, 'aff-2')).filter((e) => e.action.startsWith('approval.')), []);
});

test('a claim the brand left unanswered is accepted by the network: the entry is the network’s', async () => {
  const id = await fileClaim(9_000);
  clock.advance(61 * DAY);
  assert.equal(await h.service.services.claims.autoAccept(), 1);
  operator = await operatorSession(h, clock.now());
  const entries = await networkTrail(id);
  assert.equal(entries.length, 1);
  assert.equal(entries[0]!.action, 'claim.accepted');
  assert.deepEqual(entries[0]!.actor, { kind: 'network' });
  assert.equal(entries[0]!.address, undefined);
  assert.deepEqual(entries[0]!.before, { status: 'open', value: 9_000 });
  assert.equal(entries[0]!.after?.status, 'accepted');
  assert.equal(entries[0]!.after?.value, 9_000);
  const brandSide = await trailOf({ brandId: BRANDS.acme }, id);
  assert.deepEqual(brandSide.map((e) => e.actor), [{ kind: 'network' }]);
  assert.deepEqual((await trailOf({ affiliateId: 'aff-1' }, id)).map((e) => e.action), ['claim.accepted']);
  assert.equal(await h.service.services.claims.autoAccept(), 0);
  assert.equal((await networkTrail(id)).length, 1);
});
