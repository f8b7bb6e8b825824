// Webhook events, deliveries and the delivery log past WEBHOOK_RETENTION_DAYS are deleted: the
// owner's log keeps the recent attempts, an aged delivery can no longer be sent again, and a
// recent redelivery of an older event keeps that event until it is sent.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../src/lib/clock.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { BRANDS } from '../helpers/world.js';
import { assertError, newKey } from '../helpers/api.js';
import { brandKey, freshClick, item, report } from '../helpers/tracking.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';

type Attempt = { deliveryId: string; eventId: string; outcome: string };

const clock = new ManualClock('2025-11-05T10:00:00.000Z');
let h: Harness;
let receiver: Receiver;
let aff: string;
let acme: string;
let seq = 0;

before(async () => {
  h = await startHarness({ WEBHOOK_ALLOW_LOCAL_TARGETS: 'true', WEBHOOK_POLL_MS: '0', WEBHOOK_RETENTION_DAYS: '30' }, { clock });
  receiver = await startReceiver();
  aff = (await newKey(h, 'aff-1', { rateLimit: 100_000 })).key;
  acme = await brandKey(h, BRANDS.acme);
  // The prune the service starts with must be over before the clock moves: one still running
  // when it does would take its cutoff from a later date and delete what this test counts on.
  await h.service.services.retention.webhooks.prune();
});
after(async () => {
  await h.close();
  await receiver.close();
});

const deliveryLog = async (endpointId: string) => {
  const res = await h.request({ method: 'GET', url: `/affiliate/webhooks/${endpointId}/deliveries?limit=100`, headers: { 'x-api-key': aff } });
  assert.equal(res.statusCode, 200, res.body);
  return res.json<{ data: Attempt[] }>().data;
};
const redeliver = (endpointId: string, deliveryId: string) =>
  h.request({ method: 'POST', url: `/affiliate/webhooks/${endpointId}/deliveries/${deliveryId}/redeliver`, headers: { 'x-api-key': aff } });
/** An order for a fresh click, so an order.created event; delivered at once; its log entry. */
async function orderDelivered(endpointId: string): Promise<Attempt> {
  const res = await report(h, acme, { clickId: await freshClick(h, aff, BRANDS.acme), orderId: `retained-${++seq}`, value: 1000, items: [item(1000)] });
  assert.equal(res.statusCode, 201, res.body);
  assert.equal(await h.service.services.jobs.runOnce('webhooks'), 1);
  return (await deliveryLog(endpointId))[0]!;
}
const outboxRows = async () => {
  const { db } = h.service.database;
  const count = async (table: 'webhook_events' | 'webhook_deliveries' | 'webhook_attempts') => Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  return { events: await count('webhook_events'), deliveries: await count('webhook_deliveries'), attempts: await count('webhook_attempts') };
};

test('a prune deletes the outbox and log past the retention and keeps what a recent redelivery needs', async () => {
  const created = await h.request({ method: 'POST', url: '/affiliate/webhooks', headers: { 'x-api-key': aff }, payload: { url: receiver.url, events: ['order.created'] } });
  assert.equal(created.statusCode, 201, created.body);
  const endpointId = created.json<{ data: { id: string } }>().data.id;

  const aged = await orderDelivered(endpointId); // 2025-11-05
  clock.set('2025-12-20T10:00:00.000Z');
  const older = await orderDelivered(endpointId); // 41 days before the prune: past retention
  clock.set('2026-01-10T10:00:00.000Z');
  const redelivered = await orderDelivered(endpointId); // sent again on the day of the prune
  clock.set('2026-01-30T10:00:00.000Z');
  const again = await redeliver(endpointId, redelivered.deliveryId);
  assert.equal(again.statusCode, 202, again.body);
  assert.equal(await h.service.services.jobs.runOnce('webhooks'), 1);
  const recent = await orderDelivered(endpointId); // 2026-01-30
  clock.set('2026-02-04T10:00:00.000Z');
  assert.deepEqual(await outboxRows(), { events: 4, deliveries: 5, attempts: 5 });

  // Cutoff 2026-01-05: the November and the December event, delivery and log entry go; January's stay.
  assert.equal(await h.service.services.retention.webhooks.prune(), 6);
  assert.deepEqual(await outboxRows(), { events: 2, deliveries: 3, attempts: 3 });
  const log = await deliveryLog(endpointId);
  assert.deepEqual(log.map((a) => a.eventId).sort(), [redelivered.eventId, redelivered.eventId, recent.eventId].sort(), 'the log keeps the last 30 days');
  assertError(await redeliver(endpointId, aged.deliveryId), 404, 'delivery_not_found');
  assertError(await redeliver(endpointId, older.deliveryId), 404, 'delivery_not_found');

  clock.set('2026-02-15T10:00:00.000Z'); // the January 10 event is now past retention, its redelivery (January 30) not
  await h.service.services.retention.webhooks.prune();
  // SQLite deletes row by row: the January 10 delivery and log entry go, its event stays while the
  // recent redelivery refers to it. PostgreSQL drops whole months: January stays until it has all
  // passed the retention.
  const left = h.service.database.dialect === 'postgres' ? { events: 2, deliveries: 3, attempts: 3 } : { events: 2, deliveries: 2, attempts: 2 };
  assert.deepEqual(await outboxRows(), left);
  const resent = await redeliver(endpointId, (await deliveryLog(endpointId)).find((a) => a.eventId === redelivered.eventId)!.deliveryId);
  assert.equal(resent.statusCode, 202, resent.body);
  const before = receiver.received.length;
  assert.equal(await h.service.services.jobs.runOnce('webhooks'), 1);
  assert.equal(receiver.received[before]?.headers['webhook-id'], redelivered.eventId, 'sent with its event');
});
