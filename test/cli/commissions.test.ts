// The operator's side of conversions: brand keys from `affnet keys create --brand`, and
// `affnet commissions pay`, run as a separate process against the database of a running service.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../helpers/cli.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { BRANDS } from '../helpers/world.js';
import { assertError, newKey } from '../helpers/api.js';
import { affiliateOrder, backdateClick, brandKey, clickLink, conversionOf, createLink, eventsOf, freshClick, item, patchStatus, report, snapshot, type Conversion } from '../helpers/tracking.js';
import { servicesFor } from '../helpers/databases.js';

let h: Harness;
let env: Record<string, string>;
let aff1: string;
let aff2: string;
let acme: string;

before(async () => {
  h = await startHarness();
  env = { DATABASE_URL: h.config.databaseUrl };
  aff1 = (await newKey(h, 'aff-1', { rateLimit: 100_000 })).key;
  aff2 = (await newKey(h, 'aff-2', { rateLimit: 100_000 })).key;
  acme = await brandKey(h, BRANDS.acme);
});
after(async () => {
  await h.close();
});

const lastLine = (text: string) => text.trim().split('\n').at(-1)!;
const DAY_MS = 86_400_000;
const daysBefore = (iso: string, days: number) => new Date(Date.parse(iso) - days * DAY_MS).toISOString();
let seq = 0;
const oid = (label: string) => `CLI-${label}-${++seq}`;

async function brandKeyCount(): Promise<number> {
  const row = await h.service.database.db
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('brand_id', 'is not', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

const pay = (...args: string[]) => runCli(['commissions', 'pay', ...args], env);

describe('affnet keys create --brand', () => {
  test('prints a brand key with every brand scope (and no affiliate one)', async () => {
    const result = await runCli(['keys', 'create', '--brand', BRANDS.acme, '--name', 'shop backend'], env);
    assert.equal(result.code, 0, result.stderr);
    const key = lastLine(result.stdout);
    assert.match(key, /^afn_[0-9A-Za-z]{32}$/);
    const principal = await servicesFor(h.service.database).access.resolveKey(key);
    assert.equal(principal?.brandId, BRANDS.acme);
    assert.equal(principal?.affiliateId, null);
    assert.deepEqual([...principal.scopes].sort(), ['affiliates:read', 'affiliates:write', 'analytics:read', 'catalog:read', 'catalog:write', 'conversions:read', 'conversions:write', 'webhooks:read', 'webhooks:write']);

    const clickId = await freshClick(h, aff1, BRANDS.acme);
    const conv = conversionOf(await report(h, key, { clickId, orderId: oid('key'), value: 1999, items: [item(1999)] }), 201);
    assert.equal(conv.commission, 150);
    assertError(await h.get('/affiliate/orders', key), 403, 'forbidden');
    assertError(await h.get('/affiliate/brands', key), 403, 'forbidden');
  });

  test('a brand key without conversions:write cannot be created: a clear message, a non-zero exit, no key', async () => {
    const before = await brandKeyCount();
    for (const scopes of ['brands:read', 'conversions:write,orders:read', 'orders:read']) {
      const result = await runCli(['keys', 'create', '--brand', BRANDS.acme, '--scopes', scopes], env);
      assert.notEqual(result.code, 0, `--scopes ${scopes} must fail: ${result.stdout}`);
      assert.match(result.stderr, /unknown scope "(brands|orders):read"/);
      assert.match(result.stderr, /allowed scopes: conversions:write/);
      assert.ok(!/afn_/.test(result.stdout), 'no key is printed');
    }
    const empty = await runCli(['keys', 'create', '--brand', BRANDS.acme, '--scopes', ''], env);
    assert.notEqual(empty.code, 0);
    assert.match(empty.stderr, /no scope given/);
    const unknownBrand = await runCli(['keys', 'create', '--brand', BRANDS.unknown], env);
    assert.notEqual(unknownBrand.code, 0);
    assert.match(unknownBrand.stderr, new RegExp(`brand "${BRANDS.unknown}" does not exist`));
    const both = await runCli(['keys', 'create', '--brand', BRANDS.acme, '--affiliate', 'aff-1'], env);
    assert.notEqual(both.code, 0);
    assert.equal(await brandKeyCount(), before);

    // Nor does an affiliate key get the brand scope.
    const affiliate = await runCli(['keys', 'create', '--affiliate', 'aff-1', '--scopes', 'conversions:write'], env);
    assert.notEqual(affiliate.code, 0);
    assert.match(affiliate.stderr, /unknown scope "conversions:write"/);
  });
});

describe('affnet commissions pay', () => {
  test('the loop: conversions through HTTP, approved by the brand, paid by --until; later, pending and canceled ones untouched', async () => {
    // aff-2's only earlier order is the world's pending o-aff2-1.
    const link = await createLink(h, aff2, BRANDS.acme, { mdasc: 'wa-deals' });
    const { clickId } = await clickLink(h, link.code);
    const now = new Date().toISOString();
    await backdateClick(h, clickId, daysBefore(now, 10));
    const reportAt = async (value: number, createdAt: string) =>
      conversionOf(await report(h, acme, { clickId, orderId: oid('pay'), value, items: [item(value)], createdAt }), 201);
    const early = await reportAt(1999, daysBefore(now, 6)); // 150
    const late = await reportAt(1000, daysBefore(now, 1)); // 75
    const pending = await reportAt(500, daysBefore(now, 6)); // 38
    const canceled = await reportAt(2000, daysBefore(now, 6)); // 150
    for (const c of [early, late]) assert.equal((await patchStatus(h, acme, c.orderId, { status: 'approved' })).statusCode, 200);
    assert.equal((await patchStatus(h, acme, canceled.orderId, { status: 'canceled' })).statusCode, 200);
    const seen = await affiliateOrder(h, aff2, early.id);
    assert.equal(seen.mdasc, 'wa-deals');
    assert.equal(seen.commissionStatus, 'approved');

    const untilDate = daysBefore(now, 4).slice(0, 10);
    const first = await pay('--affiliate', 'aff-2', '--until', untilDate);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /Paid 1 commission\(s\) to aff-2, 1\.50 BRL in total \(150 minor units\), payout /);
    const status = async (c: Conversion) => {
      const o = await affiliateOrder(h, aff2, c.id);
      return `${o.status}/${o.commissionStatus}`;
    };
    assert.equal(await status(early), 'approved/paid');
    assert.equal(await status(late), 'approved/approved', '--until excludes orders created later');
    assert.equal(await status(pending), 'pending/pending');
    assert.equal(await status(canceled), 'canceled/canceled');
    assert.equal((await affiliateOrder(h, aff2, 'o-aff2-1')).commissionStatus, 'pending');
    const paidEvents = (await eventsOf(h, early.id)).filter((e) => e.to_value === 'paid');
    assert.equal(paidEvents.length, 1);
    assert.deepEqual(
      { field: paidEvents[0]!.field, from: paidEvents[0]!.from_value, to: paidEvents[0]!.to_value, actor: paidEvents[0]!.actor },
      { field: 'commissionStatus', from: 'approved', to: 'paid', actor: 'operator' },
    );
    assert.ok(paidEvents[0]!.created_at >= now, 'the payment is audited when it happened');

    // The same run again pays nothing and changes nothing: paid stays paid.
    const before = await snapshot(h);
    const second = await pay('--affiliate', 'aff-2', '--until', untilDate);
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, /Paid 0 commission\(s\) to aff-2: no approved commission/);
    assert.deepEqual(await snapshot(h), before);
    assert.equal(await status(early), 'approved/paid');

    // A date-time bound is inclusive: a millisecond before the late order excludes it, its own time includes it.
    const justBefore = new Date(Date.parse(late.createdAt) - 1).toISOString();
    const third = await pay('--affiliate', 'aff-2', '--until', justBefore);
    assert.equal(third.code, 0, third.stderr);
    assert.match(third.stdout, /Paid 0 commission\(s\)/);
    const fourth = await pay('--affiliate', 'aff-2', '--until', late.createdAt);
    assert.equal(fourth.code, 0, fourth.stderr);
    assert.match(fourth.stdout, /Paid 1 commission\(s\) to aff-2, 0\.75 BRL in total \(75 minor units\), payout /);
    assert.equal(await status(late), 'approved/paid');
    assert.equal(await status(pending), 'pending/pending');
    assert.equal(await status(canceled), 'canceled/canceled');
  });

  test('without --until, every approved commission up to now is paid', async () => {
    const clickId = await freshClick(h, aff2, BRANDS.acme);
    const a = conversionOf(await report(h, acme, { clickId, orderId: oid('now'), value: 20, items: [item(20)] }), 201); // 1.5 → 2
    const b = conversionOf(await report(h, acme, { clickId, orderId: oid('now'), value: 60, items: [item(60)] }), 201); // 4.5 → 5
    for (const c of [a, b]) assert.equal((await patchStatus(h, acme, c.orderId, { status: 'approved' })).statusCode, 200);
    const result = await pay('--affiliate', 'aff-2');
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /Paid 2 commission\(s\) to aff-2, 0\.07 BRL in total \(7 minor units\), payout /);
    for (const c of [a, b]) assert.equal((await affiliateOrder(h, aff2, c.id)).commissionStatus, 'paid');
  });

  test('a bare --until date includes the whole UTC day', async () => {
    // The world's o-aff1-2 is approved and was created 2026-02-10T10:00:00Z (commission 750).
    const dayBefore = await pay('--affiliate', 'aff-1', '--until', '2026-02-09');
    assert.equal(dayBefore.code, 0, dayBefore.stderr);
    assert.match(dayBefore.stdout, /Paid 0 commission\(s\) to aff-1/);
    assert.equal((await affiliateOrder(h, aff1, 'o-aff1-2')).commissionStatus, 'approved');
    const sameDay = await pay('--affiliate', 'aff-1', '--until', '2026-02-10');
    assert.equal(sameDay.code, 0, sameDay.stderr);
    assert.match(sameDay.stdout, /Paid 1 commission\(s\) to aff-1, 7\.50 BRL in total \(750 minor units\), payout /);
    assert.equal((await affiliateOrder(h, aff1, 'o-aff1-2')).commissionStatus, 'paid');
    assert.equal((await affiliateOrder(h, aff1, 'o-aff1-1')).commissionStatus, 'pending');
  });

  test('--dry-run shows what would be paid and pays nothing', async () => {
    const clickId = await freshClick(h, aff2, BRANDS.acme);
    const conv = conversionOf(await report(h, acme, { clickId, orderId: oid('dry'), value: 1999, items: [item(1999)] }), 201);
    assert.equal((await patchStatus(h, acme, conv.orderId, { status: 'approved' })).statusCode, 200);
    const payoutsOfAff2 = async () => (await h.service.database.db.selectFrom('payouts').selectAll().where('affiliate_id', '=', 'aff-2').execute()).length;
    const payoutsBefore = await payoutsOfAff2();
    const before = await snapshot(h);
    const dry = await pay('--affiliate', 'aff-2', '--dry-run');
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, /Would pay 1 commission\(s\) to aff-2, 1\.50 BRL in total \(150 minor units\); orders created /);
    assert.match(dry.stdout, /Nothing was paid \(--dry-run\)/);
    assert.deepEqual(await snapshot(h), before, 'a dry run writes nothing');
    assert.equal(await payoutsOfAff2(), payoutsBefore, 'no payout created');
    assert.equal((await affiliateOrder(h, aff2, conv.id)).commissionStatus, 'approved');
    const real = await pay('--affiliate', 'aff-2');
    assert.match(real.stdout, /Paid 1 commission\(s\) to aff-2, 1\.50 BRL in total \(150 minor units\), payout /);
  });

  test('two runs at the same time create one payout, and pay each order once', async () => {
    const clickId = await freshClick(h, aff1, BRANDS.acme);
    const orders = [];
    for (let i = 0; i < 20; i++) orders.push(conversionOf(await report(h, acme, { clickId, orderId: oid('race'), value: 1000, items: [item(1000)] }), 201));
    for (const c of orders) assert.equal((await patchStatus(h, acme, c.orderId, { status: 'approved' })).statusCode, 200);
    const { db } = h.service.database;
    const payoutsBefore = await db.selectFrom('payouts').select('id').where('affiliate_id', '=', 'aff-1').execute();
    const [a, b] = await Promise.all([pay('--affiliate', 'aff-1'), pay('--affiliate', 'aff-1')]);
    assert.equal(a.code, 0, a.stderr);
    assert.equal(b.code, 0, b.stderr);
    const created = (await db.selectFrom('payouts').selectAll().where('affiliate_id', '=', 'aff-1').execute()).filter((p) => !payoutsBefore.some((q) => q.id === p.id));
    assert.equal(created.length, 1, `exactly one payout: ${a.stdout} | ${b.stdout}`);
    assert.equal([a.stdout, b.stdout].filter((out) => /Paid 0 commission/.test(out)).length, 1, 'the other run found nothing left to pay');
    const payout = created[0]!;
    const paid = await db.selectFrom('orders').select(['id', 'commission']).where('payout_id', '=', payout.id).execute();
    assert.equal(Number(payout.order_count), paid.length);
    assert.equal(Number(payout.total), paid.reduce((sum, o) => sum + Number(o.commission), 0));
    for (const c of orders) {
      assert.ok(paid.some((o) => o.id === c.id), `${c.id} is in the payout`);
      const events = (await eventsOf(h, c.id)).filter((e) => e.to_value === 'paid');
      assert.equal(events.length, 1, 'paid once');
    }
  });

  test('an unknown affiliate, a missing --affiliate or a bad --until: non-zero exit, a clear message, nothing paid', async () => {
    // Something payable, so "nothing paid" means something.
    const clickId = await freshClick(h, aff1, BRANDS.acme);
    const conv = conversionOf(await report(h, acme, { clickId, orderId: oid('err'), value: 1999, items: [item(1999)] }), 201);
    assert.equal((await patchStatus(h, acme, conv.orderId, { status: 'approved' })).statusCode, 200);
    const before = await snapshot(h);

    const unknown = await pay('--affiliate', 'nobody');
    assert.notEqual(unknown.code, 0);
    assert.match(unknown.stderr, /affiliate "nobody" does not exist/);
    assert.ok(!/Paid/.test(unknown.stdout), unknown.stdout);

    const missing = await pay();
    assert.notEqual(missing.code, 0);
    assert.match(missing.stderr, /--affiliate/);

    for (const until of ['not-a-date', '2026-13-45']) {
      const bad = await pay('--affiliate', 'aff-1', '--until', until);
      assert.notEqual(bad.code, 0, `--until ${until} must fail: ${bad.stdout}`);
      assert.match(bad.stderr, /--until/);
      assert.ok(!/Paid/.test(bad.stdout), bad.stdout);
    }
    assert.deepEqual(await snapshot(h), before, 'nothing was paid');
    assert.equal((await affiliateOrder(h, aff1, conv.id)).commissionStatus, 'approved');
  });
});
