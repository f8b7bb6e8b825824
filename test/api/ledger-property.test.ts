// The ledger under random money events: reports, corrections, approvals, declines, locks, claims,
// statements, payments, payout runs, failures and adjustments, in two currencies, with the clock
// moving by days. After each batch the in-process check finds nothing (every entry and currency
// balances, and every tracked account equals what the orders, statements, payouts and adjustments
// say); at the end `affnet ledger check` agrees. LEDGER_PROPERTY_EVENTS sets the size (2,000 in CI
// on SQLite; 1,000 on PostgreSQL, where each event costs three times as long and what the second
// database adds is its dialect, which 1,000 events of every kind reach; 10,000 for a long local run); LEDGER_PROPERTY_SEED replays a run (its seed is printed).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../helpers/harness.js';
import { BRANDS, brandInput } from '../helpers/world.js';
import { brandKey, clickLink, createLink, item, patchStatus, report } from '../helpers/tracking.js';
import { newKey } from '../helpers/api.js';
import { runCli } from '../helpers/cli.js';
import { givePayeeDetails } from '../helpers/money.js';
import { ManualClock } from '../../src/lib/clock.js';
import { SeededRandom } from '../../src/seed/seeded-random.js';
import { monthOf, previousMonth } from '../../src/domain/time.js';
import { CLI } from '../../src/domain/audit/audit-entry.js';

const EVENTS = Number(process.env.LEDGER_PROPERTY_EVENTS ?? (process.env.TEST_POSTGRES_URL ? 1_000 : 2_000));
const SEED = Number(process.env.LEDGER_PROPERTY_SEED ?? Math.floor(Math.random() * 2 ** 31));
const BATCH = 100;
const DAY = 86_400_000;
const EURO = '66666666-6666-4666-8666-666666666666';

const clock = new ManualClock();
const rnd = new SeededRandom(SEED);
let h: Harness;
/** Each affiliate's link to each brand it may promote, and the brands' keys. */
const pairs: Array<{ affiliateId: string; brandId: string; code: string }> = [];
const brandKeys = new Map<string, string>();
const affiliateKeys = new Map<string, string>();
let orders = 0;

before(async () => {
  console.log(`# ledger property test: ${EVENTS} events, seed ${SEED} (LEDGER_PROPERTY_SEED=${SEED} replays it)`);
  h = await startHarness({ WEBHOOK_POLL_MS: '0', PAYOUT_MINIMUM: 'BRL:2000,EUR:1000', CLICK_VELOCITY_LIMIT: '1000000' }, { clock });
  await h.service.services.imports.upsertBrand(brandInput({ id: EURO, name: 'Euroshop', slug: 'euroshop', site: 'https://euroshop.eu', currency: 'EUR', commission: { value: 10, transfer: 'cps' } }));
  for (const brandId of [BRANDS.acme, BRANDS.globex, BRANDS.initech, EURO]) brandKeys.set(brandId, await brandKey(h, brandId));
  for (const affiliateId of ['aff-1', 'aff-2']) affiliateKeys.set(affiliateId, (await newKey(h, affiliateId, { rateLimit: 1_000_000 })).key);
  for (const [affiliateId, brandId] of [
    ['aff-1', BRANDS.acme],
    ['aff-1', BRANDS.globex],
    ['aff-1', EURO],
    ['aff-2', BRANDS.acme],
    ['aff-2', BRANDS.initech],
  ] as const) {
    pairs.push({ affiliateId, brandId, code: (await createLink(h, affiliateKeys.get(affiliateId)!, brandId)).code });
  }
  for (const brandId of brandKeys.keys()) {
    const res = await h.request({ method: 'PATCH', url: '/advertiser/brand', headers: { 'x-api-key': brandKeys.get(brandId)! }, payload: { validationDays: rnd.int(0, 20) } });
    assert.equal(res.statusCode, 200, res.body);
  }
  for (const affiliateId of affiliateKeys.keys()) await givePayeeDetails(h, affiliateId);
  clock.advance(3 * DAY); // past the hold that follows saving payout details
});
after(() => h?.close());

const services = () => h.service.services;
const pendingOrders = () => h.service.database.db.selectFrom('orders').select(['organization_id', 'order_id', 'value']).where('status', '=', 'pending').where('lock_at', '>', clock.iso()).execute();

async function reportOne(): Promise<void> {
  const pair = rnd.pick(pairs);
  const { clickId } = await clickLink(h, pair.code);
  const value = rnd.int(1, 60_000);
  const res = await report(h, brandKeys.get(pair.brandId), { clickId, orderId: `prop-${++orders}`, value, items: [item(value)] });
  assert.equal(res.statusCode, 201, res.body);
}

async function brandAnswer(): Promise<void> {
  const pending = await pendingOrders();
  if (pending.length === 0) return;
  const order = rnd.pick(pending);
  const key = brandKeys.get(order.organization_id)!;
  const roll = rnd.float();
  let body: object;
  if (roll < 0.5) body = { status: 'approved' };
  else if (roll < 0.7) body = { status: 'canceled' };
  else {
    const value = Math.max(1, Number(order.value) - rnd.int(0, 500));
    body = { value, items: [item(value)] };
  }
  const res = await patchStatus(h, key, order.order_id, body);
  assert.equal(res.statusCode, 200, res.body);
}

/** An affiliate claims a sale its link brought that the tracking missed. */
async function fileClaim(): Promise<void> {
  const pair = rnd.pick(pairs);
  const res = await h.post(
    '/affiliate/claims',
    { organizationId: pair.brandId, orderId: `claim-${++orders}`, orderedAt: new Date(clock.now() - DAY).toISOString(), value: rnd.int(100, 40_000), note: 'the customer wrote' },
    affiliateKeys.get(pair.affiliateId),
  );
  assert.equal(res.statusCode, 201, res.body);
}

/** A brand accepts (at the claimed or a corrected value) or declines one of its open claims. */
async function answerClaim(): Promise<void> {
  const brandId = rnd.pick([...brandKeys.keys()]);
  const key = brandKeys.get(brandId)!;
  const open = (await h.request({ method: 'GET', url: '/advertiser/claims?status=open&limit=100', headers: { 'x-api-key': key } })).json<{ data: Array<{ id: string; value: number }> }>().data;
  if (open.length === 0) return;
  const claim = rnd.pick(open);
  const roll = rnd.float();
  const body = roll < 0.5 ? { status: 'accepted' } : roll < 0.7 ? { status: 'accepted', value: Math.max(1, claim.value - rnd.int(0, 100)) } : { status: 'declined', reason: 'no such order' };
  const res = await h.request({ method: 'PATCH', url: `/advertiser/claims/${claim.id}`, headers: { 'x-api-key': key }, payload: body });
  assert.equal(res.statusCode, 200, res.body);
}

async function issueAndPay(): Promise<void> {
  const month = previousMonth(clock.iso());
  await services().statements.issue(month);
  for (const statement of await services().statements.listAll(true)) {
    if (rnd.chance(0.6)) continue;
    const left = statement.total - statement.paidAmount;
    // A statement billing nothing (its commissions all zero) has nothing to pay.
    if (left <= 0) continue;
    const amount = rnd.chance(0.5) ? left : rnd.int(1, left);
    await services().statements.recordPayment(statement.id, amount, `TX-${rnd.int(1, 1e9)}`, CLI);
  }
}

async function payoutRound(): Promise<void> {
  const run = await services().payoutRuns.run({ actor: CLI });
  if (!run.batchId) return;
  const exported = await services().payoutRuns.export(run.batchId, CLI);
  const results = exported.filter((p) => p.status === 'sent' && rnd.chance(0.8)).map((p) => (rnd.chance(0.85) ? { payoutId: p.payoutId, status: 'settled' as const } : { payoutId: p.payoutId, status: 'failed' as const, reason: 'account closed' }));
  await services().payoutRuns.settle(run.batchId, results, CLI);
}

async function adjust(): Promise<void> {
  const affiliateId = rnd.chance(0.5) ? 'aff-1' : 'aff-2';
  await services().ledger.adjust({ affiliateId, amount: rnd.int(-3_000, 3_000) || 1, currency: rnd.chance(0.8) ? 'BRL' : 'EUR', reason: 'a correction', actor: CLI });
}

async function event(): Promise<void> {
  const roll = rnd.float();
  if (roll < 0.35) return reportOne();
  if (roll < 0.6) return brandAnswer();
  if (roll < 0.64) return fileClaim();
  if (roll < 0.7) return answerClaim();
  if (roll < 0.8) {
    clock.advance(rnd.int(1, 6) * DAY);
    await services().locks.approveLocked();
    await services().claims.autoAccept();
    return;
  }
  if (roll < 0.88) return issueAndPay();
  if (roll < 0.95) return payoutRound();
  return adjust();
}

test(`random money events keep the ledger balanced and equal to the records (seed ${SEED})`, async () => {
  const startMonth = monthOf(clock.iso());
  for (let done = 0; done < EVENTS; done++) {
    await event();
    if ((done + 1) % BATCH === 0 || done === EVENTS - 1) {
      assert.deepEqual(await services().ledger.check(), [], `after ${done + 1} events (seed ${SEED})`);
    }
  }
  // Something of each kind happened.
  const kinds = (await h.service.database.db.selectFrom('ledger_lines').select('kind').distinct().execute()).map((row) => row.kind).sort();
  const claimed = await h.service.database.db.selectFrom('orders').select('commission_status').where('source', '=', 'claim').execute();
  if (EVENTS >= 1_000) assert.ok(claimed.some((o) => o.commission_status !== 'pending'), 'claimed orders went on through the money cycle');
  if (EVENTS >= 1_000) assert.deepEqual(kinds, ['adjustment', 'approval', 'payable', 'payment', 'payout_failed', 'payout_sent', 'payout_settled', 'statement'], `months ${startMonth} to ${monthOf(clock.iso())}`);
  const cli = await runCli(['ledger', 'check'], { DATABASE_URL: h.config.databaseUrl });
  assert.equal(cli.code, 0, cli.stdout + cli.stderr);
});
