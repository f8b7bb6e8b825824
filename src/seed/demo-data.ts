// The demo data set as plain values, built without touching the database: a fixed table of
// brands, a seeded PRNG for everything else, and dates pinned to fixed points in time (never
// "now"), so every run and every machine produces exactly the same records.
import type { BrandInput } from '../schemas/brand.js';
import type { CampaignInput, CampaignType } from '../schemas/campaign.js';
import type { OrderItem } from '../schemas/order.js';
import type { CompleteProduct, ProductOption } from '../schemas/product.js';
import type { NewOrderRow } from '../storage/tables.js';

/** A demo order as the data set holds it: everything but its lock date. */
export type DemoOrder = Omit<NewOrderRow, 'lock_at'>;
import { percentToBasisPoints } from '../domain/catalog/catalog-writer.js';
import { commissionFor } from '../domain/orders/commission.js';
import { SeededRandom } from './seeded-random.js';
import { slugOf, tagOf } from './names.js';

// ---------------------------------------------------------------------------------------------
// Deterministic randomness



// Each resource kind draws from its own stream, so adding a brand or tweaking the products
// does not reshuffle the campaigns and orders.
const SEEDS = { brands: 0x0b5a11d5, products: 0x0c0ffee0, campaigns: 0x0ca3b417, orders: 0x00d3e25 } as const;

// ---------------------------------------------------------------------------------------------
// Fixed points in time

const DAY = 86_400_000;
const at = (isoDate: string, plusDays = 0, plusMinutes = 0): string =>
  new Date(Date.parse(`${isoDate}T00:00:00.000Z`) + plusDays * DAY + plusMinutes * 60_000).toISOString();

/**
 * Campaign periods are chosen so that derived statuses only change after this date: expired
 * campaigns ended in 2024, running ones started in 2025 and end in the second half of 2035,
 * scheduled ones start in 2036.
 */
export const DEMO_STATUSES_STABLE_UNTIL = '2035-07-01T00:00:00.000Z';

// ---------------------------------------------------------------------------------------------
// Catalogue vocabulary

interface ProductLine {
  /** Product nouns; their position gives the numeric category id used in order items. */
  nouns: readonly string[];
  /** Option (variant) labels; 1 to 3 consecutive ones per product. */
  variants: readonly string[];
  /** Price range of the first option, in cents. */
  price: readonly [number, number];
  /** Price increase per further option, as a fraction of the first (0 for sizes and colours). */
  variantStep: number;
  blurb: string;
}

const LINES = {
  footwear: {
    nouns: ['Running Sneakers', 'Trail Sneakers', 'Canvas Sneakers', 'Leather Boots', 'Hiking Boots', 'Slip-on Loafers', 'Sport Sandals'],
    variants: ['Size 38', 'Size 39', 'Size 40', 'Size 41', 'Size 42', 'Size 43', 'Size 44'],
    price: [4_900, 24_900],
    variantStep: 0,
    blurb: 'Cushioned sole, breathable upper and a fit made for all-day comfort.',
  },
  apparel: {
    nouns: ['Cotton T-Shirt', 'Denim Jacket', 'Fleece Hoodie', 'Chino Trousers', 'Linen Shirt', 'Rain Jacket', 'Wool Sweater'],
    variants: ['Size S', 'Size M', 'Size L', 'Size XL'],
    price: [1_900, 18_900],
    variantStep: 0,
    blurb: 'Soft fabrics, easy care and a relaxed everyday fit.',
  },
  audio: {
    nouns: ['Wireless Headphones', 'Noise-Cancelling Headphones', 'Studio Headphones', 'True Wireless Earbuds', 'Bluetooth Speaker', 'Soundbar'],
    variants: ['Black', 'White', 'Midnight Blue'],
    price: [2_900, 39_900],
    variantStep: 0,
    blurb: 'Rich bass, clear highs and long battery life for music on the go.',
  },
  electronics: {
    nouns: ['Smartwatch', 'USB-C Hub', 'Laptop Stand', '4K Monitor', 'Mechanical Keyboard', 'Wireless Mouse', 'Portable Charger'],
    variants: ['Standard', 'Plus', 'Max'],
    price: [1_900, 59_900],
    variantStep: 0.25,
    blurb: 'Reliable hardware with a two-year warranty and free firmware updates.',
  },
  coffee: {
    nouns: ['Espresso Coffee Beans', 'Ground Coffee', 'Cold Brew Coffee', 'Decaf Coffee Beans', 'Single Origin Coffee', 'Coffee Grinder', 'French Press'],
    variants: ['250 g', '500 g', '1 kg'],
    price: [1_290, 4_990],
    variantStep: 0.8,
    blurb: 'Freshly roasted coffee, packed within 48 hours of roasting.',
  },
  home: {
    nouns: ['Ceramic Mug', 'Throw Pillow', 'Scented Candle', 'Bath Towel Set', 'Table Lamp', 'Cast Iron Skillet', 'Wool Blanket'],
    variants: ['Sand', 'Charcoal', 'Sage'],
    price: [990, 14_900],
    variantStep: 0,
    blurb: 'Thoughtfully designed pieces that make a house feel like home.',
  },
  beauty: {
    nouns: ['Vitamin C Face Serum', 'Moisturizing Cream', 'Repair Shampoo', 'Tinted Lip Balm', 'Sunscreen SPF 50', 'Eau de Parfum'],
    variants: ['30 ml', '50 ml', '100 ml'],
    price: [1_490, 12_900],
    variantStep: 0.6,
    blurb: 'Dermatologically tested, cruelty-free skincare and beauty essentials.',
  },
  sports: {
    nouns: ['Yoga Mat', 'Adjustable Dumbbell Set', 'Cycling Helmet', 'Running Shorts', 'Insulated Water Bottle', 'Tennis Racket', 'Resistance Bands'],
    variants: ['Standard', 'Pro'],
    price: [1_500, 29_900],
    variantStep: 0.35,
    blurb: 'Gear tested by athletes for training, racing and recovery.',
  },
  books: {
    nouns: ['Cookbook', 'Mystery Novel', 'Travel Guide', 'Picture Book', 'Science Fiction Novel', 'Biography'],
    variants: ['Paperback', 'Hardcover', 'E-book'],
    price: [990, 4_990],
    variantStep: 0.3,
    blurb: 'Bestselling titles, shipped the same day from our own warehouse.',
  },
  toys: {
    nouns: ['Building Blocks Set', '1000-Piece Puzzle', 'Plush Teddy Bear', 'Family Board Game', 'Remote Control Car', 'Wooden Train Set'],
    variants: ['Ages 3+', 'Ages 6+', 'Ages 8+'],
    price: [1_290, 14_900],
    variantStep: 0.2,
    blurb: 'Safety-tested toys that spark imagination and hours of play.',
  },
  pets: {
    nouns: ['Grain-Free Dog Food', 'Clumping Cat Litter', 'Reflective Dog Leash', 'Cat Scratching Post', 'Orthopedic Pet Bed', 'Dental Dog Treats'],
    variants: ['Small', 'Medium', 'Large'],
    price: [990, 19_900],
    variantStep: 0.4,
    blurb: 'Vet-approved food and accessories for happy, healthy pets.',
  },
  garden: {
    nouns: ['Expandable Garden Hose', 'Pruning Shears', 'Terracotta Plant Pot', 'Herb Seed Kit', 'Solar Garden Lights', 'Raised Garden Bed'],
    variants: ['Small', 'Medium', 'Large'],
    price: [990, 24_900],
    variantStep: 0.5,
    blurb: 'Durable tools and planters for balconies, patios and backyards.',
  },
  gaming: {
    nouns: ['Gaming Headset', 'Gaming Mouse', 'Wireless Controller', 'Ergonomic Gaming Chair', 'RGB Mouse Pad', 'Capture Card'],
    variants: ['Black', 'White', 'Red Edition'],
    price: [1_990, 49_900],
    variantStep: 0.1,
    blurb: 'Low-latency gear built for competitive play and long sessions.',
  },
  jewelry: {
    nouns: ['Silver Necklace', 'Gold Hoop Earrings', 'Leather Strap Watch', 'Charm Bracelet', 'Signet Ring'],
    variants: ['Sterling Silver', '18k Gold Plated', 'Rose Gold'],
    price: [2_900, 34_900],
    variantStep: 0.3,
    blurb: 'Hand-finished jewelry with a lifetime polishing service.',
  },
  travel: {
    nouns: ['Carry-on Suitcase', 'Travel Backpack', 'Memory Foam Neck Pillow', 'Packing Cubes', 'Weekender Duffel Bag'],
    variants: ['Graphite', 'Navy', 'Olive'],
    price: [1_490, 39_900],
    variantStep: 0,
    blurb: 'Lightweight luggage and accessories for every kind of trip.',
  },
  grocery: {
    nouns: ['Extra Virgin Olive Oil', 'Dark Chocolate Bar', 'Artisan Pasta', 'Honey Granola', 'Wildflower Honey', 'Green Tea'],
    variants: ['Single', 'Pack of 3', 'Pack of 6'],
    price: [390, 2_990],
    variantStep: 1.8,
    blurb: 'Small-batch pantry staples sourced directly from producers.',
  },
} as const satisfies Record<string, ProductLine>;

type LineKey = keyof typeof LINES;
const LINE_KEYS = Object.keys(LINES) as LineKey[];

const ADJECTIVES = ['Classic', 'Urban', 'Eco', 'Premium', 'Everyday', 'Pro', 'Essential', 'Signature', 'Vintage', 'Compact'] as const;

// ---------------------------------------------------------------------------------------------
// Brands

type Trait = 'private' | 'exclusive' | 'highlight' | 'favorite' | 'inactive';

interface BrandSpec {
  name: string;
  segment: string;
  categories: string[];
  line: LineKey;
  commission: BrandInput['commission'];
  traits?: Trait[];
  allowedChannels?: string[];
}

const cps = (percent: number): BrandInput['commission'] => ({ transfer: 'cps', value: percent });
const cpa = (cents: number): BrandInput['commission'] => ({ transfer: 'cpa', value: cents });

// A quarter of the brands are private; two are inactive; a few accept only some channel kinds.
const BRAND_SPECS: readonly BrandSpec[] = [
  { name: 'Stride Athletics', segment: 'Footwear', categories: ['Shoes', 'Sports'], line: 'footwear', commission: cps(8), traits: ['exclusive', 'highlight'] },
  { name: 'Northwind Outfitters', segment: 'Fashion', categories: ['Fashion', 'Outdoor'], line: 'apparel', commission: cps(10) },
  { name: 'Soundwave Audio', segment: 'Electronics', categories: ['Electronics', 'Audio'], line: 'audio', commission: cps(6.5), traits: ['highlight', 'favorite'] },
  { name: 'Bean & Barrel Coffee', segment: 'Food & Drink', categories: ['Coffee', 'Grocery'], line: 'coffee', commission: cpa(1_200), traits: ['favorite'] },
  { name: 'Lumen Home', segment: 'Home & Living', categories: ['Home', 'Decor'], line: 'home', commission: cps(9.25) },
  { name: 'Glow Lab Beauty', segment: 'Beauty', categories: ['Beauty', 'Skincare'], line: 'beauty', commission: cps(15), traits: ['private'] },
  { name: 'Peak Performance Gear', segment: 'Sports', categories: ['Sports', 'Fitness'], line: 'sports', commission: cps(7) },
  { name: 'Pixel Forge', segment: 'Electronics', categories: ['Electronics', 'Computers'], line: 'electronics', commission: cps(4.5), traits: ['private', 'exclusive'] },
  { name: 'Paper Lantern Books', segment: 'Books', categories: ['Books'], line: 'books', commission: cps(5) },
  { name: 'Tiny Giants Toys', segment: 'Toys & Kids', categories: ['Toys', 'Kids'], line: 'toys', commission: cps(8.75) },
  { name: 'Happy Paws', segment: 'Pets', categories: ['Pets'], line: 'pets', commission: cpa(800), traits: ['private', 'favorite'] },
  { name: 'Evergreen Garden Co', segment: 'Home & Garden', categories: ['Garden', 'Outdoor'], line: 'garden', commission: cps(6) },
  { name: 'Respawn Gaming', segment: 'Gaming', categories: ['Gaming', 'Electronics'], line: 'gaming', commission: cps(5.5), traits: ['highlight'], allowedChannels: ['site', 'youtube', 'instagram'] },
  { name: 'Aurora Jewelry', segment: 'Jewelry', categories: ['Jewelry', 'Accessories'], line: 'jewelry', commission: cps(12.5), traits: ['private'] },
  { name: 'Wanderlust Travel Goods', segment: 'Travel', categories: ['Travel', 'Bags'], line: 'travel', commission: cps(7.5), traits: ['inactive'] },
  { name: 'Olive & Thyme Pantry', segment: 'Food & Drink', categories: ['Grocery', 'Gourmet'], line: 'grocery', commission: cpa(600), allowedChannels: ['site', 'email'] },
  { name: 'Urban Sole', segment: 'Footwear', categories: ['Shoes', 'Fashion'], line: 'footwear', commission: cps(9), traits: ['exclusive'] },
  { name: 'BrewMaster Roasters', segment: 'Food & Drink', categories: ['Coffee'], line: 'coffee', commission: cps(10.5), traits: ['highlight'] },
  { name: 'Echo Beats', segment: 'Electronics', categories: ['Audio', 'Electronics'], line: 'audio', commission: cpa(2_500), traits: ['private'] },
  { name: 'Cozy Nest', segment: 'Home & Living', categories: ['Home', 'Textiles'], line: 'home', commission: cps(8), allowedChannels: ['site', 'instagram', 'email'] },
  { name: 'Velvet Skin Co', segment: 'Beauty', categories: ['Beauty', 'Skincare'], line: 'beauty', commission: cps(14), traits: ['highlight'] },
  { name: 'Summit Trail', segment: 'Sports', categories: ['Outdoor', 'Sports'], line: 'sports', commission: cps(6.75) },
  { name: 'Byte Bazaar', segment: 'Electronics', categories: ['Electronics'], line: 'electronics', commission: cpa(1_500), traits: ['favorite'] },
  { name: 'Little Explorers', segment: 'Toys & Kids', categories: ['Toys', 'Kids'], line: 'toys', commission: cps(9.5), traits: ['private'] },
  { name: 'Whisker & Tail', segment: 'Pets', categories: ['Pets'], line: 'pets', commission: cps(7.25) },
  { name: 'Bloom Botanics', segment: 'Home & Garden', categories: ['Garden'], line: 'garden', commission: cps(8), traits: ['private', 'inactive'] },
  { name: 'Quest Arcade', segment: 'Gaming', categories: ['Gaming'], line: 'gaming', commission: cps(4), traits: ['exclusive', 'favorite'] },
  { name: 'Silver Thread', segment: 'Jewelry', categories: ['Jewelry', 'Fashion'], line: 'jewelry', commission: cps(11) },
  { name: 'Globe Trotter Luggage', segment: 'Travel', categories: ['Travel', 'Bags'], line: 'travel', commission: cpa(3_000), traits: ['private', 'exclusive'] },
  { name: 'Harvest Table', segment: 'Food & Drink', categories: ['Grocery', 'Organic'], line: 'grocery', commission: cps(6.5), traits: ['highlight'] },
  { name: 'Kickflip Supply', segment: 'Footwear', categories: ['Shoes', 'Skate'], line: 'footwear', commission: cps(9.75), allowedChannels: ['site', 'instagram', 'youtube'] },
  { name: 'Studio Monitor Co', segment: 'Electronics', categories: ['Audio'], line: 'audio', commission: cps(7.75), traits: ['private'] },
];

/** Brand UUIDs are a formatted counter: d0000000-0000-4000-8000-000000000001 is the first brand. */
export const demoBrandId = (n: number): string => `d0000000-0000-4000-8000-${String(n).padStart(12, '0')}`;



// ---------------------------------------------------------------------------------------------
// Affiliates

export interface DemoChannel {
  id: string;
  kind: string;
  name: string;
}

export interface DemoAffiliate {
  id: string;
  name: string;
  channels: DemoChannel[];
  /** Private brands the affiliate is approved for. */
  approvedBrandIds: string[];
}

// Private brands each affiliate is approved for (disjoint on purpose); Globe Trotter Luggage and
// Bloom Botanics are approved for nobody, so "approval required" can be seen too.
const APPROVALS: Record<string, string[]> = {
  'aff-demo-1': ['Pixel Forge', 'Echo Beats', 'Glow Lab Beauty'],
  'aff-demo-2': ['Happy Paws', 'Little Explorers', 'Aurora Jewelry', 'Studio Monitor Co'],
};

const AFFILIATES: readonly Omit<DemoAffiliate, 'approvedBrandIds'>[] = [
  {
    id: 'aff-demo-1',
    name: 'Deal Hunter Media',
    channels: [
      { id: 'ch-demo-1-site', kind: 'site', name: 'dealhunter.example blog' },
      { id: 'ch-demo-1-instagram', kind: 'instagram', name: '@dealhunter' },
      { id: 'ch-demo-1-youtube', kind: 'youtube', name: 'Deal Hunter Reviews' },
      { id: 'ch-demo-1-email', kind: 'email', name: 'Weekly deals newsletter' },
    ],
  },
  {
    id: 'aff-demo-2',
    name: 'Smart Shopper Club',
    channels: [
      { id: 'ch-demo-2-site', kind: 'site', name: 'smartshopper.example' },
      { id: 'ch-demo-2-whatsapp', kind: 'whatsapp', name: 'Smart Shopper deals group' },
      { id: 'ch-demo-2-instagram', kind: 'instagram', name: '@smartshopperclub' },
      { id: 'ch-demo-2-email', kind: 'email', name: 'Smart Shopper digest' },
    ],
  },
];

/** The mdasc tag an affiliate would put on links of each channel kind. */
const MDASC_PREFIX: Record<string, string> = { site: 'blog-top10', instagram: 'ig-story', youtube: 'yt-review', email: 'newsletter', whatsapp: 'wa-group' };

// ---------------------------------------------------------------------------------------------
// The data set

export interface DemoData {
  brands: BrandInput[];
  products: CompleteProduct[];
  campaigns: CampaignInput[];
  affiliates: DemoAffiliate[];
  /** Their lock dates are set when they are written (see seedDemo): the data set is the same on every call. */
  orders: DemoOrder[];
}

const PRODUCTS_PER_BRAND = 17;
const CAMPAIGN_COUNT = 45;
const ORDERS_PER_AFFILIATE = 36;
const ORDERS_START = '2025-01-01';
const ORDERS_DAYS = 668; // up to 2026-10-31
const ORDERS_END = '2026-10-31T23:59:59.999Z';
/** Approved commissions of orders created before this are paid when the demo is seeded. */
export const PAID_BEFORE = '2026-05-01';

/** The monthly payment runs of the demo: the first of each month after the first order, up to PAID_BEFORE. */
export function paymentRuns(): string[] {
  const runs: string[] = [];
  for (let month = Date.UTC(2025, 1, 1); new Date(month).toISOString().slice(0, 10) <= PAID_BEFORE; ) {
    runs.push(new Date(month).toISOString());
    const next = new Date(month);
    next.setUTCMonth(next.getUTCMonth() + 1);
    month = next.getTime();
  }
  return runs;
}

/** A product with what order items need and a product input does not carry. */
interface BuiltProduct {
  input: CompleteProduct;
  /** Numeric category id of the product in its brand's catalogue. */
  categoryId: number;
}

function buildBrands(): BrandInput[] {
  const rnd = new SeededRandom(SEEDS.brands);
  const rating = () => Math.round((2.5 + rnd.float() * 2.5) * 10) / 10;
  return BRAND_SPECS.map((spec, i) => {
    const slug = slugOf(spec.name);
    const traits = new Set(spec.traits ?? []);
    return {
      id: demoBrandId(i + 1),
      name: spec.name,
      slug,
      logo: `https://www.${slug}.example/logo.png`,
      site: `https://www.${slug}.example`,
      segment: spec.segment,
      network: {
        active: !traits.has('inactive'),
        isPublic: !traits.has('private'),
        trait: { isExclusive: traits.has('exclusive'), isHighlight: traits.has('highlight'), isFavorite: traits.has('favorite') },
        rating: { approval: rating(), commission: rating(), conversion: rating(), popularity: rating(), validation: rating() },
      },
      // Spread over 2024 and the first half of 2025, so the creation-date filter has something to cut.
      createdAt: at('2024-01-08', i * 16, rnd.int(8 * 60, 18 * 60)),
      commission: spec.commission,
      categories: spec.categories,
      ...(spec.allowedChannels ? { allowedChannels: spec.allowedChannels } : {}),
    };
  });
}

/** Prices that look like prices: 4,999 rather than 5,013. */
const price99 = (cents: number): number => Math.max(99, Math.round(cents / 100) * 100 - 1);

/** A valid EAN-13 in the in-store range 200…, from a serial number. */
function ean13(serial: number): string {
  const body = `200${String(serial).padStart(9, '0')}`;
  const sum = [...body].reduce((acc, d, i) => acc + Number(d) * (i % 2 === 0 ? 1 : 3), 0);
  return body + String((10 - (sum % 10)) % 10);
}

function buildProducts(brands: BrandInput[]): BuiltProduct[] {
  const rnd = new SeededRandom(SEEDS.products);
  const out: BuiltProduct[] = [];
  brands.forEach((brand, b) => {
    const spec = BRAND_SPECS[b]!;
    const line: ProductLine = LINES[spec.line];
    const lineIndex = LINE_KEYS.indexOf(spec.line);
    for (let n = 1; n <= PRODUCTS_PER_BRAND; n++) {
      const id = `${brand.slug}-${String(n).padStart(3, '0')}`;
      const nounIndex = rnd.int(0, line.nouns.length - 1);
      const noun = line.nouns[nounIndex]!;
      const name = `${rnd.pick(ADJECTIVES)} ${noun}`;
      const available = rnd.chance(0.85);
      const optionCount = Math.min(rnd.int(1, 3), line.variants.length);
      const firstVariant = rnd.int(0, line.variants.length - optionCount);
      const basePrice = rnd.int(line.price[0], line.price[1]);
      const discounted = rnd.chance(0.3);
      const options: ProductOption[] = [];
      for (let k = 0; k < optionCount; k++) {
        const variant = line.variants[firstVariant + k]!;
        const price = price99(basePrice * (1 + line.variantStep * k));
        // An available product keeps its first option in stock; the others may have sold out.
        const optionAvailable = available && (k === 0 || rnd.chance(0.8));
        options.push({
          id: `${id}-${k + 1}`,
          ean: ean13(out.length * 10 + k + 1),
          name: `${name} ${variant}`,
          available: optionAvailable,
          seller: brand.slug,
          images: [{ url: `https://www.${brand.slug}.example/images/${id}-${k + 1}.jpg` }],
          categories: [...(brand.categories ?? []), noun],
          brands: [brand.name],
          pricing: [{ listPrice: discounted ? price99(price * (1.15 + rnd.float() * 0.3)) : price, price, metadata: [] }],
          stocks: [{ value: optionAvailable ? rnd.int(1, 250) : 0, metadata: [] }],
          metadata: [{ key: 'variant', value: variant }],
        });
      }
      const createdAt = at('2025-01-01', rnd.int(0, 360), rnd.int(0, 24 * 60 - 1));
      out.push({
        categoryId: (lineIndex + 1) * 100 + nounIndex + 1,
        input: {
          organizationId: brand.id,
          id,
          available,
          createdAt,
          updatedAt: new Date(Date.parse(createdAt) + rnd.int(0, 20 * 24 * 60) * 60_000).toISOString(),
          name,
          description: `<p>${name} by ${brand.name}.</p><p>${line.blurb}</p><ul><li>Category: ${noun.toLowerCase()}</li><li>Free returns within 30 days</li></ul>`,
          url: `https://www.${brand.slug}.example/products/${id}`,
          images: [{ url: `https://www.${brand.slug}.example/images/${id}.jpg` }],
          options,
          metadata: [{ key: 'line', value: spec.line }],
        },
      });
    }
  });
  return out;
}

const CAMPAIGN_KINDS: readonly { type: CampaignType; offerType: 'Url' | 'Spreadsheet' | null }[] = [
  { type: 'GenericCoupon', offerType: null },
  { type: 'PersonalCoupon', offerType: null },
  { type: 'Offer', offerType: 'Url' },
  { type: 'Offer', offerType: 'Spreadsheet' },
];
// Kinds cycle every campaign and statuses every four, so the first twenty campaigns already hold
// every kind × status pair; most campaigns are running, as in a real network.
const STATUS_CYCLE = ['onTime', 'expired', 'onTime', 'scheduled', 'onTime'] as const;
const THEMES = ['Summer Sale', 'Black Friday', 'Back to School', 'Welcome Offer', 'Free Shipping Week', 'Spring Collection', 'Holiday Gifts', 'Flash Sale', 'Loyalty Bonus', 'New Arrivals'] as const;

function periodFor(status: (typeof STATUS_CYCLE)[number], rnd: SeededRandom): { startAt: string; endAt: string; createdAt: string } {
  switch (status) {
    case 'expired': {
      const start = rnd.int(0, 240);
      return { startAt: at('2024-01-01', start), endAt: at('2024-01-01', start + rnd.int(14, 90)), createdAt: at('2024-01-01', start - rnd.int(3, 20)) };
    }
    case 'onTime': {
      const start = rnd.int(0, 300);
      return {
        startAt: at('2025-01-01', start),
        endAt: new Date(Date.parse(at('2035-07-01', rnd.int(1, 183))) - 1).toISOString(),
        createdAt: at('2025-01-01', start - rnd.int(3, 20)),
      };
    }
    case 'scheduled': {
      const start = rnd.int(0, 180);
      return { startAt: at('2036-01-01', start), endAt: at('2036-01-01', start + rnd.int(14, 90)), createdAt: at('2025-06-01', rnd.int(0, 180)) };
    }
  }
}

function buildCampaigns(brands: BrandInput[]): CampaignInput[] {
  const rnd = new SeededRandom(SEEDS.campaigns);
  const out: CampaignInput[] = [];
  for (let c = 0; c < CAMPAIGN_COUNT; c++) {
    const id = `demo-cmp-${String(c + 1).padStart(3, '0')}`;
    const kind = CAMPAIGN_KINDS[c % CAMPAIGN_KINDS.length]!;
    const status = STATUS_CYCLE[Math.floor(c / CAMPAIGN_KINDS.length) % STATUS_CYCLE.length]!;
    const brand = brands[(c * 7) % brands.length]!; // 7 is coprime with the brand count: campaigns spread over brands
    const spec = BRAND_SPECS[(c * 7) % brands.length]!;
    const theme = rnd.pick(THEMES);
    const percent = rnd.pick([5, 10, 15, 20, 25, 30]);
    const subject = rnd.pick(LINES[spec.line].nouns).toLowerCase();
    const { startAt, endAt, createdAt } = periodFor(status, rnd);
    const isOffer = kind.type === 'Offer';
    const code =
      kind.type === 'GenericCoupon'
        ? `${theme.replace(/[^A-Za-z]/g, '').toUpperCase()}${percent}`
        : kind.type === 'PersonalCoupon'
          ? `${tagOf(brand.slug)}${percent}-${id.slice(-3)}`
          : null;
    out.push({
      id,
      name: isOffer ? `${theme}: up to ${percent + 10}% off ${subject}` : `${theme}: ${percent}% off ${subject}`,
      period: { startAt, endAt },
      type: kind.type,
      offerType: kind.offerType,
      categories: brand.categories ?? [],
      description: isOffer
        ? `${brand.name} ${theme.toLowerCase()}: selected ${subject} at up to ${percent + 10}% off while stocks last.`
        : `Use code ${code} at ${brand.name} checkout for ${percent}% off ${subject}. One use per customer.`,
      code,
      url: `https://www.${brand.slug}.example/promo/${id}`,
      organizationId: brand.id,
      isHighlight: rnd.chance(0.25),
      createdAt,
      mediaKit: {
        banners: [`https://www.${brand.slug}.example/banners/${id}-728x90.png`, `https://www.${brand.slug}.example/banners/${id}-300x250.png`],
        emailMarketing: isOffer && rnd.chance(0.5) ? `<h1>${brand.name}: ${theme}</h1><p>Up to ${percent + 10}% off ${subject}.</p>` : null,
      },
    });
  }
  return out;
}

function buildAffiliates(brands: BrandInput[]): DemoAffiliate[] {
  const idByName = new Map(brands.map((b) => [b.name, b.id]));
  return AFFILIATES.map((a) => ({
    ...a,
    channels: a.channels.map((ch) => ({ ...ch })),
    approvedBrandIds: (APPROVALS[a.id] ?? []).map((name) => {
      const id = idByName.get(name);
      if (!id) throw new Error(`demo data: approval names an unknown brand "${name}"`);
      return id;
    }),
  }));
}

/**
 * Order status and commission status together, consistent with each other: orders of the last six
 * months of the data set are mostly still pending, older ones are settled. Approved commissions
 * of orders before PAID_BEFORE are paid when the demo is seeded, in monthly payment runs (see
 * seedDemo), so each paid order belongs to a payout.
 */
function statusesFor(createdAt: string, rnd: SeededRandom): { status: string; commissionStatus: string; settledAfterDays: number } {
  const roll = rnd.float();
  if (roll < 0.15) return { status: 'canceled', commissionStatus: 'canceled', settledAfterDays: rnd.int(2, 20) };
  const recent = createdAt >= PAID_BEFORE;
  if (recent && roll < 0.75) return { status: 'pending', commissionStatus: 'pending', settledAfterDays: 0 };
  return { status: 'approved', commissionStatus: 'approved', settledAfterDays: rnd.int(7, 45) };
}

function buildOrders(brands: BrandInput[], products: BuiltProduct[], affiliates: DemoAffiliate[]): DemoOrder[] {
  const rnd = new SeededRandom(SEEDS.orders);
  const productsByBrand = new Map<string, BuiltProduct[]>();
  for (const p of products) productsByBrand.set(p.input.organizationId, [...(productsByBrand.get(p.input.organizationId) ?? []), p]);
  const out: DemoOrder[] = [];
  affiliates.forEach((affiliate, a) => {
    const affNo = a + 1;
    // Only brands the affiliate can see (public or approved) and that accept links at all.
    const candidates = brands.filter((b) => b.network.active && (b.network.isPublic || affiliate.approvedBrandIds.includes(b.id)));
    // Round-robin over a shuffled list: every candidate brand, approved private ones included, gets orders.
    const brandCycle = rnd.shuffled(candidates);
    // Dates over 2025-01-01 … 2026-10-31, sorted so that order numbers grow with time.
    const dates = Array.from({ length: ORDERS_PER_AFFILIATE }, () => at(ORDERS_START, rnd.int(0, ORDERS_DAYS), rnd.int(6 * 60, 23 * 60))).sort();
    dates.forEach((createdAt, k) => {
      const n = k + 1;
      const brand = brandCycle[k % brandCycle.length]!;
      const allowed = brand.allowedChannels ?? null;
      const channel = rnd.pick(affiliate.channels.filter((ch) => allowed === null || allowed.includes(ch.kind)));
      const items: OrderItem[] = rnd
        .shuffled(productsByBrand.get(brand.id) ?? [])
        .slice(0, rnd.int(1, 3))
        .map((p) => {
          const option = p.input.options.find((o) => o.available) ?? p.input.options[0]!;
          return { id: option.id, name: option.name, quantity: rnd.chance(0.7) ? 1 : rnd.int(2, 3), price: option.pricing[0]!.price, categories: p.categoryId };
        });
      const value = items.reduce((sum, item) => sum + item.quantity * item.price, 0);
      const { status, commissionStatus, settledAfterDays } = statusesFor(createdAt, rnd);
      // Settled some days later, but never past the end of the data set (no dates in the future).
      const settledAt = new Date(Date.parse(createdAt) + settledAfterDays * DAY).toISOString();
      const commissionRule = {
        commission_transfer: brand.commission.transfer,
        // The same conversion the catalogue writer applies when it stores the brand.
        commission_value: brand.commission.transfer === 'cps' ? percentToBasisPoints(brand.commission.value) : brand.commission.value,
      };
      out.push({
        id: `ord-demo-${affNo}-${String(n).padStart(3, '0')}`,
        order_id: `${tagOf(brand.slug)}-${affNo}${String(n).padStart(4, '0')}`,
        organization_id: brand.id,
        affiliate_id: affiliate.id,
        link_id: null,
        click_id: null,
        channel_id: channel?.id ?? null,
        mdasc: channel && rnd.chance(0.35) ? `${MDASC_PREFIX[channel.kind] ?? channel.kind}-${createdAt.slice(0, 7)}` : null,
        status,
        commission_status: commissionStatus,
        value,
        commission: commissionFor(commissionRule, value),
        ...commissionRule,
        currency: 'BRL',
        items: JSON.stringify(items),
        created_at: createdAt,
        updated_at: settledAt < ORDERS_END ? settledAt : ORDERS_END,
      });
    });
  });
  return out;
}

/** The whole demo data set; a pure function of the code, identical on every call. */
export function buildDemoData(): DemoData {
  const brands = buildBrands();
  const products = buildProducts(brands);
  const campaigns = buildCampaigns(brands);
  const affiliates = buildAffiliates(brands);
  const orders = buildOrders(brands, products, affiliates);
  return { brands, products: products.map((p) => p.input), campaigns, affiliates, orders };
}
