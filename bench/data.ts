// npm run bench:data -- --scale 100k|1m [--fresh] [--keep-indexes]
//
// Generates the benchmark data set and bulk-loads it into DATABASE_URL (default: the SQLite file
// ./data/bench-<scale>.sqlite). The data set is a pure function of the scale: a fixed-seed PRNG
// (mulberry32) drives every choice and every date is relative to a fixed anchor, never "now", so
// two runs produce identical rows. At 1m:
//   10,000 brands (mostly public, some private, inactive or channel-restricted, with categories),
//   1,000,000 products with 1-3 options (skewed over brands: a few brands hold tens of thousands),
//   100,000 campaigns (coupons and offers of both offer types; expired, running and scheduled),
//   5 affiliates (bench-aff-1..5) with 2-4 channels each and approvals for some private brands,
//   1,000,000 short links (BrandPage, Home, Coupon, Offer, Custom; random 7-character codes),
//   1,000,000 orders (over two years, mostly attributed to a link, commission by the brand's rule),
//   10,000,000 clicks over the 90 days before the anchor (Zipf over links, a few countries
//   dominant, mostly mobile; bots, HEADs, repeats and suspicious ones among them), and the
//   analytics rollups of clicks and orders, computed by the service's own rebuild SQL.
// --scale 100k (or 10k, 250k, 2m …) divides or multiplies every count by the same factor.
//
// Columns are filled exactly as the service's writers fill them (derived search_text, name_key and
// category_key, price_cents, JSON columns, 0/1 flags, ISO times) with the service's own helpers,
// so the API answers over this data as over imported data. The load uses multi-row INSERTs in
// transactions; secondary indexes (and on SQLite the full-text insert trigger) are dropped first
// and recreated from their stored definitions at the end, which is faster and leaves the same
// schema (--keep-indexes loads with them in place instead).
//
// It refuses a database that already holds data; on SQLite --fresh deletes the file first. At the
// end it runs ANALYZE, prints the time per table and the database size, and writes a manifest
// (data/bench-<scale>.json, next to the SQLite file) with what the benchmark runner needs: counts,
// link codes in Zipf rank order, big brands, frequent and rare search words, price ranges and the
// affiliate ids (create keys with `affnet keys create --affiliate bench-aff-1 --rate-limit N`).
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { totalmem } from 'node:os';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import SqliteDriver from 'better-sqlite3';
import pg from 'pg';
import { sql } from 'kysely';
import { Presets, SingleBar } from 'cli-progress';
import { dialectOf, openDatabase, type Dialect } from '../src/storage/database.js';
import { migrateToLatest } from '../src/storage/migrate.js';
import type { BrandCategoriesTable, BrandRow, CampaignCategoriesTable, CampaignRow, ClickRow, OrderRow, ProductRow, ShortLinkRow } from '../src/storage/tables.js';
import type { CompleteProduct, ProductOption } from '../src/schemas/product.js';
import type { OrderItem } from '../src/schemas/order.js';
import type { CampaignType } from '../src/schemas/campaign.js';
import type { LinkType } from '../src/schemas/short-url.js';
import { foldText } from '../src/lib/text-keys.js';
import { percentToBasisPoints, productColumns } from '../src/domain/catalog/catalog-writer.js';
import { commissionFor } from '../src/domain/orders/commission.js';
import { checkCustomUrl, requestKey, withMdasc } from '../src/domain/links/link-rules.js';
import { CODE_LENGTH } from '../src/domain/links/links-service.js';
import { CHANNEL_KINDS } from '../src/domain/access/channels-service.js';
import { searchTerms } from '../src/storage/repositories/products.js';
import { ADJECTIVES, BRAND_SUFFIXES, CAMPAIGN_THEMES, COLOURS, FEATURES, LINES, MDASC_PREFIX, PLATFORMS, SYLLABLES } from './data-words.js';
import { SeededRandom, mulberry32 } from '../src/seed/seeded-random.js';
import { freshRollupInserts } from '../src/storage/rollup-rows.js';
import { slugOf, tagOf } from '../src/seed/names.js';

// ---------------------------------------------------------------------------------------------
// Command line

const { values: args } = parseArgs({
  options: {
    scale: { type: 'string', default: '100k' },
    fresh: { type: 'boolean', default: false },
    'keep-indexes': { type: 'boolean', default: false },
  },
});

function parseScale(text: string): number {
  const match = /^(\d+(?:\.\d+)?)([km]?)$/i.exec(text.trim());
  if (!match) throw new Error(`--scale must look like 10k, 100k or 1m (got "${text}")`);
  const n = Math.round(Number(match[1]) * (match[2]!.toLowerCase() === 'm' ? 1e6 : match[2]!.toLowerCase() === 'k' ? 1e3 : 1));
  if (n < 1000 || n > 20_000_000) throw new Error(`--scale must be between 1k and 20m (got "${text}")`);
  return n;
}

const SCALE_LABEL = args.scale.trim().toLowerCase();
const N = parseScale(SCALE_LABEL);
const COUNTS = {
  brands: Math.max(20, Math.round(N / 100)),
  products: N,
  campaigns: Math.round(N / 10),
  links: N,
  orders: N,
  /** Ten clicks per link, over the 90 days before the anchor. */
  clicks: 10 * N,
};
const databaseUrl = process.env.DATABASE_URL && process.env.DATABASE_URL !== '' ? process.env.DATABASE_URL : `sqlite:./data/bench-${SCALE_LABEL}.sqlite`;
const dialect: Dialect = dialectOf(databaseUrl);
const sqliteFile = dialect === 'sqlite' ? databaseUrl.replace(/^sqlite:(\/\/)?/i, '').replace(/^file:/i, '') : undefined;
if (sqliteFile === ':memory:') throw new Error('the benchmark data set needs a file (or PostgreSQL), not :memory:');
const manifestFile = sqliteFile ? `${sqliteFile.replace(/\.sqlite$/, '')}.json` : `./data/bench-${SCALE_LABEL}.json`;
/** The database URL as printed and recorded: never a password. */
const shownUrl = databaseUrl.replace(/\/\/([^:/@]+):[^@/]*@/, '//$1:***@');

// ---------------------------------------------------------------------------------------------
// Deterministic randomness

const SEED = 20_261_123;


/** murmur3's 32-bit finaliser: a bijection on 32-bit integers. */
function fmix32(x: number): number {
  let h = x >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A seed for item i of a stream: distinct for every i of one stream (fmix32 is a bijection). */
const seedAt = (stream: number, i: number): number => fmix32((i ^ fmix32(SEED + stream * 0x9e3779b9)) >>> 0);


/** Draws indices with probabilities proportional to the given weights (inverse CDF). */
class Weighted {
  private readonly cdf: Float64Array;
  constructor(weights: ArrayLike<number>) {
    this.cdf = new Float64Array(weights.length);
    let total = 0;
    for (let i = 0; i < weights.length; i++) this.cdf[i] = total += weights[i]!;
    for (let i = 0; i < weights.length; i++) this.cdf[i]! /= total;
  }
  get size(): number {
    return this.cdf.length;
  }
  draw(rnd: SeededRandom): number {
    const u = rnd.float();
    let lo = 0;
    let hi = this.cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cdf[mid]! <= u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

const zipf = (n: number, s: number) => new Weighted(Float64Array.from({ length: n }, (_, i) => 1 / (i + 1) ** s));

/** A multiplier coprime with n: i → i × stride mod n shuffles 0…n-1 without repeats. */
function findStride(n: number): number {
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  let stride = 7919;
  while (gcd(stride, n) !== 1) stride += 2;
  return stride;
}

// Click facts: a few countries dominant, mostly mobile, the browsers and systems of each device.
const CLICK_COUNTRIES: ReadonlyArray<[string, number]> = [
  ['BR', 30], ['US', 22], ['PT', 8], ['DE', 6], ['GB', 5], ['MX', 4], ['AR', 3], ['FR', 3], ['ES', 3], ['IT', 2],
  ['CA', 2], ['IN', 2], ['CO', 1.5], ['CL', 1.5], ['NL', 1], ['JP', 1], ['AU', 1], ['PL', 0.8], ['SE', 0.6], ['ZZ', 2],
];
const CLICK_DEVICES: ReadonlyArray<[string, number]> = [['mobile', 62], ['desktop', 32], ['tablet', 5], ['other', 1]];
const CLICK_AGENTS: Readonly<Record<string, ReadonlyArray<[string, string, number]>>> = {
  mobile: [['Safari', 'iOS', 45], ['Chrome', 'Android', 45], ['Samsung Internet for Android', 'Android', 10]],
  desktop: [['Chrome', 'Windows', 50], ['Chrome', 'macOS', 15], ['Safari', 'macOS', 10], ['Microsoft Edge', 'Windows', 15], ['Firefox', 'Windows', 7], ['Firefox', 'Linux', 3]],
  tablet: [['Safari', 'iOS', 70], ['Chrome', 'Android', 30]],
  other: [['Other', 'Other', 1]],
};
/** '(blog)' stands for a long tail of small sites. */
const CLICK_REFERERS: ReadonlyArray<[string, number]> = [
  ['(direct)', 40], ['instagram.com', 15], ['www.google.com', 12], ['l.facebook.com', 8], ['t.co', 4], ['www.youtube.com', 5], ['web.whatsapp.com', 6], ['(blog)', 10],
];

const hex = (n: number, width: number) => (n >>> 0).toString(16).padStart(8, '0').slice(8 - width);

/** A random-looking, version-4-shaped UUID for item i of a stream; never the same for two i. */
function uuidAt(stream: number, i: number): string {
  const w0 = seedAt(stream, i);
  const next = mulberry32(w0 ^ 0x5bd1e995);
  const w1 = Math.floor(next() * 2 ** 32);
  const w2 = Math.floor(next() * 2 ** 32);
  const w3 = Math.floor(next() * 2 ** 32);
  return `${hex(w0, 8)}-${hex(w1 >>> 16, 4)}-4${hex(w1, 3)}-${(8 | ((w2 >>> 30) & 3)).toString(16)}${hex(w2 >>> 16, 3)}-${hex(w2, 4)}${hex(w3, 8)}`;
}

// One stream per kind of record, so a change to one kind does not reshuffle the others.
const STREAM = { brands: 1, brandIds: 2, products: 3, campaigns: 4, campaignIds: 5, affiliates: 6, links: 7, linkIds: 8, codes: 9, orders: 10, orderIds: 11, sample: 12, clicks: 13 } as const;

// ---------------------------------------------------------------------------------------------
// Fixed points in time

const DAY = 86_400_000;
/** Every generated time is at or before this instant; nothing depends on the clock of the run. */
const ANCHOR = Date.parse('2026-11-01T00:00:00.000Z');
/** Products, links and orders are spread over the two years before the anchor. */
const WINDOW_START = ANCHOR - 730 * DAY;
/** Campaign statuses derived at read time stay what they were at the anchor until this date. */
const STATUSES_STABLE_UNTIL = '2035-07-01T00:00:00.000Z';
const iso = (ms: number): string => new Date(Math.round(ms)).toISOString();

// ---------------------------------------------------------------------------------------------
// Small text helpers

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const capitalise = (w: string) => w[0]!.toUpperCase() + w.slice(1);
const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Prices that look like prices: 4,999 rather than 5,013. */
const price99 = (cents: number): number => Math.max(99, Math.round(cents / 100) * 100 - 1);

/** A valid EAN-13 in the in-store range 2…, from a serial number. */
function ean13(serial: number): string {
  const body = `2${String(serial).padStart(11, '0')}`;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(body[i]) * (i % 2 === 0 ? 1 : 3);
  return body + String((10 - (sum % 10)) % 10);
}

/** The brand writer's category rows: trimmed, de-duplicated case-insensitively, lower-cased key. */
function categoryRows(categories: string[]): { category: string; category_key: string }[] {
  const seen = new Map<string, string>();
  for (const c of categories) {
    const name = c.trim();
    if (name && !seen.has(name.toLowerCase())) seen.set(name.toLowerCase(), name);
  }
  return [...seen].map(([key, category]) => ({ category, category_key: key }));
}

// Made-up model names ("Kavoru"): three syllables, a bijective shuffle of 64^3 combinations.
const MODEL_SPACE = SYLLABLES.length ** 3;
function modelWord(j: number): string {
  let x = (Math.imul(j, 0x2f35b) + 0x1d3a7) & (MODEL_SPACE - 1);
  let w = '';
  for (let k = 0; k < 3; k++) {
    w += SYLLABLES[x % SYLLABLES.length];
    x = Math.floor(x / SYLLABLES.length);
  }
  return w;
}

// ---------------------------------------------------------------------------------------------
// Brands

interface Brand {
  row: BrandRow;
  categories: { category: string; category_key: string }[];
  line: number;
  secondLine: number;
  tag: string;
  integration: string | null;
  allowed: string[] | null;
  createdMs: number;
  /** Share of the products (and, flattened, of links and campaigns). */
  weight: number;
}

const BRAND_WEIGHT_EXPONENT = 0.7;
/** The biggest brands are always public, active and open to every channel kind. */
const OPEN_TOP_BRANDS = 10;

function buildBrands(count: number): Brand[] {
  const rnd = new SeededRandom(seedAt(STREAM.brands, 0));
  const names = new Set<string>();
  const slugs = new Set<string>();
  const brands: Brand[] = [];
  const rating = () => Math.round((2.5 + rnd.float() * 2.5) * 10) / 10;
  for (let b = 0; b < count; b++) {
    let name: string;
    let slug: string;
    do {
      const stem = capitalise(rnd.pick(SYLLABLES) + rnd.pick(SYLLABLES));
      const suffix = rnd.pick(BRAND_SUFFIXES);
      name = suffix === 'Maison' || suffix === 'Atelier' ? `${suffix} ${stem}` : `${stem} ${suffix}`;
      slug = slugOf(name);
    } while (names.has(name) || slugs.has(slug));
    names.add(name);
    slugs.add(slug);
    const line = rnd.int(0, LINES.length - 1);
    const secondLine = rnd.chance(0.3) ? rnd.int(0, LINES.length - 1) : line;
    const open = b < OPEN_TOP_BRANDS;
    const isPublic = open || rnd.chance(0.85);
    const active = open || rnd.chance(0.96);
    const allowed = !open && rnd.chance(0.08) ? rnd.shuffled(CHANNEL_KINDS.map((k) => k.id)).slice(0, rnd.int(2, 4)).sort() : null;
    const cps = rnd.chance(0.8);
    const commission = cps ? { transfer: 'cps', value: rnd.int(8, 60) / 4 } : { transfer: 'cpa', value: rnd.int(3, 40) * 100 };
    const createdMs = Date.parse('2023-01-02T00:00:00.000Z') + rnd.float() * (WINDOW_START - 30 * DAY - Date.parse('2023-01-02T00:00:00.000Z'));
    const categories = [...LINES[line]!.categories, ...(secondLine !== line ? LINES[secondLine]!.categories : []), ...(rnd.chance(0.2) ? ['Sale'] : [])];
    const site = `https://www.${slug}.example`;
    brands.push({
      row: {
        id: uuidAt(STREAM.brandIds, b),
        name,
        name_key: foldText(name),
        slug,
        logo: `${site}/logo.png`,
        site,
        segment: LINES[line]!.segment,
        active: active ? 1 : 0,
        is_public: isPublic ? 1 : 0,
        is_exclusive: rnd.chance(0.1) ? 1 : 0,
        is_highlight: rnd.chance(0.1) ? 1 : 0,
        is_favorite: rnd.chance(0.08) ? 1 : 0,
        rating_approval: rating(),
        rating_commission: rating(),
        rating_conversion: rating(),
        rating_popularity: rating(),
        rating_validation: rating(),
        // The catalogue writer's conversion: percent → basis points for cps, cents for cpa.
        commission_transfer: commission.transfer,
        commission_value: cps ? percentToBasisPoints(commission.value) : commission.value,
        allowed_channel_kinds: allowed ? JSON.stringify(allowed) : null,
        click_id_param: rnd.chance(0.9) ? 'clickId' : rnd.pick(['click_id', 'utm_id', 'aff_click']),
        attribution_window_days: rnd.chance(0.7) ? 30 : rnd.pick([7, 14, 45, 60, 90]),
        currency: 'BRL',
        home_url: null,
        domains: '[]',
        setup_pending: 0,
        validation_days: 30,
        fee_basis_points: 3000,
        statement_due_days: 15,
        claim_auto_accept_days: 60,
        terms_notice_days: 7,
        suspended_at: null,
        suspension_reason: null,
        trust_tag_conversions: 0,
        attribution_priority: 'coupon',
        reports_orders_from_server: 0,
        ratings_absent: 0,
        epc_cents: null,
        median_decision_seconds: null,
        scores_computed_at: null,
        created_at: iso(createdMs),
        updated_at: iso(createdMs + rnd.int(0, 300) * DAY),
      },
      categories: categoryRows(categories),
      line,
      secondLine,
      tag: tagOf(slug),
      integration: rnd.chance(0.7) ? rnd.pick(PLATFORMS) : null,
      allowed,
      createdMs,
      weight: 1 / (b + 1) ** BRAND_WEIGHT_EXPONENT,
    });
  }
  return brands;
}

/** Product counts per brand, proportional to the weights, summing exactly to total, at least 1 each. */
function apportion(weights: number[], total: number): Int32Array {
  const sum = weights.reduce((a, b) => a + b, 0);
  const counts = new Int32Array(weights.length);
  let assigned = 0;
  const remainders: { i: number; r: number }[] = [];
  weights.forEach((w, i) => {
    const exact = (w / sum) * (total - weights.length);
    counts[i] = 1 + Math.floor(exact);
    assigned += counts[i];
    remainders.push({ i, r: exact - Math.floor(exact) });
  });
  remainders.sort((a, b) => b.r - a.r || a.i - b.i);
  for (let k = 0; assigned < total; k++, assigned++) counts[remainders[k % remainders.length]!.i]!++;
  return counts;
}

// ---------------------------------------------------------------------------------------------
// Products: product i is a pure function of i (its own PRNG), so orders can rebuild any product
// to fill their items without keeping a million products in memory.

interface Catalogue {
  brands: Brand[];
  /** Products of brand b are indices start[b] … start[b+1]-1. */
  start: Int32Array;
  modelPicker: Weighted;
  adjectivePicker: Weighted;
  colourPicker: Weighted;
  featurePicker: Weighted;
}

interface BuiltProduct {
  input: CompleteProduct;
  /** Numeric category id of the product in its brand's catalogue (order items carry it). */
  categoryId: number;
  model: number;
}

function brandOfProduct(cat: Catalogue, i: number): number {
  let lo = 0;
  let hi = cat.brands.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (cat.start[mid]! <= i) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Product i. With `full` false the description is left empty (orders only need names, options
 * and prices); the description's draws come last, so both modes agree on everything else.
 */
function productAt(cat: Catalogue, i: number, full: boolean): BuiltProduct {
  const rnd = new SeededRandom(seedAt(STREAM.products, i));
  const b = brandOfProduct(cat, i);
  const brand = cat.brands[b]!;
  const lineIndex = rnd.chance(0.8) ? brand.line : brand.secondLine;
  const line = LINES[lineIndex]!;
  const id = `${brand.row.slug}-${String(i - cat.start[b]! + 1).padStart(6, '0')}`;
  const nounIndex = rnd.int(0, line.nouns.length - 1);
  const noun = line.nouns[nounIndex]!;
  const adjective = rnd.chance(0.85) ? ADJECTIVES[cat.adjectivePicker.draw(rnd)]! : '';
  const colour = rnd.chance(0.45) ? COLOURS[cat.colourPicker.draw(rnd)]! : '';
  const model = rnd.chance(0.75) ? cat.modelPicker.draw(rnd) : -1;
  const modelName = model < 0 ? '' : `${capitalise(modelWord(model))}${rnd.chance(0.3) ? ` ${rnd.int(2, 9)}` : ''}`;
  const name = [adjective, colour, noun, modelName].filter(Boolean).join(' ');
  const available = rnd.chance(0.85);
  const priced = rnd.chance(0.99);
  const optionCount = Math.min(rnd.int(1, 3), line.variants.length);
  const firstVariant = rnd.int(0, line.variants.length - optionCount);
  const [lo, hi] = line.price;
  const basePrice = Math.round(Math.exp(Math.log(lo) + rnd.float() * (Math.log(hi) - Math.log(lo))));
  const discounted = rnd.chance(0.3);
  const site = brand.row.site;
  const options: ProductOption[] = [];
  for (let k = 0; k < optionCount; k++) {
    const variant = line.variants[firstVariant + k]!;
    const price = price99(basePrice * (1 + line.variantStep * k));
    // An available product keeps its first option in stock; the others may have sold out.
    const optionAvailable = available && (k === 0 || rnd.chance(0.8));
    const listPrice = discounted ? price99(price * (1.15 + rnd.float() * 0.3)) : price;
    options.push({
      id: `${id}-${k + 1}`,
      ean: ean13(i * 3 + k + 1),
      name: `${name} ${variant}`,
      available: optionAvailable,
      seller: brand.row.slug,
      images: [{ url: `${site}/images/${id}-${k + 1}.jpg` }],
      categories: [...brand.categories.map((c) => c.category), noun],
      brands: [brand.row.name],
      pricing: priced ? [{ listPrice, price, metadata: [] }] : [],
      stocks: [{ value: optionAvailable ? rnd.int(1, 250) : 0, metadata: [] }],
      metadata: [{ key: 'variant', value: variant }],
    });
  }
  const createdMs = WINDOW_START + rnd.float() * (ANCHOR - WINDOW_START - DAY);
  const updatedMs = Math.min(ANCHOR, createdMs + rnd.float() * 60 * DAY);
  let description = '';
  if (full) {
    const features: string[] = [];
    for (let k = rnd.int(1, 3); k > 0; k--) {
      const f = FEATURES[cat.featurePicker.draw(rnd)]!;
      if (!features.includes(f)) features.push(f);
    }
    const blurb = rnd.pick(line.blurbs);
    const freeReturns = rnd.chance(0.7);
    description =
      `<p>${escapeHtml(name)} by ${escapeHtml(brand.row.name)}.</p><p>${blurb}</p><p>${features.join(' ')}</p>` +
      `<ul><li>Category: ${noun.toLowerCase()}</li>${freeReturns ? '<li>Free returns within 30 days</li>' : ''}</ul>`;
  }
  return {
    model,
    categoryId: (lineIndex + 1) * 100 + nounIndex + 1,
    input: {
      organizationId: brand.row.id,
      id,
      available,
      createdAt: iso(createdMs),
      updatedAt: iso(updatedMs),
      name,
      description,
      url: `${site}/products/${id}`,
      images: [{ url: `${site}/images/${id}.jpg` }],
      options,
      metadata: [
        { key: 'line', value: line.key },
        { key: 'collection', value: modelName || 'core' },
      ],
      ...(brand.integration ? { integration: brand.integration } : {}),
    },
  };
}

type ProductInsert = Omit<ProductRow, 'seq'>;

/** The row upsertProduct writes for this input (seq is assigned by the database). */
function productRow(input: CompleteProduct): ProductInsert {
  return { id: input.id, ...productColumns(input, input.updatedAt!), created_at: input.createdAt!, feed_id: null, feed_run_id: null };
}

// ---------------------------------------------------------------------------------------------
// Campaigns

const CAMPAIGN_KINDS: readonly { type: CampaignType; offerType: 'Url' | 'Spreadsheet' | null; weight: number }[] = [
  { type: 'GenericCoupon', offerType: null, weight: 0.3 },
  { type: 'PersonalCoupon', offerType: null, weight: 0.2 },
  { type: 'Offer', offerType: 'Url', weight: 0.3 },
  { type: 'Offer', offerType: 'Spreadsheet', weight: 0.2 },
];
const CAMPAIGN_STATUSES = [
  { status: 'expired', weight: 0.35 },
  { status: 'onTime', weight: 0.5 },
  { status: 'scheduled', weight: 0.15 },
] as const;

interface CampaignIndex {
  brand: Int32Array;
  kind: Uint8Array;
  createdMs: Float64Array;
  endMs: Float64Array;
  /** Per brand, its coupons (PersonalCoupon, GenericCoupon) and offers, as campaign indices. */
  couponsOf: Int32Array[];
  offersOf: Int32Array[];
}

function campaignPeriod(status: string, rnd: SeededRandom): { startMs: number; endMs: number; createdMs: number } {
  switch (status) {
    case 'expired': {
      const startMs = WINDOW_START + 30 * DAY + rnd.float() * (ANCHOR - WINDOW_START - 150 * DAY);
      return { startMs, endMs: startMs + rnd.int(7, 90) * DAY - 1, createdMs: startMs - rnd.int(3, 20) * DAY };
    }
    case 'onTime': {
      const startMs = WINDOW_START + 30 * DAY + rnd.float() * (ANCHOR - WINDOW_START - 31 * DAY);
      return { startMs, endMs: Date.parse(STATUSES_STABLE_UNTIL) + rnd.int(1, 183) * DAY - 1, createdMs: startMs - rnd.int(3, 20) * DAY };
    }
    default: {
      const startMs = Date.parse('2036-01-01T00:00:00.000Z') + rnd.int(0, 180) * DAY;
      return { startMs, endMs: startMs + rnd.int(14, 90) * DAY, createdMs: ANCHOR - rnd.int(1, 180) * DAY };
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Affiliates

interface Channel {
  index: number;
  id: string;
  kind: string;
  affiliate: number;
}

interface Affiliate {
  id: string;
  name: string;
  channels: Channel[];
  approved: Set<number>;
  /** Share of links and orders. */
  weight: number;
}

const AFFILIATE_NAMES = ['Deal Hunter Media', 'Smart Shopper Club', 'Coupon Corner', 'Style Picks Weekly', 'Gadget Scout'];
const AFFILIATE_WEIGHTS = [0.3, 0.25, 0.2, 0.15, 0.1];
const APPROVAL_SHARE = [0.5, 0.3, 0.2, 0.1, 0.05];

function buildAffiliates(brands: Brand[]): Affiliate[] {
  const rnd = new SeededRandom(seedAt(STREAM.affiliates, 0));
  let channelIndex = 0;
  return AFFILIATE_NAMES.map((name, a) => {
    const id = `bench-aff-${a + 1}`;
    const kinds = rnd.shuffled(CHANNEL_KINDS.map((k) => k.id)).slice(0, rnd.int(2, 4));
    // The first affiliate (the runner's) always has a site channel, which every brand accepts.
    if (a === 0 && !kinds.includes('site')) kinds[0] = 'site';
    const channels = kinds.map((kind) => ({ index: channelIndex++, id: `ch-bench-${a + 1}-${kind}`, kind, affiliate: a }));
    const approved = new Set<number>();
    brands.forEach((brand, b) => {
      if (brand.row.is_public === 0 && rnd.chance(APPROVAL_SHARE[a]!)) approved.add(b);
    });
    return { id, name, channels, approved, weight: AFFILIATE_WEIGHTS[a]! };
  });
}

const visibleTo = (affiliate: Affiliate, brand: Brand, b: number) => brand.row.is_public === 1 || affiliate.approved.has(b);

// ---------------------------------------------------------------------------------------------
// Loading: a thin layer over better-sqlite3 and pg, multi-row INSERTs inside transactions.

type Value = string | number | null;

interface Target {
  dialect: Dialect;
  exec(text: string): Promise<void>;
  all<T>(text: string, params?: Value[]): Promise<T[]>;
  /**
   * Runs a statement: at once on SQLite; on PostgreSQL it is queued on the connection (pg runs a
   * client's queries in order) and may still be running on return.
   */
  queue(text: string, values?: Value[], name?: string): void;
  /** Waits for everything queued; throws the first failure. */
  sync(): Promise<void>;
  close(): Promise<void>;
}

const ROWS_PER_STATEMENT = 500;
const SQLITE_MAX_PARAMS = 32_766;

function placeholders(dialectName: Dialect, rows: number, cols: number): string {
  const groups: string[] = [];
  let n = 1;
  for (let r = 0; r < rows; r++) {
    const one: string[] = [];
    for (let c = 0; c < cols; c++) one.push(dialectName === 'sqlite' ? '?' : `$${n++}`);
    groups.push(`(${one.join(',')})`);
  }
  return groups.join(',');
}

function openSqliteTarget(file: string): Target {
  const driver = new SqliteDriver(file);
  // The file stays in WAL mode, as the service created it. For this connection only: commits do
  // not wait for the disk (in WAL mode a crash of this process cannot corrupt the file, only an
  // OS crash could, and a half-loaded data set is refused next time anyway: use --fresh), a big
  // page cache, and no per-row foreign-key lookups (the generator only writes existing ids;
  // `PRAGMA foreign_key_check` on the result finds nothing). A rollback journal in memory was
  // no faster at 100k; journal_mode=OFF is refused by better-sqlite3's defensive mode.
  driver.pragma('journal_mode = WAL');
  driver.pragma('synchronous = OFF');
  driver.pragma('foreign_keys = OFF');
  driver.pragma(`cache_size = ${-Math.round(Math.min(1024 * 1024, totalmem() / 1024 / 8))}`);
  // Index builds at the end sort in memory rather than in temporary files.
  driver.pragma('temp_store = MEMORY');
  const statements = new Map<string, SqliteDriver.Statement>();
  return {
    dialect: 'sqlite',
    async exec(text) {
      driver.exec(text);
    },
    async all<T>(text: string, params: Value[] = []) {
      return driver.prepare(text).all(...params) as T[];
    },
    queue(text, values = []) {
      let statement = statements.get(text);
      if (!statement) {
        statement = driver.prepare(text);
        statements.set(text, statement);
      }
      statement.run(values);
    },
    async sync() {},
    async close() {
      driver.pragma('wal_checkpoint(TRUNCATE)');
      driver.close();
    },
  };
}

async function openPostgresTarget(url: string): Promise<Target> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  // Commits need not wait for the disk during the load (a crash loses the last commits, never
  // consistency); index builds get memory to sort in.
  await client.query('set synchronous_commit = off');
  await client.query(`set maintenance_work_mem = '512MB'`);
  // The rollups group ten million clicks per statement at 1m: in memory rather than in batches on disk.
  await client.query(`set work_mem = '512MB'`);
  let failure: unknown;
  let pending: Promise<void>[] = [];
  return {
    dialect: 'postgres',
    async exec(text) {
      await client.query(text);
    },
    async all<T>(text: string, params: Value[] = []) {
      return (await client.query(text, params)).rows as T[];
    },
    queue(text, values = [], name) {
      pending.push(
        client.query(name ? { name, text, values } : { text, values }).then(
          () => {},
          (error: unknown) => {
            failure ??= error;
          },
        ),
      );
    },
    async sync() {
      const waiting = pending;
      pending = [];
      await Promise.all(waiting);
      if (failure) throw failure instanceof Error ? failure : new Error('a queued statement failed', { cause: failure });
    },
    async close() {
      await client.end();
    },
  };
}

const insertTexts = new Map<string, string>();

/** Multi-row INSERTs of the rows, ROWS_PER_STATEMENT at a time (within the parameter limits). */
function queueInsert(target: Target, table: string, columns: readonly string[], rows: Value[][]): void {
  const maxParams = target.dialect === 'sqlite' ? SQLITE_MAX_PARAMS : 65_535;
  const perStatement = Math.min(ROWS_PER_STATEMENT, Math.floor(maxParams / columns.length));
  for (let i = 0; i < rows.length; i += perStatement) {
    const slice = rows.slice(i, i + perStatement);
    const name = `bench_${table}_${slice.length}`;
    let text = insertTexts.get(name);
    if (!text) {
      text = `insert into ${table} (${columns.join(', ')}) values ${placeholders(target.dialect, slice.length, columns.length)}`;
      insertTexts.set(name, text);
    }
    target.queue(text, slice.flat(), name);
  }
}

/** BEGIN, the inserts of one chunk, COMMIT. */
function queueTransaction(target: Target, tables: { table: string; columns: readonly string[]; rows: Value[][] }[]): void {
  target.queue('begin');
  for (const t of tables) if (t.rows.length) queueInsert(target, t.table, t.columns, t.rows);
  target.queue('commit');
}

// ---------------------------------------------------------------------------------------------
// Progress: a bar on a terminal, a line every few seconds otherwise.

const log = (line: string) => process.stderr.write(`${line}\n`);
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

class Progress {
  private readonly bar?: SingleBar;
  private readonly started = performance.now();
  private lastLine = performance.now();
  constructor(
    private readonly label: string,
    private readonly total: number,
    private readonly unit = 'rows',
  ) {
    if (process.stderr.isTTY) {
      this.bar = new SingleBar(
        {
          format: `${label.padEnd(12)} {bar} {percentage}% | {value}/{total} ${unit} | {rate}/s | ETA {eta_formatted}`,
          stream: process.stderr,
          hideCursor: true,
          etaBuffer: 50,
        },
        Presets.shades_classic,
      );
      this.bar.start(total, 0, { rate: '0' });
    } else {
      log(`${label}: ${fmt(total)} ${unit}`);
    }
  }
  update(done: number): void {
    const seconds = (performance.now() - this.started) / 1000;
    const rate = seconds > 0 ? fmt(done / seconds) : '0';
    if (this.bar) {
      this.bar.update(done, { rate });
    } else if (performance.now() - this.lastLine >= 5000) {
      this.lastLine = performance.now();
      log(`${this.label}: ${fmt(done)}/${fmt(this.total)} ${this.unit} (${Math.floor((done / this.total) * 100)} %), ${rate}/s`);
    }
  }
  stop(): number {
    const seconds = (performance.now() - this.started) / 1000;
    if (this.bar) {
      this.bar.update(this.total, { rate: fmt(this.total / Math.max(seconds, 1e-3)) });
      this.bar.stop();
    } else {
      log(`${this.label}: done, ${fmt(this.total)} ${this.unit} in ${seconds.toFixed(1)} s`);
    }
    return seconds;
  }
}

interface Step {
  name: string;
  rows: number;
  seconds: number;
}
const steps: Step[] = [];

/**
 * Loads `total` primary rows in chunks (one transaction each): `produce(from, to)` returns the
 * rows of every table of the chunk. With PostgreSQL the next chunk is generated while the
 * server writes the previous one.
 */
async function loadChunks(
  target: Target,
  name: string,
  total: number,
  chunk: number,
  produce: (from: number, to: number) => { table: string; columns: readonly string[]; rows: Value[][] }[],
): Promise<void> {
  const progress = new Progress(name, total);
  let done = 0;
  for (let from = 0; from < total; from += chunk) {
    const to = Math.min(total, from + chunk);
    const tables = produce(from, to);
    await target.sync();
    progress.update(done);
    queueTransaction(target, tables);
    done = to;
  }
  await target.sync();
  steps.push({ name, rows: total, seconds: progress.stop() });
}

const CHUNK = 20_000;

/** Column list of a row type, in a fixed order, and the row as values in that order. */
function columnsOf<T extends object>(sample: T): (keyof T & string)[] {
  return Object.keys(sample) as (keyof T & string)[];
}
// Rows are built as complete row types (schema.ts), so the compiler checks that every column is
// filled; the first row of each table fixes the column order.
function valuesOf<T extends object>(row: T, columns: readonly (keyof T & string)[]): Value[] {
  const out = new Array<Value>(columns.length);
  for (let c = 0; c < columns.length; c++) out[c] = row[columns[c]!] as Value;
  return out;
}

// ---------------------------------------------------------------------------------------------
// Secondary indexes and the full-text trigger: dropped during the load, recreated from their own
// stored definitions afterwards (same names, same SQL), which builds each index once by sorting.

interface Deferred {
  indexes: { name: string; definition: string }[];
  ftsTrigger?: string;
  /** PostgreSQL: primary keys dropped too (`alter table … add constraint …` to restore them). */
  constraints: { table: string; name: string; definition: string }[];
}

const LOADED_TABLES = ['brands', 'brand_categories', 'affiliate_channels', 'products', 'campaigns', 'campaign_categories', 'short_links', 'orders'];
const ROLLUP_TABLES = ['click_rollups', 'click_rollups_daily', 'order_rollups', 'order_rollups_daily'];

/**
 * Drops the secondary indexes of `tables` (and the products' full-text trigger). With
 * `primaryKeys`, PostgreSQL's primary keys go too: tables written once, in bulk, get them back
 * built by one sort. (SQLite's rollup tables are WITHOUT ROWID: their key is the table.)
 */
async function dropSecondaryIndexes(target: Target, tables: readonly string[], { primaryKeys = false } = {}): Promise<Deferred> {
  const deferred: Deferred = { indexes: [], constraints: [] };
  const inList = tables.map((t) => `'${t}'`).join(',');
  if (target.dialect === 'sqlite') {
    // Indexes behind PRIMARY KEY / UNIQUE constraints have no SQL of their own and stay.
    deferred.indexes = await target.all<{ name: string; definition: string }>(
      `select name, sql as definition from sqlite_master where type = 'index' and sql is not null and tbl_name in (${inList}) order by name`,
    );
    const trigger = await target.all<{ sql: string }>(`select sql from sqlite_master where type = 'trigger' and name = 'products_fts_insert' and tbl_name in (${inList})`);
    deferred.ftsTrigger = trigger[0]?.sql;
    if (deferred.ftsTrigger) await target.exec('drop trigger products_fts_insert');
  } else {
    deferred.indexes = await target.all<{ name: string; definition: string }>(
      `select i.indexname as name, i.indexdef as definition from pg_indexes i
       where i.schemaname = current_schema() and i.tablename in (${inList})
         and not exists (select 1 from pg_constraint c where c.conname = i.indexname and c.connamespace = (select oid from pg_namespace where nspname = current_schema()))
       order by i.indexname`,
    );
    if (primaryKeys) {
      deferred.constraints = await target.all<{ table: string; name: string; definition: string }>(
        `select t.relname as table, c.conname as name, pg_get_constraintdef(c.oid) as definition from pg_constraint c join pg_class t on t.oid = c.conrelid
         where c.contype = 'p' and t.relnamespace = (select oid from pg_namespace where nspname = current_schema()) and t.relname in (${inList}) order by t.relname`,
      );
    }
  }
  for (const index of deferred.indexes) await target.exec(`drop index ${index.name}`);
  for (const constraint of deferred.constraints) await target.exec(`alter table ${constraint.table} drop constraint ${constraint.name}`);
  return deferred;
}

async function recreateSecondaryIndexes(target: Target, deferred: Deferred, label = 'indexes'): Promise<void> {
  const total = deferred.constraints.length + deferred.indexes.length + (deferred.ftsTrigger ? 1 : 0);
  const progress = new Progress(label, total, 'indexes');
  let done = 0;
  if (deferred.ftsTrigger) {
    // The external-content FTS table reads every product back and indexes it in one pass.
    await target.exec(`insert into products_fts(products_fts) values ('rebuild')`);
    await target.exec(deferred.ftsTrigger);
    progress.update(++done);
  }
  for (const constraint of deferred.constraints) {
    await target.exec(`alter table ${constraint.table} add constraint ${constraint.name} ${constraint.definition}`);
    progress.update(++done);
  }
  for (const index of deferred.indexes) {
    await target.exec(index.definition);
    progress.update(++done);
  }
  const what = [deferred.constraints.length ? `${deferred.constraints.length} keys` : '', `${deferred.indexes.length}`, deferred.ftsTrigger ? 'full-text' : ''].filter(Boolean).join(' + ');
  steps.push({ name: `${label} (${what})`, rows: 0, seconds: progress.stop() });
}

// ---------------------------------------------------------------------------------------------
// Preparation: schema by the service's own migrations, and a refusal to mix data sets.

const DATA_TABLES = ['brands', 'affiliates', 'affiliate_channels', 'products', 'campaigns', 'short_links', 'orders', 'clicks', 'api_keys'] as const;

async function prepare(): Promise<void> {
  if (sqliteFile) {
    if (args.fresh) {
      for (const file of [sqliteFile, `${sqliteFile}-wal`, `${sqliteFile}-shm`, `${sqliteFile}-journal`, manifestFile]) rmSync(file, { force: true });
    }
    mkdirSync(dirname(sqliteFile), { recursive: true });
  } else if (args.fresh) {
    throw new Error('--fresh only deletes SQLite files; for PostgreSQL drop and create the database yourself');
  }
  const database = openDatabase(databaseUrl, { poolSize: 1 });
  try {
    await migrateToLatest(database);
    const held: string[] = [];
    for (const table of DATA_TABLES) {
      const row = await sql<{ one: number }>`select 1 as one from ${sql.table(table)} limit 1`.execute(database.db);
      if (row.rows.length) held.push(table);
    }
    if (held.length) {
      const hint = sqliteFile ? 'pass --fresh to delete the file and start over' : 'drop and create the database, then run again';
      throw new Error(`${shownUrl} already holds data (${held.join(', ')}); a benchmark data set must be loaded into an empty database: ${hint}`);
    }
  } finally {
    await database.close();
  }
}

async function databaseSize(): Promise<{ bytes: number; detail: string }> {
  if (sqliteFile) {
    const size = (f: string) => (existsSync(f) ? statSync(f).size : 0);
    const main = size(sqliteFile);
    const wal = size(`${sqliteFile}-wal`);
    return { bytes: main + wal, detail: `file ${mb(main)} + wal ${mb(wal)}` };
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>('select pg_database_size(current_database()) as n');
    return { bytes: Number(rows[0]!.n), detail: 'pg_database_size' };
  } finally {
    await client.end();
  }
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

// ---------------------------------------------------------------------------------------------
// The load

async function main(): Promise<void> {
  const started = performance.now();
  log(`Benchmark data set, scale ${SCALE_LABEL} (${fmt(COUNTS.products)} products, ${fmt(COUNTS.brands)} brands, ${fmt(COUNTS.campaigns)} campaigns, ${fmt(COUNTS.links)} links, ${fmt(COUNTS.orders)} orders) into ${shownUrl}`);
  await prepare();
  const target = sqliteFile ? openSqliteTarget(sqliteFile) : await openPostgresTarget(databaseUrl);
  try {
    const deferred = args['keep-indexes'] ? { indexes: [], constraints: [] } : await dropSecondaryIndexes(target, LOADED_TABLES);
    const manifest = await load(target);
    if (deferred.indexes.length || deferred.ftsTrigger) await recreateSecondaryIndexes(target, deferred);
    await rollUp(target);

    const analyzeStart = performance.now();
    log('ANALYZE…');
    await target.exec(target.dialect === 'sqlite' ? 'analyze' : 'vacuum analyze');
    steps.push({ name: target.dialect === 'sqlite' ? 'analyze' : 'vacuum analyze', rows: 0, seconds: (performance.now() - analyzeStart) / 1000 });

    const words = await measureWords(target, manifest.wordCandidates);
    await target.close();
    const totalSeconds = (performance.now() - started) / 1000;
    const size = await databaseSize();
    writeManifest(manifest, words, totalSeconds, size.bytes);

    const lines = [
      '',
      `Loaded scale ${SCALE_LABEL} into ${shownUrl} (${target.dialect})`,
      '',
      '| step | rows | seconds | rows/s |',
      '|---|---:|---:|---:|',
      ...steps.map((s) => `| ${s.name} | ${s.rows ? fmt(s.rows) : ''} | ${s.seconds.toFixed(1)} | ${s.rows ? fmt(s.rows / Math.max(s.seconds, 1e-3)) : ''} |`),
      `| **total** | | **${totalSeconds.toFixed(1)}** | |`,
      '',
      `Database size: ${mb(size.bytes)} (${size.detail}).`,
      `Manifest: ${manifestFile}`,
      `Next: DATABASE_URL=${shownUrl} npx tsx src/cli/main.ts keys create --affiliate bench-aff-1 --rate-limit 100000000`,
      '',
    ];
    process.stdout.write(lines.join('\n'));
  } catch (error) {
    await target.close().catch(() => {});
    throw error;
  }
}

/**
 * The analytics rollups of every loaded click and order, with the service's rebuild SQL; the
 * progress rows then say every stored click is counted and rolled up, so the service's click
 * writer starts after them (link counts of the generated clicks are left at 0).
 *
 * The tables are empty and no two SELECTs share a key, so each SELECT is a plain INSERT (no
 * upsert), one statement each: at 1m one statement over every table filled a 13 GB WAL. Each
 * SELECT comes out in key order, so SQLite writes every table's pages in order; on PostgreSQL
 * keys and indexes are built by a sort afterwards, as for the other tables.
 */
async function rollUp(target: Target): Promise<void> {
  const started = performance.now();
  const deferred = await dropSecondaryIndexes(target, ROLLUP_TABLES, { primaryKeys: true });
  const inserts = [...freshRollupInserts('hour'), ...freshRollupInserts('day')];
  const progress = new Progress('rollups', inserts.length, 'statements');
  for (const [i, insert] of inserts.entries()) {
    await target.exec(insert);
    // Keeps the WAL at one statement's pages.
    if (target.dialect === 'sqlite') await target.exec('pragma wal_checkpoint(TRUNCATE)');
    progress.update(i + 1);
  }
  progress.stop();
  if (target.dialect === 'sqlite') {
    await target.exec('update rollup_progress set last_rolled_rowid = (select coalesce(max(rowid), 0) from clicks) where id = 1');
    await target.exec('update click_count_progress set last_counted_rowid = (select coalesce(max(rowid), 0) from clicks) where id = 1');
  }
  const [counted] = await target.all<{ n: number }>(`select ${ROLLUP_TABLES.map((t) => `(select count(*) from ${t})`).join(' + ')} as n`);
  steps.push({ name: 'rollups (rows written)', rows: Number(counted?.n ?? 0), seconds: (performance.now() - started) / 1000 });
  await recreateSecondaryIndexes(target, deferred, 'rollup indexes');
}

interface ManifestDraft {
  clicks: Record<string, unknown>;
  counts: Record<string, number>;
  affiliates: { id: string; name: string; channels: { id: string; kind: string }[]; approvedPrivateBrands: number; visibleBrands: number; links: number; orders: number }[];
  linkCodes: string[];
  inactiveLinkCodes: string[];
  bigBrands: { id: string; name: string; products: number }[];
  privateBrandsApprovedForFirstAffiliate: { id: string; name: string; products: number }[];
  categories: { category: string; brands: number }[];
  prices: Record<string, unknown>;
  campaigns: Record<string, unknown>;
  orders: Record<string, unknown>;
  products: Record<string, unknown>;
  wordCandidates: { word: string; tier: string }[];
}

async function load(target: Target): Promise<ManifestDraft> {
  // --- brands, categories, channel kinds, affiliates, channels, approvals -----------------------
  const brands = buildBrands(COUNTS.brands);
  const affiliates = buildAffiliates(brands);
  const brandColumns = columnsOf(brands[0]!.row);
  const brandCategoryColumns = columnsOf<BrandCategoriesTable>({ brand_id: '', category: '', category_key: '' });
  await loadChunks(target, 'brands', brands.length, CHUNK, (from, to) => {
    const slice = brands.slice(from, to);
    return [
      { table: 'brands', columns: brandColumns, rows: slice.map((b) => valuesOf(b.row, brandColumns)) },
      {
        table: 'brand_categories',
        columns: brandCategoryColumns,
        rows: slice.flatMap((b) => b.categories.map((c) => valuesOf({ brand_id: b.row.id, ...c }, brandCategoryColumns))),
      },
    ];
  });

  const affiliatesStart = performance.now();
  const affiliateCreated = (a: number) => iso(WINDOW_START - (60 - a * 7) * DAY);
  queueTransaction(target, [
    // What ChannelsService.ensureKinds writes.
    { table: 'channel_kinds', columns: ['id', 'name'], rows: CHANNEL_KINDS.map((k) => [k.id, k.name]) },
    { table: 'affiliates', columns: ['id', 'name', 'created_at'], rows: affiliates.map((a, i) => [a.id, a.name, affiliateCreated(i)]) },
    {
      table: 'affiliate_channels',
      columns: ['id', 'affiliate_id', 'kind_id', 'name', 'created_at'],
      rows: affiliates.flatMap((a, i) =>
        a.channels.map((c, k) => [c.id, a.id, c.kind, `${a.name} ${CHANNEL_KINDS.find((kind) => kind.id === c.kind)!.name}`, iso(Date.parse(affiliateCreated(i)) + (k + 1) * 60_000)]),
      ),
    },
    {
      table: 'brand_approvals',
      columns: ['affiliate_id', 'brand_id', 'created_at'],
      rows: affiliates.flatMap((a, i) => [...a.approved].map((b) => [a.id, brands[b]!.row.id, iso(Date.parse(affiliateCreated(i)) + 86_400_000 + b * 1000)])),
    },
  ]);
  await target.sync();
  const approvals = affiliates.reduce((n, a) => n + a.approved.size, 0);
  const channels = affiliates.flatMap((a) => a.channels);
  steps.push({ name: 'affiliates, channels, approvals', rows: affiliates.length + channels.length + approvals, seconds: (performance.now() - affiliatesStart) / 1000 });

  // --- products ---------------------------------------------------------------------------------
  const perBrand = apportion(
    brands.map((b) => b.weight),
    COUNTS.products,
  );
  const start = new Int32Array(brands.length + 1);
  for (let b = 0; b < brands.length; b++) start[b + 1] = start[b]! + perBrand[b]!;
  const modelPool = Math.min(MODEL_SPACE, Math.max(2_000, Math.round(N / 4)));
  const catalogue: Catalogue = {
    brands,
    start,
    modelPicker: zipf(modelPool, 1.0),
    adjectivePicker: zipf(ADJECTIVES.length, 1.0),
    colourPicker: zipf(COLOURS.length, 1.0),
    featurePicker: zipf(FEATURES.length, 1.0),
  };
  const modelUse = new Int32Array(modelPool);
  const prices = new Float64Array(COUNTS.products);
  let options = 0;
  let available = 0;
  let productColumns: Extract<keyof ProductInsert, string>[] | undefined;
  await loadChunks(target, 'products', COUNTS.products, CHUNK / 2, (from, to) => {
    const rows: Value[][] = [];
    for (let i = from; i < to; i++) {
      const built = productAt(catalogue, i, true);
      const row = productRow(built.input);
      productColumns ??= columnsOf(row);
      rows.push(valuesOf(row, productColumns));
      if (built.model >= 0) modelUse[built.model]!++;
      prices[i] = row.price_cents ?? Number.NaN;
      options += built.input.options.length;
      available += row.available;
    }
    return [{ table: 'products', columns: productColumns!, rows }];
  });

  // --- campaigns --------------------------------------------------------------------------------
  const C = COUNTS.campaigns;
  const campaignIndex: CampaignIndex = {
    brand: new Int32Array(C),
    kind: new Uint8Array(C),
    createdMs: new Float64Array(C),
    endMs: new Float64Array(C),
    couponsOf: [],
    offersOf: [],
  };
  const campaignBrandPicker = new Weighted(brands.map((b) => Math.sqrt(b.weight)));
  const kindPicker = new Weighted(CAMPAIGN_KINDS.map((k) => k.weight));
  const statusPicker = new Weighted(CAMPAIGN_STATUSES.map((s) => s.weight));
  const campaignRnd = new SeededRandom(seedAt(STREAM.campaigns, 0));
  const campaignStats: Record<string, number> = {};
  let campaignColumns: Extract<keyof CampaignRow, string>[] | undefined;
  const campaignCategoryColumns = columnsOf<CampaignCategoriesTable>({ organization_id: '', campaign_id: '', category: '', category_key: '' });
  await loadChunks(target, 'campaigns', C, CHUNK, (from, to) => {
    const rows: Value[][] = [];
    const categoryRowsOut: Value[][] = [];
    const rnd = campaignRnd;
    for (let c = from; c < to; c++) {
      const b = campaignBrandPicker.draw(rnd);
      const brand = brands[b]!;
      const kindIndex = kindPicker.draw(rnd);
      const kind = CAMPAIGN_KINDS[kindIndex]!;
      const status = CAMPAIGN_STATUSES[statusPicker.draw(rnd)]!.status;
      const { startMs, endMs, createdMs } = campaignPeriod(status, rnd);
      const id = uuidAt(STREAM.campaignIds, c);
      const theme = rnd.pick(CAMPAIGN_THEMES);
      const percent = rnd.pick([5, 10, 15, 20, 25, 30, 40, 50]);
      const subject = rnd.pick(LINES[brand.line]!.nouns).toLowerCase();
      const isOffer = kind.type === 'Offer';
      const code =
        kind.type === 'GenericCoupon'
          ? `${theme.replace(/[^A-Za-z]/g, '').toUpperCase()}${percent}`
          : kind.type === 'PersonalCoupon'
            ? `${brand.tag}${percent}-${id.slice(0, 6).toUpperCase()}`
            : null;
      const name = isOffer ? `${theme}: up to ${percent + 10}% off ${subject}` : `${theme}: ${percent}% off ${subject}`;
      const banners = [`${brand.row.site}/banners/${id}-728x90.png`, `${brand.row.site}/banners/${id}-300x250.png`];
      // What upsertCampaign stores for this input.
      const row: CampaignRow = {
        id,
        organization_id: brand.row.id,
        name,
        name_key: foldText(name),
        type: kind.type,
        offer_type: isOffer ? kind.offerType : null,
        description: isOffer
          ? `${brand.row.name} ${theme.toLowerCase()}: selected ${subject} at up to ${percent + 10}% off while stocks last.`
          : `Use code ${code} at ${brand.row.name} checkout for ${percent}% off ${subject}. One use per customer.`,
        code,
        url: `${brand.row.site}/promo/${id}`,
        is_highlight: rnd.chance(0.2) ? 1 : 0,
        start_at: iso(startMs),
        end_at: iso(endMs),
        banners: JSON.stringify(rnd.chance(0.8) ? banners : []),
        email_marketing: isOffer && rnd.chance(0.4) ? `<h1>${escapeHtml(brand.row.name)}: ${theme}</h1><p>Up to ${percent + 10}% off ${subject}.</p>` : null,
        created_at: iso(createdMs),
        updated_at: iso(Math.min(ANCHOR, createdMs + rnd.int(0, 10) * DAY)),
      };
      campaignColumns ??= columnsOf(row);
      rows.push(valuesOf(row, campaignColumns));
      const categories = categoryRows(rnd.chance(0.7) ? brand.categories.map((x) => x.category) : [brand.categories[0]!.category]);
      for (const cat of categories) categoryRowsOut.push(valuesOf({ organization_id: brand.row.id, campaign_id: id, ...cat }, campaignCategoryColumns));
      campaignIndex.brand[c] = b;
      campaignIndex.kind[c] = kindIndex;
      campaignIndex.createdMs[c] = createdMs;
      campaignIndex.endMs[c] = endMs;
      const statKey = `${kind.type}${kind.offerType ? `/${kind.offerType}` : ''}`;
      campaignStats[statKey] = (campaignStats[statKey] ?? 0) + 1;
      campaignStats[status] = (campaignStats[status] ?? 0) + 1;
    }
    return [
      { table: 'campaigns', columns: campaignColumns!, rows },
      { table: 'campaign_categories', columns: campaignCategoryColumns, rows: categoryRowsOut },
    ];
  });
  {
    const coupons: number[][] = brands.map(() => []);
    const offers: number[][] = brands.map(() => []);
    for (let c = 0; c < C; c++) (campaignIndex.kind[c]! < 2 ? coupons : offers)[campaignIndex.brand[c]!]!.push(c);
    campaignIndex.couponsOf = coupons.map((l) => Int32Array.from(l));
    campaignIndex.offersOf = offers.map((l) => Int32Array.from(l));
  }

  // --- short links ------------------------------------------------------------------------------
  const L = COUNTS.links;
  const linkBrand = new Int32Array(L);
  const linkChannel = new Uint16Array(L);
  const linkMdasc = new Int32Array(L);
  const linkCode = new Array<string>(L);
  const linkCreated = new Float64Array(L);
  const linkAffiliate = new Uint8Array(L);
  // Per channel: the brands it may link to (active, visible to its affiliate, kind accepted).
  const eligible = channels.map((ch) => {
    const affiliate = affiliates[ch.affiliate]!;
    const ids: number[] = [];
    brands.forEach((brand, b) => {
      if (brand.row.active === 1 && visibleTo(affiliate, brand, b) && (brand.allowed === null || brand.allowed.includes(ch.kind))) ids.push(b);
    });
    return { ids: Int32Array.from(ids), picker: new Weighted(ids.map((b) => brands[b]!.weight ** 0.8)) };
  });
  const affiliatePicker = new Weighted(affiliates.map((a) => a.weight));
  const linkTypes: { type: LinkType; weight: number }[] = [
    { type: 'BrandPage', weight: 0.35 },
    { type: 'Home', weight: 0.1 },
    { type: 'Coupon', weight: 0.2 },
    { type: 'Offer', weight: 0.2 },
    { type: 'Custom', weight: 0.15 },
  ];
  const linkTypePicker = new Weighted(linkTypes.map((t) => t.weight));
  const linkRnd = new SeededRandom(seedAt(STREAM.links, 0));
  const codeRnd = new SeededRandom(seedAt(STREAM.codes, 0));
  const codes = new Set<string>();
  const nullMdascKeys = new Set<string>();
  const mdascCounter = new Int32Array(channels.length);
  // The manifest's codes: links drawn at random beforehand, ranked in drawing order.
  const sampleRnd = new SeededRandom(seedAt(STREAM.sample, 0));
  const wanted = Math.min(5_000, Math.floor(L / 2));
  const sampleRank = new Map<number, number>();
  while (sampleRank.size < Math.min(L, Math.ceil(wanted * 1.1))) {
    const i = sampleRnd.int(0, L - 1);
    if (!sampleRank.has(i)) sampleRank.set(i, sampleRank.size);
  }
  const sampled: { rank: number; code: string }[] = [];
  const inactiveCodes: string[] = [];
  const linkStats: Record<string, number> = {};
  let linkColumns: Extract<keyof ShortLinkRow, string>[] | undefined;
  await loadChunks(target, 'short_links', L, CHUNK, (from, to) => {
    const rows: Value[][] = [];
    const rnd = linkRnd;
    for (let i = from; i < to; i++) {
      const a = affiliatePicker.draw(rnd);
      const affiliate = affiliates[a]!;
      const channel = affiliate.channels[rnd.int(0, affiliate.channels.length - 1)]!;
      const pool = eligible[channel.index]!;
      const b = pool.ids[pool.picker.draw(rnd)]!;
      const brand = brands[b]!;
      let type = linkTypes[linkTypePicker.draw(rnd)]!.type;
      let campaign = -1;
      if (type === 'Coupon' || type === 'Offer') {
        const list = (type === 'Coupon' ? campaignIndex.couponsOf : campaignIndex.offersOf)[b]!;
        if (list.length) campaign = list[rnd.int(0, list.length - 1)]!;
        else type = 'BrandPage';
      }
      // A link is created while its campaign is not expired (link-rules blockReason) and after
      // the brand and campaign exist.
      let lo = Math.max(WINDOW_START, brand.createdMs);
      let hi = ANCHOR - 1;
      if (campaign >= 0) {
        lo = Math.max(lo, campaignIndex.createdMs[campaign]!);
        hi = Math.min(hi, campaignIndex.endMs[campaign]!);
      }
      const createdMs = lo + rnd.float() * (hi - lo);
      let target: string;
      switch (type) {
        case 'BrandPage':
          target = brand.row.site;
          break;
        case 'Home':
          target = `${new URL(brand.row.site).origin}/`;
          break;
        case 'Coupon':
        case 'Offer':
          target = `${brand.row.site}/promo/${uuidAt(STREAM.campaignIds, campaign)}`;
          break;
        case 'Custom': {
          const product = start[b]! + rnd.int(0, perBrand[b]! - 1);
          const path = rnd.chance(0.7) ? `products/${brand.row.slug}-${String(product - start[b]! + 1).padStart(6, '0')}` : `c/${slugOf(rnd.pick(brand.categories).category)}`;
          target = checkCustomUrl(`https://${rnd.chance(0.8) ? 'www.' : 'shop.'}${brand.row.slug}.example/${path}${rnd.chance(0.3) ? '?utm_source=affiliate' : ''}`, brand.row);
          break;
        }
      }
      let mdascNo = rnd.chance(0.25) ? -1 : mdascCounter[channel.index]!++;
      let mdasc = mdascNo < 0 ? null : `${MDASC_PREFIX[channel.kind]}-${mdascNo.toString(36)}`;
      let key = requestKey(type, target, mdasc ?? undefined);
      if (mdasc === null) {
        // One link per channel and request: a repeated request without mdasc gets a tag instead.
        const unique = `${channel.index}|${key}`;
        if (nullMdascKeys.has(unique)) {
          mdascNo = mdascCounter[channel.index]!++;
          mdasc = `${MDASC_PREFIX[channel.kind]}-${mdascNo.toString(36)}`;
          key = requestKey(type, target, mdasc);
        } else {
          nullMdascKeys.add(unique);
        }
      }
      let code: string;
      do {
        code = '';
        for (let k = 0; k < CODE_LENGTH; k++) code += BASE62[Math.floor(codeRnd.float() * 62)];
      } while (codes.has(code));
      codes.add(code);
      const active = rnd.chance(0.98);
      const created = iso(createdMs);
      // What insertOrGetLink writes (and setLinkActive, for the deactivated ones).
      const row: ShortLinkRow = {
        id: uuidAt(STREAM.linkIds, i),
        code,
        affiliate_id: affiliate.id,
        channel_id: channel.id,
        organization_id: brand.row.id,
        link_type: type,
        feature_id: campaign >= 0 ? uuidAt(STREAM.campaignIds, campaign) : null,
        request_key: key,
        original_url: withMdasc(target, mdasc ?? undefined),
        mdasc,
        active: active ? 1 : 0,
        click_count: 0,
        created_at: created,
        updated_at: active ? created : iso(createdMs + rnd.float() * (ANCHOR - createdMs)),
      };
      linkColumns ??= columnsOf(row);
      rows.push(valuesOf(row, linkColumns));
      linkBrand[i] = b;
      linkChannel[i] = channel.index;
      linkMdasc[i] = mdascNo;
      linkCode[i] = code;
      linkCreated[i] = createdMs;
      linkAffiliate[i] = a;
      linkStats[type] = (linkStats[type] ?? 0) + 1;
      const rank = sampleRank.get(i);
      if (rank !== undefined && active) sampled.push({ rank, code });
      if (!active && inactiveCodes.length < 20) inactiveCodes.push(code);
    }
    return [{ table: 'short_links', columns: linkColumns!, rows }];
  });
  codes.clear();
  nullMdascKeys.clear();

  // --- orders -----------------------------------------------------------------------------------
  const O = COUNTS.orders;
  const linksOf: Int32Array[] = affiliates.map((_, a) => {
    const list: number[] = [];
    for (let i = 0; i < L; i++) if (linkAffiliate[i] === a) list.push(i);
    return Int32Array.from(list);
  });
  // Orders not attributed to a link (imported, like the demo data's): any visible active brand.
  const unattributed = affiliates.map((affiliate) => {
    const ids: number[] = [];
    brands.forEach((brand, b) => {
      if (brand.row.active === 1 && visibleTo(affiliate, brand, b)) ids.push(b);
    });
    return { ids, picker: new Weighted(ids.map((b) => brands[b]!.weight ** 0.8)) };
  });
  const orderRnd = new SeededRandom(seedAt(STREAM.orders, 0));
  const recentFrom = ANCHOR - 183 * DAY;
  const orderStats: Record<string, number> = {};
  const ordersPerAffiliate = new Array<number>(affiliates.length).fill(0);
  let firstOrder = Number.POSITIVE_INFINITY;
  let lastOrder = 0;
  let orderColumns: Extract<keyof OrderRow, string>[] | undefined;
  await loadChunks(target, 'orders', O, CHUNK, (from, to) => {
    const rows: Value[][] = [];
    const rnd = orderRnd;
    for (let j = from; j < to; j++) {
      const a = affiliatePicker.draw(rnd);
      const affiliate = affiliates[a]!;
      let b: number;
      let link = -1;
      let createdMs: number;
      const own = linksOf[a]!;
      if (own.length && rnd.chance(0.95)) {
        link = own[rnd.int(0, own.length - 1)]!;
        b = linkBrand[link]!;
        // Within the brand's attribution window after the link's creation, never past the anchor.
        const window = brands[b]!.row.attribution_window_days * DAY;
        createdMs = linkCreated[link]! + rnd.float() * rnd.float() * window;
        if (createdMs >= ANCHOR) createdMs = linkCreated[link]! + rnd.float() * (ANCHOR - linkCreated[link]!);
      } else {
        const pool = unattributed[a]!;
        b = pool.ids[pool.picker.draw(rnd)]!;
        createdMs = WINDOW_START + rnd.float() * (ANCHOR - WINDOW_START);
      }
      const brand = brands[b]!;
      const items: OrderItem[] = [];
      for (let k = rnd.int(1, 3); k > 0; k--) {
        const p = productAt(catalogue, start[b]! + rnd.int(0, perBrand[b]! - 1), false);
        const option = p.input.options.find((o) => o.available && o.pricing.length) ?? p.input.options.find((o) => o.pricing.length);
        if (!option) continue;
        items.push({ id: option.id, name: option.name, quantity: rnd.chance(0.7) ? 1 : rnd.int(2, 3), price: option.pricing[0]!.price, categories: p.categoryId });
      }
      const value = items.length ? items.reduce((sum, item) => sum + item.quantity * item.price, 0) : rnd.int(10, 500) * 100;
      // Statuses consistent with each other: recent orders mostly pending, older ones settled,
      // approved commissions older than six months paid.
      const roll = rnd.float();
      const createdAt = iso(createdMs);
      let status = 'approved';
      let commissionStatus = createdMs >= recentFrom ? 'approved' : 'paid';
      let settledDays = rnd.int(7, 45);
      if (roll < 0.15) {
        status = commissionStatus = 'canceled';
        settledDays = rnd.int(2, 20);
      } else if (createdMs >= recentFrom && roll < 0.75) {
        status = commissionStatus = 'pending';
        settledDays = 0;
      }
      const channel = link >= 0 ? channels[linkChannel[link]!]! : undefined;
      const mdascNo = link >= 0 ? linkMdasc[link]! : -1;
      const row: OrderRow = {
        id: uuidAt(STREAM.orderIds, j),
        order_id: `${brand.tag}-${String(j + 1).padStart(8, '0')}`,
        organization_id: brand.row.id,
        affiliate_id: affiliate.id,
        link_id: link >= 0 ? uuidAt(STREAM.linkIds, link) : null,
        click_id: null,
        channel_id: channel?.id ?? null,
        mdasc: channel && mdascNo >= 0 ? `${MDASC_PREFIX[channel.kind]}-${mdascNo.toString(36)}` : null,
        status,
        commission_status: commissionStatus,
        value,
        commission: commissionFor(brand.row, value),
        commission_transfer: brand.row.commission_transfer,
        commission_value: brand.row.commission_value,
        commission_rules_version: 0,
        commission_lines: null,
        currency: brand.row.currency,
        commission_reason: null,
        items: JSON.stringify(items),
        click_created_at: null,
        click_country: null,
        link_code: link >= 0 ? linkCode[link]! : null,
        // Paid before payouts were records: paid, without a payout.
        paid_at: commissionStatus === 'paid' ? iso(Math.min(ANCHOR, createdMs + settledDays * DAY)) : null,
        payout_id: null,
        statement_id: null,
        payable_at: null,
        lock_at: iso(Math.max(ANCHOR, createdMs) + 30 * DAY),
        auto_approved: 0,
        source: 'api',
        attribution: 'click',
        hold_reasons: null,
        hold_facts: null,
        customer_hash: null,
        customer_is_new: null,
        coupon: null,
        coupon_key: null,
        coupon_affiliate_id: null,
        sub1: null,
        sub2: null,
        sub3: null,
        sub4: null,
        sub5: null,
        created_at: createdAt,
        updated_at: iso(Math.min(ANCHOR, createdMs + settledDays * DAY)),
      };
      orderColumns ??= columnsOf(row);
      rows.push(valuesOf(row, orderColumns));
      ordersPerAffiliate[a]!++;
      orderStats[status] = (orderStats[status] ?? 0) + 1;
      orderStats[link >= 0 ? 'attributed' : 'unattributed'] = (orderStats[link >= 0 ? 'attributed' : 'unattributed'] ?? 0) + 1;
      firstOrder = Math.min(firstOrder, createdMs);
      lastOrder = Math.max(lastOrder, createdMs);
    }
    return [{ table: 'orders', columns: orderColumns!, rows }];
  });

  // --- clicks and rollups -------------------------------------------------------------------
  // Time runs forward through the rows (clicks are appended as they come); the link of each click
  // follows Zipf over a fixed shuffle of the links, so popular links are spread over affiliates,
  // brands and channels.
  const K = COUNTS.clicks;
  const clickRnd = new SeededRandom(seedAt(STREAM.clicks, 0));
  const linkZipf = zipf(L, 1.0);
  const stride = findStride(L);
  const clicksFrom = ANCHOR - 90 * DAY;
  const step = (90 * DAY) / K;
  const countryPicker = new Weighted(CLICK_COUNTRIES.map(([, w]) => w));
  const devicePicker = new Weighted(CLICK_DEVICES.map(([, w]) => w));
  const agentPickers = Object.fromEntries(Object.entries(CLICK_AGENTS).map(([device, list]) => [device, new Weighted(list.map(([, , w]) => w))]));
  const refererPicker = new Weighted(CLICK_REFERERS.map(([, w]) => w));
  const clickStats = { counted: 0, bot: 0, head: 0, repeat: 0, suspicious: 0 };
  // Each link's id once, not once per click.
  const linkIds = Array.from({ length: L }, (_, i) => uuidAt(STREAM.linkIds, i));
  let clickColumns: Extract<keyof ClickRow, string>[] | undefined;
  await loadChunks(target, 'clicks', K, CHUNK, (from, to) => {
    const rows: Value[][] = [];
    const rnd = clickRnd;
    for (let k = from; k < to; k++) {
      const link = (linkZipf.draw(rnd) * stride) % L;
      const createdMs = clicksFrom + (k + rnd.float()) * step;
      let device = CLICK_DEVICES[devicePicker.draw(rnd)]![0];
      const roll = rnd.float();
      const flag = roll < 0.03 ? 'bot' : roll < 0.04 ? 'head' : roll < 0.12 ? 'repeat' : roll < 0.13 ? 'suspicious' : 'counted';
      if (flag === 'bot') device = 'other';
      const [browser, os] = CLICK_AGENTS[device]![agentPickers[device]!.draw(rnd)]!;
      const referer = CLICK_REFERERS[refererPicker.draw(rnd)]![0];
      clickStats[flag]++;
      const row: ClickRow = {
        id: `${Math.floor(createdMs).toString(16).padStart(12, '0')}${hex(seedAt(STREAM.clicks, k + 1), 8)}${hex(rnd.int(0, 2 ** 31), 8).slice(0, 4)}`,
        link_id: linkIds[link]!,
        affiliate_id: affiliates[linkAffiliate[link]!]!.id,
        channel_id: channels[linkChannel[link]!]!.id,
        organization_id: brands[linkBrand[link]!]!.row.id,
        mdasc: null,
        created_at: iso(createdMs),
        is_bot: flag === 'bot' ? 1 : 0,
        is_head: flag === 'head' ? 1 : 0,
        is_repeat: flag === 'repeat' ? 1 : 0,
        is_suspicious: flag === 'suspicious' ? 1 : 0,
        is_suspended: 0,
        counted: flag === 'counted' ? 1 : 0,
        visitor_hash: hex(seedAt(STREAM.clicks, K + k), 8),
        user_agent: null,
        country: CLICK_COUNTRIES[countryPicker.draw(rnd)]![0],
        device,
        browser,
        os,
        referer_host: referer === '(blog)' ? `blog-${rnd.int(1, 2000)}.example` : referer,
        asn: null,
        sub_ids: null,
      };
      clickColumns ??= columnsOf(row);
      rows.push(valuesOf(row, clickColumns));
    }
    return [{ table: 'clicks', columns: clickColumns!, rows }];
  });

  // --- manifest material ------------------------------------------------------------------------
  sampled.sort((x, y) => x.rank - y.rank);
  const sortedPrices = Float64Array.from(prices.filter((p) => !Number.isNaN(p))).sort();
  const quantile = (q: number) => sortedPrices[Math.min(sortedPrices.length - 1, Math.floor(q * sortedPrices.length))]!;
  const countBetween = (lo: number, hi: number) => upperBound(sortedPrices, hi) - lowerBound(sortedPrices, lo);
  const priceRange = (lo: number, hi: number) => ({ price: `${lo}:${hi}`, products: countBetween(lo, hi) });
  const median = quantile(0.5);
  const publicOpen = brands.map((brand, b) => ({ brand, b })).filter(({ brand }) => brand.row.is_public === 1 && brand.row.active === 1);
  const categoryCounts = new Map<string, number>();
  for (const brand of brands) for (const c of brand.categories) categoryCounts.set(c.category, (categoryCounts.get(c.category) ?? 0) + 1);

  // Search words: a very frequent one ("free"), a few frequent, some mid-frequency and rare
  // model names. Their counts are measured in the database once loaded (prefix matching).
  const usedModels = [...modelUse.keys()].filter((j) => modelUse[j]! > 0);
  const tail = usedModels.filter((j) => modelUse[j]! >= 2 && modelUse[j]! <= 8 && j > modelPool / 4);
  const rareModels = tail.filter((_, k) => k % Math.max(1, Math.floor(tail.length / 12)) === 0).slice(0, 12);
  const midModels = usedModels.filter((j) => j >= 20 && j < 60).slice(0, 4);
  const wordCandidates = [
    { word: 'free', tier: 'very frequent' },
    { word: modelWord(0), tier: 'frequent' },
    { word: ADJECTIVES[0].toLowerCase(), tier: 'frequent' },
    { word: COLOURS[0].toLowerCase(), tier: 'frequent' },
    { word: 'sneakers', tier: 'frequent' },
    { word: 'coffee', tier: 'frequent' },
    { word: 'headphones', tier: 'frequent' },
    { word: modelWord(2), tier: 'frequent' },
    { word: 'creme', tier: 'accent-folded (matches Crème)' },
    { word: 'cafe', tier: 'accent-folded (matches Café)' },
    ...midModels.map((j) => ({ word: modelWord(j), tier: 'mid' })),
    ...rareModels.map((j) => ({ word: modelWord(j), tier: 'rare' })),
    { word: 'classic sneakers', tier: 'two words' },
    { word: `free ${modelWord(0)}`, tier: 'two words' },
    { word: 'zzqx', tier: 'no match' },
  ];

  return {
    counts: {
      brands: brands.length,
      publicBrands: brands.filter((b) => b.row.is_public === 1).length,
      activeBrands: brands.filter((b) => b.row.active === 1).length,
      brandCategories: brands.reduce((n, b) => n + b.categories.length, 0),
      affiliates: affiliates.length,
      channels: channels.length,
      approvals,
      products: COUNTS.products,
      availableProducts: available,
      productOptions: options,
      campaigns: C,
      shortLinks: L,
      orders: O,
    },
    affiliates: affiliates.map((a, i) => ({
      id: a.id,
      name: a.name,
      channels: a.channels.map((c) => ({ id: c.id, kind: c.kind })),
      approvedPrivateBrands: a.approved.size,
      visibleBrands: brands.filter((brand, b) => visibleTo(a, brand, b)).length,
      links: linksOf[i]!.length,
      orders: ordersPerAffiliate[i]!,
    })),
    linkCodes: sampled.slice(0, wanted).map((s) => s.code),
    inactiveLinkCodes: inactiveCodes,
    bigBrands: publicOpen.slice(0, 20).map(({ brand, b }) => ({ id: brand.row.id, name: brand.row.name, products: perBrand[b]! })),
    privateBrandsApprovedForFirstAffiliate: [...affiliates[0]!.approved]
      .sort((x, y) => x - y)
      .slice(0, 10)
      .map((b) => ({ id: brands[b]!.row.id, name: brands[b]!.row.name, products: perBrand[b]! })),
    categories: [...categoryCounts].sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0])).map(([category, n]) => ({ category, brands: n })),
    prices: {
      unit: 'cents (lowest option price, what ?price=from:to compares)',
      withoutPrice: COUNTS.products - sortedPrices.length,
      min: sortedPrices[0],
      p10: quantile(0.1),
      p25: quantile(0.25),
      p50: median,
      p75: quantile(0.75),
      p90: quantile(0.9),
      p99: quantile(0.99),
      max: sortedPrices[sortedPrices.length - 1],
      ranges: [priceRange(0, 999), priceRange(1000, 5000), priceRange(5000, 20000), priceRange(20000, 100000), priceRange(median, median), priceRange(100000, 10000000)],
    },
    campaigns: { ...campaignStats, statusesAsOf: iso(ANCHOR), statusesStableUntil: STATUSES_STABLE_UNTIL },
    orders: {
      from: iso(firstOrder),
      to: iso(lastOrder),
      ...orderStats,
    },
    clicks: { total: K, from: iso(clicksFrom), to: iso(ANCHOR), ...clickStats },
    products: {
      createdFrom: iso(WINDOW_START),
      createdTo: iso(ANCHOR),
      perBrand: { max: perBrand[0], median: [...perBrand].sort((x, y) => x - y)[Math.floor(perBrand.length / 2)], min: Math.min(...perBrand) },
      links: linkStats,
    },
    wordCandidates,
  };
}

function lowerBound(values: Float64Array, x: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
function upperBound(values: Float64Array, x: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** How many products each search matches, counted the way the service searches (prefix terms). */
async function measureWords(target: Target, candidates: { word: string; tier: string }[]): Promise<{ search: string; tier: string; products: number }[]> {
  const out: { search: string; tier: string; products: number }[] = [];
  for (const { word, tier } of candidates) {
    const terms = searchTerms(word);
    const rows =
      target.dialect === 'sqlite'
        ? await target.all<{ n: number }>('select count(*) as n from products_fts where products_fts match ?', [terms.map((t) => `"${t}"*`).join(' ')])
        : await target.all<{ n: number }>(`select count(*) as n from products where search @@ to_tsquery('simple', $1)`, [terms.map((t) => `${t}:*`).join(' & ')]);
    out.push({ search: word, tier, products: Number(rows[0]!.n) });
  }
  return out;
}

function writeManifest(draft: ManifestDraft, words: { search: string; tier: string; products: number }[], totalSeconds: number, bytes: number): void {
  const { wordCandidates: _candidates, ...rest } = draft;
  const share = (w: { products: number }) => w.products / draft.counts.products!;
  const single = words.filter((w) => !w.search.includes(' ') && w.tier !== 'no match' && !w.tier.startsWith('accent'));
  // The runner takes the first three of each list: spread them over shares (~80 %, ~10 %, ~1 %).
  const closest = (target: number, exclude: string[]) =>
    single.filter((w) => !exclude.includes(w.search) && w.products > 0).sort((x, y) => Math.abs(Math.log(share(x) / target)) - Math.abs(Math.log(share(y) / target)))[0]?.search;
  const frequentWords: string[] = [];
  for (const t of [0.8, 0.08, 0.01]) {
    const w = closest(t, frequentWords);
    if (w) frequentWords.push(w);
  }
  for (const w of single.filter((x) => share(x) >= 0.005).sort((x, y) => y.products - x.products)) if (!frequentWords.includes(w.search)) frequentWords.push(w.search);
  const rareWords = single
    .filter((w) => w.tier === 'rare' && w.products > 0 && w.products <= 20)
    .sort((x, y) => x.products - y.products || x.search.localeCompare(y.search))
    .map((w) => w.search);
  const manifest = {
    version: 1,
    scale: SCALE_LABEL,
    seed: SEED,
    dialect,
    database: shownUrl,
    anchor: iso(ANCHOR),
    affiliateIds: draft.affiliates.map((a) => a.id),
    ...rest,
    frequentWords,
    rareWords,
    searches: words.map((w) => ({ ...w, share: Number(share(w).toFixed(6)) })),
    load: { seconds: Number(totalSeconds.toFixed(1)), bytes, steps: steps.map((s) => ({ ...s, seconds: Number(s.seconds.toFixed(2)) })) },
  };
  mkdirSync(dirname(manifestFile), { recursive: true });
  writeFileSync(manifestFile, `${compactJson(manifest)}\n`);
}

/** Indented JSON, but arrays of plain values and objects of plain values stay on one line. */
function compactJson(value: unknown, indent = ''): string {
  const plain = (v: unknown) => v === null || typeof v !== 'object';
  if (plain(value)) return JSON.stringify(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.every(plain)) return JSON.stringify(value);
    return `[\n${value.map((v) => inner + compactJson(v, inner)).join(',\n')}\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  if (entries.every(([, v]) => plain(v))) return JSON.stringify(value);
  return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${compactJson(v, inner)}`).join(',\n')}\n${indent}}`;
}

try {
  await main();
} catch (error) {
  process.stderr.write(`\nbench:data failed: ${error instanceof Error ? error.message : String(error)}\n`);
  if (error instanceof Error && process.env.DEBUG) process.stderr.write(`${error.stack}\n`);
  process.exitCode = 1;
}
