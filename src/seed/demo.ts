// `affnet seed --demo` (and the first `npm start` on the embedded database): writes the demo data
// set of demo-data.ts through the same domain functions imports use. Every write is an upsert or
// skips what exists, so running it again changes nothing and never fails.
import type { Database } from '../storage/database.js';
import { upsertBrand, upsertCampaign, upsertProduct } from '../domain/catalog/catalog-writer.js';
import { addChannel, approveForBrand, ensureChannelKinds, upsertAffiliate } from '../domain/access/affiliates.js';
import { existingOrderIds, insertOrder } from '../storage/repositories/orders.js';
import { buildDemoData } from './demo-data.js';

export { buildDemoData, demoBrandId, DEMO_STATUSES_STABLE_UNTIL } from './demo-data.js';

export interface DemoSummary {
  brands: number;
  products: number;
  campaigns: number;
  affiliates: number;
  orders: number;
}

const PROGRESS_EVERY = 100;

/** Loads the demo data set; returns how many records of each kind it holds (the same on every run). */
export async function seedDemo(database: Database, log: (line: string) => void = () => {}): Promise<DemoSummary> {
  const data = buildDemoData();
  await ensureChannelKinds(database);

  // The catalogue writers run one transaction per resource (they cannot nest in an outer one);
  // on SQLite in WAL mode that is a few hundred microseconds each, so the whole set takes ~1 s.
  log(`Brands: writing ${data.brands.length}`);
  for (const brand of data.brands) await upsertBrand(database, brand);

  log(`Products: writing ${data.products.length}`);
  for (const [i, product] of data.products.entries()) {
    await upsertProduct(database, product);
    if ((i + 1) % PROGRESS_EVERY === 0) log(`Products: ${i + 1}/${data.products.length}`);
  }

  log(`Campaigns: writing ${data.campaigns.length}`);
  for (const campaign of data.campaigns) await upsertCampaign(database, campaign);

  log(`Affiliates: writing ${data.affiliates.map((a) => a.id).join(', ')} with their channels and approvals`);
  for (const affiliate of data.affiliates) {
    await upsertAffiliate(database, affiliate.id, affiliate.name);
    for (const channel of affiliate.channels) await addChannel(database, affiliate.id, channel.kind, channel.name, channel.id);
    for (const brandId of affiliate.approvedBrandIds) await approveForBrand(database, affiliate.id, brandId);
  }

  // Orders are facts reported by brands, not catalogue entries: an existing order is left as it
  // is (its status may have moved on), only missing ones are inserted.
  const ids = data.orders.map((o) => o.id);
  const existing = await existingOrderIds(database, ids);
  const missing = data.orders.filter((o) => !existing.has(o.id));
  log(`Orders: writing ${missing.length} (${existing.size} already present)`);
  for (const order of missing) await insertOrder(database, order);

  return {
    brands: data.brands.length,
    products: data.products.length,
    campaigns: data.campaigns.length,
    affiliates: data.affiliates.length,
    orders: data.orders.length,
  };
}
