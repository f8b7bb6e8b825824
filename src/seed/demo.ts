// `affnet seed --demo` (and the first `npm start` on the embedded database): writes the demo data
// set of demo-data.ts through the same services imports use. Every write is an upsert or
// skips what exists, so running it again changes nothing and never fails.
import type { Services } from '../services.js';
import { buildDemoData, paymentRuns } from './demo-data.js';
import { RECENT_ORDERS_PER_AFFILIATE, seedActivity } from './demo-activity.js';
import { tagOf } from './names.js';
import type { Database } from '../storage/database.js';
import { openRepositories } from '../storage/repositories/index.js';
import { randomBase62 } from '../domain/random.js';

export { buildDemoData, demoBrandId, DEMO_STATUSES_STABLE_UNTIL } from './demo-data.js';

/** The demo's people: an owner of aff-demo-1 and an owner of the brand it sells most for. */
export const DEMO_AFFILIATE_USER = 'demo@aff-demo-1.example';
export const DEMO_BRAND_USER = 'demo@brand.example';

/** A password for the demo users, printed once where they are made. */
export const newDemoPassword = (): string => randomBase62(16);

/** What tells a person how to sign in as the demo users. */
export const demoUsersNotice = (users: readonly string[], password: string, portalUrl: string): string =>
  users.length === 0 ? '' : `Portal: ${portalUrl}\nSign in as ${users.join(' or ')} with the password (shown once):\n${password}\n`;

export interface DemoSummary {
  brands: number;
  products: number;
  campaigns: number;
  affiliates: number;
  orders: number;
  /** The demo users made by this run (none when they existed), who sign in with the password given. */
  users: string[];
}

const PROGRESS_EVERY = 100;

/** Loads the demo data set; returns how many records of each kind it holds (the same on every run). */
export async function seedDemo(services: Pick<Services, 'access' | 'channels' | 'imports' | 'links' | 'orders' | 'payoutRuns' | 'users'>,
  log: (line: string) => void = () => {},
  /** activityOn: the database to write a month of clicks to (the services' own), on the first seed. */
  options: { userPassword?: string; activityOn?: Database; now?: number } = {},
): Promise<DemoSummary> {
  const { access, channels, imports, links, orders, payoutRuns, users } = services;
  const data = buildDemoData();
  await channels.ensureKinds();

  // The catalogue writers run one transaction per resource (they cannot nest in an outer one);
  // on SQLite in WAL mode that is a few hundred microseconds each, so the whole set takes ~1 s.
  log(`Brands: writing ${data.brands.length}`);
  for (const brand of data.brands) await imports.upsertBrand(brand);

  log(`Products: writing ${data.products.length}`);
  for (const [i, product] of data.products.entries()) {
    await imports.upsertProduct(product);
    if ((i + 1) % PROGRESS_EVERY === 0) log(`Products: ${i + 1}/${data.products.length}`);
  }

  log(`Campaigns: writing ${data.campaigns.length}`);
  for (const campaign of data.campaigns) await imports.upsertCampaign(campaign);

  log(`Affiliates: writing ${data.affiliates.map((a) => a.id).join(', ')} with their channels and approvals`);
  for (const affiliate of data.affiliates) {
    await access.upsertAffiliate(affiliate.id, affiliate.name);
    for (const channel of affiliate.channels) await channels.add(affiliate.id, channel.kind, channel.name, channel.id);
    for (const brandId of affiliate.approvedBrandIds) await access.approveForBrand(affiliate.id, brandId);
  }

  // Orders are facts reported by brands, not catalogue entries: an existing order is left as it
  // is (its status may have moved on), only missing ones are inserted.
  // Each locks 30 days after it is written (every one was created before), as orders stored before
  // lock dates existed do: the brands have a month to answer the pending ones.
  const lockAt = new Date((options.now ?? Date.now()) + DEMO_VALIDATION_DAYS * DAY_MS).toISOString();
  const { inserted, existing } = await orders.loadMissing(data.orders.map((order) => ({ ...order, lock_at: lockAt })), new Date(options.now ?? Date.now()).toISOString());
  log(`Orders: ${inserted} written (${existing} already present)`);

  // The operator's monthly payouts of the older commissions, settled long ago (each pays what the
  // earlier ones left, so seeding again pays nothing twice).
  let paid = 0;
  for (const affiliate of data.affiliates) {
    for (const until of paymentRuns()) paid += await payoutRuns.recordPast(affiliate.id, until);
  }
  log(`Payouts: ${paid} made`);

  // A month of clicks up to now and the orders of some of them, once: with the orders, on the first seed.
  if (options.activityOn && inserted > 0) {
    const plan = {
      brandsByAffiliate: new Map(data.affiliates.map((a) => [a.id, topBrandsOf(data, a.id, 3)])),
      pastOrders: data.orders,
      brandTags: new Map(data.brands.map((b) => [b.id, tagOf(b.slug)])),
    };
    const recent = await seedActivity(links, openRepositories(options.activityOn), plan, options.now ?? Date.now());
    log(`Clicks: ${recent.clicks} in the last 30 days`);
    log(`Orders: ${recent.orders} in the last 30 days, reported on those clicks`);
  }

  const made: string[] = [];
  if (options.userPassword) {
    const brandId = topBrandOf(data, DEMO_AFFILIATE_ID);
    if (await users.createWithPassword({ affiliateId: DEMO_AFFILIATE_ID }, DEMO_AFFILIATE_USER, 'owner', options.userPassword)) made.push(DEMO_AFFILIATE_USER);
    if (await users.createWithPassword({ brandId }, DEMO_BRAND_USER, 'owner', options.userPassword)) made.push(DEMO_BRAND_USER);
    log(`Users: ${made.length > 0 ? made.join(', ') : 'present already'}`);
  }

  return {
    brands: data.brands.length,
    products: data.products.length,
    campaigns: data.campaigns.length,
    affiliates: data.affiliates.length,
    // The recent orders too where the activity is seeded (written on the first seed only).
    orders: data.orders.length + (options.activityOn ? data.affiliates.length * RECENT_ORDERS_PER_AFFILIATE : 0),
    users: made,
  };
}

const DEMO_AFFILIATE_ID = 'aff-demo-1';
const DEMO_VALIDATION_DAYS = 30;
const DAY_MS = 86_400_000;

/** The brand with the most demo orders of the affiliate (the first in the data on a tie). */
function topBrandOf(data: ReturnType<typeof buildDemoData>, affiliateId: string): string {
  return topBrandsOf(data, affiliateId, 1)[0]!;
}

/** The `n` brands with the most demo orders of the affiliate, the most first (the first in the data on a tie). */
function topBrandsOf(data: ReturnType<typeof buildDemoData>, affiliateId: string, n: number): string[] {
  const counts = new Map<string, number>();
  for (const order of data.orders) if (order.affiliate_id === affiliateId) counts.set(order.organization_id, (counts.get(order.organization_id) ?? 0) + 1);
  return [...counts]
    .map((entry, i) => ({ id: entry[0], count: entry[1], i }))
    .sort((a, b) => b.count - a.count || a.i - b.i)
    .slice(0, n)
    .map((b) => b.id);
}
