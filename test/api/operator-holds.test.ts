// The fraud review queue through the operator API: a conversion reported too soon after its click
// is held and shows up with its facts (the rule and its threshold, the click, the affiliate's
// record); the operator releases one and declines another with a reason, several at once, and both
// decisions are in the audit trail under the operator's id. No member reaches the queue.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../helpers/harness.js';
import { assertError } from '../helpers/api.js';
import { operatorSession, type OperatorSession } from '../helpers/operators.js';
import { brandKey, clickAs, createLink, item, report } from '../helpers/tracking.js';
import { BRANDS } from '../helpers/world.js';
import { ManualClock } from '../../src/lib/clock.js';

const clock = new ManualClock(Date.parse('2026-11-10T10:00:00.000Z'));
let h: Harness;
let operator: OperatorSession;
let acme: string;
let visitor = 0;

before(async () => {
  h = await startHarness({ FRAUD_MIN_CLICK_TO_ORDER_SECONDS: '10' }, { clock });
  operator = await operatorSession(h, clock.now());
  acme = await brandKey(h, BRANDS.acme);
});
after(() => h?.close());

const asOperator = (method: 'GET' | 'POST', url: string, payload?: object) => h.request({ method, url, headers: operator.headers, remoteAddress: '203.0.113.60', ...(payload && { payload }) });
const dataOf = <T>(res: { statusCode: number; body: string; json<U>(): U }): T => {
  assert.equal(res.statusCode, 200, res.body);
  return res.json<{ data: T }>().data;
};

/** A conversion reported two seconds after its click: held (click to order too fast). */
async function heldConversion(orderId: string): Promise<string> {
  const { code } = await createLink(h, h.world.keys.aff1, BRANDS.acme);
  const clickId = await clickAs(h, code, { ip: `198.18.0.${++visitor}` });
  clock.advance(2_000);
  const res = await report(h, acme, { clickId, orderId, value: 10_000, items: [item(10_000)] });
  assert.equal(res.statusCode, 201, res.body);
  const conversion = res.json<{ data: { id: string; commissionStatus: string } }>().data;
  assert.equal(conversion.commissionStatus, 'held');
  return conversion.id;
}

type Held = { id: string; orderId: string; holdReasons: string[]; rules: Array<Record<string, unknown>>; click?: { at?: string }; affiliateRecord: { orders: number } };

test('held conversions show up with the facts of their hold; released and declined at once, each decision audited', async () => {
  const first = await heldConversion('HOLD-A');
  const second = await heldConversion('HOLD-B');
  const queue = dataOf<Held[]>(await asOperator('GET', '/operator/holds?affiliateId=aff-1'));
  const a = queue.find((q) => q.id === first)!;
  assert.deepEqual(a.holdReasons, ['click_to_order_too_fast']);
  assert.equal(a.rules[0]!.rule, 'click_to_order_too_fast');
  assert.equal(a.rules[0]!.minimumSeconds, 10, 'the operator sees the threshold');
  assert.ok(a.click?.at, 'the click’s time');
  assert.ok(a.affiliateRecord.orders >= 2);
  assert.deepEqual(dataOf<Held[]>(await asOperator('GET', '/operator/holds?affiliateId=aff-2')), []);

  assertError(await asOperator('POST', '/operator/holds/decisions', { orderIds: [second], decision: 'decline' }), 422, 'reason_required');
  const released = dataOf<Array<{ id: string; outcome: string; commissionStatus?: string; lockAt?: string }>>(await asOperator('POST', '/operator/holds/decisions', { orderIds: [first, 'no-such-order'], decision: 'release' }));
  assert.deepEqual(released.map((d) => [d.id, d.outcome]), [[first, 'released'], ['no-such-order', 'not_found']]);
  const declined = dataOf<Array<{ id: string; outcome: string }>>(await asOperator('POST', '/operator/holds/decisions', { orderIds: [second, first], decision: 'decline', reason: 'Same device as the affiliate' }));
  assert.deepEqual(declined.map((d) => [d.id, d.outcome]), [[second, 'declined'], [first, 'not_held']]);

  const conversion = async (orderId: string) => dataOf<{ commissionStatus: string; commissionReason?: string }>(await h.request({ method: 'GET', url: `/advertiser/conversions/${orderId}`, headers: { 'x-api-key': acme } }));
  assert.equal((await conversion('HOLD-A')).commissionStatus, 'pending');
  const declinedOrder = await conversion('HOLD-B');
  assert.deepEqual([declinedOrder.commissionStatus, declinedOrder.commissionReason], ['canceled', 'fraud_declined']);

  type Entry = { action: string; actor: { kind: string; id?: string }; address?: string; subject: { id: string }; reason?: string };
  const trail = dataOf<Entry[]>(await asOperator('GET', '/operator/audit?action=order.&limit=200'));
  const about = (id: string) => trail.filter((e) => e.subject.id === id).map((e) => [e.action, e.actor.kind]);
  assert.deepEqual(about(first).sort(), [['order.held', 'network'], ['order.hold_released', 'operator']].sort());
  assert.deepEqual(about(second).sort(), [['order.held', 'network'], ['order.hold_declined', 'operator']].sort());
  const decline = trail.find((e) => e.subject.id === second && e.actor.kind === 'operator')!;
  assert.deepEqual([decline.actor.id, decline.address, decline.reason], [operator.userId, '203.0.113.60', 'Same device as the affiliate']);
});

test('no member reaches the queue', async () => {
  assertError(await h.request({ method: 'GET', url: '/operator/holds', headers: { 'x-api-key': h.world.keys.aff1 } }), 403, 'forbidden');
  assertError(await h.request({ method: 'POST', url: '/operator/holds/decisions', headers: { 'x-api-key': acme }, payload: { orderIds: ['x'], decision: 'release' } }), 403, 'forbidden');
});
