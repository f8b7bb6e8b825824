// OrdersRepository against a real database: list (an affiliate's orders newest first with id
// breaking ties, every filter, paging and total), commissionTotals per currency and commission
// status, listForBrand (a brand's orders of every affiliate), findForAffiliate, findBrandOrder and
// existingIds; createOnce (one row and one 'created' audit event per brand and order id, also when
// reported concurrently), change (optimistic: an order changed since it was read is left alone;
// each changed field audited with its author) and historyOf (the audit trail, oldest first).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { NewOrderRow } from '../../src/storage/tables.js';
import type { OrderFilters } from '../../src/storage/repositories/orders.js';
import { servicesFor } from '../helpers/databases.js';
import { brandInput } from '../helpers/world.js';
import { ALL, idsOf, openFixture, type StorageFixture } from './fixture.js';

let f: StorageFixture;

const order = (id: string, extra: Partial<NewOrderRow> = {}): NewOrderRow => ({
  id,
  order_id: `brand-${id}`,
  organization_id: 'b-acme',
  affiliate_id: 'aff-1',
  link_id: null,
  click_id: null,
  channel_id: null,
  mdasc: null,
  status: 'pending',
  commission_status: 'pending',
  value: 10_000,
  commission: 750,
  commission_transfer: 'cps',
  commission_value: 750,
  currency: 'BRL',
  items: '[]',
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  lock_at: '2099-12-31T00:00:00.000Z',
  ...extra,
});

const day = (date: string) => `2026-${date}T10:00:00.000Z`;

// aff-1's orders are the list and totals tests' (never changed); the write tests use aff-3.
before(async () => {
  f = await openFixture();
  const services = servicesFor(f.database);
  for (const id of ['b-acme', 'b-globex']) await services.imports.upsertBrand(brandInput({ id, name: id, slug: id, site: `https://${id}.example.com` }));
  for (const id of ['aff-1', 'aff-2', 'aff-3']) await services.access.upsertAffiliate(id, id);
  const { orders } = f.repos;
  await orders.insert(order('o1', { created_at: day('01-10'), mdasc: 'camp-x' }));
  await orders.insert(order('o2', { created_at: day('02-10'), mdasc: '', status: 'approved', commission_status: 'approved', commission: 1_000 }));
  await orders.insert(order('o3', { organization_id: 'b-globex', created_at: day('03-10'), commission: 150 }));
  await orders.insert(order('o4', { organization_id: 'b-globex', created_at: day('03-10'), status: 'canceled', commission_status: 'canceled', currency: 'EUR', commission: 1_500 }));
  await orders.insert(
    order('o5', { created_at: day('04-01'), status: 'approved', commission_status: 'paid', currency: 'EUR', commission: 2_000, payout_id: 'po-1', paid_at: day('04-15') }),
  );
  // Another affiliate's order, whose brand order id is the same text as o1's (at another brand).
  await orders.insert(order('o6', { affiliate_id: 'aff-2', organization_id: 'b-globex', order_id: 'brand-o1', created_at: day('01-15') }));
});

after(async () => {
  await f?.close();
});

describe('OrdersRepository.list', () => {
  const list = async (filters: OrderFilters, affiliateId = 'aff-1') => {
    const page = await f.repos.orders.list(affiliateId, filters, ALL);
    return { ids: idsOf(page.rows), total: page.total };
  };

  test("pages the affiliate's orders newest first, the id breaking ties, with the total", async () => {
    assert.deepEqual(await list({}), { ids: ['o5', 'o4', 'o3', 'o2', 'o1'], total: 5 });
    const page = await f.repos.orders.list('aff-1', {}, { limit: 2, offset: 1 });
    assert.deepEqual({ ids: idsOf(page.rows), total: page.total }, { ids: ['o4', 'o3'], total: 5 });
    assert.deepEqual(await list({}, 'aff-2'), { ids: ['o6'], total: 1 });
  });

  test('brand, mdasc, creation range, status, commission status and payout filters', async () => {
    assert.deepEqual(await list({ organizationIds: ['b-globex'] }), { ids: ['o4', 'o3'], total: 2 });
    assert.deepEqual(await list({ withMdasc: true }), { ids: ['o1'], total: 1 }, 'an empty mdasc is no mdasc');
    assert.deepEqual(await list({ from: day('02-10'), to: day('03-10') }), { ids: ['o4', 'o3', 'o2'], total: 3 });
    assert.deepEqual(await list({ statuses: ['approved'] }), { ids: ['o5', 'o2'], total: 2 });
    assert.deepEqual(await list({ commissionStatuses: ['paid', 'canceled'] }), { ids: ['o5', 'o4'], total: 2 });
    assert.deepEqual(await list({ payoutId: 'po-1' }), { ids: ['o5'], total: 1 });
    assert.deepEqual(await list({ organizationIds: ['b-acme'], statuses: ['pending'] }), { ids: ['o1'], total: 1 });
  });
});

describe('OrdersRepository.commissionTotals', () => {
  test('adds up orders and commission per currency and commission status, in that order', async () => {
    assert.deepEqual(await f.repos.orders.commissionTotals('aff-1', {}), [
      { currency: 'BRL', commission_status: 'approved', orders: 1, commission: 1_000 },
      { currency: 'BRL', commission_status: 'pending', orders: 2, commission: 900 },
      { currency: 'EUR', commission_status: 'canceled', orders: 1, commission: 1_500 },
      { currency: 'EUR', commission_status: 'paid', orders: 1, commission: 2_000 },
    ]);
  });

  test('applies the brand and creation range filters, and answers nothing for an affiliate without orders', async () => {
    assert.deepEqual(await f.repos.orders.commissionTotals('aff-1', { organizationIds: ['b-acme'], to: day('03-31') }), [
      { currency: 'BRL', commission_status: 'approved', orders: 1, commission: 1_000 },
      { currency: 'BRL', commission_status: 'pending', orders: 1, commission: 750 },
    ]);
    assert.deepEqual(await f.repos.orders.commissionTotals('aff-1', { from: day('03-10') }), [
      { currency: 'BRL', commission_status: 'pending', orders: 1, commission: 150 },
      { currency: 'EUR', commission_status: 'canceled', orders: 1, commission: 1_500 },
      { currency: 'EUR', commission_status: 'paid', orders: 1, commission: 2_000 },
    ]);
    assert.deepEqual(await f.repos.orders.commissionTotals('aff-nobody', {}), []);
  });
});

describe('OrdersRepository.listForBrand', () => {
  const list = async (brandId: string, filters: Parameters<typeof f.repos.orders.listForBrand>[1] = {}) => {
    const page = await f.repos.orders.listForBrand(brandId, filters, ALL);
    return { ids: idsOf(page.rows), total: page.total };
  };

  test("pages the brand's orders of every affiliate newest first, the id breaking ties, with the total", async () => {
    assert.deepEqual(await list('b-globex'), { ids: ['o4', 'o3', 'o6'], total: 3 });
    assert.deepEqual(await list('b-acme'), { ids: ['o5', 'o2', 'o1'], total: 3 });
    const page = await f.repos.orders.listForBrand('b-globex', {}, { limit: 1, offset: 1 });
    assert.deepEqual({ ids: idsOf(page.rows), total: page.total }, { ids: ['o3'], total: 3 });
    assert.deepEqual(await list('b-missing'), { ids: [], total: 0 });
  });

  test('affiliate, brand order id, status, commission status and creation range filters', async () => {
    assert.deepEqual(await list('b-globex', { affiliateId: 'aff-2' }), { ids: ['o6'], total: 1 });
    assert.deepEqual(await list('b-globex', { orderId: 'brand-o1' }), { ids: ['o6'], total: 1 });
    assert.deepEqual(await list('b-globex', { statuses: ['canceled'] }), { ids: ['o4'], total: 1 });
    assert.deepEqual(await list('b-globex', { commissionStatuses: ['pending'] }), { ids: ['o3', 'o6'], total: 2 });
    assert.deepEqual(await list('b-globex', { from: day('03-10') }), { ids: ['o4', 'o3'], total: 2 });
    assert.deepEqual(await list('b-globex', { to: day('01-15') }), { ids: ['o6'], total: 1 });
  });
});

describe('OrdersRepository lookups', () => {
  test("findForAffiliate matches the network id or the brand's order id, among the affiliate's orders only", async () => {
    assert.deepEqual(idsOf(await f.repos.orders.findForAffiliate('aff-1', 'o3')), ['o3']);
    assert.deepEqual(idsOf(await f.repos.orders.findForAffiliate('aff-1', 'brand-o1')), ['o1']);
    assert.deepEqual(idsOf(await f.repos.orders.findForAffiliate('aff-2', 'brand-o1')), ['o6']);
    assert.deepEqual(await f.repos.orders.findForAffiliate('aff-2', 'o1'), []);
  });

  test('findBrandOrder and existingIds', async () => {
    assert.equal((await f.repos.orders.findBrandOrder('b-globex', 'brand-o1'))?.id, 'o6');
    assert.equal((await f.repos.orders.findBrandOrder('b-acme', 'brand-o1'))?.id, 'o1');
    assert.equal(await f.repos.orders.findBrandOrder('b-globex', 'brand-o2'), undefined);
    assert.deepEqual(await f.repos.orders.existingIds(['o1', 'missing', 'o6']), new Set(['o1', 'o6']));
    assert.deepEqual(await f.repos.orders.existingIds([]), new Set());
  });
});

describe('OrdersRepository writes', () => {
  const eventsOf = (orderId: string) =>
    f.database.db
      .selectFrom('order_events')
      .select(['field', 'from_value', 'to_value', 'actor', 'actor_key_id', 'created_at'])
      .where('order_id', '=', orderId)
      .orderBy('id')
      .execute();
  const brand = { actor: 'brand:b-acme', keyId: 'key_acme' };
  const operator = { actor: 'operator' };
  const T1 = '2026-05-01T00:00:00.000Z';
  const T2 = '2026-05-02T00:00:00.000Z';
  const T3 = '2026-05-03T00:00:00.000Z';
  const stored = (id: string) => f.database.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  test("createOnce stores the order and its 'created' event; a second report of it stores nothing and answers the first", async () => {
    const first = await f.repos.orders.createOnce(order('w1', { affiliate_id: 'aff-3', order_id: 'shop-1', created_at: T1, updated_at: T1 }), brand, T1);
    assert.equal(first.created, true);
    assert.equal(first.row.id, 'w1');
    assert.equal(first.row.value, 10_000);
    assert.equal(first.row.commission_reason, null);

    const again = await f.repos.orders.createOnce(order('w2', { affiliate_id: 'aff-3', order_id: 'shop-1', value: 999, created_at: T2, updated_at: T2 }), brand, T2);
    assert.equal(again.created, false);
    assert.deepEqual(again.row, first.row);
    const rows = await f.database.db.selectFrom('orders').select('id').where('organization_id', '=', 'b-acme').where('order_id', '=', 'shop-1').execute();
    assert.deepEqual(idsOf(rows), ['w1']);
    assert.deepEqual(await eventsOf('w1'), [{ field: 'created', from_value: null, to_value: 'pending', actor: 'brand:b-acme', actor_key_id: 'key_acme', created_at: T1 }]);
    assert.deepEqual(await eventsOf('w2'), []);
  });

  test('the same order id at another brand is another order; an author without a key records none', async () => {
    const other = await f.repos.orders.createOnce(order('w3', { affiliate_id: 'aff-3', organization_id: 'b-globex', order_id: 'shop-1', status: 'approved' }), operator, T1);
    assert.equal(other.created, true);
    assert.equal(other.row.id, 'w3');
    assert.deepEqual(await eventsOf('w3'), [{ field: 'created', from_value: null, to_value: 'approved', actor: 'operator', actor_key_id: null, created_at: T1 }]);
  });

  test('concurrent reports of one order make one row and one event', async () => {
    const reports = ['r1', 'r2', 'r3', 'r4'].map((id) => f.repos.orders.createOnce(order(id, { affiliate_id: 'aff-3', order_id: 'shop-race' }), brand, T1));
    const results = await Promise.all(reports);
    assert.equal(results.filter((r) => r.created).length, 1);
    const winner = results.find((r) => r.created)!.row.id;
    assert.ok(results.every((r) => r.row.id === winner));
    const rows = await f.database.db.selectFrom('orders').select('id').where('order_id', '=', 'shop-race').execute();
    assert.deepEqual(idsOf(rows), [winner]);
    const events = await f.database.db.selectFrom('order_events').select('order_id').where('order_id', 'in', ['r1', 'r2', 'r3', 'r4']).execute();
    assert.deepEqual(events, [{ order_id: winner }]);
  });

  test('change sets what it is given on the order it read, recording each changed field with its author', async () => {
    const read = await stored('w1');
    assert.equal(await f.repos.orders.change(read, { status: 'approved', commission_status: 'approved' }, brand, T2), true);
    const after = await stored('w1');
    assert.deepEqual([after.status, after.commission_status, after.value, after.updated_at, after.created_at], ['approved', 'approved', 10_000, T2, T1]);
    assert.deepEqual((await eventsOf('w1')).slice(1), [
      { field: 'status', from_value: 'pending', to_value: 'approved', actor: 'brand:b-acme', actor_key_id: 'key_acme', created_at: T2 },
      { field: 'commissionStatus', from_value: 'pending', to_value: 'approved', actor: 'brand:b-acme', actor_key_id: 'key_acme', created_at: T2 },
    ]);
  });

  test('a correction of value, items and commission records each; a field given unchanged records nothing', async () => {
    const read = await stored('w1');
    const items = JSON.stringify([{ id: 'sku-2', quantity: 1 }]);
    assert.equal(await f.repos.orders.change(read, { status: 'approved', value: 8_000, items, commission: 600 }, operator, T3), true);
    const after = await stored('w1');
    assert.deepEqual([after.value, after.items, after.commission, after.status], [8_000, items, 600, 'approved']);
    assert.deepEqual((await eventsOf('w1')).slice(3), [
      { field: 'value', from_value: '10000', to_value: '8000', actor: 'operator', actor_key_id: null, created_at: T3 },
      { field: 'items', from_value: '[]', to_value: items, actor: 'operator', actor_key_id: null, created_at: T3 },
      { field: 'commission', from_value: '750', to_value: '600', actor: 'operator', actor_key_id: null, created_at: T3 },
    ]);
  });

  test('change of an order changed since it was read answers false and changes nothing', async () => {
    const current = await stored('w1');
    const eventsBefore = await eventsOf('w1');
    const late = '2026-06-01T00:00:00.000Z';
    // Read before the status, the commission status or the value moved on.
    for (const stale of [{ status: 'pending' }, { commission_status: 'pending' }, { value: 10_000 }]) {
      assert.equal(await f.repos.orders.change({ ...current, ...stale }, { status: 'canceled', commission_status: 'canceled' }, operator, late), false, JSON.stringify(stale));
    }
    assert.equal(await f.repos.orders.change({ ...current, id: 'missing' }, { status: 'canceled' }, operator, late), false);
    assert.deepEqual(await stored('w1'), current);
    assert.deepEqual(await eventsOf('w1'), eventsBefore);
    assert.deepEqual(await eventsOf('missing'), []);
  });

  test('two changes made from the same read: the first wins, the second answers false', async () => {
    const read = await stored('w3');
    const outcomes = await Promise.all([
      f.repos.orders.change(read, { status: 'canceled', commission_status: 'canceled' }, operator, T3),
      f.repos.orders.change(read, { commission_status: 'paid' }, operator, T3),
    ]);
    assert.deepEqual([...outcomes].sort(), [false, true]);
    const after = await stored('w3');
    assert.deepEqual([after.status, after.commission_status], outcomes[0] ? ['canceled', 'canceled'] : ['approved', 'paid']);
    assert.equal((await eventsOf('w3')).length, outcomes[0] ? 3 : 2);
  });

  test('historyOf answers the audit trail oldest first, by the time of each change', async () => {
    assert.deepEqual(
      (await f.repos.orders.historyOf('w1')).map((e) => [e.field, e.created_at]),
      [
        ['created', T1],
        ['status', T2],
        ['commissionStatus', T2],
        ['value', T3],
        ['items', T3],
        ['commission', T3],
      ],
    );
    // A change stamped earlier than one recorded before it comes first.
    await f.repos.orders.createOnce(order('h1', { affiliate_id: 'aff-3', order_id: 'shop-history' }), brand, T3);
    assert.equal(await f.repos.orders.change(await stored('h1'), { status: 'approved' }, operator, T1), true);
    const history = await f.repos.orders.historyOf('h1');
    assert.deepEqual(history.map((e) => [e.field, e.created_at]), [
      ['status', T1],
      ['created', T3],
    ]);
    assert.ok(history.every((e) => e.order_id === 'h1'));
    assert.deepEqual(await f.repos.orders.historyOf('missing'), []);
  });
});
