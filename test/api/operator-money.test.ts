// The money in the operator's console, through the API: a month's statements issued, a brand's
// payments recorded (in parts, never more than is left), overdue brands found; a payout run dry
// first, then made and exported with the second factor asked again, the provider's results
// uploaded; adjustments; the ledger's check and trial balance; each money event in the audit
// trail, the affiliate's own in its trail without the operator's id; no member reaches any of it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../helpers/harness.js';
import { assertError } from '../helpers/api.js';
import { operatorSession, totpCode, type OperatorSession } from '../helpers/operators.js';
import { givePayeeDetails, releasePayeeHold } from '../helpers/money.js';
import { signedUp, withSession, type TestSession } from '../helpers/sessions.js';
import { BRANDS } from '../helpers/world.js';
import { ManualClock } from '../../src/lib/clock.js';

const MINUTE = 60_000;
const DAY = 86_400_000;
const clock = new ManualClock();
let h: Harness;
let operator: OperatorSession;
let owner: TestSession;

before(async () => {
  // The clock moves past a statement's due date: the operator's session outlives it.
  h = await startHarness({ WEBHOOK_POLL_MS: '0', SESSION_IDLE_MINUTES: String(60 * 24 * 30) }, { clock });
  operator = await operatorSession(h, clock.now());
  owner = await signedUp(h, 'owner@aff-1.example', { affiliateId: 'aff-1' }, 'owner');
});
after(() => h?.close());

const get = (url: string) => h.request({ method: 'GET', url, headers: operator.headers });
const post = (url: string, payload: object) => h.request({ method: 'POST', url, headers: operator.headers, payload });
function dataOf<T>(res: { statusCode: number; body: string; json<U>(): U }, status = 200): T {
  assert.equal(res.statusCode, status, res.body);
  return res.json<{ data: T }>().data;
}
/** A code of the operator's app now, moving the clock to a step no code was used in yet. */
function freshCode(): string {
  clock.advance(30_000);
  return totpCode(operator.secret, clock.now());
}

type Statement = { id: string; brandId: string; brandName: string; commission: number; total: number; paidAmount: number; status: string; currency: string };
let statement: Statement;

test('a month’s statements are issued from the console and listed with their brand, unpaid first to chase', async () => {
  assertError(await post('/operator/statements', { month: '2026-13' }), 400, 'invalid_month');
  assertError(await post('/operator/statements', { month: '2999-01' }), 400, 'month_not_ended');
  const issued = dataOf<Statement[]>(await post('/operator/statements', { month: '2026-02' }));
  assert.deepEqual(issued.map((s) => s.brandId), [BRANDS.acme], 'the world’s order locked in February bills Acme');
  assert.deepEqual(dataOf<Statement[]>(await post('/operator/statements', { month: '2026-02' })), [], 'issuing again makes nothing new');
  [statement] = dataOf<Statement[]>(await get('/operator/statements?status=unpaid')) as [Statement];
  assert.equal(statement.id, issued[0]!.id);
  assert.equal(statement.brandName, 'Acme');
  assert.equal(statement.status, 'open');
  assert.deepEqual(dataOf(await get('/operator/statements?status=paid')), []);
  assert.deepEqual(dataOf(await get('/operator/statements?status=overdue')), []);
});

test('payments are recorded in parts, never more than is left; an unpaid statement past its due date is overdue', async () => {
  const part = dataOf<Statement>(await post(`/operator/statements/${statement.id}/payments`, { amount: 100, reference: 'PIX-PART' }));
  assert.deepEqual([part.paidAmount, part.status], [100, 'open']);
  const tooMuch = assertError(await post(`/operator/statements/${statement.id}/payments`, { amount: statement.total, reference: 'PIX-MORE' }), 409, 'overpayment');
  assert.match(tooMuch.message, new RegExp(`${statement.total - 100} cents`));
  assertError(await post(`/operator/statements/${statement.id}/payments`, { amount: 1, reference: '   ' }), 400, 'invalid_reference');
  assertError(await post('/operator/statements/no-such/payments', { amount: 1, reference: 'X' }), 404, 'statement_not_found');

  clock.advance(16 * DAY);
  assert.deepEqual(dataOf<Statement[]>(await get('/operator/statements?status=overdue')).map((s) => [s.id, s.status]), [[statement.id, 'overdue']]);
  const paid = dataOf<Statement>(await post(`/operator/statements/${statement.id}/payments`, { amount: statement.total - 100, reference: 'PIX-REST' }));
  assert.deepEqual([paid.paidAmount, paid.status], [statement.total, 'paid']);
  assertError(await post(`/operator/statements/${statement.id}/payments`, { amount: 1, reference: 'PIX-AGAIN' }), 409, 'statement_paid');
  assert.deepEqual(dataOf(await get('/operator/statements?status=overdue')), []);
});

type Line = { affiliateId: string; total: number; skipped?: string; waits?: { reason: string; minimum?: number }; payout?: { id: string; status: string } };
let runId = '';
let payoutId = '';

test('a payout run: the dry run says why each amount waits and pays nothing; the run asks for the second factor again', async () => {
  const waiting = dataOf<{ runId?: string; dryRun: boolean; lines: Line[] }>(await post('/operator/payout-runs', { dryRun: true }));
  assert.deepEqual([waiting.runId, waiting.dryRun], [undefined, true]);
  assert.match(waiting.lines.find((l) => l.affiliateId === 'aff-1')?.skipped ?? '', /no payee details/);
  assert.deepEqual(waiting.lines.find((l) => l.affiliateId === 'aff-1')?.waits, { reason: 'no_payee_details' }, 'why it waits, as a code a page words');

  await givePayeeDetails(h, 'aff-1');
  await releasePayeeHold(h.service.database, 'aff-1');
  const dry = dataOf<{ runId?: string; lines: Line[] }>(await post('/operator/payout-runs', { dryRun: true }));
  const line = dry.lines.find((l) => l.affiliateId === 'aff-1')!;
  assert.equal(line.total, statement.commission, 'what Acme paid for, without the network’s fee');
  assert.deepEqual([line.skipped, line.payout, dry.runId], [undefined, undefined, undefined], 'a dry run pays nothing');

  // The sign-in's second factor is long past: the run asks for a code.
  assert.match(assertError(await post('/operator/payout-runs', {}), 400, 'second_factor_needed').message, /current code of your authenticator app/);
  assertError(await post('/operator/payout-runs', { code: '000000' }), 400, 'invalid_code');
  assertError(await post('/operator/payout-runs', { affiliateId: 'aff-nobody', code: freshCode() }), 404, 'affiliate_not_found');
  const made = dataOf<{ runId?: string; dryRun: boolean; lines: Line[] }>(await post('/operator/payout-runs', { affiliateId: 'aff-1' }));
  runId = made.runId!;
  assert.equal(made.dryRun, false);
  assert.ok(runId, 'the code just given counts for 10 minutes');
  payoutId = made.lines[0]!.payout!.id;
  assert.equal(made.lines[0]!.payout!.status, 'pending');

  const runs = dataOf<Array<{ id: string; createdBy: string; payoutCount: number; totals: Array<{ status: string; currency: string; payouts: number; total: number }> }>>(await get('/operator/payout-runs'));
  assert.deepEqual(runs.map((r) => [r.id, r.createdBy, r.payoutCount]), [[runId, operator.userId, 1]]);
  const nothing = dataOf<{ runId?: string; dryRun: boolean; lines: Line[] }>(await post('/operator/payout-runs', { affiliateId: 'aff-1' }));
  assert.deepEqual([nothing.runId, nothing.dryRun, nothing.lines], [undefined, false, []], 'a run that finds nothing to pay is still a run, not a dry run');
  assert.deepEqual(runs[0]!.totals, [{ status: 'pending', currency: 'BRL', payouts: 1, total: line.total }]);
  assert.deepEqual(dataOf<Array<{ id: string }>>(await get(`/operator/payout-runs/${runId}`)).map((p) => p.id), [payoutId]);
  assertError(await get('/operator/payout-runs/no-such-run'), 404, 'batch_not_found');
});

test('the export is the bank’s CSV with payee details in full, marks the payouts sent, and asks for the second factor again', async () => {
  const csv = await post(`/operator/payout-runs/${runId}/export`, {});
  assert.equal(csv.statusCode, 200, csv.body);
  assert.match(String(csv.headers['content-type']), /^text\/csv/);
  assert.match(String(csv.headers['content-disposition']), new RegExp(`payout-run-${runId}\\.csv`));
  const [header, row] = csv.body.split('\r\n');
  assert.match(header!, /^payout_id,affiliate_id,currency,amount_cents,amount,status,method,failure_reason,payee\./);
  assert.match(row!, new RegExp(`^${payoutId},aff-1,BRL,\\d+,[\\d.]+,sent,`));
  assert.match(row!, /,52998224725,pix,cpf,52998224725$/, 'the PIX key in full, for the bank');

  clock.advance(11 * MINUTE);
  assertError(await post(`/operator/payout-runs/${runId}/export`, {}), 400, 'second_factor_needed');
  assertError(await post('/operator/payout-runs/no-such-run/export', { code: freshCode() }), 404, 'batch_not_found');
  assert.equal((await post(`/operator/payout-runs/${runId}/export`, {})).statusCode, 200, 'exporting again gives the file again');
});

test('the provider’s results are uploaded: a bad file is refused whole saying which line; a settled payout is settled', async () => {
  const settle = (file: string) => post(`/operator/payout-runs/${runId}/settlement`, { file });
  assert.match(assertError(await settle(`payout_id,status,reason\r\n${payoutId},lost,\r\n`), 400, 'invalid_settlement_file').message, /line 2: status must be settled or failed, got "lost"/);
  assertError(await settle(`payout_id,status,reason\r\n${payoutId},failed,\r\n`), 400, 'reason_required');
  assertError(await settle('payout_id,status,reason\r\nnot-in-this-run,settled,\r\n'), 400, 'unknown_payout');
  assert.deepEqual(dataOf(await settle(`payout_id,status,reason\r\n${payoutId},settled,\r\n`)), [{ payoutId, status: 'settled', outcome: 'settled', result: 'settled' }]);
  assert.deepEqual(dataOf(await settle(`payout_id,status,reason\r\n${payoutId},settled,\r\n`)), [{ payoutId, status: 'settled', outcome: 'already settled', result: 'already_done' }]);
  const payouts = (await h.request(withSession({ method: 'GET', url: '/affiliate/payouts' }, owner))).json<{ data: Array<{ id: string; status: string }> }>().data;
  assert.equal(payouts.find((p) => p.id === payoutId)?.status, 'settled');
});

test('adjustments ask for the second factor again, say what is wrong, and are listed', async () => {
  clock.advance(11 * MINUTE);
  const bonus = { affiliateId: 'aff-2', amount: 2_500, currency: 'BRL', reason: 'Black Friday bonus' };
  assertError(await post('/operator/adjustments', bonus), 400, 'second_factor_needed');
  assertError(await post('/operator/adjustments', { ...bonus, amount: 0, code: freshCode() }), 400, 'invalid_amount');
  assertError(await post('/operator/adjustments', { ...bonus, affiliateId: 'aff-nobody' }), 404, 'affiliate_not_found');
  assertError(await post('/operator/adjustments', { ...bonus, currency: 'brl' }), 400);
  const made = dataOf<{ id: string; affiliateId: string; amount: number; createdBy: string; payoutId?: string }>(await post('/operator/adjustments', bonus), 201);
  assert.deepEqual([made.affiliateId, made.amount, made.createdBy, made.payoutId], ['aff-2', 2_500, operator.userId, undefined]);
  assert.deepEqual(dataOf<Array<{ id: string }>>(await get('/operator/adjustments?affiliateId=aff-2')).map((a) => a.id), [made.id]);
  assert.deepEqual(dataOf(await get('/operator/adjustments?affiliateId=aff-1')), []);
});

test('the ledger balances and agrees with the records; the trial balance shows February’s accounts', async () => {
  assert.deepEqual(dataOf(await get('/operator/ledger/check')), { balanced: true, differences: [] });
  const report = dataOf<{ month: string; currencies: Array<{ currency: string; accounts: Array<{ account: string; holder: { kind: string; id?: string; name?: string }; purpose: string; opening: number; debit: number; credit: number; closing: number }> }> }>(
    await get(`/operator/ledger/trial-balance?month=${new Date(clock.now()).toISOString().slice(0, 7)}`),
  );
  const brl = report.currencies.find((c) => c.currency === 'BRL')!;
  assert.ok(brl.accounts.some((a) => a.account === 'network:payouts_sent'), JSON.stringify(brl.accounts));
  const payable = brl.accounts.find((a) => a.account === 'affiliate:aff-1:payable')!;
  assert.deepEqual([payable.holder, payable.purpose], [{ kind: 'affiliate', id: 'aff-1', name: 'Affiliate One' }, 'payable'], 'an account names whose it is');
  assert.deepEqual(brl.accounts.find((a) => a.account === 'network:payouts_sent')!.holder, { kind: 'network' });
  for (const a of brl.accounts) assert.equal(a.closing, a.opening + a.debit - a.credit, a.account);
  assert.equal(
    brl.accounts.reduce((sum, a) => sum + a.closing, 0),
    0,
    'debits and credits balance',
  );
  assertError(await get('/operator/ledger/trial-balance?month=2026-13'), 400, 'invalid_month');
});

test('each money event is in the audit trail under the operator; the affiliate reads its own without the operator’s id', async () => {
  type Entry = { action: string; actor: { kind: string; id?: string }; subject: { id: string }; after?: Record<string, unknown>; reason?: string };
  const trail = async (action: string) => dataOf<Entry[]>(await get(`/operator/audit?action=${action}`));
  assert.deepEqual((await trail('statement.')).map((e) => [e.action, e.actor.id]).reverse(), [
    ['statement.issued', operator.userId],
    ['statement.payment_recorded', operator.userId],
    ['statement.payment_recorded', operator.userId],
  ]);
  assert.deepEqual((await trail('payout_run.')).map((e) => e.action).reverse(), ['payout_run.created', 'payout_run.exported', 'payout_run.exported']);
  assert.deepEqual((await trail('payout.')).map((e) => [e.action, e.subject.id]).reverse(), [
    ['payout.created', payoutId],
    ['payout.sent', payoutId],
    ['payout.settled', payoutId],
  ]);
  const [adjustment] = await trail('adjustment.created');
  assert.deepEqual([adjustment?.reason, adjustment?.after], ['Black Friday bonus', { amount: 2_500, currency: 'BRL' }]);

  const own = (await h.request(withSession({ method: 'GET', url: '/affiliate/audit' }, owner))).json<{ data: Entry[] }>().data;
  const money = own.filter((e) => e.action.startsWith('payout.'));
  assert.deepEqual(money.map((e) => e.action).reverse(), ['payout.created', 'payout.sent', 'payout.settled']);
  assert.ok(money.every((e) => e.actor.kind === 'operator' && e.actor.id === undefined), JSON.stringify(money));
  assert.ok(!own.some((e) => e.action.startsWith('statement.') || e.action.startsWith('adjustment.')), 'nor Acme’s statements nor aff-2’s adjustment');
});

test('no member reaches the money console', async () => {
  for (const [method, url] of [
    ['GET', '/operator/statements'],
    ['POST', '/operator/payout-runs'],
    ['GET', '/operator/ledger/check'],
  ] as const) {
    assertError(await h.request(withSession({ method, url, ...(method === 'POST' && { payload: { dryRun: true } }) }, owner)), 403);
    assertError(await h.request({ method, url, headers: { 'x-api-key': h.world.keys.aff1 }, ...(method === 'POST' && { payload: { dryRun: true } }) }), 403);
  }
});
