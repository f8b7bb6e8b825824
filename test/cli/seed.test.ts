// The demo data: deterministic, idempotent, and as rich as the operator contract promises.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { openDatabase, type Database } from '../../src/storage/database.js';
import { ProductsRepository } from '../../src/storage/repositories/products.js';
import { servicesFor } from '../helpers/databases.js';
import { freshDatabase, type TestDatabase } from '../helpers/databases.js';
import { brandRowIsVisible } from '../../src/storage/repositories/visibility.js';
import { campaignStatus } from '../../src/domain/catalog/campaign-status.js';
import { commissionFor } from '../../src/domain/orders/commission.js';
import { BrandInput } from '../../src/schemas/brand.js';
import { CampaignInput, CampaignStatuses, CampaignTypes, OfferTypes } from '../../src/schemas/campaign.js';
import type { OrderItem } from '../../src/schemas/order.js';
import { ProductInput, type ProductOption } from '../../src/schemas/product.js';
import { compileCheck } from '../../src/schemas/validate.js';
import { buildDemoData, DEMO_AFFILIATE_USER, DEMO_BRAND_USER, demoBrandId, seedDemo, type DemoSummary } from '../../src/seed/demo.js';
import { RECENT_ORDERS_PER_AFFILIATE } from '../../src/seed/demo-activity.js';

const DEMO_PASSWORD = 'demo password 1';
type Counted = Omit<DemoSummary, 'users'>;
import { runCli } from '../helpers/cli.js';

const TABLES = [
  'brands',
  'brand_categories',
  'products',
  'campaigns',
  'campaign_categories',
  'affiliates',
  'affiliate_channels',
  'brand_approvals',
  'orders',
  'payouts',
  'short_links',
  'clicks',
] as const;

let testDb: TestDatabase;
let databaseUrl: string;
let database: Database;
let first: DemoSummary;
let second: DemoSummary;
let countsAfterFirst: Record<string, number>;
let countsAfterSecond: Record<string, number>;
let snapshotAfterFirst: unknown;
const logLines: string[] = [];

async function counts(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of TABLES) {
    const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(database.db);
    out[table] = Number(rows[0]!.n);
  }
  return out;
}

const SEEDED_AT = Date.parse('2026-11-20T12:00:00.000Z');

/** Rows the seed fully determines (brands and campaigns also carry the write time in updated_at). */
async function snapshot() {
  return {
    products: await database.db.selectFrom('products').selectAll().orderBy('id').execute(),
    orders: await database.db.selectFrom('orders').selectAll().orderBy('id').execute(),
    channels: await database.db.selectFrom('affiliate_channels').select(['id', 'affiliate_id', 'kind_id', 'name']).orderBy('id').execute(),
    approvals: await database.db.selectFrom('brand_approvals').select(['affiliate_id', 'brand_id']).orderBy('affiliate_id').orderBy('brand_id').execute(),
  };
}

before(async () => {
  testDb = await freshDatabase({ migrated: true });
  databaseUrl = testDb.url;
  database = openDatabase(databaseUrl);
  first = await seedDemo(servicesFor(database), (line) => logLines.push(line), { userPassword: DEMO_PASSWORD, activityOn: database, now: SEEDED_AT });
  countsAfterFirst = await counts();
  snapshotAfterFirst = await snapshot();
  second = await seedDemo(servicesFor(database), () => {}, { userPassword: 'another password', activityOn: database, now: SEEDED_AT + 86_400_000 });
  countsAfterSecond = await counts();
});

after(async () => {
  await database.close();
  await testDb.drop();
});

describe('seedDemo', () => {
  test('writes a month of counted clicks up to the seeding time on links of the demo affiliates, once; link counts and rollups add them up', async () => {
    const clicks = await database.db.selectFrom('clicks').select(['affiliate_id', 'created_at', 'counted', 'link_id']).execute();
    assert.ok(clicks.length >= 500, `${clicks.length} clicks`);
    const monthBefore = new Date(SEEDED_AT - 30 * 86_400_000).toISOString();
    assert.ok(clicks.every((c) => c.created_at >= monthBefore && c.created_at <= new Date(SEEDED_AT).toISOString() && c.counted === 1));
    assert.deepEqual([...new Set(clicks.map((c) => c.affiliate_id))].sort(), ['aff-demo-1', 'aff-demo-2']);
    const linked = await database.db.selectFrom('short_links').select((eb) => eb.fn.sum<number>('click_count').as('n')).executeTakeFirstOrThrow();
    assert.equal(Number(linked.n), clicks.length);
    const rolled = await database.db.selectFrom('click_rollups').select((eb) => eb.fn.sum<number>('counted').as('n')).where('dimension', '=', 'all').where('link_id', '=', '').where('organization_id', '=', '').executeTakeFirstOrThrow();
    assert.equal(Number(rolled.n), clicks.length);
    assert.ok(logLines.some((line) => line.startsWith('Clicks: ')));
  });

  test('reports orders on those clicks over the 30 days up to the seeding time, once: attributed, in cents by the brand rule, settled when older than a week, in the rollups', async () => {
    const monthBefore = new Date(SEEDED_AT - 30 * 86_400_000).toISOString();
    const seededAt = new Date(SEEDED_AT).toISOString();
    const hourOf = (iso: string) => `${iso.slice(0, 13)}:00:00.000Z`;
    // The data set's own orders end 2026-10-31; the recent ones are those reported on a click.
    const lastHours = (await database.db.selectFrom('orders').selectAll().execute()).filter((o) => hourOf(o.created_at) >= hourOf(monthBefore));
    const recent = lastHours.filter((o) => o.click_id !== null);
    const brands = new Map((await database.db.selectFrom('brands').selectAll().execute()).map((b) => [b.id, b]));
    for (const affiliate of ['aff-demo-1', 'aff-demo-2']) {
      const own = recent.filter((o) => o.affiliate_id === affiliate).sort((a, b) => a.created_at.localeCompare(b.created_at));
      assert.equal(own.length, RECENT_ORDERS_PER_AFFILIATE, `${affiliate}: recent orders`);
      // Spread over the month: one in each stretch of two days.
      assert.ok(own[0]!.created_at < new Date(SEEDED_AT - 26 * 86_400_000).toISOString() && own.at(-1)!.created_at >= new Date(SEEDED_AT - 3 * 86_400_000).toISOString(), own.map((o) => o.created_at).join(' '));
      assert.ok(new Set(own.map((o) => o.created_at.slice(0, 10))).size >= 12, 'on many different days');
    }
    const clicks = new Map((await database.db.selectFrom('clicks').select(['id', 'link_id', 'channel_id', 'country', 'created_at']).execute()).map((c) => [c.id, c]));
    for (const o of recent) {
      const click = clicks.get(o.click_id!);
      assert.ok(click, `${o.order_id}: on a demo click`);
      assert.deepEqual([o.link_id, o.channel_id, o.click_country, o.click_created_at], [click.link_id, click.channel_id, click.country, click.created_at]);
      assert.ok(o.link_code && o.created_at >= click.created_at && o.created_at <= seededAt && o.updated_at >= o.created_at && o.updated_at <= seededAt);
      assert.ok(Number.isInteger(o.value) && o.value > 0 && Number.isInteger(o.commission));
      assert.equal(o.commission, commissionFor(brands.get(o.organization_id)!, o.value), `${o.order_id}: commission follows the brand rule`);
      if (o.created_at > new Date(SEEDED_AT - 7 * 86_400_000).toISOString()) assert.equal(o.status, 'pending', `${o.order_id}: too recent to be settled`);
    }
    assert.deepEqual(new Set(recent.map((o) => o.status)), new Set(['pending', 'approved', 'canceled']));
    assert.deepEqual(recent.filter((o) => o.created_at < monthBefore), []);
    // The rollups the overview and analytics read hold them, canceled ones left out.
    const counted = lastHours.filter((o) => o.status !== 'canceled');
    const rolled = await database.db
      .selectFrom('order_rollups')
      .select((eb) => [eb.fn.sum<number>('orders').as('orders'), eb.fn.sum<number>('sales').as('sales'), eb.fn.sum<number>('commission').as('commission')])
      .where('dimension', '=', 'all')
      .where('link_id', '=', '')
      .where('organization_id', '=', '')
      .where('hour', '>=', hourOf(monthBefore))
      .executeTakeFirstOrThrow();
    assert.deepEqual(
      [Number(rolled.orders), Number(rolled.sales), Number(rolled.commission)],
      [counted.length, counted.reduce((sum, o) => sum + o.value, 0), counted.filter((o) => o.commission_status !== 'canceled').reduce((sum, o) => sum + o.commission, 0)],
    );
    assert.ok(logLines.some((line) => /^Orders: \d+ in the last 30 days/.test(line)));
  });

  test('pays the older approved commissions in payment runs: every paid order belongs to a payout that adds it up', async () => {
    const paid = await database.db.selectFrom('orders').select(['payout_id', 'commission']).where('commission_status', '=', 'paid').execute();
    assert.ok(paid.length > 0);
    assert.ok(paid.every((o) => o.payout_id !== null));
    for (const payout of await database.db.selectFrom('payouts').selectAll().execute()) {
      const own = paid.filter((o) => o.payout_id === payout.id);
      assert.equal(own.reduce((sum, o) => sum + o.commission, 0), payout.total);
      assert.equal(own.length, payout.order_count);
      assert.equal(payout.status, 'settled', 'history: paid long ago');
    }
  });

  test('the ledger reconciles on the demo data: its older commissions funded before statements, its payouts settled', async () => {
    assert.deepEqual(await servicesFor(database).ledger.check(), []);
    const payable = await database.db.selectFrom('orders').select('id').where('commission_status', '=', 'payable').execute();
    assert.ok(payable.length > 0, 'what the payment runs left is payable');
  });

  test('meets the minimums of the operator contract, in its summary and in the database', () => {
    const minimums: Counted = { brands: 30, products: 500, campaigns: 40, affiliates: 2, orders: 60 };
    const stored: Counted = {
      brands: countsAfterFirst.brands!,
      products: countsAfterFirst.products!,
      campaigns: countsAfterFirst.campaigns!,
      affiliates: countsAfterFirst.affiliates!,
      orders: countsAfterFirst.orders!,
    };
    for (const [kind, minimum] of Object.entries(minimums) as [keyof Counted, number][]) {
      assert.ok(first[kind] >= minimum, `summary: at least ${minimum} ${kind}`);
    }
    const { users: _users, ...counted } = first;
    assert.deepEqual(stored, counted, 'on an empty database the summary is exactly what was written');
  });

  test('makes the demo users once: an owner of aff-demo-1 and one of a brand it has orders with, signing in with the password given', async () => {
    assert.deepEqual(first.users, [DEMO_AFFILIATE_USER, DEMO_BRAND_USER]);
    assert.deepEqual(second.users, [], 'a second run keeps them (and their password)');
    const services = servicesFor(database);
    const affiliate = await services.users.signIn(DEMO_AFFILIATE_USER, DEMO_PASSWORD);
    assert.deepEqual([affiliate?.user.affiliateId, affiliate?.user.role], ['aff-demo-1', 'owner']);
    const brand = await services.users.signIn(DEMO_BRAND_USER, DEMO_PASSWORD);
    assert.equal(brand?.user.role, 'owner');
    const orders = await database.db.selectFrom('orders').select('id').where('affiliate_id', '=', 'aff-demo-1').where('organization_id', '=', brand.user.brandId!).execute();
    assert.ok(orders.length > 0, 'the brand has orders of aff-demo-1 to approve');
    assert.equal(await services.users.signIn(DEMO_BRAND_USER, 'another password'), undefined);
  });

  test('reports progress through log', () => {
    for (const kind of ['Brands', 'Products', 'Campaigns', 'Affiliates', 'Orders']) {
      assert.ok(logLines.some((line) => line.startsWith(kind)), `a progress line about ${kind}`);
    }
  });

  test('a second run duplicates nothing and rewrites the same data', async () => {
    assert.deepEqual(second, { ...first, users: [] });
    assert.deepEqual(countsAfterSecond, countsAfterFirst);
    assert.deepEqual(await snapshot(), snapshotAfterFirst);
  });

  test('the data set is a pure function of the code', () => {
    assert.deepEqual(buildDemoData(), buildDemoData());
  });

  test('every demo resource passes the import schemas, so it could travel as NDJSON too', () => {
    const data = buildDemoData();
    const checks = [
      [compileCheck(BrandInput), data.brands],
      [compileCheck(ProductInput), data.products],
      [compileCheck(CampaignInput), data.campaigns],
    ] as const;
    for (const [check, values] of checks) {
      for (const value of values) {
        const result = check(value);
        assert.ok(result.ok, `${(value as { id: string }).id}: ${result.ok ? '' : result.message}`);
      }
    }
  });

  test('fixed ids exist', async () => {
    const brand = await database.db.selectFrom('brands').select(['id', 'slug', 'site']).where('id', '=', demoBrandId(1)).executeTakeFirstOrThrow();
    assert.equal(brand.id, 'd0000000-0000-4000-8000-000000000001');
    assert.equal(brand.site, `https://www.${brand.slug}.example`);
    await database.db.selectFrom('products').select('id').where('id', '=', 'stride-athletics-001').executeTakeFirstOrThrow();
    await database.db.selectFrom('campaigns').select('id').where('id', '=', 'demo-cmp-001').executeTakeFirstOrThrow();
    for (const id of ['ord-demo-1-001', 'ord-demo-1-030', 'ord-demo-2-001', 'ord-demo-2-030']) {
      await database.db.selectFrom('orders').select('id').where('id', '=', id).executeTakeFirstOrThrow();
    }
    for (const id of ['ch-demo-1-site', 'ch-demo-2-whatsapp']) {
      await database.db.selectFrom('affiliate_channels').select('id').where('id', '=', id).executeTakeFirstOrThrow();
    }
  });

  test('brands mix visibility, traits, channel restrictions and both commission transfers', async () => {
    const brands = await database.db.selectFrom('brands').selectAll().execute();
    const privateCount = brands.filter((b) => b.is_public === 0).length;
    assert.ok(privateCount >= brands.length / 5 && privateCount <= brands.length / 3, `about a quarter private (${privateCount}/${brands.length})`);
    for (const flag of ['is_exclusive', 'is_highlight', 'is_favorite'] as const) {
      assert.ok(brands.some((b) => b[flag] === 1), `some brands have ${flag}`);
    }
    const inactive = brands.filter((b) => b.active === 0).length;
    assert.ok(inactive >= 1 && inactive <= 2, 'one or two inactive brands');
    assert.ok(brands.some((b) => b.allowed_channel_kinds !== null), 'some brands restrict channel kinds');
    assert.ok(brands.some((b) => b.commission_transfer === 'cps'));
    assert.ok(brands.some((b) => b.commission_transfer === 'cpa'));
    for (const b of brands) assert.ok(b.created_at < '2026-01-01', 'brands were created at fixed past dates');
    const categorised = await database.db.selectFrom('brand_categories').select('brand_id').distinct().execute();
    assert.equal(categorised.length, brands.length, 'every brand has categories');
  });

  test('products have 1-3 priced options, stock, both availabilities, searchable words and 2025 dates', async () => {
    const products = await database.db.selectFrom('products').selectAll().execute();
    assert.ok(products.some((p) => p.available === 1));
    assert.ok(products.some((p) => p.available === 0));
    for (const p of products) {
      const options = JSON.parse(p.options) as ProductOption[];
      assert.ok(options.length >= 1 && options.length <= 3, `${p.id} has 1-3 options`);
      for (const o of options) {
        assert.ok(o.pricing.every((x) => Number.isInteger(x.price) && Number.isInteger(x.listPrice) && x.listPrice >= x.price), `${o.id} prices in cents`);
        assert.ok(o.stocks.every((s) => Number.isInteger(s.value) && s.value >= 0));
      }
      assert.equal(p.price_cents, Math.min(...options.flatMap((o) => o.pricing.map((x) => x.price))));
      assert.ok(p.created_at >= '2025-01-01' && p.created_at < '2026-01-01', `${p.id} created in 2025`);
    }
    const brandsWithProducts = new Set(products.map((p) => p.organization_id));
    assert.equal(brandsWithProducts.size, countsAfterFirst.brands, 'products spread over every brand');
    for (const word of ['sneakers', 'headphones', 'coffee']) {
      const { total } = await new ProductsRepository(database).list('aff-demo-1', { search: word }, { limit: 1, offset: 0 });
      assert.ok(total >= 5, `full-text search finds ${word} (${total})`);
    }
  });

  test('campaigns cover every type, offer type and status', async () => {
    const campaigns = await database.db.selectFrom('campaigns').selectAll().execute();
    const now = new Date().toISOString();
    assert.deepEqual(new Set(campaigns.map((c) => c.type)), new Set(CampaignTypes));
    assert.deepEqual(new Set(campaigns.filter((c) => c.type === 'Offer').map((c) => c.offer_type)), new Set(OfferTypes));
    assert.ok(campaigns.filter((c) => c.type !== 'Offer').every((c) => c.offer_type === null && c.code));
    assert.deepEqual(new Set(campaigns.map((c) => campaignStatus(c, now))), new Set(CampaignStatuses));
    // Every kind appears in every status, so any combination of filters has something to show.
    for (const type of ['PersonalCoupon', 'GenericCoupon', 'Url', 'Spreadsheet']) {
      const ofKind = campaigns.filter((c) => c.type === type || c.offer_type === type);
      assert.deepEqual(new Set(ofKind.map((c) => campaignStatus(c, now))), new Set(CampaignStatuses), `${type} in every status`);
    }
  });

  test('demo affiliates have several channels of different kinds and disjoint approvals for private brands', async () => {
    const approved = new Map<string, string[]>();
    for (const affiliate of ['aff-demo-1', 'aff-demo-2']) {
      const channels = await database.db.selectFrom('affiliate_channels').select('kind_id').where('affiliate_id', '=', affiliate).execute();
      assert.ok(channels.length >= 3, `${affiliate} has several channels`);
      assert.equal(new Set(channels.map((c) => c.kind_id)).size, channels.length, `${affiliate} channels are of different kinds`);
      const approvals = await database.db
        .selectFrom('brand_approvals')
        .innerJoin('brands', 'brands.id', 'brand_approvals.brand_id')
        .select(['brands.id', 'brands.is_public'])
        .where('brand_approvals.affiliate_id', '=', affiliate)
        .execute();
      assert.ok(approvals.length >= 2, `${affiliate} is approved for at least two brands`);
      assert.ok(approvals.every((a) => a.is_public === 0), 'approvals are for private brands');
      approved.set(affiliate, approvals.map((a) => a.id));
    }
    const shared = approved.get('aff-demo-1')!.filter((id) => approved.get('aff-demo-2')!.includes(id));
    assert.deepEqual(shared, [], 'the two affiliates are approved for different brands');
    const kinds = await database.db.selectFrom('affiliate_channels').select('kind_id').distinct().where('affiliate_id', 'like', 'aff-demo-%').execute();
    for (const kind of ['site', 'instagram', 'whatsapp', 'youtube', 'email']) assert.ok(kinds.some((k) => k.kind_id === kind), `a ${kind} channel`);
  });

  test('orders: at least 30 each, visible brands only, consistent values, commissions and statuses', async () => {
    const commissionStatusesOf: Record<string, string[]> = { pending: ['pending'], approved: ['approved', 'payable', 'paid'], canceled: ['canceled'] };
    const brands = new Map((await database.db.selectFrom('brands').selectAll().execute()).map((b) => [b.id, b]));
    const statuses = new Set<string>();
    for (const affiliate of ['aff-demo-1', 'aff-demo-2']) {
      const orders = await database.db.selectFrom('orders').selectAll().where('affiliate_id', '=', affiliate).execute();
      assert.ok(orders.length >= 30, `${affiliate} has at least 30 orders`);
      const visible = new Set((await database.db.selectFrom('brands').select('id').where(brandRowIsVisible(database.db, affiliate)).execute()).map((r) => r.id));
      assert.ok(
        orders.some((o) => brands.get(o.organization_id)!.is_public === 0),
        `${affiliate} has orders from private brands it is approved for`,
      );
      for (const o of orders) {
        assert.ok(visible.has(o.organization_id), `${o.id} is for a brand visible to ${affiliate}`);
        const items = JSON.parse(o.items) as OrderItem[];
        assert.ok(items.length >= 1);
        assert.equal(items.reduce((sum, i) => sum + i.quantity * i.price, 0), o.value, `${o.id}: items add up to the value`);
        assert.ok(items.every((i) => Number.isInteger(i.categories) && i.id && i.name));
        assert.equal(o.commission, commissionFor(brands.get(o.organization_id)!, o.value), `${o.id}: commission follows the brand rule`);
        assert.ok(commissionStatusesOf[o.status]?.includes(o.commission_status), `${o.id}: ${o.status} with commission ${o.commission_status}`);
        assert.ok(o.created_at >= '2025-01-01' && o.created_at < '2027-01-01' && o.updated_at >= o.created_at);
        statuses.add(o.status);
      }
      assert.ok(orders.some((o) => o.mdasc), `${affiliate} has orders with mdasc`);
      assert.ok(orders.some((o) => !o.mdasc), `${affiliate} has orders without mdasc`);
    }
    assert.deepEqual(statuses, new Set(['pending', 'approved', 'canceled']));
  });
});

describe('affnet seed', () => {
  test('--demo seeds through the CLI, prints a summary, and leaves an already seeded database as it is', async () => {
    const result = await runCli(['seed', '--demo'], { DATABASE_URL: databaseUrl });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, new RegExp(`${first.brands} brands, ${first.products} products, ${first.campaigns} campaigns, ${first.affiliates} affiliates, ${first.orders} orders`));
    assert.deepEqual(await counts(), countsAfterFirst);
  });

  test('without --demo it refuses with a message and a non-zero exit code', async () => {
    const result = await runCli(['seed'], { DATABASE_URL: databaseUrl });
    assert.notEqual(result.code, 0);
    assert.match(result.stderr, /--demo/);
  });
});
