// The data a soak phase runs against, written before any server starts: the demo catalogue (brands,
// products, campaigns, two affiliates with channels and approvals, older orders), an affiliate key
// and a key per brand with limits high enough never to answer 429, and a first set of short links
// for redirects to follow from the first second.
import { openDatabase } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrate.js';
import { servicesOver } from '../../src/services.js';
import { systemClock } from '../../src/lib/clock.js';
import { buildDemoData, seedDemo } from '../../src/seed/demo.js';

/** The demo affiliate the load acts as: approved for some private brands, four channels. */
export const SOAK_AFFILIATE = 'aff-demo-1';
/** Base of the short URLs the servers hand out; codes are read from its path. */
export const SOAK_PUBLIC_URL = 'http://go.soak.test';
const HIGH_LIMIT = 1_000_000_000;
const BRANDS_USED = 6;
/** Links made before the load unless asked for more (each call makes one per channel). */
const FIRST_LINKS = 480;

export interface SoakLink {
  code: string;
  brandId: string;
}

export interface SoakWorld {
  affiliateKey: string;
  /** Brands the affiliate can link to, each with its own key (for conversions). */
  brands: Array<{ id: string; key: string }>;
  links: SoakLink[];
  /** Words of product names, for search queries. */
  searchWords: string[];
}

export const codeOfShortUrl = (shortUrl: string): string => shortUrl.slice(SOAK_PUBLIC_URL.length + 1);

/** `firstLinks`: at least this many short links exist when the load begins, spread over the brands used. */
export async function prepareWorld(databaseUrl: string, firstLinks = FIRST_LINKS): Promise<SoakWorld> {
  const database = openDatabase(databaseUrl);
  try {
    await migrateToLatest(database);
    const services = servicesOver(database, { clock: systemClock, publicUrl: SOAK_PUBLIC_URL, publisher: { publish: async () => {} } });
    await seedDemo(services);
    const data = buildDemoData();
    const affiliate = data.affiliates.find((a) => a.id === SOAK_AFFILIATE)!;
    const reachable = data.brands.filter((b) => b.network.active && (b.network.isPublic || affiliate.approvedBrandIds.includes(b.id)));

    const used = reachable.slice(0, BRANDS_USED);
    const links: SoakLink[] = [];
    for (let i = 0; links.length < firstLinks; i++) {
      const brand = used[i % used.length]!;
      const channels = await services.links.createShortLinks(SOAK_AFFILIATE, { organizationId: brand.id, type: 'BrandPage', mdasc: `soak-first-${Math.floor(i / used.length)}` });
      for (const channel of channels) for (const url of channel.shortUrls) links.push({ code: codeOfShortUrl(url), brandId: brand.id });
    }
    const brands: SoakWorld['brands'] = [];
    for (const brand of used) {
      if (!links.some((l) => l.brandId === brand.id)) continue;
      brands.push({ id: brand.id, key: (await services.access.createApiKey({ brandId: brand.id, rateLimit: HIGH_LIMIT, name: 'soak' })).key });
    }
    const affiliateKey = (await services.access.createApiKey({ affiliateId: SOAK_AFFILIATE, rateLimit: HIGH_LIMIT, name: 'soak' })).key;
    const searchWords = [...new Set(data.products.flatMap((p) => p.name.toLowerCase().split(/[^a-z]+/)).filter((w) => w.length >= 5))].slice(0, 12);
    return { affiliateKey, brands, links, searchWords };
  } finally {
    await database.close();
  }
}
