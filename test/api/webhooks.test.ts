// Webhooks through HTTP: endpoints of affiliates and brands, events written with the change that
// caused them, delivered signed to a receiver on loopback, retried with backoff (the service's
// clock moved instead of waiting), given up after 24 hours, an endpoint switched off after 3 days
// of failures (and never switched on again by a delivery the owner paused it during), secrets
// rotated, deliveries sent again, a receiver answering a byte a second cut off
// while other members' deliveries go on, and destinations that lead inside refused.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { ManualClock } from '../../src/lib/clock.js';
import { givePayeeDetails, payMonth } from '../helpers/money.js';
import { PER_MEMBER, WebhookQueue } from '../../src/domain/webhooks/webhook-queue.js';
import { MAX_ENDPOINTS } from '../../src/domain/webhooks/webhooks-service.js';
import { JobRunner } from '../../src/domain/jobs/job-runner.js';
import { WebhooksRepository } from '../../src/storage/repositories/webhooks.js';
import { webhookTransport } from '../../src/outbound/webhook-transport.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { BRANDS } from '../helpers/world.js';
import { assertError, newKey } from '../helpers/api.js';
import { brandKey, freshClick, item, patchStatus, report } from '../helpers/tracking.js';
import { startReceiver, verify, type Receiver } from '../helpers/receiver.js';
import { pollUntil } from '../helpers/wait.js';

const HOUR = 3_600_000;
/** WEBHOOK_TIMEOUT_MS here: a slow receiver is cut off after it, long after the other deliveries of the test are done. */
const TIMEOUT_S = 5;
type Endpoint = { id: string; url: string; events: string[]; enabled: boolean; disabledReason?: string; secret?: string };
type Attempt = { deliveryId: string; eventId: string; eventType: string; attempt: number; outcome: string; responseStatus?: number; error?: string; failure?: string };
type Payload = { type: string; version: number; timestamp: string; data: Record<string, unknown> };

const clock = new ManualClock();
let h: Harness;
let receiver: Receiver;
let aff1: string;
let aff2: string;
let acme: string;
let globex: string;
let seq = 0;

before(async () => {
  h = await startHarness({ WEBHOOK_ALLOW_LOCAL_TARGETS: 'true', WEBHOOK_POLL_MS: '0', WEBHOOK_TIMEOUT_MS: String(TIMEOUT_S * 1000) }, { clock });
  receiver = await startReceiver();
  aff1 = (await newKey(h, 'aff-1', { rateLimit: 100_000 })).key;
  aff2 = (await newKey(h, 'aff-2', { rateLimit: 100_000 })).key;
  acme = await brandKey(h, BRANDS.acme);
  globex = await brandKey(h, BRANDS.globex);
});
after(async () => {
  await h.close();
  await receiver.close();
});

const send = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, key: string, payload?: object) =>
  h.request({ method, url: path, headers: { 'x-api-key': key }, ...(payload && { payload }) });

async function endpoint(side: 'affiliate' | 'advertiser', key: string, events: string[], url = receiver.url): Promise<Endpoint> {
  const res = await send('POST', `/${side}/webhooks`, key, { url, events });
  assert.equal(res.statusCode, 201, res.body);
  return res.json<{ data: Endpoint }>().data;
}

const deliver = () => h.service.services.jobs.runOnce('webhooks');
const since = (count: number) => receiver.received.slice(count);
const payloadOf = (body: string) => JSON.parse(body) as Payload;
const log = async (side: 'affiliate' | 'advertiser', key: string, id: string) => {
  const res = await send('GET', `/${side}/webhooks/${id}/deliveries?limit=100`, key);
  assert.equal(res.statusCode, 200, res.body);
  return res.json<{ data: Attempt[] }>().data;
};
const remove = async (side: 'affiliate' | 'advertiser', key: string, id: string) => assert.equal((await send('DELETE', `/${side}/webhooks/${id}`, key)).statusCode, 204);

async function conversion(affiliateKey = aff1, value = 10_000): Promise<{ orderId: string; res: LightMyRequestResponse }> {
  const orderId = `wh-${++seq}`;
  const res = await report(h, acme, { clickId: await freshClick(h, affiliateKey, BRANDS.acme), orderId, value, items: [item(value)] });
  assert.equal(res.statusCode, 201, res.body);
  return { orderId, res };
}

describe('webhook endpoints', () => {
  test('are created with a secret shown once, listed, read, changed and deleted', async () => {
    const created = await endpoint('affiliate', aff1, ['order.created']);
    assert.match(created.secret!, /^whsec_[A-Za-z0-9+/]{43}=$/);
    const listed = (await send('GET', '/affiliate/webhooks', aff1)).json<{ data: Endpoint[] }>().data;
    assert.ok(listed.some((e) => e.id === created.id));
    assert.ok(listed.every((e) => e.secret === undefined), 'the secret is never listed');
    const changed = await send('PATCH', `/affiliate/webhooks/${created.id}`, aff1, { events: ['order.created', 'payout.created'], description: 'shop' });
    assert.deepEqual(changed.json<{ data: Endpoint }>().data.events, ['order.created', 'payout.created']);
    await remove('affiliate', aff1, created.id);
    assertError(await send('GET', `/affiliate/webhooks/${created.id}`, aff1), 404, 'webhook_not_found');
  });

  test('refuse events of the other side, unknown events, and bad URLs', async () => {
    assertError(await send('POST', '/affiliate/webhooks', aff1, { url: receiver.url, events: ['conversion.created'] }), 400, 'invalid_body');
    assertError(await send('POST', '/advertiser/webhooks', acme, { url: receiver.url, events: ['order.created'] }), 400, 'invalid_body');
    assertError(await send('POST', '/affiliate/webhooks', aff1, { url: 'not a url', events: ['order.created'] }), 400, 'invalid_url');
    assertError(await send('POST', '/affiliate/webhooks', aff1, { url: 'https://user:pw@hooks.example/x', events: ['order.created'] }), 400, 'invalid_url');
    assertError(await send('POST', '/affiliate/webhooks', aff1, { url: receiver.url, events: [] }), 400, 'invalid_body');
  });

  test("are never visible to another affiliate or brand, and never receive another's events", async () => {
    const mine = await endpoint('advertiser', acme, ['conversion.created']);
    assertError(await send('GET', `/advertiser/webhooks/${mine.id}`, globex), 404, 'webhook_not_found');
    assertError(await send('PATCH', `/advertiser/webhooks/${mine.id}`, globex, { enabled: false }), 404, 'webhook_not_found');
    assertError(await send('DELETE', `/advertiser/webhooks/${mine.id}`, globex), 404, 'webhook_not_found');
    assertError(await send('GET', `/advertiser/webhooks/${mine.id}/deliveries`, globex), 404, 'webhook_not_found');
    assert.ok((await send('GET', '/advertiser/webhooks', globex)).json<{ data: Endpoint[] }>().data.every((e) => e.id !== mine.id));

    const aff2Hook = await endpoint('affiliate', aff2, ['order.created']);
    const before = receiver.received.length;
    await conversion(aff1);
    await deliver();
    const toAff2 = since(before).filter((r) => r.headers['webhook-signature'] && payloadOf(r.body).type === 'order.created');
    assert.equal(toAff2.length, 0, "aff-2's endpoint gets no event of aff-1's order");
    await remove('advertiser', acme, mine.id);
    await remove('affiliate', aff2, aff2Hook.id);
  });
});

describe('the outbox', () => {
  test('keeps an event only when an endpoint is subscribed to it', async () => {
    const count = async () => Number((await h.service.database.db.selectFrom('webhook_events').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const before = await count();
    await conversion(aff1);
    assert.equal(await count(), before, 'no endpoint of aff-1 or Acme: nothing kept');
    const hook = await endpoint('affiliate', aff1, ['order.created']);
    await conversion(aff1);
    assert.equal(await count(), before + 1, "the affiliate's order.created only: nobody wants conversion.created");
    await deliver();
    await remove('affiliate', aff1, hook.id);
  });
});

describe('delivery', () => {
  test('an order reported by a brand reaches the affiliate (order.created) and the brand (conversion.created), signed', async () => {
    const affHook = await endpoint('affiliate', aff1, ['order.created']);
    const brandHook = await endpoint('advertiser', acme, ['conversion.created']);
    const before = receiver.received.length;
    const { orderId } = await conversion(aff1);
    assert.equal(await deliver(), 2);
    const got = since(before);
    assert.equal(got.length, 2);
    const toAffiliate = got.find((r) => payloadOf(r.body).type === 'order.created')!;
    const toBrand = got.find((r) => payloadOf(r.body).type === 'conversion.created')!;
    const nowSeconds = Math.floor(clock.now() / 1000);
    assert.ok(verify(toAffiliate, affHook.secret!, nowSeconds), 'the affiliate verifies its signature');
    assert.ok(verify(toBrand, brandHook.secret!, nowSeconds), 'the brand verifies its signature');
    assert.equal(verify(toAffiliate, brandHook.secret!, nowSeconds), false, "another endpoint's secret does not verify");
    assert.equal(verify(toAffiliate, affHook.secret!, nowSeconds + 6 * 60), false, 'a timestamp older than 5 minutes is rejected');
    const payload = payloadOf(toAffiliate.body);
    assert.equal(payload.version, 1);
    assert.equal(payload.data.orderId, orderId);
    assert.equal(payload.data.commission, 750);
    assert.equal(payloadOf(toBrand.body).data.affiliateId, 'aff-1');
    assert.match(String(toAffiliate.headers['webhook-id']), /^msg_/);
    assert.deepEqual((await log('affiliate', aff1, affHook.id)).map((a) => [a.outcome, a.responseStatus, a.attempt]), [['delivered', 200, 1]]);
    assert.equal(await deliver(), 0, 'a delivered event is not sent again');
    await remove('affiliate', aff1, affHook.id);
    await remove('advertiser', acme, brandHook.id);
  });

  test('approving an order sends order.updated and commission.approved; the brand paying its statement sends commission.payable; a payout run sends payout.created and its export payout.sent', async () => {
    const hook = await endpoint('affiliate', aff1, ['order.updated', 'commission.approved', 'commission.payable', 'payout.created', 'payout.sent']);
    const { orderId } = await conversion(aff1);
    const before = receiver.received.length;
    assert.equal((await patchStatus(h, acme, orderId, { status: 'approved' })).statusCode, 200);
    await deliver();
    assert.deepEqual(since(before).map((r) => payloadOf(r.body).type).sort(), ['commission.approved', 'order.updated']);
    const paying = receiver.received.length;
    // February's statement bills the world's approved o-aff1-2; aff-1's owner has saved where it is paid.
    await givePayeeDetails(h, 'aff-1');
    clock.advance(49 * 3_600_000);
    await payMonth(h.service.services, '2026-02', 'aff-1');
    await deliver();
    const payouts = since(paying).map((r) => payloadOf(r.body));
    assert.deepEqual(payouts.map((p) => p.type).sort(), ['commission.payable', 'payout.created', 'payout.sent']);
    assert.ok(payouts.every((p) => (p.data as { affiliateId?: string; id: string }).affiliateId === 'aff-1' || (p.data as { id: string }).id === 'o-aff1-2'));
    await remove('affiliate', aff1, hook.id);
  });

  test('a receiver that fails three times then succeeds gets the event on the fourth attempt, the same webhook-id each time', async () => {
    const hook = await endpoint('affiliate', aff1, ['order.created']);
    receiver.answers.push(500, 503, 500);
    const before = receiver.received.length;
    await conversion(aff1);
    await deliver();
    for (let i = 0; i < 3; i++) {
      assert.equal(await deliver(), 0, 'a retry waits for its backoff');
      clock.advance(HOUR);
      await deliver();
    }
    const got = since(before);
    assert.equal(got.length, 4);
    assert.equal(new Set(got.map((r) => r.headers['webhook-id'])).size, 1);
    const attempts = (await log('affiliate', aff1, hook.id)).reverse();
    assert.deepEqual(attempts.map((a) => [a.attempt, a.outcome, a.responseStatus]), [[1, 'retrying', 500], [2, 'retrying', 503], [3, 'retrying', 500], [4, 'delivered', 200]]);
    await remove('affiliate', aff1, hook.id);
  });

  test('a delivery still failing 24 hours after its event is given up', async () => {
    const hook = await endpoint('affiliate', aff1, ['order.created']);
    receiver.answers.push(...Array.from({ length: 40 }, () => 500));
    await conversion(aff1);
    await deliver();
    clock.advance(25 * HOUR);
    await deliver();
    const attempts = await log('affiliate', aff1, hook.id);
    assert.deepEqual(attempts.map((a) => a.outcome), ['failed', 'retrying']);
    clock.advance(2 * HOUR);
    assert.equal(await deliver(), 0, 'nothing more is attempted');
    receiver.answers.length = 0;
    await remove('affiliate', aff1, hook.id);
  });

  test('an endpoint failing for 3 days is switched off, says why, and is switched on again with PATCH', async () => {
    const hook = await endpoint('affiliate', aff1, ['order.created']);
    receiver.answers.push(...Array.from({ length: 40 }, () => 500));
    for (let day = 0; day <= 3; day++) {
      await conversion(aff1);
      await deliver();
      clock.advance(25 * HOUR);
      await deliver();
    }
    const state = (await send('GET', `/affiliate/webhooks/${hook.id}`, aff1)).json<{ data: Endpoint }>().data;
    assert.equal(state.enabled, false);
    assert.match(state.disabledReason!, /3 days/);
    assert.equal((await log('affiliate', aff1, hook.id))[0]!.outcome, 'endpoint_disabled');
    receiver.answers.length = 0;
    const before = receiver.received.length;
    await conversion(aff1);
    assert.equal(await deliver(), 0, 'a switched-off endpoint gets nothing');
    const on = await send('PATCH', `/affiliate/webhooks/${hook.id}`, aff1, { enabled: true });
    assert.equal(on.json<{ data: Endpoint }>().data.enabled, true);
    assert.equal(on.json<{ data: Endpoint }>().data.disabledReason, undefined);
    assert.equal(since(before).length, 0);
    await remove('affiliate', aff1, hook.id);
  });

  test('after a rotation both secrets sign for a day, then only the new one', async () => {
    const hook = await endpoint('advertiser', acme, ['conversion.created']);
    const rotated = (await send('POST', `/advertiser/webhooks/${hook.id}/rotate-secret`, acme)).json<{ data: { secret: string; previousSecretExpiresAt: string } }>().data;
    assert.notEqual(rotated.secret, hook.secret);
    let before = receiver.received.length;
    await conversion(aff1);
    await deliver();
    const [during] = since(before);
    const nowSeconds = () => Math.floor(clock.now() / 1000);
    assert.ok(verify(during!, hook.secret!, nowSeconds()) && verify(during!, rotated.secret, nowSeconds()), 'either secret verifies during the day');
    clock.advance(25 * HOUR);
    before = receiver.received.length;
    await conversion(aff1);
    await deliver();
    const [later] = since(before);
    assert.ok(verify(later!, rotated.secret, nowSeconds()));
    assert.equal(verify(later!, hook.secret!, nowSeconds()), false, 'the old secret no longer signs');
    await remove('advertiser', acme, hook.id);
  });

  test('a delivery is sent again on request, with the same event id', async () => {
    const hook = await endpoint('affiliate', aff1, ['order.created']);
    await conversion(aff1);
    await deliver();
    const [first] = await log('affiliate', aff1, hook.id);
    const before = receiver.received.length;
    const again = await send('POST', `/affiliate/webhooks/${hook.id}/deliveries/${first!.deliveryId}/redeliver`, aff1);
    assert.equal(again.statusCode, 202, again.body);
    await deliver();
    const [resent] = since(before);
    assert.equal(resent!.headers['webhook-id'], first!.eventId);
    assertError(await send('POST', `/affiliate/webhooks/${hook.id}/deliveries/nope/redeliver`, aff1), 404, 'delivery_not_found');
    await remove('affiliate', aff1, hook.id);
  });

  test('two instances on one database deliver each event once', async () => {
    const hook = await endpoint('affiliate', aff1, ['order.created']);
    for (let i = 0; i < 6; i++) await conversion(aff1);
    const other = new JobRunner(clock, { instanceId: 'other', onError: () => {} }).add(new WebhookQueue(new WebhooksRepository(h.service.database), webhookTransport({ allowLocal: true }), clock), 0);
    const before = receiver.received.length;
    const [a, b] = await Promise.all([deliver(), other.runOnce('webhooks')]);
    assert.equal(a + b, 6);
    assert.equal(new Set(since(before).map((r) => r.headers['webhook-id'])).size, 6);
    assert.equal(since(before).length, 6);
    await remove('affiliate', aff1, hook.id);
  });
});

describe('an owner pausing an endpoint while a delivery to it is under way', () => {
  test('the endpoint stays paused, whether that delivery then succeeds or fails', async () => {
    for (const [answer, outcome] of [[200, 'delivered'], [500, 'retrying']] as const) {
      const hook = await endpoint('affiliate', aff1, ['order.created']);
      let release = () => {};
      receiver.held = new Promise<void>((resolve) => (release = resolve));
      receiver.answers.push(answer);
      const before = receiver.received.length;
      await conversion(aff1);
      const delivering = deliver();
      await pollUntil(async () => receiver.received.length, (n) => n > before);
      const paused = await send('PATCH', `/affiliate/webhooks/${hook.id}`, aff1, { enabled: false });
      assert.equal(paused.json<{ data: Endpoint }>().data.enabled, false, paused.body);
      receiver.held = undefined;
      release();
      assert.equal(await delivering, 1);
      assert.deepEqual((await log('affiliate', aff1, hook.id)).map((a) => a.outcome), [outcome]);
      const state = (await send('GET', `/affiliate/webhooks/${hook.id}`, aff1)).json<{ data: Endpoint }>().data;
      assert.equal(state.enabled, false, `paused while a delivery was under way that ended ${outcome}`);
      await remove('affiliate', aff1, hook.id);
    }
  });
});

describe('a receiver answering 200, then a byte a second', () => {
  let slow: Receiver;
  before(async () => {
    slow = await startReceiver();
    slow.trickling = true;
  });
  after(async () => {
    await slow.close();
  });

  test("holds only its member's workers, until WEBHOOK_TIMEOUT_MS fails those tries saying why; another member's delivery goes on meanwhile", async () => {
    // aff-2's every endpoint at the slow receiver: one order, a delivery to each, as many as an instance's workers.
    const slowHooks: Endpoint[] = [];
    for (let i = 0; i < MAX_ENDPOINTS; i++) slowHooks.push(await endpoint('affiliate', aff2, ['order.created'], slow.url));
    const quickHook = await endpoint('affiliate', aff1, ['order.created']);
    await conversion(aff2);
    const slowDeliveries = deliver();
    const reached = await pollUntil(async () => slow.received.length, (n) => n >= PER_MEMBER);
    assert.equal(reached, PER_MEMBER);

    const before = receiver.received.length;
    const { orderId } = await conversion(aff1);
    assert.equal(await deliver(), 1, "aff-1's delivery is claimed and sent while aff-2's are under way");
    assert.equal(payloadOf(since(before)[0]!.body).data.orderId, orderId);
    assert.deepEqual((await log('affiliate', aff1, quickHook.id)).map((a) => [a.outcome, a.responseStatus]), [['delivered', 200]]);
    const slowLog = async () => (await Promise.all(slowHooks.map((hook) => log('affiliate', aff2, hook.id)))).flat();
    assert.deepEqual(await slowLog(), [], "none of aff-2's deliveries is over yet");
    assert.equal(slow.received.length, PER_MEMBER, `aff-2 holds ${PER_MEMBER} workers, not all of them`);

    // The next requests are answered at once: aff-2's other deliveries follow as its first ones are cut off.
    slow.trickling = false;
    assert.equal(await slowDeliveries, MAX_ENDPOINTS);
    const attempts = await slowLog();
    const cutOff = attempts.filter((a) => a.outcome === 'retrying');
    assert.equal(cutOff.length, PER_MEMBER);
    for (const attempt of cutOff) {
      assert.equal(attempt.responseStatus, 200);
      assert.equal(attempt.error, `answered 200, but the answer did not end within ${TIMEOUT_S} s: a delivery counts once its whole answer has come`);
      assert.equal(attempt.failure, 'timeout', 'the code pages say it with, in their reader\'s language');
    }
    assert.ok(attempts.filter((a) => a.outcome === 'delivered').every((a) => a.failure === undefined), 'an answer that came whole has no failure');
    assert.equal(attempts.filter((a) => a.outcome === 'delivered').length, MAX_ENDPOINTS - PER_MEMBER);
    for (const hook of slowHooks) await remove('affiliate', aff2, hook.id);
    await remove('affiliate', aff1, quickHook.id);
  });
});

describe('destinations that lead inside', () => {
  let strict: Harness;
  let key: string;
  before(async () => {
    // Local targets not allowed; rebind.test resolves to loopback, as a hostile DNS answer would.
    strict = await startHarness({ WEBHOOK_POLL_MS: '0' }, { clock, resolveHost: async (name) => (name === 'rebind.test' ? ['127.0.0.1'] : ['93.184.216.34']) });
    key = (await newKey(strict, 'aff-1', { rateLimit: 100_000 })).key;
  });
  after(async () => {
    await strict.close();
  });

  test('http, loopback and private addresses are refused when the endpoint is saved', async () => {
    const create = (url: string) => strict.request({ method: 'POST', url: '/affiliate/webhooks', headers: { 'x-api-key': key }, payload: { url, events: ['order.created'] } });
    assertError(await create('http://hooks.example/x'), 400, 'invalid_url');
    assertError(await create('https://127.0.0.1/x'), 400, 'invalid_url');
    assertError(await create('https://10.1.2.3/x'), 400, 'invalid_url');
    assertError(await create('https://[::1]/x'), 400, 'invalid_url');
    assertError(await create('https://169.254.169.254/latest/meta-data'), 400, 'invalid_url');
    assertError(await create('https://localhost/x'), 400, 'invalid_url');
  });

  test('a name resolving to 127.0.0.1 is refused at delivery, and the refusal is in the log', async () => {
    const res = await strict.request({ method: 'POST', url: '/affiliate/webhooks', headers: { 'x-api-key': key }, payload: { url: 'https://rebind.test/hook', events: ['order.created'] } });
    assert.equal(res.statusCode, 201, res.body);
    const hook = res.json<{ data: Endpoint }>().data;
    const brand = await brandKey(strict, BRANDS.acme);
    const reported = await report(strict, brand, { clickId: await freshClick(strict, key, BRANDS.acme), orderId: 'rebind-1', value: 1_000, items: [item(1_000)] });
    assert.equal(reported.statusCode, 201, reported.body);
    const before = receiver.received.length;
    await strict.service.services.jobs.runOnce('webhooks');
    const attempts = (await strict.request({ method: 'GET', url: `/affiliate/webhooks/${hook.id}/deliveries`, headers: { 'x-api-key': key } })).json<{ data: Attempt[] }>().data;
    assert.equal(attempts.length, 1);
    assert.equal(attempts[0]!.outcome, 'retrying');
    assert.equal(attempts[0]!.responseStatus, undefined);
    assert.equal(attempts[0]!.error, 'refused: the address of rebind.test is not public', 'what is wrong, not which machine is there');
    assert.equal(attempts[0]!.failure, 'refused');
    assert.equal(receiver.received.length, before, 'nothing reached the receiver');
  });
});
