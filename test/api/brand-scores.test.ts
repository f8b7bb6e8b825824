// The brand-scores task: each brand's five ratings computed from the last 90 days of orders and
// the daily click rollups, compared with a plain computation over the stored rows; a brand under
// the minimum of orders has none (the API leaves them out); imports' ratings are ignored once computed.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../helpers/harness.js';
import { BRANDS, brandInput } from '../helpers/world.js';
import { servicesFor } from '../helpers/databases.js';
import { ManualClock } from '../../src/lib/clock.js';
import { OrdersRepository } from '../../src/storage/repositories/orders.js';
import type { NewOrderRow } from '../../src/storage/tables.js';

const DAY = 86_400_000;
const NOW = Date.parse('2026-11-28T15:00:00.000Z');
const clock = new ManualClock(NOW);
const at = (daysAgo: number, hours = 0) => new Date(NOW - daysAgo * DAY + hours * 3_600_000).toISOString();
const dayOf = (daysAgo: number) => new Date(Math.floor((NOW - daysAgo * DAY) / DAY) * DAY).toISOString();
let h: Harness;

interface Plan {
  brand: string;
  orders: number;
  approved: number;
  canceled: number;
  coupon?: number;
  clicks: Record<string, number>;
}

// acme and globex are scored; initech is scored with no decisions and no clicks; umbrella has 5 orders (under 20).
const PLANS: Plan[] = [
  { brand: BRANDS.acme, orders: 30, approved: 18, canceled: 6, coupon: 5, clicks: { 'aff-1': 700, 'aff-2': 300 } },
  { brand: BRANDS.globex, orders: 25, approved: 20, canceled: 5, clicks: { 'aff-1': 400 } },
  { brand: BRANDS.initech, orders: 22, approved: 0, canceled: 0, clicks: {} },
  { brand: BRANDS.umbrella, orders: 5, approved: 3, canceled: 1, clicks: { 'aff-1': 50, 'aff-2': 50, 'aff-3': 10 } },
];

before(async () => {
  h = await startHarness({ SCORES_MIN_ORDERS: '20' }, { clock });
  const { db } = h.service.database;
  const orders = new OrdersRepository(h.service.database);
  for (const [p, plan] of PLANS.entries()) {
    for (let i = 0; i < plan.orders; i++) {
      const reported = at(1 + ((i * 7 + p) % 80), i % 5);
      const id = `s-${p}-${i}`;
      const row: NewOrderRow = {
        id,
        order_id: `brand-${id}`,
        organization_id: plan.brand,
        affiliate_id: i % 3 === 0 ? 'aff-2' : 'aff-1',
        link_id: null,
        click_id: null,
        channel_id: null,
        mdasc: null,
        status: 'pending',
        commission_status: 'pending',
        value: 10_000 + i * 137,
        commission: 300 + ((i * 53 + p * 211) % 900),
        commission_transfer: 'cps',
        commission_value: 750,
        currency: 'BRL',
        items: '[]',
        attribution: i < (plan.coupon ?? 0) ? 'coupon' : 'click',
        created_at: reported,
        updated_at: reported,
        lock_at: '2099-12-31T00:00:00.000Z',
      };
      await orders.insert(row, [], reported);
      const decision = i < plan.approved ? 'approved' : i < plan.approved + plan.canceled ? 'canceled' : undefined;
      if (!decision) continue;
      const decidedAt = new Date(Date.parse(reported) + ((i * 13 + p * 5) % 40) * 3_600_000 * 7).toISOString();
      await db.updateTable('orders').set({ status: decision, commission_status: decision, updated_at: decidedAt }).where('id', '=', id).execute();
      await db.insertInto('order_events').values({ order_id: id, field: 'status', from_value: 'pending', to_value: decision, actor: `brand:${plan.brand}`, actor_key_id: null, created_at: decidedAt }).execute();
    }
    // Counted clicks in the daily rollups: the brand's row and each affiliate's at the brand, over three days.
    for (const [affiliate, counted] of Object.entries(plan.clicks)) {
      for (const [d, share] of [[0, 0.5], [10, 0.3], [89, 0.2]] as const) {
        const n = Math.round(counted * share);
        for (const affiliateId of ['', affiliate]) {
          const key = { affiliate_id: affiliateId, organization_id: plan.brand, link_id: '', dimension: 'all', hour: dayOf(d), value: '' };
          const existing = await db.selectFrom('click_rollups_daily').select('counted').where('affiliate_id', '=', key.affiliate_id).where('organization_id', '=', key.organization_id).where('link_id', '=', '').where('dimension', '=', 'all').where('hour', '=', key.hour).where('value', '=', '').executeTakeFirst();
          if (existing) await db.updateTable('click_rollups_daily').set({ counted: Number(existing.counted) + n }).where('affiliate_id', '=', key.affiliate_id).where('organization_id', '=', key.organization_id).where('link_id', '=', '').where('dimension', '=', 'all').where('hour', '=', key.hour).where('value', '=', '').execute();
          else await db.insertInto('click_rollups_daily').values({ ...key, counted: n, bots: 0, heads: 0, repeats: 0, suspicious: 0 }).execute();
        }
      }
    }
  }
  // Outside the window (91 days back): an order and clicks that must not count.
  await db.insertInto('click_rollups_daily').values({ affiliate_id: 'aff-3', organization_id: BRANDS.globex, link_id: '', dimension: 'all', hour: dayOf(91), value: '', counted: 999, bots: 0, heads: 0, repeats: 0, suspicious: 0 }).execute();
  await db.insertInto('click_rollups_daily').values({ affiliate_id: '', organization_id: BRANDS.globex, link_id: '', dimension: 'all', hour: dayOf(91), value: '', counted: 999, bots: 0, heads: 0, repeats: 0, suspicious: 0 }).execute();
});
after(() => h?.close());

// ---- The reference: the formulas of docs/decisions.md, written plainly over the stored rows. ----

/** a / b rounded half up, for non-negative integers. */
const halfUp = (a: bigint, b: bigint) => Number((2n * a + b) / (2n * b));
const median = (values: number[]): [bigint, bigint] => {
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? [BigInt(s[m]!), 1n] : [BigInt(s[m - 1]! + s[m]!), 2n];
};

interface Expected {
  rating: Record<string, number>;
  epc?: number;
  medianDaysToDecision?: number;
}

async function reference(): Promise<Map<string, Expected>> {
  const { db } = h.service.database;
  const since = new Date(Math.floor(NOW / DAY) * DAY - 89 * DAY).toISOString();
  const brands = await db.selectFrom('brands').select(['id', 'currency']).execute();
  const orders = (await db.selectFrom('orders').selectAll().execute()).filter((o) => o.created_at >= since);
  const events = await db.selectFrom('order_events').selectAll().execute();
  const rollups = (await db.selectFrom('click_rollups_daily').selectAll().where('dimension', '=', 'all').where('link_id', '=', '').execute()).filter((r) => r.hour >= since);
  const currencyOf = new Map(brands.map((b) => [b.id, b.currency]));
  const facts = new Map<string, { orders: number; clickOrders: number; approved: number; canceled: number; paying: number; commission: number; waits: number[]; clicks: number; affiliates: number }>();
  for (const b of brands) facts.set(b.id, { orders: 0, clickOrders: 0, approved: 0, canceled: 0, paying: 0, commission: 0, waits: [], clicks: 0, affiliates: 0 });
  for (const o of orders) {
    const f = facts.get(o.organization_id)!;
    f.orders++;
    if (o.attribution === 'click') f.clickOrders++;
    if (o.status === 'approved') f.approved++;
    if (o.status === 'canceled') f.canceled++;
    if (o.status !== 'canceled' && o.commission_status !== 'canceled' && o.currency === currencyOf.get(o.organization_id)) {
      f.paying++;
      f.commission += Number(o.commission);
    }
    if (o.status === 'approved' || o.status === 'canceled') {
      const decided = events.filter((e) => e.order_id === o.id && (e.field === 'status' || e.field === 'created') && (e.to_value === 'approved' || e.to_value === 'canceled')).map((e) => e.created_at).sort()[0]!;
      f.waits.push(Math.floor((Date.parse(decided) - Date.parse(o.created_at)) / 1000));
    }
  }
  const perAffiliate = new Map<string, number>();
  for (const r of rollups) {
    if (r.organization_id === '') continue;
    if (r.affiliate_id === '') facts.get(r.organization_id)!.clicks += Number(r.counted);
    else perAffiliate.set(`${r.organization_id}|${r.affiliate_id}`, (perAffiliate.get(`${r.organization_id}|${r.affiliate_id}`) ?? 0) + Number(r.counted));
  }
  for (const [key, counted] of perAffiliate) if (counted > 0) facts.get(key.split('|')[0]!)!.affiliates++;
  const busiest = Math.max(...[...facts.values()].map((f) => f.affiliates));
  const average = (f: { paying: number; commission: number }) => (f.paying ? halfUp(BigInt(f.commission), BigInt(f.paying)) : 0);
  const scoredIds = [...facts.keys()].filter((id) => facts.get(id)!.orders >= 20);
  const expected = new Map<string, Expected>();
  for (const b of brands) {
    const f = facts.get(b.id)!;
    if (f.orders < 20) {
      expected.set(b.id, { rating: {} });
      continue;
    }
    const rating: Record<string, number> = {};
    if (f.approved + f.canceled) rating.approval = halfUp(50n * BigInt(f.approved), BigInt(f.approved + f.canceled)) / 10;
    const [mn, md] = median(scoredIds.filter((id) => currencyOf.get(id) === b.currency).map((id) => average(facts.get(id)!)));
    if (mn > 0n) rating.commission = Math.min(50, halfUp(25n * BigInt(average(f)) * md, mn)) / 10;
    if (f.clicks) rating.conversion = Math.min(50, halfUp(1000n * BigInt(f.clickOrders), BigInt(f.clicks))) / 10;
    rating.popularity = busiest ? halfUp(50n * BigInt(f.affiliates), BigInt(busiest)) / 10 : 0;
    const e: Expected = { rating };
    if (f.waits.length) {
      const [wn, wd] = median(f.waits);
      const seconds = halfUp(wn, wd);
      rating.validation = halfUp(50n * 30n * 86_400n, BigInt(30 * 86_400 + seconds)) / 10;
      e.medianDaysToDecision = halfUp(BigInt(seconds) * 10n, 86_400n) / 10;
    }
    if (f.clicks) e.epc = halfUp(100n * BigInt(f.commission), BigInt(f.clicks));
    expected.set(b.id, e);
  }
  return expected;
}

const detail = async (brandId: string) => {
  const key = brandId === BRANDS.initech ? h.world.keys.aff2 : h.world.keys.aff1;
  const res = await h.get(`/affiliate/brands/${brandId}`, key);
  assert.equal(res.statusCode, 200, res.body);
  return res.json<{ data: { network: { rating: Record<string, number>; epc?: number; medianDaysToDecision?: number } } }>().data.network;
};

test('before the first run, brands show the ratings their import sent', async () => {
  assert.deepEqual((await detail(BRANDS.acme)).rating, { approval: 4.5, commission: 3.2, conversion: 2.75, popularity: 5, validation: 4 });
});

test('the scheduled brand-scores run computes every score as the reference does; a brand under the minimum has none', async () => {
  await h.service.services.jobs.runOnce('scheduled');
  const expected = await reference();
  for (const brand of [BRANDS.acme, BRANDS.globex, BRANDS.initech, BRANDS.umbrella]) {
    const network = await detail(brand);
    const want = expected.get(brand)!;
    assert.deepEqual(network.rating, want.rating, `ratings of ${brand}`);
    assert.equal(network.epc, want.epc, `epc of ${brand}`);
    assert.equal(network.medianDaysToDecision, want.medianDaysToDecision, `median days of ${brand}`);
  }
  // The data set reaches every branch: all five scores, some left out, none at all.
  assert.deepEqual(Object.keys(expected.get(BRANDS.acme)!.rating).sort(), ['approval', 'commission', 'conversion', 'popularity', 'validation']);
  assert.deepEqual(Object.keys(expected.get(BRANDS.initech)!.rating).sort(), ['commission', 'popularity']);
  assert.deepEqual(expected.get(BRANDS.umbrella)!.rating, {});
  // umbrella, under the minimum, is still the busiest brand (3 affiliates): 5 × 2 / 3 and 5 × 1 / 3.
  assert.equal(expected.get(BRANDS.acme)!.rating.popularity, 3.3);
  assert.equal(expected.get(BRANDS.globex)!.rating.popularity, 1.7, 'the aff-3 clicks of 91 days ago are outside the window');

  // The list reads the same ratings, without the detail's additions.
  const list = await h.get('/affiliate/brands?limit=20', h.world.keys.aff1);
  assert.equal(list.statusCode, 200, list.body);
  const items = list.json<{ data: Array<{ id: string; network: Record<string, unknown> }> }>().data;
  const acme = items.find((b) => b.id === BRANDS.acme)!;
  assert.deepEqual(acme.network.rating, expected.get(BRANDS.acme)!.rating);
  assert.equal(acme.network.epc, undefined);
  assert.deepEqual(items.find((b) => b.id === BRANDS.umbrella)!.network.rating, {});
});

test("once computed, a catalogue import's ratings are ignored (its other fields still apply)", async () => {
  const before = await detail(BRANDS.acme);
  await servicesFor(h.service.database).imports.upsertBrand(
    brandInput({ id: BRANDS.acme, name: 'Acme Renamed', slug: 'acme', site: 'https://www.acme.com/store', categories: ['Fashion', 'Shoes'], network: { active: true, isPublic: true, trait: { isExclusive: true, isHighlight: true, isFavorite: false }, rating: { approval: 1, commission: 1, conversion: 1, popularity: 1, validation: 1 } } }),
  );
  const res = await h.get(`/affiliate/brands/${BRANDS.acme}`, h.world.keys.aff1);
  const { data } = res.json<{ data: { name: string; network: { rating: Record<string, number> } } }>();
  assert.equal(data.name, 'Acme Renamed');
  assert.deepEqual(data.network.rating, before.rating);
});
