// RollupsRepository against a real database: clicks written and orders stored or changed add
// exactly what a rebuild computes (orders without a link or channel and clicks stored before the
// enrichment included); reads sum a key's range by hour or by value, most first.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { NewClickRow, NewOrderRow } from '../../src/storage/tables.js';
import { openFixture, saveAcmeWithAffiliate, writeClicks, type StorageFixture } from './fixture.js';
import { freshDatabase } from '../helpers/databases.js';
import { openDatabase } from '../../src/storage/database.js';
import { migrateTo, migrateToLatest } from '../../src/storage/migrate.js';

let f: StorageFixture;

before(async () => {
  f = await openFixture();
  await saveAcmeWithAffiliate(f.database);
});

after(async () => {
  await f?.close();
});

const click = (id: string, at: string, extra: Partial<NewClickRow> = {}): NewClickRow => ({
  id,
  link_id: 'l-a',
  affiliate_id: 'aff-1',
  channel_id: 'ch-site',
  organization_id: 'b-acme',
  created_at: at,
  is_bot: 0,
  is_head: 0,
  is_repeat: 0,
  is_suspicious: 0,
  is_suspended: 0,
  counted: 1,
  visitor_hash: `visitor-${id}`,
  country: 'US',
  device: 'mobile',
  browser: 'Safari',
  os: 'iOS',
  referer_host: '(direct)',
  ...extra,
});

const order = (id: string, extra: Partial<NewOrderRow> = {}): NewOrderRow => ({
  id,
  order_id: `brand-${id}`,
  organization_id: 'b-acme',
  affiliate_id: 'aff-1',
  status: 'pending',
  commission_status: 'pending',
  value: 10_000,
  commission: 1_000,
  commission_transfer: 'cpa',
  commission_value: 1_000,
  currency: 'BRL',
  items: '[]',
  created_at: '2026-01-02T10:15:00.000Z',
  updated_at: '2026-01-02T10:15:00.000Z',
  lock_at: '2099-12-31T00:00:00.000Z',
  ...extra,
});

const range = { affiliateId: 'aff-1', organizationId: '', linkId: '', from: '2026-01-01T00:00:00.000Z', to: '2026-02-01T00:00:00.000Z' };

describe('kept as clicks and orders arrive, equal to a rebuild', () => {
  test('clicks, an order with a link, one without link or channel, a canceled one and a changed one', async () => {
    await writeClicks(f, [
      click('c1', '2026-01-02T10:05:00.000Z'),
      click('c2', '2026-01-02T10:40:00.000Z', { country: 'BR', device: 'desktop', browser: 'Chrome', os: 'Windows' }),
      click('c3', '2026-01-02T11:00:00.000Z', { is_bot: 1, is_head: 1, counted: 0 }),
      click('c4', '2026-01-03T09:00:00.000Z', { is_repeat: 1, counted: 0 }),
      // Stored before clicks were enriched: no facts at all.
      click('c5', '2026-01-03T09:30:00.000Z', { country: null, device: null, browser: null, os: null, referer_host: null }),
      // On a suspended affiliate's link: summed as suspended, its first reason, whatever else it is.
      click('c6', '2026-01-03T09:45:00.000Z', { is_suspended: 1, is_bot: 1, counted: 0 }),
    ]);
    await f.repos.orders.insert(order('o1', { link_id: 'l-a', channel_id: 'ch-site', click_country: 'US' }));
    await f.repos.orders.insert(order('o2', { value: 5_000, commission: 500 }));
    await f.repos.orders.insert(order('o3', { status: 'canceled', commission_status: 'canceled', commission: 0 }));
    const o1 = (await f.repos.orders.findBrandOrder('b-acme', 'brand-o1'))!;
    assert.ok(await f.repos.orders.change(o1, { value: 8_000, commission: 800 }, { actor: 'operator' }, '2026-01-05T00:00:00.000Z'));

    const kept = await f.repos.rollups.everything();
    await f.repos.rollups.rebuild();
    assert.deepEqual(await f.repos.rollups.everything(), kept);
    await f.repos.rollups.rebuild('2026-01-03T00:00:00.000Z');
    assert.deepEqual(await f.repos.rollups.everything(), kept);
  });

  test('PostgreSQL: a rebuild leaves the clicks not yet added to the writer, which adds them once', async (t) => {
    if (f.database.dialect !== 'postgres') return t.diagnostic('not applicable: SQLite adds clicks as far as rollup_progress says, and a rebuild moves it');
    await f.repos.clicks.write([click('p1', '2026-03-04T08:00:00.000Z'), click('p2', '2026-03-04T08:30:00.000Z', { country: 'DE' })]);
    const before = await f.repos.rollups.everything();
    await f.repos.rollups.rebuild();
    assert.deepEqual(await f.repos.rollups.everything(), before, 'the rebuild does not add the clicks still waiting');
    assert.equal(await f.repos.clicks.rollUpStored(100), 2);
    const added = await f.repos.rollups.everything();
    assert.notDeepEqual(added, before);
    await f.repos.rollups.rebuild();
    assert.deepEqual(await f.repos.rollups.everything(), added, 'added exactly once: equal to a rebuild');
  });
});

describe('reads', () => {
  test('by hour: counted and uncounted by first reason', async () => {
    assert.deepEqual(await f.repos.rollups.clicksByHour({ ...range, dimension: 'all' }), [
      { hour: '2026-01-02T10:00:00.000Z', counted: 2, bots: 0, heads: 0, repeats: 0, suspicious: 0, suspended: 0 },
      { hour: '2026-01-02T11:00:00.000Z', counted: 0, bots: 1, heads: 0, repeats: 0, suspicious: 0, suspended: 0 },
      { hour: '2026-01-03T09:00:00.000Z', counted: 1, bots: 0, heads: 0, repeats: 1, suspicious: 0, suspended: 1 },
    ].sort((a, b) => (a.hour < b.hour ? -1 : 1)));
  });

  test('by value, most counted first; unknown facts under ZZ and other; pairs by prefix and suffix', async () => {
    assert.deepEqual(
      (await f.repos.rollups.clicksByValue({ ...range, dimension: 'country' }, 10)).map((r) => [r.value, r.counted]),
      [
        ['BR', 1],
        ['US', 1],
        ['ZZ', 1],
      ],
    );
    assert.deepEqual(
      (await f.repos.rollups.clicksByValue({ ...range, dimension: 'device_country', match: { prefix: 'mobile|' } }, 10)).map((r) => r.value),
      ['mobile|US'],
    );
    assert.deepEqual(
      (await f.repos.rollups.clicksByValue({ ...range, dimension: 'device_country', match: { suffix: '|US' } }, 10, true)).map((r) => [r.value, r.counted, r.bots, r.repeats]),
      [
        ['mobile|US', 1, 1, 1],
      ],
    );
  });

  test('orders by value: canceled orders add nothing and leave no group; an order without a link is under ""', async () => {
    assert.deepEqual(await f.repos.rollups.ordersByValue({ ...range, dimension: 'link' }, 'sales', 10), [
      { value: 'l-a', currency: 'BRL', orders: 1, sales: 8_000, commission: 800 },
      { value: '', currency: 'BRL', orders: 1, sales: 5_000, commission: 500 },
    ]);
    const affiliate = (id: string) => ({ affiliateId: id, organizationId: '', linkId: '' });
    assert.equal(await f.repos.rollups.firstHour({ ...affiliate('aff-1'), dimension: 'all', value: '' }, affiliate('aff-1')), '2026-01-02T10:00:00.000Z');
    assert.equal(await f.repos.rollups.firstHour({ ...affiliate('aff-1'), dimension: 'link', value: 'l-a' }, { ...affiliate('aff-1'), linkId: 'l-a' }), '2026-01-02T10:00:00.000Z');
    assert.equal(await f.repos.rollups.firstHour({ ...affiliate('aff-2'), dimension: 'all', value: '' }, affiliate('aff-2')), undefined);
  });
});

describe('the daily rows of rollups kept before there were any', () => {
  test('start as the sums of the hourly rows, per UTC day, key and currency', async () => {
    const target = await freshDatabase();
    const database = openDatabase(target.url);
    try {
      await migrateTo(database, '0030-channel-name-unique');
      const key = { affiliate_id: 'aff-1', organization_id: '', link_id: '', dimension: 'country', value: 'US' };
      const clickRow = (hour: string, counted: number, bots = 0) => ({ ...key, hour, counted, bots, heads: 0, repeats: 0, suspicious: 0 });
      await database.db
        .insertInto('click_rollups')
        .values([clickRow('2026-01-02T00:00:00.000Z', 2), clickRow('2026-01-02T23:00:00.000Z', 3, 1), clickRow('2026-01-03T00:00:00.000Z', 4)])
        .execute();
      const orderRow = (hour: string, currency: string, sales: number) => ({ ...key, hour, currency, orders: 1, sales, commission: sales / 10 });
      await database.db
        .insertInto('order_rollups')
        .values([orderRow('2026-01-02T10:00:00.000Z', 'BRL', 1000), orderRow('2026-01-02T11:00:00.000Z', 'BRL', 2000), orderRow('2026-01-02T11:00:00.000Z', 'USD', 500)])
        .execute();
      await migrateToLatest(database);
      const clicks = await database.db.selectFrom('click_rollups_daily').select(['hour', 'counted', 'bots']).orderBy('hour').execute();
      assert.deepEqual(
        clicks.map((r) => [r.hour, Number(r.counted), Number(r.bots)]),
        [
          ['2026-01-02T00:00:00.000Z', 5, 1],
          ['2026-01-03T00:00:00.000Z', 4, 0],
        ],
      );
      const orders = await database.db.selectFrom('order_rollups_daily').select(['hour', 'currency', 'orders', 'sales', 'commission']).orderBy('currency').execute();
      assert.deepEqual(
        orders.map((r) => [r.hour, r.currency, Number(r.orders), Number(r.sales), Number(r.commission)]),
        [
          ['2026-01-02T00:00:00.000Z', 'BRL', 2, 3000, 300],
          ['2026-01-02T00:00:00.000Z', 'USD', 1, 500, 50],
        ],
      );
    } finally {
      await database.close();
      await target.drop();
    }
  });
});
