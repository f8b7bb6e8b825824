// Payout runs: an affiliate's payable commissions and adjustments are paid per currency once they
// reach PAYOUT_MINIMUM and its payout details are complete and not on hold; the rest carries over,
// and the dry run says why. A run's payouts go pending → sent (their commissions paid) → settled or
// failed (their commissions payable again, paidAt and payoutId cleared); two runs at once pay each
// commission once; the affiliate reads each payout's status, method (masked) and dates.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../helpers/harness.js';
import { BRANDS } from '../helpers/world.js';
import { affiliateOrder, brandKey, conversionOf, freshClick, item, patchStatus, report, type Conversion } from '../helpers/tracking.js';
import { givePayeeDetails } from '../helpers/money.js';
import { newKey } from '../helpers/api.js';
import { ManualClock } from '../../src/lib/clock.js';
import { monthOf, monthRange } from '../../src/domain/time.js';
import type { Payout } from '../../src/schemas/payout.js';
import { CLI } from '../../src/domain/audit/audit-entry.js';

const DAY = 86_400_000;
const clock = new ManualClock();
let h: Harness;
let acme: string;
let aff2: string;
let orderNumber = 0;

before(async () => {
  h = await startHarness({ WEBHOOK_POLL_MS: '0', WEBHOOK_ALLOW_LOCAL_TARGETS: 'true', PAYOUT_MINIMUM: 'BRL:1500' }, { clock });
  acme = await brandKey(h, BRANDS.acme);
  aff2 = (await newKey(h, 'aff-2')).key;
  const hook = await h.post('/affiliate/webhooks', { url: 'http://127.0.0.1:9/hooks', events: ['payout.created', 'payout.sent', 'payout.settled', 'payout.failed'] }, h.world.keys.aff1);
  assert.equal(hook.statusCode, 201, hook.body);
});
after(() => h?.close());

const services = () => h.service.services;
const run = (options: { affiliateId?: string; dryRun?: boolean } = {}) => services().payoutRuns.run({ ...options, actor: CLI });
const reconciles = async () => assert.deepEqual(await services().ledger.check(), []);
async function approved(affiliateKey: string, value: number): Promise<Conversion> {
  const clickId = await freshClick(h, affiliateKey, BRANDS.acme);
  const conversion = conversionOf(await report(h, acme, { clickId, orderId: `pay-${++orderNumber}`, value, items: [item(value)] }), 201);
  assert.equal((await patchStatus(h, acme, conversion.orderId, { status: 'approved' })).statusCode, 200);
  return conversion;
}
/** Lets every lock date pass and the month end, then bills it and records each brand's payment in full. */
async function billAndCollect(): Promise<void> {
  clock.advance(31 * DAY);
  const month = monthOf(clock.iso());
  clock.set(Date.parse(monthRange(month).to) + DAY);
  for (const s of await services().statements.issue(month)) await services().statements.recordPayment(s.id, s.total, 'TX', CLI);
}
const payoutsOf = async (key: string) => (await h.get('/affiliate/payouts', key)).json<{ data: Payout[] }>().data;
const mailCount = async (template: string) => (await h.service.database.db.selectFrom('mail_messages').select('id').where('template', '=', template).execute()).length;

let first: Conversion;

test('what waits, and why: below the minimum, no payout details, details on hold', async () => {
  // The world's o-aff1-2 (750) locked in February; aff-1 earns 2 × 750 more.
  first = await approved(h.world.keys.aff1, 10_000);
  await approved(h.world.keys.aff1, 10_000);
  const small = await approved(aff2, 2_000); // 150
  await billAndCollect();
  assert.equal((await affiliateOrder(h, h.world.keys.aff1, first.id)).commissionStatus, 'payable');
  assert.equal((await affiliateOrder(h, aff2, small.id)).commissionStatus, 'payable');

  let dry = await run({ dryRun: true });
  assert.deepEqual(
    dry.lines.map((l) => [l.affiliateId, l.currency, l.total, l.skipped]),
    [
      ['aff-1', 'BRL', 2_250, 'no payee details'],
      ['aff-2', 'BRL', 150, 'below the minimum: 1.50 BRL of 15.00 BRL'],
    ],
  );
  await givePayeeDetails(h, 'aff-1');
  dry = await run({ dryRun: true, affiliateId: 'aff-1' });
  assert.match(dry.lines[0]!.skipped ?? '', /^payee details changed at .*: payouts held until /);
  assert.deepEqual((await run()).lines.filter((l) => l.payout), [], 'nothing is paid while held');
  await assert.rejects(run({ affiliateId: 'nobody' }), /affiliate "nobody" not found/);
  clock.advance(49 * 3_600_000);
  dry = await run({ dryRun: true, affiliateId: 'aff-1' });
  assert.deepEqual(dry.lines.map((l) => [l.total, l.skipped, l.payout]), [[2_250, undefined, undefined]], 'the dry run would pay it now');
  assert.equal(dry.batchId, undefined);
  await reconciles();
});

test('a run makes pending payouts; two runs at once pay each commission once; export sends them', async () => {
  await services().ledger.adjust({ affiliateId: 'aff-1', amount: -250, currency: 'BRL', reason: 'a refund reported late', actor: CLI });
  const [a, b] = await Promise.all([run(), run()]);
  const made = [a, b].flatMap((r) => r.lines.flatMap((l) => (l.payout ? [l.payout] : [])));
  assert.equal(made.length, 1, 'one payout, however many runs at once');
  const payout = made[0]!;
  assert.deepEqual([payout.affiliateId, payout.total, payout.orderCount, payout.adjustmentTotal, payout.status, payout.method], ['aff-1', 2_000, 3, -250, 'pending', 'PIX cpf ***.982.247-**']);
  const batchId = (a.batchId && a.lines.some((l) => l.payout) ? a.batchId : b.batchId)!;
  assert.equal((await affiliateOrder(h, h.world.keys.aff1, first.id)).commissionStatus, 'payable', 'pending: not paid yet');
  await reconciles();

  const exported = await services().payoutRuns.export(batchId, CLI);
  assert.equal(exported.length, 1);
  assert.deepEqual([exported[0]!.status, exported[0]!.amount], ['sent', 2_000]);
  assert.deepEqual(exported[0]!.payee, { legalName: 'Ana Lima', country: 'BR', taxId: '52998224725', method: { type: 'pix', keyType: 'cpf', key: '52998224725' } }, 'the file has the details in full');
  const order = await affiliateOrder(h, h.world.keys.aff1, first.id);
  assert.deepEqual([order.commissionStatus, order.payoutId, order.paidAt], ['paid', payout.id, clock.iso()]);
  assert.equal(await mailCount('payout-sent'), 1);
  const again = await services().payoutRuns.export(batchId, CLI);
  assert.deepEqual(again.map((p) => p.status), ['sent'], 'exporting again changes nothing');
  assert.equal(await mailCount('payout-sent'), 1);
  const [listed] = await payoutsOf(h.world.keys.aff1);
  assert.deepEqual([listed!.id, listed!.status, listed!.method, listed!.sentAt], [payout.id, 'sent', 'PIX cpf ***.982.247-**', clock.iso()]);
  assert.equal(JSON.stringify(await payoutsOf(aff2)).includes(payout.id), false, "another affiliate never sees it");
  await reconciles();
});

test("the provider's results: a failed payout's commissions are payable again and paid by the next run; a settled one is done", async () => {
  const [payout] = await payoutsOf(h.world.keys.aff1);
  const batchId = (await h.service.database.db.selectFrom('payouts').select('batch_id').where('id', '=', payout!.id).executeTakeFirstOrThrow()).batch_id!;
  await assert.rejects(services().payoutRuns.settle(batchId, [{ payoutId: payout!.id, status: 'failed' }], CLI), /give the reason/);
  await assert.rejects(services().payoutRuns.settle(batchId, [{ payoutId: 'other', status: 'settled' }], CLI), /is not in run/);
  clock.advance(DAY);
  const [failed] = await services().payoutRuns.settle(batchId, [{ payoutId: payout!.id, status: 'failed', reason: 'PIX key not found' }], CLI);
  assert.match(failed!.outcome, /^failed/);
  const order = await affiliateOrder(h, h.world.keys.aff1, first.id);
  assert.deepEqual([order.commissionStatus, order.payoutId, order.paidAt], ['payable', undefined, undefined]);
  const [listed] = await payoutsOf(h.world.keys.aff1);
  assert.deepEqual([listed!.status, listed!.failureReason, listed!.failedAt], ['failed', 'PIX key not found', clock.iso()]);
  assert.equal(await mailCount('payout-failed'), 1);
  await reconciles();

  const next = await run();
  const repaid = next.lines.find((l) => l.payout)!.payout!;
  assert.deepEqual([repaid.total, repaid.adjustmentTotal], [2_000, -250], 'the commissions and the adjustment again');
  await services().payoutRuns.export(next.batchId!, CLI);
  const [settled] = await services().payoutRuns.settle(next.batchId!, [{ payoutId: repaid.id, status: 'settled' }], CLI);
  assert.equal(settled!.outcome, 'settled');
  const [again] = await services().payoutRuns.settle(next.batchId!, [{ payoutId: repaid.id, status: 'failed', reason: 'late' }], CLI);
  assert.equal(again!.outcome, 'left settled: only a sent payout can be settled or failed');
  assert.equal((await affiliateOrder(h, h.world.keys.aff1, first.id)).commissionStatus, 'paid');
  const statuses = (await payoutsOf(h.world.keys.aff1)).map((p) => p.status);
  assert.deepEqual(statuses, ['settled', 'failed']);
  const events = (await h.service.database.db.selectFrom('webhook_events').select('type').where('owner_id', '=', 'aff-1').execute()).map((e) => e.type);
  for (const type of ['payout.created', 'payout.sent', 'payout.failed', 'payout.settled']) assert.ok(events.includes(type), type);
  await reconciles();
});

test('a payout whose destination changed after its run fails at export instead of going to the new one', async () => {
  await approved(h.world.keys.aff1, 30_000); // 2,250
  await billAndCollect();
  const made = await run({ affiliateId: 'aff-1' });
  assert.ok(made.batchId);
  await givePayeeDetails(h, 'aff-1', { legalName: 'Ana Lima', country: 'BR', taxId: '529.982.247-25', method: { type: 'pix', keyType: 'email', key: 'ana@example.com' } });
  const [exported] = await services().payoutRuns.export(made.batchId, CLI);
  assert.equal(exported!.status, 'failed');
  assert.match(exported!.failureReason ?? '', /held until/);
  assert.equal(exported!.payee, null, 'no details go out for it');
  await reconciles();
});
