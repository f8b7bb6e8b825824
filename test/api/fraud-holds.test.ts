// Fraud holds: a seeded stream of conversions trips each rule exactly where its threshold says
// (at the threshold: not held; past it: held), the held commission never locks, is never billed
// nor paid, the brand may still cancel it but not approve it, and an operator releases or
// declines it. Affiliate and brand are told without the thresholds.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHarness, type Harness } from '../helpers/harness.js';
import { BRANDS } from '../helpers/world.js';
import { affiliateOrder, brandKey, clickAs, clicksSummed, conversionOf, createLink, item, patchStatus, postback, report, type Conversion } from '../helpers/tracking.js';
import { writeAsnDatabase } from '../helpers/mmdb.js';
import { ManualClock } from '../../src/lib/clock.js';
import { openRepositories } from '../../src/storage/repositories/index.js';
import type { Actor } from '../../src/domain/audit/audit-entry.js';
import type { Order } from '../../src/schemas/order.js';
import { CLI } from '../../src/domain/audit/audit-entry.js';

const DAY = 86_400_000;
const SECOND = 1000;
// The next UTC day, 01:00: each scenario below takes a day of its own (the rate rules count per day).
const clock = new ManualClock(Math.floor(Date.now() / DAY) * DAY + DAY + 3_600_000);
const dir = mkdtempSync(join(tmpdir(), 'affnet-holds-'));
const asnDatabase = join(dir, 'asn.mmdb');
const datacenters = join(dir, 'datacenters.txt');
writeAsnDatabase(asnDatabase, [
  ['203.0.113.0/24', 64500, 'Cloudy Hosting'],
  ['192.0.2.0/24', 64501, 'Home Broadband'],
]);
writeFileSync(datacenters, '# data centres\nAS64500\n64502\n');

const OPERATOR: Actor = { kind: 'operator', userId: 'usr_operator1', address: '203.0.113.250' };

let h: Harness;
let acme: string;
let globex: string;
let orderNumber = 0;
let visitor = 0;

before(async () => {
  h = await startHarness(
    {
      WEBHOOK_POLL_MS: '0',
      WEBHOOK_ALLOW_LOCAL_TARGETS: 'true',
      FRAUD_MIN_CLICK_TO_ORDER_SECONDS: '10',
      FRAUD_MAX_CONVERSION_RATE_BP: '5000',
      FRAUD_MIN_CLICKS: '4',
      FRAUD_MAX_CONVERSIONS_PER_CLICK: '2',
      FRAUD_MAX_DATACENTER_SHARE_BP: '5000',
      ASN_DATABASE: asnDatabase,
      DATACENTER_ASNS_FILE: datacenters,
    },
    { clock },
  );
  acme = await brandKey(h, BRANDS.acme);
  globex = await brandKey(h, BRANDS.globex);
  // Events are kept only for endpoints that listen.
  for (const key of [h.world.keys.aff1, h.world.keys.aff2]) {
    const res = await h.post('/affiliate/webhooks', { url: 'http://127.0.0.1:9/hooks', events: ['order.created', 'order.updated', 'commission.held', 'commission.canceled'] }, key);
    assert.equal(res.statusCode, 201, res.body);
  }
  const brandHook = await h.post('/advertiser/webhooks', { url: 'http://127.0.0.1:9/hooks', events: ['conversion.created', 'conversion.updated'] }, acme);
  assert.equal(brandHook.statusCode, 201, brandHook.body);
  await h.service.services.users.create({ affiliateId: 'aff-1' }, 'Owner@Aff1.example', 'owner');
  const { user } = await h.service.services.users.create({ affiliateId: 'aff-2' }, 'owner@aff2.example', 'owner');
  await openRepositories(h.service.database).users.setLanguage(user.id, 'pt-BR', clock.iso());
});
after(async () => {
  await h?.close();
});

/** The next UTC day, 01:00. */
function nextDay(): void {
  clock.set(Math.floor(clock.now() / DAY) * DAY + DAY + 3_600_000);
}

/** A counted click on the link from an address of its own (or the one given). */
async function click(code: string, ip?: string): Promise<string> {
  visitor++;
  return clickAs(h, code, { ip: ip ?? `198.18.${visitor >> 8}.${visitor & 255}` });
}

/** Stores the clicks and adds them to the rollups the rules read. */
async function summed(): Promise<void> {
  await h.service.services.tracking.flushClicks();
  await clicksSummed(h);
}

async function reported(key: string, clickId: string, extra: object = {}): Promise<Conversion> {
  return conversionOf(await report(h, key, { clickId, orderId: `hold-${++orderNumber}`, value: 10_000, items: [item(10_000)], ...extra }), 201);
}

const history = async (key: string, orderId: string) => {
  const res = await h.request({ method: 'GET', url: `/advertiser/conversions/${orderId}`, headers: { 'x-api-key': key } });
  assert.equal(res.statusCode, 200, res.body);
  return res.json<{ data: Conversion & { history: Array<{ field: string; from?: string; to: string; by: string }> } }>().data;
};

const eventsOf = async (networkId: string) =>
  (await h.service.database.db.selectFrom('webhook_events').select(['type', 'owner_kind', 'payload']).where('payload', 'like', `%${networkId}%`).orderBy('created_at').execute()).map((e) => ({
    type: `${e.owner_kind}:${e.type}`,
    payload: e.payload,
  }));

const mailTo = (address: string) => h.service.database.db.selectFrom('mail_messages').select(['template', 'locale', 'params']).where('to_address', '=', address).orderBy('id').execute();

test('click to order: a conversion sooner than FRAUD_MIN_CLICK_TO_ORDER_SECONDS after its click is held, one at the threshold is not', async () => {
  nextDay();
  const { code } = await createLink(h, h.world.keys.aff1, BRANDS.acme);
  const fast = await click(code);
  clock.advance(10 * SECOND - 1);
  const held = await reported(acme, fast);
  assert.equal(held.commissionStatus, 'held');
  assert.deepEqual(held.holdReasons, ['click_to_order_too_fast']);
  assert.equal(held.status, 'pending', 'the order itself is the brand’s: pending');

  const inTime = await click(code);
  clock.advance(10 * SECOND);
  const pending = await reported(acme, inTime);
  assert.equal(pending.commissionStatus, 'pending');
  assert.equal(pending.holdReasons, undefined, 'a conversion never held has no holdReasons');

  // An order time given by the brand counts, not the time it is reported.
  const late = await click(code);
  clock.advance(60 * SECOND);
  const early = await reported(acme, late, { createdAt: new Date(clock.now() - 55 * SECOND).toISOString() });
  assert.deepEqual(early.holdReasons, ['click_to_order_too_fast']);

  // The affiliate sees the hold and its reason, never the numbers.
  const view = await affiliateOrder(h, h.world.keys.aff1, held.id);
  assert.equal(view.commissionStatus, 'held');
  assert.deepEqual(view.holdReasons, ['click_to_order_too_fast']);
  const listed = await h.get('/affiliate/orders?commissionStatus=held&limit=100', h.world.keys.aff1);
  assert.equal(listed.statusCode, 200, listed.body);
  assert.ok(listed.json<Array<{ data: Order }>>().some((o) => o.data.id === held.id));
  const brandList = await h.get('/advertiser/conversions?commissionStatus=held', acme);
  assert.equal(brandList.statusCode, 200, brandList.body);
  assert.ok(brandList.body.includes(held.id));
  const balance = await h.get('/affiliate/balance', h.world.keys.aff1);
  const brl = balance.json<{ data: Array<{ currency: string; held: { orders: number; commission: number } }> }>().data.find((b) => b.currency === held.currency)!;
  assert.equal(brl.held.orders, 2);
  assert.equal(brl.held.commission, held.commission + early.commission);
});

test('conversions per click: more than FRAUD_MAX_CONVERSIONS_PER_CLICK on one click are held', async () => {
  nextDay();
  const { code } = await createLink(h, h.world.keys.aff1, BRANDS.acme);
  const clickId = await click(code);
  clock.advance(30 * SECOND);
  assert.equal((await reported(acme, clickId)).commissionStatus, 'pending');
  assert.equal((await reported(acme, clickId)).commissionStatus, 'pending', 'the second, at the threshold');
  const third = await reported(acme, clickId);
  assert.equal(third.commissionStatus, 'held');
  assert.deepEqual(third.holdReasons, ['conversions_per_click']);
});

test("conversion rate: an affiliate's conversions per counted click on a brand within the day over FRAUD_MAX_CONVERSION_RATE_BP, from FRAUD_MIN_CLICKS", async () => {
  nextDay();
  const { code } = await createLink(h, h.world.keys.aff1, BRANDS.globex);
  const clicks = [await click(code), await click(code), await click(code)];
  await summed();
  clock.advance(30 * SECOND);
  // 2 conversions on 3 clicks (6,667 bp), but fewer clicks than FRAUD_MIN_CLICKS: not counted yet.
  assert.equal((await reported(globex, clicks[0]!)).commissionStatus, 'pending');
  assert.equal((await reported(globex, clicks[1]!)).commissionStatus, 'pending');
  clicks.push(await click(code));
  await summed();
  clock.advance(30 * SECOND);
  // 3 on 4 (7,500 bp): held.
  const over = await reported(globex, clicks[2]!);
  assert.deepEqual(over.holdReasons, ['conversion_rate']);
  for (let i = 0; i < 4; i++) clicks.push(await click(code));
  await summed();
  clock.advance(30 * SECOND);
  // 4 on 8: exactly 5,000 bp, not over.
  assert.equal((await reported(globex, clicks[3]!)).commissionStatus, 'pending');
  // 5 on 8 (6,250 bp): held.
  assert.deepEqual((await reported(globex, clicks[4]!)).holdReasons, ['conversion_rate']);
  // Another day starts afresh.
  nextDay();
  const tomorrow = await click(code);
  clock.advance(30 * SECOND);
  assert.equal((await reported(globex, tomorrow)).commissionStatus, 'pending');
});

test("data-centre traffic: an affiliate's day with more than FRAUD_MAX_DATACENTER_SHARE_BP of its counted clicks from data-centre networks", async () => {
  nextDay();
  const { code } = await createLink(h, h.world.keys.aff2, BRANDS.acme);
  const home = [await click(code, '192.0.2.10'), await click(code, '192.0.2.11')];
  const cloud = [await click(code, '203.0.113.10'), await click(code, '203.0.113.11')];
  await summed();
  const stored = await h.service.database.db.selectFrom('clicks').select(['id', 'asn', 'country']).where('id', 'in', [...home, ...cloud]).orderBy('id').execute();
  assert.deepEqual(stored.map((c) => c.asn).sort(), [64500, 64500, 64501, 64501], 'the click writer stores each click’s network');
  clock.advance(30 * SECOND);
  // 2 of 4 (5,000 bp): at the threshold.
  assert.equal((await reported(acme, home[0]!)).commissionStatus, 'pending');
  cloud.push(await click(code, '203.0.113.12'));
  await summed();
  clock.advance(30 * SECOND);
  // 3 of 5 (6,000 bp): held, whichever click the conversion came from.
  const held = await reported(acme, home[1]!);
  assert.deepEqual(held.holdReasons, ['datacenter_traffic']);
  const queue = await h.service.services.holds.list({ affiliateId: 'aff-2' }, { page: 1, limit: 10 });
  const entry = queue.items.find((i) => i.id === held.id)!;
  assert.deepEqual(entry.rules, [{ rule: 'datacenter_traffic', day: clock.iso().slice(0, 10), datacenterClicks: 3, countedClicks: 5, shareBp: 6000, maximumBp: 5000, minimumClicks: 4 }]);
  assert.equal(entry.click?.asn, 64501);
  assert.equal(entry.click?.datacenter, false);
  // The owner was told in their language, of the commission, without a threshold.
  const mail = (await mailTo('owner@aff2.example')).filter((m) => m.template === 'commission-held');
  assert.equal(mail.length, 1);
  assert.equal(mail[0]!.locale, 'pt-BR');
  assert.doesNotMatch(mail[0]!.params ?? '', /5000|6000|datacenter/);
});

test("self-referral: the customer's emailHash matching one of the affiliate's users holds the conversion; only an HMAC of it is kept", async () => {
  nextDay();
  const { code } = await createLink(h, h.world.keys.aff1, BRANDS.acme);
  const own = createHash('sha256').update(' Owner@Aff1.example '.trim().toLowerCase()).digest('hex');
  const stranger = createHash('sha256').update('someone@elsewhere.example').digest('hex');
  const first = await click(code);
  const second = await click(code);
  const third = await click(code);
  clock.advance(30 * SECOND);
  const held = await reported(acme, first, { customer: { isNew: true, emailHash: own.toUpperCase() } });
  assert.deepEqual(held.holdReasons, ['self_referral']);
  assert.deepEqual(held.customer, { isNew: true });
  const fine = await reported(acme, second, { customer: { emailHash: stranger } });
  assert.equal(fine.commissionStatus, 'pending');
  assert.equal(fine.customer, undefined);
  const byPostback = conversionOf(await postback(h, { clickId: third, orderId: `hold-${++orderNumber}`, value: 5000, token: acme, customerEmailHash: own, customerIsNew: 'false' }), 201);
  assert.deepEqual(byPostback.holdReasons, ['self_referral']);
  assert.deepEqual(byPostback.customer, { isNew: false });
  const bad = await report(h, acme, { clickId: third, orderId: 'bad-hash', value: 100, items: [item(100)], customer: { emailHash: 'owner@aff1.example' } });
  assert.equal(bad.statusCode, 400, bad.body);

  const rows = await h.service.database.db.selectFrom('orders').select(['customer_hash']).where('id', 'in', [held.id, fine.id]).execute();
  for (const row of rows) {
    assert.match(row.customer_hash ?? '', /^[0-9a-f]{64}$/);
    assert.notEqual(row.customer_hash, own);
    assert.notEqual(row.customer_hash, stranger);
  }
  const told = [...(await eventsOf(held.id)).map((e) => e.payload), JSON.stringify(await history(acme, held.orderId)), JSON.stringify(await affiliateOrder(h, h.world.keys.aff1, held.id))].join('\n');
  assert.ok(!told.includes(own) && !told.includes(own.toUpperCase()), 'emailHash is never returned nor sent');
});

test('a hold is told: commission.held and mail to the affiliate, conversion.updated to the brand, an audit entry; none with a threshold', async () => {
  nextDay();
  const { code } = await createLink(h, h.world.keys.aff1, BRANDS.acme);
  const clickId = await click(code);
  clock.advance(2 * SECOND);
  const held = await reported(acme, clickId);
  const events = await eventsOf(held.id);
  assert.deepEqual(
    events.map((e) => e.type),
    ['affiliate:order.created', 'brand:conversion.created', 'affiliate:commission.held', 'brand:conversion.updated'],
  );
  for (const event of events) {
    const data = (JSON.parse(event.payload) as { data: { commissionStatus: string; holdReasons: string[] } }).data;
    assert.equal(data.commissionStatus, 'held');
    assert.deepEqual(data.holdReasons, ['click_to_order_too_fast']);
    assert.doesNotMatch(event.payload, /minimumSeconds|"seconds"|maximum/);
  }
  const mail = (await mailTo('Owner@Aff1.example'.toLowerCase())).filter((m) => m.template === 'commission-held');
  assert.ok(mail.length >= 1);
  assert.equal(mail.at(-1)!.locale, 'en');
  const audit = await h.service.database.db.selectFrom('audit_entries').selectAll().where('subject_id', '=', held.id).execute();
  assert.deepEqual(
    audit.map((a) => [a.action, a.actor_kind, a.affiliate_id, a.brand_id]),
    [['order.held', 'network', 'aff-1', BRANDS.acme]],
  );
  assert.doesNotMatch(audit[0]!.after ?? '', /seconds/);
});

test('a held commission never locks and is never billed or paid; the brand may cancel it, not approve it', async () => {
  nextDay();
  const { code } = await createLink(h, h.world.keys.aff1, BRANDS.acme);
  const c1 = await click(code);
  const c2 = await click(code);
  const c3 = await click(code);
  const held = await reported(acme, c1);
  const refunded = await reported(acme, c2);
  clock.advance(20 * SECOND);
  const control = await reported(acme, c3);
  assert.equal(held.commissionStatus, 'held');
  assert.equal(control.commissionStatus, 'pending');

  const approve = await patchStatus(h, acme, held.orderId, { status: 'approved' });
  assert.equal(approve.statusCode, 409, approve.body);
  assert.equal(approve.json<{ code: string }>().code, 'commission_held');
  // A correction goes through, the commission recomputed, still held.
  const corrected = await patchStatus(h, acme, held.orderId, { value: 8_000, items: [item(8_000)] });
  assert.equal(corrected.statusCode, 200, corrected.body);
  assert.equal(corrected.json<{ data: Conversion }>().data.commissionStatus, 'held');

  // Past the lock date: the network approves the control, not the held one; the brand may still cancel.
  clock.advance(31 * DAY);
  await h.service.services.jobs.runOnce('scheduled');
  assert.equal((await history(acme, control.orderId)).commissionStatus, 'approved');
  const stillHeld = await history(acme, held.orderId);
  assert.equal(stillHeld.status, 'pending');
  assert.equal(stillHeld.commissionStatus, 'held');
  const lateApproval = await patchStatus(h, acme, held.orderId, { status: 'approved' });
  assert.equal(lateApproval.json<{ code: string }>().code, 'commission_held', 'held, not locked');
  const refund = await patchStatus(h, acme, refunded.orderId, { status: 'canceled' });
  assert.equal(refund.statusCode, 200, refund.body);
  assert.equal(refund.json<{ data: Conversion }>().data.commissionStatus, 'canceled');
  assert.equal((await h.service.services.holds.list({}, { page: 1, limit: 500 })).items.some((i) => i.id === refunded.id), false, 'a canceled order leaves the queue');
  assert.deepEqual((await h.service.services.holds.release(OPERATOR, [refunded.id])).map((d) => d.outcome), ['not_held']);

  // The month's statement bills the control, not the held commission.
  const month = control.lockAt.slice(0, 7);
  const monthEnd = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 1));
  clock.set(monthEnd.getTime() + 3_600_000);
  const statements = await h.service.services.statements.issue(month);
  const billed = await h.service.database.db.selectFrom('orders').select(['id', 'statement_id', 'commission_status', 'payout_id']).where('id', 'in', [held.id, control.id]).execute();
  const byId = new Map(billed.map((o) => [o.id, o]));
  assert.ok(statements.length > 0);
  assert.ok(byId.get(control.id)!.statement_id, 'the control is billed');
  assert.equal(byId.get(held.id)!.statement_id, null, 'the held commission is not');
  for (const statement of statements) await h.service.services.statements.recordPayment(statement.id, statement.total, `TX-${statement.id}`, CLI);
  await h.service.services.payoutRuns.run({ affiliateId: 'aff-1', actor: CLI });
  const after = await h.service.database.db.selectFrom('orders').select(['commission_status', 'payout_id', 'paid_at']).where('id', '=', held.id).executeTakeFirstOrThrow();
  assert.deepEqual(after, { commission_status: 'held', payout_id: null, paid_at: null }, 'never paid');
});

test('an operator releases held commissions (pending, locking from the release) and declines others (canceled, fraud_declined), several at once', async () => {
  nextDay();
  const { code } = await createLink(h, h.world.keys.aff1, BRANDS.acme);
  const clicks = [await click(code), await click(code), await click(code)];
  const [a, b, c] = [await reported(acme, clicks[0]!), await reported(acme, clicks[1]!), await reported(acme, clicks[2]!)];
  const queue = await h.service.services.holds.list({ affiliateId: 'aff-1', brandId: BRANDS.acme }, { page: 1, limit: 500 });
  const entry = queue.items.find((i) => i.id === a.id)!;
  assert.equal(entry.orderId, a.orderId);
  assert.equal(entry.click?.id, clicks[0]);
  assert.equal(entry.click?.device, 'desktop');
  assert.equal(entry.rules[0]!.rule, 'click_to_order_too_fast');
  assert.ok(entry.affiliateRecord.everHeld >= 3);
  assert.ok((entry.affiliateRecord.byCommissionStatus.held ?? 0) >= 3);

  await assert.rejects(h.service.services.holds.decline(OPERATOR, [b.id], '  '), /reason/);
  clock.advance(DAY);
  const released = await h.service.services.holds.release(OPERATOR, [a.id, 'no-such-order'], 'the customer called us');
  assert.deepEqual(
    released.map((d) => [d.id, d.outcome]),
    [
      [a.id, 'released'],
      ['no-such-order', 'not_found'],
    ],
  );
  const afterRelease = await history(acme, a.orderId);
  assert.equal(afterRelease.commissionStatus, 'pending');
  assert.equal(afterRelease.lockAt, new Date(clock.now() + 30 * DAY).toISOString(), "the brand's validation days from the release");
  assert.deepEqual(afterRelease.holdReasons, ['click_to_order_too_fast'], 'why it was held stays');
  assert.deepEqual(
    afterRelease.history.filter((e) => e.field === 'commissionStatus').map((e) => [e.from, e.to, e.by]),
    [['held', 'pending', 'operator']],
  );
  const approve = await patchStatus(h, acme, a.orderId, { status: 'approved' });
  assert.equal(approve.statusCode, 200, 'released, the brand approves it as any other');

  const declined = await h.service.services.holds.decline(OPERATOR, [b.id, c.id, a.id], 'Orders placed from the affiliate’s own device');
  assert.deepEqual(
    declined.map((d) => d.outcome),
    ['declined', 'declined', 'not_held'],
  );
  const view = await affiliateOrder(h, h.world.keys.aff1, b.id);
  assert.equal(view.commissionStatus, 'canceled');
  assert.equal(view.commission, 0);
  assert.equal(view.commissionReason, 'fraud_declined');
  assert.deepEqual(view.holdReasons, ['click_to_order_too_fast']);
  assert.deepEqual(
    (await eventsOf(b.id)).map((e) => e.type).slice(-3),
    ['affiliate:order.updated', 'brand:conversion.updated', 'affiliate:commission.canceled'],
  );
  const audit = await h.service.database.db.selectFrom('audit_entries').select(['action', 'actor_kind', 'actor_id', 'address', 'reason']).where('subject_id', 'in', [a.id, b.id]).orderBy('id').execute();
  assert.deepEqual(
    audit.map((e) => [e.action, e.actor_kind, e.actor_id, e.address, e.reason]),
    [
      ['order.held', 'network', null, null, null],
      ['order.held', 'network', null, null, null],
      ['order.hold_released', 'operator', 'usr_operator1', '203.0.113.250', 'the customer called us'],
      // The brand's approval of the released order is a brand decision, under its key.
      ['conversion.approved', 'brand', (await h.service.services.access.resolveKey(acme))!.keyId, '127.0.0.1', null],
      ['order.hold_declined', 'operator', 'usr_operator1', '203.0.113.250', 'Orders placed from the affiliate’s own device'],
    ],
  );
  const resolved = (await mailTo('owner@aff1.example')).filter((m) => m.template === 'commission-hold-resolved').map((m) => JSON.parse(m.params ?? '{}') as { outcome: string; orderId: string; reason?: string });
  assert.deepEqual(resolved.find((m) => m.orderId === b.orderId), { account: 'Acme', orderId: b.orderId, amount: b.commission, currency: b.currency, outcome: 'declined', reason: 'Orders placed from the affiliate’s own device', url: 'http://go.test/app/orders' });
  // A declined commission stays canceled whatever the brand does with the order.
  assert.equal((await patchStatus(h, acme, b.orderId, { status: 'approved' })).json<{ data: Conversion }>().data.commissionStatus, 'canceled');
});

/** The brand's publishable key, made once: the tag's reports carry it. */
let publishableKey: string | undefined;
async function tagKey(): Promise<string> {
  if (publishableKey) return publishableKey;
  const res = await h.request({ method: 'POST', url: '/advertiser/tag/publishable-key', headers: { 'x-api-key': acme } });
  assert.equal(res.statusCode, 201, res.body);
  publishableKey = res.json<{ data: { publishableKey: string } }>().data.publishableKey;
  return publishableKey;
}

/** An order as the tag sends it, here without an Origin (as from a script of anyone's): the answer of the public route. */
async function tagReported(orderId: string, clickId: string, value = 10_000): Promise<{ outcome: string }> {
  const res = await h.request({ method: 'POST', url: '/track/conversions', payload: JSON.stringify({ key: await tagKey(), orderId, value, clickId }), headers: { 'content-type': 'text/plain' }, remoteAddress: `192.0.2.${++visitor % 250}` });
  assert.equal(res.statusCode, 202, res.body);
  return res.json<{ data: { outcome: string } }>().data;
}

const affiliateHas = async (key: string, networkId: string) => (await h.get(`/affiliate/orders/${networkId}`, key)).statusCode === 200;

/** The events of an order, each as `owner:type`, grouped by the moment they were made (sorted within one). */
async function eventsTo(networkId: string): Promise<string[][]> {
  const rows = await h.service.database.db.selectFrom('webhook_events').select(['type', 'owner_kind', 'owner_id', 'created_at']).where('payload', 'like', `%${networkId}%`).orderBy('created_at').execute();
  const moments = new Map<string, string[]>();
  for (const e of rows) moments.set(e.created_at, [...(moments.get(e.created_at) ?? []), `${e.owner_kind === 'brand' ? 'brand' : e.owner_id}:${e.type}`]);
  return [...moments.values()].map((types) => types.sort());
}

test("the brand's server takes over an order the tag reported and a rule held: the server's click, affiliate and values, the hold judged again on them", async () => {
  nextDay();
  // Someone clicks their own link and at once reports, with the tag's public key, an order id the shop will use: held (too fast).
  const own = await createLink(h, h.world.keys.aff1, BRANDS.acme);
  const attackerClick = await click(own.code);
  const orderId = `hold-${++orderNumber}`;
  assert.deepEqual(await tagReported(orderId, attackerClick), { orderId, outcome: 'recorded' });
  const taken = await history(acme, orderId);
  assert.equal(taken.commissionStatus, 'held');
  assert.equal(taken.affiliateId, 'aff-1');

  // The customer came through another affiliate's link and bought a minute later; the shop's server reports it.
  const real = await createLink(h, h.world.keys.aff2, BRANDS.acme);
  const customerClick = await click(real.code);
  clock.advance(60 * SECOND);
  const server = conversionOf(await report(h, acme, { clickId: customerClick, orderId, value: 12_000, items: [item(12_000)] }), 200);
  assert.equal(server.affiliateId, 'aff-2');
  assert.equal(server.clickId, customerClick);
  assert.equal(server.source, 'api');
  assert.equal(server.value, 12_000);
  assert.equal(server.commissionStatus, 'pending', 'the server’s facts trip no rule');
  assert.equal(server.holdReasons, undefined, 'the hold was of facts the order no longer has');
  assert.equal(server.createdAt, clock.iso(), 'the order’s time is the server’s report’s');
  assert.equal(server.lockAt, new Date(clock.now() + 30 * DAY).toISOString(), 'the brand’s validation days from the end of the hold');
  assert.ok(server.commission > 0);

  const { history: trail } = await history(acme, orderId);
  const changes = Object.fromEntries(trail.filter((e) => e.field !== 'created').map((e) => [e.field, [e.from, e.to, e.by]]));
  assert.deepEqual(changes.source, ['tag', 'api', 'brand']);
  assert.deepEqual(changes.affiliateId, ['aff-1', 'aff-2', 'brand']);
  assert.deepEqual(changes.clickId, [attackerClick, customerClick, 'brand']);
  assert.deepEqual(changes.commissionStatus, ['held', 'pending', 'brand']);
  assert.deepEqual(changes.holdReasons, ['["click_to_order_too_fast"]', '[]', 'brand']);

  // The affiliate who lost it no longer has it and is sent nothing more; the other gets it as new.
  assert.equal(await affiliateHas(h.world.keys.aff1, server.id), false);
  assert.equal((await affiliateOrder(h, h.world.keys.aff2, server.id)).commissionStatus, 'pending');
  assert.deepEqual(await eventsTo(server.id), [
    ['aff-1:commission.held', 'aff-1:order.created', 'brand:conversion.created', 'brand:conversion.updated'],
    ['aff-2:order.created', 'brand:conversion.updated'],
  ]);
  assert.equal((await h.service.services.holds.list({}, { page: 1, limit: 500 })).items.some((i) => i.id === server.id), false, 'nothing left for the network to review');
  const audit = await h.service.database.db.selectFrom('audit_entries').select(['action', 'actor_kind', 'affiliate_id', 'brand_id']).where('subject_id', '=', server.id).orderBy('id').execute();
  assert.deepEqual(
    audit.map((a) => [a.action, a.actor_kind, a.affiliate_id, a.brand_id]),
    [
      ['order.held', 'network', 'aff-1', BRANDS.acme],
      ['order.hold_ended', 'brand', null, BRANDS.acme],
    ],
  );

  // The tag after the server changes nothing, and says so no differently from a new order.
  assert.deepEqual(await tagReported(orderId, attackerClick), { orderId, outcome: 'recorded' });
  assert.equal((await history(acme, orderId)).affiliateId, 'aff-2');
});

test("the server's own facts may hold the order it takes over: then for the affiliate it names, who is told", async () => {
  nextDay();
  const own = await createLink(h, h.world.keys.aff1, BRANDS.acme);
  const orderId = `hold-${++orderNumber}`;
  await tagReported(orderId, await click(own.code));
  const real = await createLink(h, h.world.keys.aff2, BRANDS.acme);
  const customerClick = await click(real.code);
  clock.advance(3 * SECOND);
  const server = conversionOf(await report(h, acme, { clickId: customerClick, orderId, value: 10_000, items: [item(10_000)] }), 200);
  assert.equal(server.affiliateId, 'aff-2');
  assert.equal(server.commissionStatus, 'held');
  assert.deepEqual(server.holdReasons, ['click_to_order_too_fast']);
  const entry = (await h.service.services.holds.list({ affiliateId: 'aff-2' }, { page: 1, limit: 500 })).items.find((i) => i.id === server.id)!;
  assert.deepEqual(entry.rules, [{ rule: 'click_to_order_too_fast', seconds: 3, minimumSeconds: 10 }], 'judged on the server’s click and time');
  assert.equal(entry.heldAt, clock.iso());
  assert.deepEqual((await eventsTo(server.id))[1], ['aff-2:commission.held', 'aff-2:order.created', 'brand:conversion.updated'], 'after the hold of the first affiliate’s report');
  const mail = (await mailTo('owner@aff2.example')).filter((m) => m.template === 'commission-held').map((m) => JSON.parse(m.params ?? '{}') as { orderId: string });
  assert.ok(mail.some((m) => m.orderId === orderId), 'the affiliate it now belongs to is told of its hold');
  const audit = await h.service.database.db.selectFrom('audit_entries').select(['action', 'affiliate_id']).where('subject_id', '=', server.id).orderBy('id').execute();
  assert.deepEqual(
    audit.map((a) => [a.action, a.affiliate_id]),
    [
      ['order.held', 'aff-1'],
      ['order.hold_ended', null],
      ['order.held', 'aff-2'],
    ],
  );
});

test("the server's report of the tag's order on the same click is judged once: the order is not counted twice", async () => {
  nextDay();
  const { code } = await createLink(h, h.world.keys.aff1, BRANDS.acme);
  const clickId = await click(code);
  clock.advance(30 * SECOND);
  assert.equal((await reported(acme, clickId)).commissionStatus, 'pending');
  const orderId = `hold-${++orderNumber}`;
  await tagReported(orderId, clickId);
  assert.equal((await history(acme, orderId)).commissionStatus, 'pending', 'the second order on the click, at the threshold');
  const server = conversionOf(await report(h, acme, { clickId, orderId, value: 10_000, items: [item(10_000)] }), 200);
  assert.equal(server.commissionStatus, 'pending', 'still the second order on its click');
});

test("a hold of the tag's order ends when the same affiliate's order is confirmed by the server with facts that trip no rule; the network's decision on a hold stands", async () => {
  nextDay();
  const { code } = await createLink(h, h.world.keys.aff1, BRANDS.acme);
  const clickId = await click(code);
  const orderId = `hold-${++orderNumber}`;
  await tagReported(orderId, clickId);
  clock.advance(20 * SECOND);
  const server = conversionOf(await report(h, acme, { clickId, orderId, value: 10_000, items: [item(10_000)], createdAt: new Date(clock.now() - 5 * SECOND).toISOString() }), 200);
  assert.equal(server.affiliateId, 'aff-1');
  assert.equal(server.commissionStatus, 'pending', '15 s after the click, by the server’s time');
  const audit = await h.service.database.db.selectFrom('audit_entries').select(['action', 'affiliate_id']).where('subject_id', '=', server.id).orderBy('id').execute();
  assert.deepEqual(audit.at(-1), { action: 'order.hold_ended', affiliate_id: 'aff-1' }, 'the affiliate keeps the order and reads why its hold ended');

  // Declined by the network: the same affiliate's order stays declined, whatever the server says.
  const declinedId = `hold-${++orderNumber}`;
  const second = await click(code);
  await tagReported(declinedId, second);
  const declinedOrder = await history(acme, declinedId);
  assert.deepEqual((await h.service.services.holds.decline(OPERATOR, [declinedOrder.id], 'Reported before the customer paid')).map((d) => d.outcome), ['declined']);
  clock.advance(60 * SECOND);
  const after = conversionOf(await report(h, acme, { clickId: second, orderId: declinedId, value: 10_000, items: [item(10_000)] }), 200);
  assert.equal(after.commissionStatus, 'canceled');
  assert.equal(after.commissionReason, 'fraud_declined');
  assert.equal(after.commission, 0);
});
