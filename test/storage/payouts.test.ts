// PayoutsRepository against a real database: payable adds up an affiliate's approved, unpaid
// commissions created up to a time, per currency; create pays exactly those (one payout per
// currency, orders marked paid with payout_id and paid_at, each audited) and only once, so a second
// run pays nothing; other orders and other affiliates are untouched; list and find.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { NewOrderRow } from '../../src/storage/tables.js';
import { servicesFor } from '../helpers/databases.js';
import { brandInput } from '../helpers/world.js';
import { idsOf, openFixture, type StorageFixture } from './fixture.js';

let f: StorageFixture;

const day = (date: string) => `2026-${date}T10:00:00.000Z`;
const UNTIL = '2026-02-01T00:00:00.000Z';
const PAID_AT = '2026-02-02T00:00:00.000Z';

const order = (id: string, affiliateId: string, commissionStatus: string, currency: string, commission: number, createdAt: string, extra: Partial<NewOrderRow> = {}): NewOrderRow => ({
  id,
  order_id: `brand-${id}`,
  organization_id: 'b-acme',
  affiliate_id: affiliateId,
  status: commissionStatus === 'pending' ? 'pending' : 'approved',
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
    order('p1', 'aff-1', 'approved', 'BRL', 1_000, day('01-10')),
    order('p2', 'aff-1', 'approved', 'BRL', 500, day('01-20')),
    order('p3', 'aff-1', 'approved', 'EUR', 700, day('01-15')),
    order('p4', 'aff-1', 'pending', 'BRL', 300, day('01-05')),
    order('p5', 'aff-1', 'approved', 'BRL', 900, day('03-01')),
    order('p6', 'aff-1', 'paid', 'BRL', 100, day('01-01'), { payout_id: 'po-old', paid_at: day('01-02') }),
    order('p7', 'aff-1', 'canceled', 'BRL', 200, day('01-02')),
    // Created at the very instant the run pays up to: included.
    order('p8', 'aff-1', 'approved', 'USD', 250, UNTIL),
    order('q1', 'aff-2', 'approved', 'BRL', 400, day('01-12')),
  ];
  for (const o of orders) await f.repos.orders.insert(o);
});

after(async () => {
  await f?.close();
});

const ordersById = async () => new Map((await f.database.db.selectFrom('orders').selectAll().execute()).map((o) => [o.id, o]));

describe('PayoutsRepository', () => {
  let announced: Awaited<ReturnType<typeof f.repos.payouts.payable>>;

  test('payable adds up approved, unpaid commissions created up to the time, per currency', async () => {
    announced = await f.repos.payouts.payable('aff-1', UNTIL);
    assert.deepEqual(announced, [
      { currency: 'BRL', orders: 2, total: 1_500, first: day('01-10'), last: day('01-20') },
      { currency: 'EUR', orders: 1, total: 700, first: day('01-15'), last: day('01-15') },
      { currency: 'USD', orders: 1, total: 250, first: UNTIL, last: UNTIL },
    ]);
    assert.deepEqual(await f.repos.payouts.payable('aff-2', UNTIL), [{ currency: 'BRL', orders: 1, total: 400, first: day('01-12'), last: day('01-12') }]);
    assert.deepEqual(await f.repos.payouts.payable('aff-1', '2025-12-31T00:00:00.000Z'), []);
  });

  test('create pays what payable announced: one payout per currency, in currency order', async () => {
    const ids = ['po-a', 'po-b', 'po-c'];
    const payouts = await f.repos.payouts.create('aff-1', UNTIL, 'operator', PAID_AT, () => ids.shift()!);
    assert.deepEqual(
      payouts.map((p) => ({ currency: p.currency, orders: p.order_count, total: p.total, first: p.period_start, last: p.period_end })),
      announced,
    );
    assert.deepEqual(payouts, [
      { id: 'po-a', affiliate_id: 'aff-1', currency: 'BRL', period_start: day('01-10'), period_end: day('01-20'), total: 1_500, order_count: 2, created_at: PAID_AT },
      { id: 'po-b', affiliate_id: 'aff-1', currency: 'EUR', period_start: day('01-15'), period_end: day('01-15'), total: 700, order_count: 1, created_at: PAID_AT },
      { id: 'po-c', affiliate_id: 'aff-1', currency: 'USD', period_start: UNTIL, period_end: UNTIL, total: 250, order_count: 1, created_at: PAID_AT },
    ]);
    const stored = await f.database.db.selectFrom('payouts').selectAll().orderBy('id').execute();
    assert.deepEqual(stored, payouts);
  });

  test('the paid orders point to their payout, with the time paid and an audit event each', async () => {
    const orders = await ordersById();
    for (const [id, payoutId] of [
      ['p1', 'po-a'],
      ['p2', 'po-a'],
      ['p3', 'po-b'],
      ['p8', 'po-c'],
    ] as const) {
      const o = orders.get(id);
      assert.deepEqual([o?.commission_status, o?.payout_id, o?.paid_at, o?.updated_at], ['paid', payoutId, PAID_AT, PAID_AT], id);
      assert.equal(o?.status, 'approved', `${id}: the order status is not the commission's`);
    }
    const events = await f.database.db.selectFrom('order_events').select(['order_id', 'field', 'from_value', 'to_value', 'actor', 'created_at']).orderBy('order_id').execute();
    assert.deepEqual(
      events,
      ['p1', 'p2', 'p3', 'p8'].map((id) => ({ order_id: id, field: 'commissionStatus', from_value: 'approved', to_value: 'paid', actor: 'operator', created_at: PAID_AT })),
    );
  });

  test('orders not payable and other affiliates are untouched', async () => {
    const orders = await ordersById();
    assert.deepEqual([orders.get('p4')?.commission_status, orders.get('p4')?.payout_id], ['pending', null]);
    assert.deepEqual([orders.get('p5')?.commission_status, orders.get('p5')?.payout_id, orders.get('p5')?.paid_at], ['approved', null, null]);
    assert.deepEqual([orders.get('p6')?.payout_id, orders.get('p6')?.paid_at], ['po-old', day('01-02')]);
    assert.deepEqual([orders.get('p7')?.commission_status, orders.get('p7')?.payout_id], ['canceled', null]);
    assert.deepEqual([orders.get('q1')?.commission_status, orders.get('q1')?.payout_id, orders.get('q1')?.updated_at], ['approved', null, day('01-12')]);
  });

  test('a second run pays nothing and creates no payout', async () => {
    assert.deepEqual(await f.repos.payouts.payable('aff-1', UNTIL), []);
    let asked = 0;
    const again = await f.repos.payouts.create('aff-1', UNTIL, 'operator', '2026-02-03T00:00:00.000Z', () => `po-again-${++asked}`);
    assert.deepEqual(again, []);
    assert.equal(asked, 0);
    assert.deepEqual(idsOf(await f.database.db.selectFrom('payouts').select('id').orderBy('id').execute()), ['po-a', 'po-b', 'po-c']);
    assert.equal((await ordersById()).get('p1')?.paid_at, PAID_AT);
  });

  test('two runs at the same time pay each order once', async () => {
    const ids = ['po-x1', 'po-x2'];
    const runs = await Promise.all([
      f.repos.payouts.create('aff-2', UNTIL, 'operator', '2026-02-04T00:00:00.000Z', () => ids.shift()!),
      f.repos.payouts.create('aff-2', UNTIL, 'operator', '2026-02-04T00:00:00.000Z', () => ids.shift()!),
    ]);
    const paid = runs.flat();
    assert.equal(paid.length, 1);
    assert.deepEqual([paid[0]?.order_count, paid[0]?.total], [1, 400]);
    assert.equal((await ordersById()).get('q1')?.payout_id, paid[0]?.id);
    const events = await f.database.db.selectFrom('order_events').select('order_id').where('order_id', '=', 'q1').execute();
    assert.equal(events.length, 1);
  });

  test("list pages the affiliate's payouts newest first, the id breaking ties; find is the affiliate's own", async () => {
    const later = await f.repos.payouts.create('aff-1', '2026-04-01T00:00:00.000Z', 'operator', '2026-04-02T00:00:00.000Z', () => 'po-d');
    assert.deepEqual(idsOf(later), ['po-d']);
    const all = await f.repos.payouts.list('aff-1', { limit: 10, offset: 0 });
    assert.deepEqual({ ids: idsOf(all.rows), total: all.total }, { ids: ['po-d', 'po-c', 'po-b', 'po-a'], total: 4 });
    const page = await f.repos.payouts.list('aff-1', { limit: 2, offset: 1 });
    assert.deepEqual({ ids: idsOf(page.rows), total: page.total }, { ids: ['po-c', 'po-b'], total: 4 });
    assert.equal((await f.repos.payouts.find('aff-1', 'po-a'))?.total, 1_500);
    assert.equal(await f.repos.payouts.find('aff-2', 'po-a'), undefined);
    assert.equal(await f.repos.payouts.find('aff-1', 'missing'), undefined);
  });
});
