// PayoutsRepository against a real database: payable adds up each affiliate's payable commissions
// and unpaid adjustments per currency; a run claims exactly those into pending payouts (once, even
// with two runs at the same time) and leaves what falls below its minimum; sending pays the
// commissions, failing returns them to payable; other orders and affiliates are untouched.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { NewOrderRow } from '../../src/storage/tables.js';
import { servicesFor } from '../helpers/databases.js';
import { brandInput } from '../helpers/world.js';
import { idsOf, openFixture, type StorageFixture } from './fixture.js';

let f: StorageFixture;

const day = (date: string) => `2026-${date}T10:00:00.000Z`;
const RUN_AT = '2026-02-02T00:00:00.000Z';
const SENT_AT = '2026-02-03T00:00:00.000Z';

const order = (id: string, affiliateId: string, commissionStatus: string, currency: string, commission: number, createdAt: string, extra: Partial<NewOrderRow> = {}): NewOrderRow => ({
  id,
  order_id: `brand-${id}`,
  organization_id: 'b-acme',
  affiliate_id: affiliateId,
  status: commissionStatus === 'pending' ? 'pending' : commissionStatus === 'canceled' ? 'canceled' : 'approved',
  commission_status: commissionStatus,
  value: 10_000,
  commission,
  commission_transfer: 'cpa',
  commission_value: commission,
  currency,
  items: '[]',
  created_at: createdAt,
  updated_at: createdAt,
  lock_at: '2099-12-31T00:00:00.000Z',
  ...extra,
});

before(async () => {
  f = await openFixture();
  const services = servicesFor(f.database);
  await services.imports.upsertBrand(brandInput({ id: 'b-acme', name: 'Acme', slug: 'acme', site: 'https://acme.example.com' }));
  for (const id of ['aff-1', 'aff-2']) await services.access.upsertAffiliate(id, id);
  const orders = [
    order('p1', 'aff-1', 'payable', 'BRL', 1_000, day('01-10')),
    order('p2', 'aff-1', 'payable', 'BRL', 500, day('01-20')),
    order('p3', 'aff-1', 'payable', 'EUR', 700, day('01-15')),
    order('p4', 'aff-1', 'pending', 'BRL', 300, day('01-05')),
    order('p5', 'aff-1', 'approved', 'BRL', 900, day('01-01')),
    order('p6', 'aff-1', 'paid', 'BRL', 100, day('01-01'), { payout_id: 'po-old', paid_at: day('01-02') }),
    order('p7', 'aff-1', 'canceled', 'BRL', 200, day('01-02')),
    order('p8', 'aff-1', 'payable', 'USD', 250, day('01-03')),
    order('q1', 'aff-2', 'payable', 'BRL', 400, day('01-12')),
  ];
  for (const o of orders) await f.repos.orders.insert(o);
});

after(async () => {
  await f?.close();
});

const ordersById = async () => new Map((await f.database.db.selectFrom('orders').selectAll().execute()).map((o) => [o.id, o]));

const plan = (id: string, affiliateId: string, currency: string, minimum = 1) => ({ id, affiliate_id: affiliateId, currency, minimum, method: 'PIX email a***@example.com' });
const batch = (id: string, at = RUN_AT) => ({ id, created_by: 'cli', created_at: at });

describe('PayoutsRepository', () => {
  test('payable adds up payable commissions and unpaid adjustments per affiliate and currency', async () => {
    await f.repos.adjustments.create({ id: 'adj-1', affiliate_id: 'aff-1', currency: 'BRL', amount: -200, reason: 'a refunded order', created_by: 'cli', created_at: day('01-25'), payout_id: null }, {});
    assert.deepEqual(await f.repos.payouts.payable('aff-1'), [
      { affiliate_id: 'aff-1', currency: 'BRL', commission: 1_500, orders: 2, adjustments: -200 },
      { affiliate_id: 'aff-1', currency: 'EUR', commission: 700, orders: 1, adjustments: 0 },
      { affiliate_id: 'aff-1', currency: 'USD', commission: 250, orders: 1, adjustments: 0 },
    ]);
    assert.deepEqual((await f.repos.payouts.payable()).map((p) => `${p.affiliate_id} ${p.currency}`), ['aff-1 BRL', 'aff-1 EUR', 'aff-1 USD', 'aff-2 BRL']);
  });

  test('a run claims into pending payouts what each reaches; one below its minimum is not made and claims nothing', async () => {
    const made = await f.repos.payouts.createRun(batch('b-1'), [plan('po-a', 'aff-1', 'BRL', 1_000), plan('po-b', 'aff-1', 'EUR', 800), plan('po-c', 'aff-1', 'USD')], () => ({}));
    assert.deepEqual(
      made.map((p) => [p.id, p.status, p.total, p.order_count, p.adjustment_total, p.period_start, p.period_end, p.batch_id, p.method]),
      [
        ['po-a', 'pending', 1_300, 2, -200, day('01-10'), day('01-20'), 'b-1', 'PIX email a***@example.com'],
        ['po-c', 'pending', 250, 1, 0, day('01-03'), day('01-03'), 'b-1', 'PIX email a***@example.com'],
      ],
    );
    const orders = await ordersById();
    assert.deepEqual([orders.get('p1')?.payout_id, orders.get('p1')?.commission_status], ['po-a', 'payable'], 'claimed, still payable until sent');
    assert.equal(orders.get('p3')?.payout_id, null, 'EUR 700 stays below its minimum of 800: released');
    assert.equal((await f.database.db.selectFrom('adjustments').select('payout_id').where('id', '=', 'adj-1').executeTakeFirst())?.payout_id, 'po-a');
    assert.equal((await f.database.db.selectFrom('payout_batches').selectAll().where('id', '=', 'b-1').executeTakeFirst())?.payout_count, 2);
    assert.deepEqual(await f.repos.payouts.payable('aff-1'), [{ affiliate_id: 'aff-1', currency: 'EUR', commission: 700, orders: 1, adjustments: 0 }]);
  });

  test('sending pays the commissions (audited); failing a sent payout returns them to payable and frees its adjustments', async () => {
    const [poA] = await f.repos.payouts.ofBatch('b-1');
    assert.equal(poA?.id, 'po-a');
    assert.equal(await f.repos.payouts.send(poA, SENT_AT, {}), true);
    assert.equal(await f.repos.payouts.send(poA, SENT_AT, {}), false, 'sent once');
    let orders = await ordersById();
    assert.deepEqual([orders.get('p1')?.commission_status, orders.get('p1')?.paid_at], ['paid', SENT_AT]);
    const sent = (await f.repos.payouts.find('aff-1', 'po-a'))!;
    assert.deepEqual([sent.status, sent.sent_at], ['sent', SENT_AT]);

    assert.equal(await f.repos.payouts.fail(sent, 'account closed', '2026-02-04T00:00:00.000Z', {}), true);
    orders = await ordersById();
    assert.deepEqual([orders.get('p1')?.commission_status, orders.get('p1')?.paid_at, orders.get('p1')?.payout_id], ['payable', null, null]);
    assert.equal((await f.database.db.selectFrom('adjustments').select('payout_id').where('id', '=', 'adj-1').executeTakeFirst())?.payout_id, null);
    const failed = (await f.repos.payouts.find('aff-1', 'po-a'))!;
    assert.deepEqual([failed.status, failed.failure_reason], ['failed', 'account closed']);
    assert.equal(await f.repos.payouts.settle(failed, SENT_AT, {}), false, 'a failed payout is never settled');
    const events = await f.database.db.selectFrom('order_events').select(['from_value', 'to_value', 'actor']).where('order_id', '=', 'p1').orderBy('id').execute();
    assert.deepEqual(events, [{ from_value: 'payable', to_value: 'paid', actor: 'network' }, { from_value: 'paid', to_value: 'payable', actor: 'network' }]);
  });

  test('orders not payable and other affiliates are untouched', async () => {
    const orders = await ordersById();
    assert.deepEqual([orders.get('p4')?.commission_status, orders.get('p4')?.payout_id], ['pending', null]);
    assert.deepEqual([orders.get('p5')?.commission_status, orders.get('p5')?.payout_id], ['approved', null]);
    assert.deepEqual([orders.get('p6')?.payout_id, orders.get('p6')?.paid_at], ['po-old', day('01-02')]);
    assert.deepEqual([orders.get('p7')?.commission_status, orders.get('p7')?.payout_id], ['canceled', null]);
    assert.deepEqual([orders.get('q1')?.commission_status, orders.get('q1')?.payout_id], ['payable', null]);
  });

  test('two runs at the same time claim each commission once', async () => {
    const runs = await Promise.all([
      f.repos.payouts.createRun(batch('b-x1'), [plan('po-x1', 'aff-2', 'BRL')], () => ({})),
      f.repos.payouts.createRun(batch('b-x2'), [plan('po-x2', 'aff-2', 'BRL')], () => ({})),
    ]);
    const made = runs.flat();
    assert.equal(made.length, 1);
    assert.deepEqual([made[0]?.order_count, made[0]?.total], [1, 400]);
    assert.equal((await ordersById()).get('q1')?.payout_id, made[0]?.id);
  });

  test("list pages the affiliate's payouts newest first, the id breaking ties; find is the affiliate's own", async () => {
    const later = await f.repos.payouts.createRun(batch('b-2', '2026-04-02T00:00:00.000Z'), [plan('po-d', 'aff-1', 'BRL')], () => ({}));
    assert.deepEqual(idsOf(later), ['po-d']);
    const all = await f.repos.payouts.list('aff-1', { limit: 10, offset: 0 });
    assert.deepEqual({ ids: idsOf(all.rows), total: all.total }, { ids: ['po-d', 'po-c', 'po-a'], total: 3 });
    const page = await f.repos.payouts.list('aff-1', { limit: 1, offset: 1 });
    assert.deepEqual({ ids: idsOf(page.rows), total: page.total }, { ids: ['po-c'], total: 3 });
    assert.equal((await f.repos.payouts.find('aff-1', 'po-c'))?.total, 250);
    assert.equal(await f.repos.payouts.find('aff-2', 'po-c'), undefined);
    assert.equal(await f.repos.payouts.find('aff-1', 'missing'), undefined);
  });
});
