// A small, fully known world for API tests: two affiliates with channels, public and private
// brands, products, campaigns in every status, and orders.
import type { Database } from '../../src/storage/database.js';
import type { NewKey } from '../../src/domain/access/access-service.js';
import type { BrandInput } from '../../src/schemas/brand.js';
import type { ProductInput } from '../../src/schemas/product.js';
import type { CampaignInput } from '../../src/schemas/campaign.js';
import type { NewOrderRow } from '../../src/storage/tables.js';
import { servicesFor } from './databases.js';
import { OrdersRepository } from '../../src/storage/repositories/orders.js';
import { approvalEntry } from '../../src/domain/ledger/entries.js';

export const BRANDS = {
  acme: '11111111-1111-4111-8111-111111111111', // public, highlighted, categories Fashion/Shoes
  globex: '22222222-2222-4222-8222-222222222222', // private, aff-1 approved
  initech: '33333333-3333-4333-8333-333333333333', // private, aff-2 approved
  umbrella: '44444444-4444-4444-8444-444444444444', // public, accepts only site channels, cpa
  hooli: '55555555-5555-4555-8555-555555555555', // public, inactive
  unknown: '99999999-9999-4999-8999-999999999999', // does not exist
} as const;

const DAY = 86_400_000;
export const iso = (offsetDays: number) => new Date(Date.now() + offsetDays * DAY).toISOString();

export function brandInput(overrides: Partial<BrandInput> & Pick<BrandInput, 'id' | 'name' | 'slug' | 'site'>): BrandInput {
  return {
    logo: `https://cdn.example.com/${overrides.slug}.png`,
    segment: 'Retail',
    network: {
      active: true,
      isPublic: true,
      trait: { isExclusive: false, isHighlight: false, isFavorite: false },
      rating: { approval: 4.5, commission: 3.2, conversion: 2.75, popularity: 5, validation: 4 },
    },
    commission: { value: 7.5, transfer: 'cps' },
    categories: [],
    ...overrides,
  };
}

export function productInput(id: string, organizationId: string, name: string, price: number, extra: Partial<ProductInput> = {}): ProductInput {
  return {
    organizationId,
    id,
    available: true,
    name,
    description: `<p>${name} description</p>`,
    url: `https://www.acme.com/p/${id}`,
    images: [{ url: `https://cdn.example.com/${id}.jpg` }],
    options: [
      {
        id: `${id}-opt`,
        ean: '7891234567895',
        name: `${name} M`,
        available: true,
        seller: 'seller-1',
        images: [],
        categories: ['Shoes'],
        brands: ['Acme'],
        pricing: [{ listPrice: price + 1000, price, metadata: [] }],
        stocks: [{ value: 10, metadata: [] }],
        metadata: [],
      },
    ],
    metadata: [{ key: 'gender', value: 'unisex' }],
    ...extra,
  };
}

export function campaignInput(overrides: Partial<CampaignInput> & Pick<CampaignInput, 'id' | 'organizationId' | 'type'>): CampaignInput {
  return {
    name: `Campaign ${overrides.id}`,
    period: { startAt: iso(-10), endAt: iso(10) },
    categories: ['Shoes'],
    description: 'A campaign',
    code: overrides.type === 'Offer' ? null : 'SAVE10',
    offerType: overrides.type === 'Offer' ? 'Spreadsheet' : null,
    url: 'https://www.acme.com/promo',
    isHighlight: false,
    mediaKit: { banners: ['https://cdn.example.com/banner.png'], emailMarketing: null },
    ...overrides,
  };
}

export interface World {
  keys: {
    aff1: string;
    aff2: string;
    /** aff-1 key with brands:read only. */
    aff1BrandsOnly: string;
    /** aff-3 has no channels at all. */
    aff3: string;
  };
  channels: { aff1Site: string; aff1Instagram: string; aff2Whatsapp: string };
}

export async function buildWorld(database: Database): Promise<World> {
  await servicesFor(database).channels.ensureKinds();
  await servicesFor(database).imports.upsertBrand(
    brandInput({
      id: BRANDS.acme,
      name: 'Acme',
      slug: 'acme',
      site: 'https://www.acme.com/store',
      categories: ['Fashion', 'Shoes'],
      network: {
        active: true,
        isPublic: true,
        trait: { isExclusive: true, isHighlight: true, isFavorite: false },
        rating: { approval: 4.5, commission: 3.2, conversion: 2.75, popularity: 5, validation: 4 },
      },
      createdAt: '2025-01-10T00:00:00.000Z',
    }),
  );
  await servicesFor(database).imports.upsertBrand(
    brandInput({
      id: BRANDS.globex,
      name: 'Globex',
      slug: 'globex',
      site: 'https://globex.com',
      categories: ['Electronics'],
      network: {
        active: true,
        isPublic: false,
        trait: { isExclusive: false, isHighlight: false, isFavorite: true },
        rating: { approval: 1, commission: 2, conversion: 3, popularity: 4, validation: 5 },
      },
      createdAt: '2025-03-01T00:00:00.000Z',
    }),
  );
  await servicesFor(database).imports.upsertBrand(
    brandInput({
      id: BRANDS.initech,
      name: 'Initech',
      slug: 'initech',
      site: 'https://initech.com',
      categories: ['Software'],
      network: {
        active: true,
        isPublic: false,
        trait: { isExclusive: false, isHighlight: false, isFavorite: false },
        rating: { approval: 1, commission: 1, conversion: 1, popularity: 1, validation: 1 },
      },
      createdAt: '2025-04-01T00:00:00.000Z',
    }),
  );
  await servicesFor(database).imports.upsertBrand(
    brandInput({
      id: BRANDS.umbrella,
      name: 'Umbrella',
      slug: 'umbrella',
      site: 'https://umbrella.com',
      categories: ['Health'],
      commission: { value: 1500, transfer: 'cpa' },
      allowedChannels: ['site'],
      createdAt: '2025-06-01T00:00:00.000Z',
    }),
  );
  await servicesFor(database).imports.upsertBrand(
    brandInput({
      id: BRANDS.hooli,
      name: 'Hooli',
      slug: 'hooli',
      site: 'https://hooli.com',
      network: {
        active: false,
        isPublic: true,
        trait: { isExclusive: false, isHighlight: false, isFavorite: false },
        rating: { approval: 0, commission: 0, conversion: 0, popularity: 0, validation: 0 },
      },
      createdAt: '2025-08-01T00:00:00.000Z',
    }),
  );

  await servicesFor(database).access.upsertAffiliate('aff-1', 'Affiliate One');
  await servicesFor(database).access.upsertAffiliate('aff-2', 'Affiliate Two');
  await servicesFor(database).access.upsertAffiliate('aff-3', 'Affiliate Three');
  const aff1Site = await servicesFor(database).channels.add('aff-1', 'site', 'My blog', 'ch-aff1-site');
  const aff1Instagram = await servicesFor(database).channels.add('aff-1', 'instagram', '@aff1', 'ch-aff1-insta');
  const aff2Whatsapp = await servicesFor(database).channels.add('aff-2', 'whatsapp', 'Deals group', 'ch-aff2-wa');
  await servicesFor(database).access.approveForBrand('aff-1', BRANDS.globex);
  await servicesFor(database).access.approveForBrand('aff-2', BRANDS.initech);

  await servicesFor(database).imports.upsertProduct(productInput('p-acme-1', BRANDS.acme, 'Red running sneakers', 5000, { createdAt: '2025-02-01T00:00:00.000Z' }));
  await servicesFor(database).imports.upsertProduct(productInput('p-acme-2', BRANDS.acme, 'Blue leather boots', 12000, { createdAt: '2025-02-02T00:00:00.000Z', available: false }));
  await servicesFor(database).imports.upsertProduct(productInput('p-globex-1', BRANDS.globex, 'Wireless headphones', 25000, { createdAt: '2025-02-03T00:00:00.000Z' }));
  await servicesFor(database).imports.upsertProduct(productInput('p-initech-1', BRANDS.initech, 'Red stapler', 900, { createdAt: '2025-02-04T00:00:00.000Z' }));

  await servicesFor(database).imports.upsertCampaign(campaignInput({ id: 'c-acme-coupon', organizationId: BRANDS.acme, type: 'GenericCoupon', isHighlight: true, createdAt: '2025-05-01T00:00:00.000Z' }));
  await servicesFor(database).imports.upsertCampaign(
    campaignInput({ id: 'c-acme-offer-url', organizationId: BRANDS.acme, type: 'Offer', offerType: 'Url', url: 'https://www.acme.com/sale', createdAt: '2025-05-02T00:00:00.000Z' }),
  );
  await servicesFor(database).imports.upsertCampaign(campaignInput({ id: 'c-acme-offer-sheet', organizationId: BRANDS.acme, type: 'Offer', createdAt: '2025-05-03T00:00:00.000Z' }));
  await servicesFor(database).imports.upsertCampaign(
    campaignInput({ id: 'c-acme-expired', organizationId: BRANDS.acme, type: 'PersonalCoupon', period: { startAt: iso(-30), endAt: iso(-1) }, createdAt: '2025-05-04T00:00:00.000Z' }),
  );
  await servicesFor(database).imports.upsertCampaign(
    campaignInput({ id: 'c-acme-scheduled', organizationId: BRANDS.acme, type: 'GenericCoupon', period: { startAt: iso(5), endAt: iso(30) }, categories: ['Summer'], createdAt: '2025-05-05T00:00:00.000Z' }),
  );
  await servicesFor(database).imports.upsertCampaign(campaignInput({ id: 'c-globex-coupon', organizationId: BRANDS.globex, type: 'GenericCoupon', url: 'https://globex.com/deal', createdAt: '2025-05-06T00:00:00.000Z' }));
  await servicesFor(database).imports.upsertCampaign(campaignInput({ id: 'c-initech-offer', organizationId: BRANDS.initech, type: 'Offer', offerType: 'Url', url: 'https://initech.com/x', createdAt: '2025-05-07T00:00:00.000Z' }));

  // Orders: aff-1 has four (two brands, one with mdasc), aff-2 has one.
  // An approved one comes with its ledger entry, as the brand's approval writes it.
  const order = (id: string, affiliateId: string, brandId: string, createdAt: string, extra: Partial<NewOrderRow> = {}) => {
    const row: NewOrderRow = {
      id,
      order_id: `brand-${id}`,
      organization_id: brandId,
      affiliate_id: affiliateId,
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
      items: JSON.stringify([{ id: 'sku-1', name: 'Sneakers', quantity: 2, price: 5_000, categories: 12 }]),
      created_at: createdAt,
      updated_at: createdAt,
      // Fixtures never lock while the tests run.
      lock_at: '2099-12-31T00:00:00.000Z',
      ...extra,
    };
    const approved = row.commission_status === 'approved' ? [approvalEntry(row, Number(row.commission))] : [];
    return new OrdersRepository(database).insert(row, approved, createdAt);
  };
  await order('o-aff1-1', 'aff-1', BRANDS.acme, '2026-01-10T10:00:00.000Z', { mdasc: 'campaign-x' });
  // Approved and locked (February's statement bills it); the others never lock while the tests run.
  await order('o-aff1-2', 'aff-1', BRANDS.acme, '2026-02-10T10:00:00.000Z', { status: 'approved', commission_status: 'approved', lock_at: '2026-02-20T10:00:00.000Z' });
  await order('o-aff1-3', 'aff-1', BRANDS.globex, '2026-03-10T10:00:00.000Z', { value: 1_999, commission: 150 });
  await order('o-aff1-4', 'aff-1', BRANDS.umbrella, '2026-03-10T10:00:00.000Z', { status: 'canceled', commission_status: 'canceled', commission: 1_500 });
  await order('o-aff2-1', 'aff-2', BRANDS.initech, '2026-01-15T10:00:00.000Z', { order_id: 'brand-o-aff1-1' });

  const key = async (affiliateId: string, scopes?: NewKey['scopes']) => (await servicesFor(database).access.createApiKey({ affiliateId, scopes })).key;
  return {
    keys: {
      aff1: await key('aff-1'),
      aff2: await key('aff-2'),
      aff1BrandsOnly: await key('aff-1', ['brands:read']),
      aff3: await key('aff-3'),
    },
    channels: { aff1Site, aff1Instagram, aff2Whatsapp },
  };
}
