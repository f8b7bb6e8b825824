// Claims of sales the tracking missed: an affiliate files one for a brand it may promote, within the
// brand's attribution window plus its validation days; the brand accepts it (the order is recorded
// with source and attribution claim) or declines it with a reason; unanswered for the brand's
// claimAutoAcceptDays, the network accepts it. Every order says where it came from. The clock moves
// by days.
import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ParsedMail } from 'mailparser';
import { startHarness, type Harness } from '../helpers/harness.js';
import { BRANDS } from '../helpers/world.js';
import { affiliateOrder, brandKey, conversionOf, createLink, freshClick, item, patchStatus, postback, report, type Conversion } from '../helpers/tracking.js';
import { signedUp } from '../helpers/sessions.js';
import { startMailbox, type Mailbox } from '../helpers/smtp.js';
import { ManualClock } from '../../src/lib/clock.js';
import type { Claim } from '../../src/schemas/claim.js';

const DAY = 86_400_000;
const clock = new ManualClock();
let mailbox: Mailbox;
let h: Harness;
let acme: string;
let umbrella: string;
let seq = 0;

before(async () => {
  mailbox = await startMailbox();
  h = await startHarness({ WEBHOOK_POLL_MS: '0', WEBHOOK_ALLOW_LOCAL_TARGETS: 'true', SMTP_URL: mailbox.url, NETWORK_NAME: 'Rede Teste' }, { clock });
  acme = await brandKey(h, BRANDS.acme);
  umbrella = await brandKey(h, BRANDS.umbrella);
  // Events are kept only for endpoints that listen.
  const events = ['claim.created', 'claim.resolved'];
  assert.equal((await h.post('/affiliate/webhooks', { url: 'http://127.0.0.1:9/hooks', events: [...events, 'order.created'] }, h.world.keys.aff1)).statusCode, 201);
  assert.equal((await h.post('/advertiser/webhooks', { url: 'http://127.0.0.1:9/hooks', events: [...events, 'conversion.created'] }, acme)).statusCode, 201);
  await signedUp(h, 'owner@acme.example', { brandId: BRANDS.acme }, 'owner');
  await signedUp(h, 'owner@aff1.example', { affiliateId: 'aff-1' }, 'owner');
  const ptOwner = await h.service.database.db.selectFrom('users').select('id').where('email', '=', 'owner@aff1.example').executeTakeFirstOrThrow();
  await h.service.database.db.updateTable('users').set({ language: 'pt-BR' }).where('id', '=', ptOwner.id).execute();
});
after(async () => {
  await h?.close();
  await mailbox?.stop();
});
beforeEach(async () => {
  await sendMail();
  mailbox.received.length = 0;
});

const sendMail = () => h.service.services.jobs.runOnce('mail');
const arrivedTo = (address: string): ParsedMail[] => mailbox.received.filter((mail) => mail.to && !Array.isArray(mail.to) && mail.to.value[0]?.address === address);
const orderId = () => `claimed-${++seq}`;
const ago = (days: number) => new Date(clock.now() - days * DAY).toISOString();
const file = (body: object, key = h.world.keys.aff1) => h.post('/affiliate/claims', body, key);
const claimOf = (res: { statusCode: number; body: string; json: <T>() => T }, status = 201): Claim => {
  assert.equal(res.statusCode, status, res.body);
  return res.json<{ data: Claim }>().data;
};
const answer = (id: string, body: object, key = acme) => h.request({ method: 'PATCH', url: `/advertiser/claims/${id}`, headers: { 'x-api-key': key }, payload: body });
const codeOf = (res: { json: <T>() => T }) => res.json<{ code: string; message: string }>();
const conversion = async (id: string) => {
  const res = await h.get(`/advertiser/conversions/${id}`, acme);
  assert.equal(res.statusCode, 200, res.body);
  return res.json<{ data: Conversion & { history: Array<{ field: string; from?: string; to: string; by: string }> } }>().data;
};
const autoAccept = () => h.service.services.jobs.runOnce('scheduled');
const eventTypes = async (claimId: string) =>
  (await h.service.database.db.selectFrom('webhook_events').select(['type', 'owner_kind']).where('payload', 'like', `%${claimId}%`).execute()).map((e) => `${e.owner_kind}:${e.type}`).sort();

test('every new order says how it arrived and why its affiliate gets it: API and postback', async () => {
  const viaApi = conversionOf(await report(h, acme, { clickId: await freshClick(h, h.world.keys.aff1, BRANDS.acme), orderId: orderId(), value: 5_000, items: [item(5_000)] }), 201);
  assert.deepEqual([viaApi.source, viaApi.attribution], ['api', 'click']);
  const viaPostback = conversionOf(await postback(h, { clickId: await freshClick(h, h.world.keys.aff1, BRANDS.acme), orderId: orderId(), value: 5_000, token: acme }), 201);
  assert.deepEqual([viaPostback.source, viaPostback.attribution], ['postback', 'click']);
  const seen = await affiliateOrder(h, h.world.keys.aff1, viaPostback.id);
  assert.deepEqual([seen.source, seen.attribution], ['postback', 'click'], 'the affiliate sees them too');
  const stored = await affiliateOrder(h, h.world.keys.aff1, 'o-aff1-1');
  assert.deepEqual([stored.source, stored.attribution], ['api', 'click'], 'orders stored before default to api and click');
});

test('a claim is refused with its reason: a brand the affiliate may not promote, a future or too old order, another currency, a link or click not its own', async () => {
  const base = { organizationId: BRANDS.acme, orderId: orderId(), orderedAt: ago(1), value: 10_000 };
  // Globex is private: aff-2 is not approved for it.
  assert.equal(codeOf(await file({ ...base, organizationId: BRANDS.globex }, h.world.keys.aff2)).code, 'brand_not_found');
  assert.equal((await file({ ...base, organizationId: BRANDS.globex }, h.world.keys.aff2)).statusCode, 404);
  assert.equal(codeOf(await file({ ...base, orderedAt: new Date(clock.now() + DAY).toISOString() })).code, 'invalid_order_time');
  // Acme: 30 days of attribution window plus 30 validation days.
  const late = await file({ ...base, orderedAt: ago(61) });
  assert.equal(late.statusCode, 422, late.body);
  assert.equal(codeOf(late).code, 'claim_too_late');
  assert.match(codeOf(late).message, /within 60 days/);
  assert.equal(codeOf(await file({ ...base, currency: 'USD' })).code, 'currency_mismatch');
  const otherLink = await createLink(h, h.world.keys.aff2, BRANDS.acme);
  assert.equal(codeOf(await file({ ...base, linkCode: otherLink.code })).code, 'link_not_found', "another affiliate's link");
  assert.equal(codeOf(await file({ ...base, clickId: await freshClick(h, h.world.keys.aff2, BRANDS.acme) })).code, 'click_not_found', "another affiliate's click");
  for (const bad of [{ ...base, value: 0 }, { ...base, value: 1.5 }, { ...base, orderId: 'with space' }, { organizationId: BRANDS.acme, orderId: 'x', value: 1 }]) {
    assert.equal((await file(bad)).statusCode, 400, JSON.stringify(bad));
  }
  const inTime = claimOf(await file({ ...base, orderedAt: ago(59), currency: 'BRL' }));
  assert.equal(inTime.status, 'open');
});

test('an order already recorded is refused without saying to whom; one open claim per brand and order id', async () => {
  // brand-o-aff1-1 of Acme is aff-1's.
  const theirs = await file({ organizationId: BRANDS.acme, orderId: 'brand-o-aff1-1', orderedAt: ago(1), value: 10_000 }, h.world.keys.aff2);
  assert.equal(theirs.statusCode, 409, theirs.body);
  assert.equal(codeOf(theirs).code, 'order_already_attributed');
  assert.doesNotMatch(theirs.body, /aff-1/, 'whose it is is never said');
  const mine = await file({ organizationId: BRANDS.acme, orderId: 'brand-o-aff1-1', orderedAt: ago(1), value: 10_000 });
  assert.equal(codeOf(mine).code, 'order_already_attributed');
  assert.match(codeOf(mine).message, /already among your orders/);

  const id = orderId();
  const first = claimOf(await file({ organizationId: BRANDS.acme, orderId: id, orderedAt: ago(2), value: 8_000, note: 'Customer sent the receipt' }));
  const again = await file({ organizationId: BRANDS.acme, orderId: id, orderedAt: ago(2), value: 8_000 });
  assert.equal(again.statusCode, 409);
  assert.equal(codeOf(again).code, 'claim_open');
  assert.match(codeOf(again).message, new RegExp(first.id));
  const other = await file({ organizationId: BRANDS.acme, orderId: id, orderedAt: ago(2), value: 8_000 }, h.world.keys.aff2);
  assert.equal(codeOf(other).code, 'claim_open');
  assert.doesNotMatch(other.body, new RegExp(`${first.id}|aff-1`), "another's open claim is not named");
  // The same order id at another brand is another order.
  claimOf(await file({ organizationId: BRANDS.umbrella, orderId: id, orderedAt: ago(2), value: 8_000 }));

  // Lists: each side its own, filtered by status.
  const listed = await h.get('/affiliate/claims?status=open&limit=100', h.world.keys.aff1);
  assert.equal(listed.statusCode, 200, listed.body);
  const page = listed.json<{ data: Claim[]; meta: { total: number } }>();
  assert.ok(page.data.some((c) => c.id === first.id));
  assert.ok(page.data.every((c) => c.status === 'open' && c.affiliateId === 'aff-1'));
  assert.equal(page.meta.total, page.data.length);
  const ofAff2 = (await h.get('/affiliate/claims', h.world.keys.aff2)).json<{ data: Claim[] }>().data;
  assert.ok(!ofAff2.some((c) => c.id === first.id), "another affiliate's claims never appear");
  const brandSide = (await h.get('/advertiser/claims?status=open&limit=100', acme)).json<{ data: Claim[] }>().data;
  assert.ok(brandSide.some((c) => c.id === first.id && c.note === 'Customer sent the receipt'));
  assert.ok(brandSide.every((c) => c.organizationId === BRANDS.acme), "only the brand's own claims");
  assert.equal((await h.get('/affiliate/claims?status=lost', h.world.keys.aff1)).statusCode, 400);
});

test('the brand declines with a reason the affiliate reads, and the order may be claimed again; an accepted claim records the order at the corrected value', async () => {
  const id = orderId();
  const claim = claimOf(await file({ organizationId: BRANDS.acme, orderId: id, orderedAt: ago(3), value: 12_000 }));
  assert.equal(codeOf(await answer(claim.id, { status: 'declined' })).code, 'reason_required');
  assert.equal(codeOf(await answer(claim.id, { status: 'declined', reason: '  ' })).code, 'reason_required');
  assert.equal(codeOf(await answer(claim.id, { status: 'declined', reason: 'x', value: 5 })).code, 'value_not_allowed');
  assert.equal((await answer(claim.id, { status: 'declined', reason: 'x' }, umbrella)).statusCode, 404, "another brand's claim");
  const declined = claimOf(await answer(claim.id, { status: 'declined', reason: 'No such order in our shop' }), 200);
  assert.deepEqual([declined.status, declined.reason, declined.resolvedBy], ['declined', 'No such order in our shop', 'brand']);
  assert.equal((await answer(claim.id, { status: 'declined', reason: 'No such order in our shop' })).statusCode, 200, 'the same answer again');
  assert.equal(codeOf(await answer(claim.id, { status: 'accepted' })).code, 'claim_resolved');
  const mine = (await h.get('/affiliate/claims?status=declined&limit=100', h.world.keys.aff1)).json<{ data: Claim[] }>().data.find((c) => c.id === claim.id);
  assert.equal(mine?.reason, 'No such order in our shop');
  assert.deepEqual(await eventTypes(claim.id), ['affiliate:claim.created', 'affiliate:claim.resolved', 'brand:claim.created', 'brand:claim.resolved']);

  // Claimed again, accepted at the actual value.
  const code = (await createLink(h, h.world.keys.aff1, BRANDS.acme)).code;
  const second = claimOf(await file({ organizationId: BRANDS.acme, orderId: id, orderedAt: ago(3), value: 12_000, linkCode: code }));
  await h.request({ method: 'PATCH', url: '/advertiser/brand', headers: { 'x-api-key': acme }, payload: { validationDays: 20 } });
  const accepted = claimOf(await answer(second.id, { status: 'accepted', value: 10_000 }), 200);
  assert.deepEqual([accepted.status, accepted.acceptedValue, accepted.resolvedBy], ['accepted', 10_000, 'brand']);
  assert.ok(accepted.orderNetworkId);
  const recorded = await conversion(id);
  assert.equal(recorded.id, accepted.orderNetworkId);
  assert.deepEqual(
    { source: recorded.source, attribution: recorded.attribution, status: recorded.status, commissionStatus: recorded.commissionStatus, value: recorded.value, commission: recorded.commission, affiliateId: recorded.affiliateId, createdAt: recorded.createdAt, linkCode: recorded.linkCode },
    { source: 'claim', attribution: 'claim', status: 'pending', commissionStatus: 'pending', value: 10_000, commission: 750, affiliateId: 'aff-1', createdAt: second.orderedAt, linkCode: code },
  );
  assert.deepEqual(recorded.items.map((i) => [i.quantity, i.price]), [[1, 10_000]]);
  assert.equal(recorded.lockAt, new Date(clock.now() + 20 * DAY).toISOString(), 'it locks validationDays after it was accepted, as any new conversion');
  assert.deepEqual(recorded.history.map((e) => [e.field, e.to, e.by]), [['created', 'pending', 'brand']]);
  const seen = await affiliateOrder(h, h.world.keys.aff1, accepted.orderNetworkId);
  assert.deepEqual([seen.source, seen.attribution, seen.value], ['claim', 'claim', 10_000]);
  assert.equal((await answer(second.id, { status: 'accepted', value: 10_000 })).statusCode, 200, 'the same answer again');
  assert.equal(codeOf(await answer(second.id, { status: 'accepted', value: 11_000 })).code, 'claim_resolved');
  assert.equal(codeOf(await file({ organizationId: BRANDS.acme, orderId: id, orderedAt: ago(3), value: 1 })).code, 'order_already_attributed', 'once recorded, no more claims');
  const types = await h.service.database.db.selectFrom('webhook_events').select('type').where('payload', 'like', `%${accepted.orderNetworkId}%`).execute();
  assert.ok(types.some((e) => e.type === 'conversion.created'), 'the brand hears of the new conversion');
  assert.ok(types.some((e) => e.type === 'order.created'), 'the affiliate of its new order');

  // Mail: the brand's owners of each new claim, the affiliate's owners of each answer (in their language).
  await sendMail();
  assert.equal(arrivedTo('owner@acme.example').filter((m) => m.subject === `Affiliate One claims order ${id} on Rede Teste`).length, 2);
  const resolved = arrivedTo('owner@aff1.example').map((m) => m.subject);
  assert.ok(resolved.includes(`Sua reivindicação do pedido ${id} foi recusada`), resolved.join(' | '));
  assert.ok(resolved.includes(`Sua reivindicação do pedido ${id} foi aceita`), resolved.join(' | '));
  assert.match(arrivedTo('owner@aff1.example').find((m) => m.subject?.endsWith('recusada'))?.text ?? '', /O motivo: No such order in our shop/);
});

test("the brand's server reporting a claimed order: a pending one takes its value (commission recomputed, with history); another affiliate's click conflicts", async () => {
  const id = orderId();
  const claim = claimOf(await file({ organizationId: BRANDS.acme, orderId: id, orderedAt: ago(1), value: 20_000 }));
  const { orderNetworkId } = claimOf(await answer(claim.id, { status: 'accepted' }), 200);
  const foreign = await report(h, acme, { clickId: await freshClick(h, h.world.keys.aff2, BRANDS.acme), orderId: id, value: 20_000, items: [item(20_000)] });
  assert.equal(foreign.statusCode, 409, foreign.body);
  assert.equal(codeOf(foreign).code, 'order_conflict');
  const clickId = await freshClick(h, h.world.keys.aff1, BRANDS.acme);
  const reported = conversionOf(await report(h, acme, { clickId, orderId: id, value: 18_000, items: [item(18_000)] }), 200);
  assert.deepEqual([reported.id, reported.value, reported.commission, reported.source], [orderNetworkId, 18_000, 1_350, 'claim']);
  assert.deepEqual(conversionOf(await report(h, acme, { clickId, orderId: id, value: 18_000, items: [item(18_000)] }), 200).value, 18_000, 'a replay is the same order');
  const { history } = await conversion(id);
  assert.deepEqual(
    history.filter((e) => e.field === 'value' || e.field === 'commission').map((e) => [e.field, e.from, e.to, e.by]),
    [
      ['value', '20000', '18000', 'brand'],
      ['commission', '1500', '1350', 'brand'],
    ],
  );
  // A postback of the order takes its value too; once approved, another value conflicts.
  assert.equal(conversionOf(await postback(h, { clickId, orderId: id, value: 17_000, token: acme }), 200).value, 17_000);
  assert.equal((await patchStatus(h, acme, id, { status: 'approved' })).statusCode, 200);
  assert.equal(codeOf(await report(h, acme, { clickId, orderId: id, value: 16_000, items: [item(16_000)] })).code, 'order_conflict');
  assert.equal((await postback(h, { clickId, orderId: id, value: 17_000, token: acme })).statusCode, 200, 'the same facts are the same order');
});

test('a claim for an order the brand reported meanwhile: the claimant’s own stands for it; another’s must be declined', async () => {
  const id = orderId();
  const claim = claimOf(await file({ organizationId: BRANDS.acme, orderId: id, orderedAt: ago(1), value: 9_000 }));
  conversionOf(await report(h, acme, { clickId: await freshClick(h, h.world.keys.aff2, BRANDS.acme), orderId: id, value: 9_000, items: [item(9_000)] }), 201);
  const refused = await answer(claim.id, { status: 'accepted' });
  assert.equal(refused.statusCode, 409, refused.body);
  assert.equal(codeOf(refused).code, 'order_exists');
  claimOf(await answer(claim.id, { status: 'declined', reason: 'Tracked for another partner' }), 200);

  const own = orderId();
  const ownClaim = claimOf(await file({ organizationId: BRANDS.acme, orderId: own, orderedAt: ago(1), value: 9_000 }));
  const tracked = conversionOf(await report(h, acme, { clickId: await freshClick(h, h.world.keys.aff1, BRANDS.acme), orderId: own, value: 9_000, items: [item(9_000)] }), 201);
  const accepted = claimOf(await answer(ownClaim.id, { status: 'accepted' }), 200);
  assert.equal(accepted.orderNetworkId, tracked.id, 'the tracked order stands for it; no second order');
});

test('claimAutoAcceptDays: 30 to 120, default 60; an unanswered claim is accepted by the network at the claimed value, once', async () => {
  const profile = (body?: object) => h.request({ method: body ? 'PATCH' : 'GET', url: '/advertiser/brand', headers: { 'x-api-key': acme }, ...(body && { payload: body }) });
  assert.equal((await profile()).json<{ data: { claimAutoAcceptDays: number } }>().data.claimAutoAcceptDays, 60, 'the default');
  for (const bad of [29, 121, 45.5]) assert.equal((await profile({ claimAutoAcceptDays: bad })).statusCode, 400, `claimAutoAcceptDays ${bad}`);
  const longer = claimOf(await file({ organizationId: BRANDS.acme, orderId: orderId(), orderedAt: ago(1), value: 4_000 }));
  assert.equal(longer.autoAcceptAt, new Date(clock.now() + 60 * DAY).toISOString());
  assert.equal((await profile({ claimAutoAcceptDays: 30 })).json<{ data: { claimAutoAcceptDays: number } }>().data.claimAutoAcceptDays, 30);
  await profile({ validationDays: 30 });
  const id = orderId();
  const claim = claimOf(await file({ organizationId: BRANDS.acme, orderId: id, orderedAt: ago(1), value: 4_000 }));
  assert.equal(claim.autoAcceptAt, new Date(clock.now() + 30 * DAY).toISOString(), 'a later setting applies to new claims');

  clock.advance(29 * DAY);
  await autoAccept();
  assert.equal((await h.get('/affiliate/claims?status=open&limit=100', h.world.keys.aff1)).json<{ data: Claim[] }>().data.some((c) => c.id === claim.id), true, 'not yet');
  clock.advance(2 * DAY);
  // Two instances' work at the same moment accept it once.
  await Promise.all([autoAccept(), h.service.services.claims.autoAccept()]);
  const accepted = (await h.get('/affiliate/claims?status=accepted&limit=100', h.world.keys.aff1)).json<{ data: Claim[] }>().data.find((c) => c.id === claim.id);
  assert.deepEqual([accepted?.status, accepted?.resolvedBy, accepted?.acceptedValue], ['accepted', 'network', 4_000]);
  const recorded = await conversion(id);
  assert.deepEqual([recorded.id, recorded.source, recorded.value, recorded.commission, recorded.status], [accepted?.orderNetworkId, 'claim', 4_000, 300, 'pending']);
  assert.deepEqual(recorded.history.map((e) => [e.field, e.by]), [['created', 'network']]);
  assert.equal((await h.service.database.db.selectFrom('orders').select('id').where('order_id', '=', id).execute()).length, 1);
  assert.equal((await eventTypes(claim.id)).filter((t) => t === 'affiliate:claim.resolved').length, 1, 'resolved once');
  const stillOpen = (await h.get('/affiliate/claims?status=open&limit=100', h.world.keys.aff1)).json<{ data: Claim[] }>().data;
  assert.ok(stillOpen.some((c) => c.id === longer.id), 'a claim filed with 60 days waits its own time');
  await sendMail();
  assert.ok(arrivedTo('owner@aff1.example').some((m) => m.subject === `Sua reivindicação do pedido ${id} foi aceita` && /não respondeu a tempo/.test(m.text ?? '')));
});

test('a claim the network cannot accept, its order reported for another affiliate meanwhile, is declined by the network with the reason', async () => {
  const id = orderId();
  const claim = claimOf(await file({ organizationId: BRANDS.acme, orderId: id, orderedAt: ago(1), value: 3_000 }));
  conversionOf(await report(h, acme, { clickId: await freshClick(h, h.world.keys.aff2, BRANDS.acme), orderId: id, value: 3_000, items: [item(3_000)] }), 201);
  clock.advance(31 * DAY);
  await autoAccept();
  const declined = (await h.get('/affiliate/claims?status=declined&limit=100', h.world.keys.aff1)).json<{ data: Claim[] }>().data.find((c) => c.id === claim.id);
  assert.equal(declined?.resolvedBy, 'network');
  assert.match(declined?.reason ?? '', /reported this order through its tracking/);
  assert.doesNotMatch(declined?.reason ?? '', /aff-2/);
});
