// Lock dates: a conversion locks its brand's validation days after it was reported. Before then
// the brand approves, cancels or corrects it as always; after, 409 order_locked; and one still
// pending at its lock date is approved by the network (by scheduled work, once across instances),
// with the same webhooks as a brand's approval and its history saying who.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../helpers/harness.js';
import { BRANDS } from '../helpers/world.js';
import { affiliateOrder, brandKey, conversionOf, freshClick, item, patchStatus, report, type Conversion } from '../helpers/tracking.js';
import { ManualClock } from '../../src/lib/clock.js';

const DAY = 86_400_000;
const clock = new ManualClock();
let h: Harness;
let acme: string;
let orderNumber = 0;

before(async () => {
  h = await startHarness({ WEBHOOK_POLL_MS: '0', WEBHOOK_ALLOW_LOCAL_TARGETS: 'true' }, { clock });
  acme = await brandKey(h, BRANDS.acme);
  // The affiliate listens for approved commissions (events are kept only for an endpoint that listens).
  const endpoint = await h.post('/affiliate/webhooks', { url: 'http://127.0.0.1:9/hooks', events: ['commission.approved'] }, h.world.keys.aff1);
  assert.equal(endpoint.statusCode, 201, endpoint.body);
});
after(() => h?.close());

const profile = (body?: object) => h.request({ method: body ? 'PATCH' : 'GET', url: '/advertiser/brand', headers: { 'x-api-key': acme }, ...(body && { payload: body }) });
async function reported(): Promise<Conversion> {
  const clickId = await freshClick(h, h.world.keys.aff1, BRANDS.acme);
  return conversionOf(await report(h, acme, { clickId, orderId: `lock-${++orderNumber}`, value: 10_000, items: [item(10_000)] }), 201);
}
const conversion = async (orderId: string) => {
  const res = await h.request({ method: 'GET', url: `/advertiser/conversions/${orderId}`, headers: { 'x-api-key': acme } });
  const { data } = res.json<{ data: Conversion & { history: Array<{ field: string; to: string; by: string }> } }>();
  return { data, history: data.history };
};
const lockWork = () => h.service.services.jobs.runOnce('scheduled');

test('a conversion locks validationDays after it was reported; a later setting applies to new conversions only', async () => {
  assert.equal((await profile()).json<{ data: { validationDays: number } }>().data.validationDays, 30, 'the default');
  const before = await reported();
  assert.equal(before.lockAt, new Date(clock.now() + 30 * DAY).toISOString());
  const changed = await profile({ validationDays: 10 });
  assert.equal(changed.statusCode, 200, changed.body);
  assert.equal(changed.json<{ data: { validationDays: number } }>().data.validationDays, 10);
  const after = await reported();
  assert.equal(after.lockAt, new Date(clock.now() + 10 * DAY).toISOString());
  assert.equal((await conversion(before.orderId)).data.lockAt, before.lockAt, 'a conversion keeps the lock date it was reported with');
  const affiliateView = await affiliateOrder(h, h.world.keys.aff1, after.id);
  assert.equal(affiliateView.lockAt, after.lockAt, 'the affiliate sees the lock date too');
  for (const bad of [-1, 181, 1.5]) assert.equal((await profile({ validationDays: bad })).statusCode, 400, `validationDays ${bad}`);
});

test('after its lock date the brand can no longer change a pending order, and the network approves it once', async () => {
  await profile({ validationDays: 7 });
  const early = await reported();
  const kept = await reported();
  clock.advance(6 * DAY);
  assert.equal((await patchStatus(h, acme, kept.orderId, { value: 9_000, items: [item(9_000)] })).statusCode, 200, 'before the lock a correction goes through');
  clock.advance(2 * DAY);
  const refused = await patchStatus(h, acme, early.orderId, { status: 'approved' });
  assert.equal(refused.statusCode, 409, refused.body);
  assert.equal(refused.json<{ code: string }>().code, 'order_locked');
  assert.equal((await patchStatus(h, acme, early.orderId, { value: 5_000, items: [item(5_000)] })).statusCode, 409);

  // Two instances' lock work at the same moment approve each order once.
  await Promise.all([lockWork(), h.service.services.locks.approveLocked()]);
  const { data, history } = await conversion(early.orderId);
  assert.equal(data.status, 'approved');
  assert.equal(data.commissionStatus, 'approved');
  assert.equal(data.autoApproved, true);
  assert.deepEqual(
    history.filter((e) => e.field === 'status').map((e) => [e.to, e.by]),
    [['approved', 'network']],
  );
  const outbox = await h.service.database.db.selectFrom('webhook_events').select(['type']).where('payload', 'like', `%${early.id}%`).execute();
  assert.deepEqual(outbox.map((e) => e.type).filter((type) => type === 'commission.approved'), ['commission.approved'], 'the affiliate hears of it once, as of a brand approval');
  const corrected = await conversion(kept.orderId);
  assert.equal(corrected.data.value, 9_000);
  assert.equal(corrected.data.autoApproved, true);
});

test('a pending order canceled or approved by the brand in time is left as the brand decided', async () => {
  await profile({ validationDays: 3 });
  const approved = await reported();
  const canceled = await reported();
  assert.equal((await patchStatus(h, acme, approved.orderId, { status: 'approved' })).statusCode, 200);
  assert.equal((await patchStatus(h, acme, canceled.orderId, { status: 'canceled' })).statusCode, 200);
  clock.advance(4 * DAY);
  await lockWork();
  assert.equal((await conversion(approved.orderId)).data.autoApproved, false);
  assert.equal((await conversion(canceled.orderId)).data.status, 'canceled');
});
