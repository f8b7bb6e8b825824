// `affnet seed --demo` (and the first `npm start` on the embedded database): writes the demo data
// set of demo-data.ts through the same services imports use. Every write is an upsert or
// skips what exists, so running it again changes nothing and never fails.
import type { Services } from '../services.js';
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
export async function seedDemo(services: Pick<Services, 'access' | 'imports' | 'orders'>, log: (line: string) => void = () => {}): Promise<DemoSummary> {
  const { access, imports, orders } = services;
  const data = buildDemoData();
  await access.ensureChannelKinds();

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
    for (const channel of affiliate.channels) await access.addChannel(affiliate.id, channel.kind, channel.name, channel.id);
    for (const brandId of affiliate.approvedBrandIds) await access.approveForBrand(affiliate.id, brandId);
  }

  // Orders are facts reported by brands, not catalogue entries: an existing order is left as it
  // is (its status may have moved on), only missing ones are inserted.
  const { inserted, existing } = await orders.loadMissing(data.orders);
  log(`Orders: ${inserted} written (${existing} already present)`);

  return {
    brands: data.brands.length,
    products: data.products.length,
    campaigns: data.campaigns.length,
    affiliates: data.affiliates.length,
    orders: data.orders.length,
  };
}
