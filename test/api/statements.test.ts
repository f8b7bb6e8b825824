// Brands pay before affiliates are paid: each month's statement bills a brand for its approved
// commissions that locked, with the network's fee rounded half up per line; payments add up; once
// paid in full its commissions become payable; an unpaid one past due is reminded once. Every step
// writes balanced ledger lines that agree with the orders and statements.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../helpers/harness.js';
import { BRANDS } from '../helpers/world.js';
import { affiliateOrder, brandKey, conversionOf, freshClick, item, patchStatus, report, type Conversion } from '../helpers/tracking.js';
import { ManualClock } from '../../src/lib/clock.js';
import { monthOf, monthRange } from '../../src/domain/time.js';
import { DomainError } from '../../src/domain/errors.js';
import type { Statement } from '../../src/domain/ledger/statements-service.js';
import { CLI } from '../../src/domain/audit/audit-entry.js';

const DAY = 86_400_000;
const clock = new ManualClock();
let h: Harness;
let acme: string;
let orderNumber = 0;

before(async () => {
  h = await startHarness({ WEBHOOK_POLL_MS: '0', WEBHOOK_ALLOW_LOCAL_TARGETS: 'true' }, { clock });
  acme = await brandKey(h, BRANDS.acme);
  // Events are kept only for endpoints that listen.
  const affiliateHook = await h.post('/affiliate/webhooks', { url: 'http://127.0.0.1:9/hooks', events: ['commission.payable'] }, h.world.keys.aff1);
  assert.equal(affiliateHook.statusCode, 201, affiliateHook.body);
  const brandHook = await h.request({ method: 'POST', url: '/advertiser/webhooks', headers: { 'x-api-key': acme }, payload: { url: 'http://127.0.0.1:9/hooks', events: ['statement.issued', 'statement.overdue'] } });
  assert.equal(brandHook.statusCode, 201, brandHook.body);
  await h.service.services.users.create({ brandId: BRANDS.acme }, 'owner@acme.example', 'owner');
});
after(() => h?.close());

const services = () => h.service.services;
async function reported(value: number): Promise<Conversion> {
  const clickId = await freshClick(h, h.world.keys.aff1, BRANDS.acme);
  return conversionOf(await report(h, acme, { clickId, orderId: `bill-${++orderNumber}`, value, items: [item(value)] }), 201);
}
const eventsOfType = async (type: string) =>
  (await h.service.database.db.selectFrom('webhook_events').select(['payload']).where('type', '=', type).execute()).map((e) => JSON.parse(e.payload) as { data: Record<string, unknown> });
const mailTo = async (address: string, template: string) =>
  (await h.service.database.db.selectFrom('mail_messages').select(['template']).where('to_address', '=', address).where('template', '=', template).execute()).length;
const reconciles = async () => assert.deepEqual(await services().ledger.check(), [], 'the ledger balances and agrees with the records');
const rejectsWith = (promise: Promise<unknown>, code: string) =>
  assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof DomainError, String(error));
    assert.equal(error.code, code);
    return true;
  });

let february: Statement | undefined;
let month: string;
const lines: Record<string, Conversion> = {};

test("a month's statement bills the brand's approved commissions that locked in it, with the fee rounded half up per line", async () => {
  await reconciles();
  // The world's o-aff1-2 (750) was approved and locked in February 2026.
  [february] = await services().statements.issue('2026-02');
  assert.ok(february);
  assert.deepEqual([february.brandId, february.month, february.currency, february.lineCount, february.commission, february.fee, february.total, february.status], [BRANDS.acme, '2026-02', 'BRL', 1, 750, 225, 975, 'open']);
  assert.equal(february.dueAt, new Date(clock.now() + 15 * DAY).toISOString(), 'due 15 days after issue by default');
  await reconciles();

  const terms = await services().statements.setTerms({ kind: 'cli' }, BRANDS.acme, { feeBasisPoints: 3333, reason: 'Contract of 2026' });
  assert.deepEqual([terms.feeBasisPoints, terms.dueDays, terms.previous], [3333, 15, { feeBasisPoints: 3000, dueDays: 15 }]);
  const profile = await h.request({ method: 'PATCH', url: '/advertiser/brand', headers: { 'x-api-key': acme }, payload: { validationDays: 5 } });
  assert.equal(profile.statusCode, 200, profile.body);
  lines.approved = await reported(10_000); // 750 → fee 249.975 → 250
  lines.small = await reported(67); // 5.025 → 5 → fee 1.6665 → 2
  lines.auto = await reported(1_999); // 149.925 → 150 → fee 49.995 → 50
  lines.canceled = await reported(4_000);
  assert.equal((await patchStatus(h, acme, lines.approved.orderId, { status: 'approved' })).statusCode, 200);
  assert.equal((await patchStatus(h, acme, lines.small.orderId, { status: 'approved' })).statusCode, 200);
  assert.equal((await patchStatus(h, acme, lines.canceled.orderId, { status: 'canceled' })).statusCode, 200);
  await reconciles();

  month = monthOf(lines.auto.lockAt);
  await rejectsWith(services().statements.issue(month), 'month_not_ended');
  clock.set(Date.parse(monthRange(month).to) + 3_600_000);
  // Issuing approves first what is still pending past its lock (the network's approval).
  const [statement, ...others] = await services().statements.issue(month);
  assert.deepEqual(others, []);
  assert.deepEqual([statement!.lineCount, statement!.commission, statement!.fee, statement!.total, statement!.feeBasisPoints], [3, 905, 302, 1_207, 3333]);
  assert.equal((await affiliateOrder(h, h.world.keys.aff1, lines.auto.id)).autoApproved, true);
  const detail = await services().statements.get(BRANDS.acme, statement!.id, { page: 1, limit: 10 });
  assert.deepEqual(
    detail.lines.items.map((l) => [l.orderId, l.commission, l.fee, l.autoApproved]).sort(),
    [
      [lines.approved.orderId, 750, 250, false],
      [lines.auto.orderId, 150, 50, true],
      [lines.small.orderId, 5, 2, false],
    ].sort(),
  );
  assert.equal(detail.statement.total, detail.lines.items.reduce((sum, l) => sum + l.commission + l.fee, 0), 'the total is the sum of the lines');
  await reconciles();

  assert.deepEqual(await services().statements.issue(month), [], 'issuing again issues nothing');
  assert.deepEqual(await services().statements.issue('2026-02'), []);
  assert.deepEqual((await services().statements.list(BRANDS.acme, { page: 1, limit: 10 })).items.map((s) => s.month), [month, '2026-02']);
  assert.equal((await services().statements.list(BRANDS.globex, { page: 1, limit: 10 })).total, 0, "another brand sees none of acme's statements");
  await rejectsWith(services().statements.get(BRANDS.globex, statement!.id, { page: 1, limit: 10 }), 'statement_not_found');
  assert.equal((await eventsOfType('statement.issued')).length, 2);
  assert.equal(await mailTo('owner@acme.example', 'statement-issued'), 2);
});

test('payments add up; only a statement paid in full makes its commissions payable', async () => {
  const [statement] = (await services().statements.list(BRANDS.acme, { page: 1, limit: 1 })).items;
  await rejectsWith(services().statements.recordPayment(statement!.id, 2_000, 'TX-0', CLI), 'overpayment');
  await rejectsWith(services().statements.recordPayment(statement!.id, 0, 'TX-0', CLI), 'invalid_amount');
  const part = await services().statements.recordPayment(statement!.id, 1_000, 'TX-1', CLI);
  assert.deepEqual([part.paidAmount, part.status], [1_000, 'open']);
  assert.equal((await affiliateOrder(h, h.world.keys.aff1, lines.approved!.id)).commissionStatus, 'approved', 'a part payment makes nothing payable');
  await reconciles();

  const paid = await services().statements.recordPayment(statement!.id, 207, 'TX-2', CLI);
  assert.deepEqual([paid.paidAmount, paid.status, paid.paidAt], [1_207, 'paid', clock.iso()]);
  for (const key of ['approved', 'small', 'auto'] as const) {
    const order = await affiliateOrder(h, h.world.keys.aff1, lines[key]!.id);
    assert.deepEqual([order.commissionStatus, order.payableAt], ['payable', clock.iso()], key);
  }
  assert.equal((await affiliateOrder(h, h.world.keys.aff1, lines.canceled!.id)).commissionStatus, 'canceled');
  assert.equal((await affiliateOrder(h, h.world.keys.aff1, 'o-aff1-2')).commissionStatus, 'approved', "February's statement is not paid yet");
  const payable = await eventsOfType('commission.payable');
  assert.deepEqual(payable.map((e) => e.data.id).sort(), [lines.approved!.id, lines.small!.id, lines.auto!.id].sort());
  await rejectsWith(services().statements.recordPayment(statement!.id, 1, 'TX-3', CLI), 'statement_paid');
  const balance = await h.get('/affiliate/balance', h.world.keys.aff1);
  const brl = balance.json<{ data: Array<{ currency: string; payable: { commission: number; orders: number } }> }>().data.find((b) => b.currency === 'BRL')!;
  assert.deepEqual(brl.payable, { commission: 905, orders: 3 });
  await reconciles();
});

test('an unpaid statement past its due date is reminded once, by webhook and mail', async () => {
  assert.equal(await services().statements.remindOverdue(), 1, "February's was due 15 days after issue, long past");
  assert.equal(await services().statements.remindOverdue(), 0, 'once');
  const overdue = await eventsOfType('statement.overdue');
  assert.deepEqual(overdue.map((e) => [e.data.id, e.data.status]), [[february!.id, 'overdue']]);
  assert.equal(await mailTo('owner@acme.example', 'statement-overdue'), 1);
  const paid = await services().statements.recordPayment(february!.id, 975, 'TX-4', CLI);
  assert.equal(paid.status, 'paid');
  await reconciles();
});

test("the trial balance adds up to zero in each currency, and the affiliate's monthly statement follows its money", async () => {
  // The statement was issued, and paid, the month after the one it bills.
  const report = await services().ledger.report(monthOf(clock.iso()));
  const brl = report.get('BRL')!;
  assert.ok(brl.length > 0);
  assert.equal(brl.reduce((sum, line) => sum + line.debit, 0), brl.reduce((sum, line) => sum + line.credit, 0), "the month's debits equal its credits");
  assert.equal(brl.reduce((sum, line) => sum + line.closing, 0), 0, 'closing balances add up to zero');
  const fees = brl.find((line) => line.account === 'network:fees')!;
  assert.equal(fees.credit, 302, "the month's fees are the network's revenue");

  const [statement] = await services().ledger.affiliateStatement('aff-1', monthOf(clock.iso()));
  assert.ok(statement);
  assert.equal(statement.payable, 905 + 750);
  assert.equal(statement.closingBalance, statement.openingBalance + statement.approved + statement.adjustments - statement.paid + statement.returned);
});
