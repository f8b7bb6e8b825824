// Writes catalogue resources given in the API's own JSON shape (imports, demo data). Each write
// is one transaction: a resource is stored whole or not at all.
import type { BrandsRepository, WriteOutcome } from '../../storage/repositories/brands.js';
import type { BrandScoresRepository } from '../../storage/repositories/brand-scores.js';
import type { CampaignsRepository } from '../../storage/repositories/campaigns.js';
import type { BrandProductFilters, BrandProductOrder, ProductsRepository } from '../../storage/repositories/products.js';
import type { BrandInput } from '../../schemas/brand.js';
import type { CampaignInput } from '../../schemas/campaign.js';
import type { ProductInput } from '../../schemas/product.js';
import type { Clock } from '../../lib/clock.js';
import { invalid } from '../errors.js';
import { toIso } from '../time.js';
import { foldText, htmlToText } from '../../lib/text-keys.js';
import { findNull } from '../../lib/json-nulls.js';
import { profileAddressOf } from '../../lib/profile-addresses.js';
import { CURRENCY_CODES } from '../../schemas/common.js';
import { applyLines, importNdjson, type ImportHooks, type ImportKind, type ImportSummary, type Importer, type LineResult } from './ndjson-import.js';
import type { BrandProductInput, BrandProductPatch, CompleteProduct, Product, ProductOption } from '../../schemas/product.js';
import { compileCheck } from '../../schemas/validate.js';
import { BrandProductInput as BrandProductInputSchema, ProductInput as ProductInputSchema } from '../../schemas/product.js';
import { Type } from '@sinclair/typebox';
import { notFound } from '../errors.js';
import { productOf } from './products.js';
import { checkEans, completeProduct, patchedOptions } from './product-input.js';
import { campaignWithoutChannels } from './campaigns.js';
import { campaignKey } from '../../lib/catalog-keys.js';
import { brandDomains, destinationOf, isOnBrandDomain } from '../links/link-rules.js';
import type { BrandProfile, BrandProfilePatch } from '../../schemas/brand.js';
import { commissionOf } from './brands.js';
import { CHANNEL_KINDS } from '../access/channels-service.js';
import { CampaignInput as CampaignInputSchema, type BrandCampaignInput, type BrandCampaignPatch, type Campaign } from '../../schemas/campaign.js';
import type { CategoriesRepository } from '../../storage/repositories/categories.js';
import { offsetOf, type PageRequest, type Paged } from '../paging.js';

const checkProduct = compileCheck(ProductInputSchema);
/** A line of a brand's bulk upload: its product, with its id (organizationId may be left out). */
const checkBrandProductLine = compileCheck(Type.Intersect([BrandProductInputSchema, Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) })]));
const checkCampaign = compileCheck(CampaignInputSchema);

/** What deleting a product did: removed it, or (named by an order or a link) made it unavailable. */
export type ProductDeletion = 'deleted' | 'made_unavailable';

/** A campaign as its brand reads it back. */
export type CampaignView = Omit<Campaign, 'channels'>;

/** Where the body's own brand or id must agree with the caller and the path. */
function sameOwner(given: { organizationId?: string; id?: string }, brandId: string, id: string): void {
  if (given.organizationId !== undefined && given.organizationId !== brandId) throw invalid('invalid_body', 'organizationId must be your own brand id, or left out');
  if (given.id !== undefined && given.id !== id) throw invalid('invalid_body', `id in the body ("${given.id}") differs from the id in the path ("${id}")`);
}

/** The currency of a brand created without one: the market the network started in. */
export const DEFAULT_CURRENCY = 'BRL';

export type { WriteOutcome };

const unknownBrand = (id: string) => invalid('brand_not_found', `organizationId ${id} is not a known brand; import brands first`);

/** 7.5 (%) → 750 basis points; refuses more than two decimals rather than rounding silently. */
export function percentToBasisPoints(percent: number): number {
  const bp = Math.round(percent * 100);
  if (Math.abs(bp - percent * 100) > 1e-6) throw invalid('invalid_commission', `commission.value ${percent} has more than two decimals`);
  return bp;
}

/** A commission as the API gives it, as the network keeps it: cps in basis points, cpa in cents. */
export function commissionColumns(input: Pick<BrandInput, 'commission'>): { commission_transfer: 'cps' | 'cpa'; commission_value: number } {
  const { transfer, value } = input.commission;
  if (value < 0) throw invalid('invalid_commission', 'commission.value must not be negative');
  if (transfer === 'cps') {
    if (value > 100) throw invalid('invalid_commission', 'a cps commission is a percentage: at most 100');
    return { commission_transfer: 'cps', commission_value: percentToBasisPoints(value) };
  }
  if (!Number.isSafeInteger(value)) throw invalid('invalid_commission', 'a cpa commission is an amount in integer cents');
  return { commission_transfer: 'cpa', commission_value: value };
}

const categoryRows = (categories: string[]) => {
  const seen = new Map<string, string>();
  for (const c of categories) {
    const name = c.trim();
    if (name && !seen.has(name.toLowerCase())) seen.set(name.toLowerCase(), name);
  }
  return [...seen].map(([key, category]) => ({ category, category_key: key }));
};

/** The lowest current price among the options, what the price filter compares. */
function lowestPrice(input: CompleteProduct): number | null {
  const prices = input.options.flatMap((o) => o.pricing.map((p) => p.price));
  return prices.length ? Math.min(...prices) : null;
}

/** Free-form metadata is stored as sent and answered back as stored: it must not hold null. */
function checkMetadata(input: CompleteProduct): void {
  const places: Array<[unknown, string]> = [[input.metadata, 'metadata']];
  input.options.forEach((option, i) => {
    places.push([option.metadata, `options[${i}].metadata`]);
    option.pricing.forEach((pricing, j) => places.push([pricing.metadata, `options[${i}].pricing[${j}].metadata`]));
    option.stocks.forEach((stock, j) => places.push([stock.metadata, `options[${i}].stocks[${j}].metadata`]));
  });
  for (const [value, field] of places) {
    const found = findNull(value, field);
    if (found) throw invalid('invalid_body', `${found} is null or a number too large to represent: leave the entry out (values are never null)`);
  }
}

/**
 * The stored columns of a product (all but seq, id and created_at), as every writer stores them:
 * the product made whole first (defaults, a top-level price as its one option).
 */
export function productColumns(written: ProductInput, now: string) {
  const input = completeProduct(written);
  checkMetadata(input);
  return {
    organization_id: input.organizationId,
    integration: input.integration ?? null,
    available: input.available ? 1 : 0,
    name: input.name,
    description: input.description,
    url: input.url,
    images: JSON.stringify(input.images),
    options: JSON.stringify(input.options),
    metadata: JSON.stringify(input.metadata),
    price_cents: lowestPrice(input),
    search_text: foldText(`${input.name} ${htmlToText(input.description)}`),
    updated_at: input.updatedAt ? toIso(input.updatedAt) : now,
  };
}

export interface CatalogRepositories {
  brands: BrandsRepository;
  categories: CategoriesRepository;
  products: ProductsRepository;
  campaigns: CampaignsRepository;
  brandScores: BrandScoresRepository;
}

export class CatalogWriter {
  constructor(
    private readonly repositories: CatalogRepositories,
    private readonly clock: Clock,
  ) {}

  async upsertBrand(input: BrandInput): Promise<WriteOutcome> {
    const now = this.clock.iso();
    const columns = {
      name: input.name,
      name_key: foldText(input.name),
      slug: input.slug,
      logo: input.logo,
      site: input.site,
      segment: input.segment,
      active: input.network.active ? 1 : 0,
      is_public: input.network.isPublic ? 1 : 0,
      is_exclusive: input.network.trait.isExclusive ? 1 : 0,
      is_highlight: input.network.trait.isHighlight ? 1 : 0,
      is_favorite: input.network.trait.isFavorite ? 1 : 0,
      // Once the network has computed the brand's scores, they are its ratings: the import's are ignored.
      ...(!(await this.repositories.brandScores.computed(input.id)) && {
        rating_approval: input.network.rating.approval,
        rating_commission: input.network.rating.commission,
        rating_conversion: input.network.rating.conversion,
        rating_popularity: input.network.rating.popularity,
        rating_validation: input.network.rating.validation,
      }),
      ...commissionColumns(input),
      allowed_channel_kinds: input.allowedChannels ? JSON.stringify(input.allowedChannels) : null,
      click_id_param: input.clickIdParam ?? 'clickId',
      attribution_window_days: input.attributionWindowDays ?? 30,
      updated_at: now,
    };
    if (!/^https?:$/.test(new URL(input.site).protocol)) throw invalid('invalid_url', 'site must be an http(s) URL');
    if (input.currency !== undefined && !CURRENCY_CODES.includes(input.currency)) {
      throw invalid('invalid_currency', `currency "${input.currency}" is not an ISO 4217 currency code (e.g. BRL, EUR, USD)`);
    }
    // Without a currency, an update keeps the stored one: amounts never change meaning by omission.
    const outcome = await this.repositories.brands.save(
      input.id,
      { ...columns, ...(input.currency !== undefined && { currency: input.currency }) },
      { currency: input.currency ?? DEFAULT_CURRENCY, created_at: input.createdAt ? toIso(input.createdAt) : now },
      categoryRows(input.categories ?? []),
    );
    if (typeof outcome === 'object') throw invalid('duplicate_slug', `slug "${input.slug}" is already used by brand ${outcome.slugTakenBy}`);
    return outcome;
  }

  async upsertProduct(input: ProductInput): Promise<WriteOutcome> {
    const now = this.clock.iso();
    const columns = productColumns(input, now);

    const outcome = await this.repositories.products.save(input.id, columns, input.createdAt ? toIso(input.createdAt) : now);
    if (outcome === 'brand_missing') throw unknownBrand(input.organizationId);
    return outcome;
  }

  async upsertCampaign(input: CampaignInput): Promise<WriteOutcome> {
    const now = this.clock.iso();
    const startAt = toIso(input.period.startAt);
    const endAt = toIso(input.period.endAt);
    if (startAt > endAt) throw invalid('invalid_period', 'period.startAt must not be after period.endAt');
    const isOffer = input.type === 'Offer';
    if (isOffer && !input.offerType) throw invalid('invalid_campaign', 'an Offer needs offerType Spreadsheet or Url');
    if (!isOffer && input.offerType) throw invalid('invalid_campaign', `offerType applies to offers only, not to ${input.type}`);
    if (!isOffer && !input.code) throw invalid('invalid_campaign', `a ${input.type} needs a coupon code`);
    if (input.offerType === 'Url' && input.url === undefined) throw invalid('invalid_campaign', 'an Offer of offerType Url needs url: the page its links lead to, on your domain');
    const brand = await this.repositories.brands.find(input.organizationId);
    if (!brand) throw unknownBrand(input.organizationId);
    if (input.url !== undefined && !isOnBrandDomain(input.url, brand)) {
      throw invalid('invalid_domain', `url must be on the brand domain ${brandDomains(brand).join(' or ')} or one of its subdomains (got ${new URL(input.url).hostname})`);
    }
    const columns = {
      organization_id: input.organizationId,
      name: input.name,
      name_key: foldText(input.name),
      type: input.type,
      offer_type: isOffer ? input.offerType! : null,
      description: input.description ?? '',
      code: input.code ?? null,
      // Without one, links lead to the brand's home page as it is now.
      url: input.url ?? destinationOf('Home', brand),
      is_highlight: input.isHighlight ? 1 : 0,
      start_at: startAt,
      end_at: endAt,
      banners: JSON.stringify(input.mediaKit?.banners ?? []),
      email_marketing: input.mediaKit?.emailMarketing ?? null,
      updated_at: now,
    };
    const outcome = await this.repositories.campaigns.save(input.id, columns, input.createdAt ? toIso(input.createdAt) : now, categoryRows(input.categories ?? []));
    if (outcome === 'brand_missing') throw unknownBrand(input.organizationId);
    return outcome;
  }

  /**
   * The brand's own products in its currency: newest first (the order they were added), or most
   * recently changed first; a search finds words of the name or description, or the start of the id.
   */
  async productsOf(brandId: string, filters: BrandProductFilters, page: PageRequest, order: BrandProductOrder = 'added'): Promise<Paged<Product>> {
    const brand = await this.repositories.brands.find(brandId);
    if (!brand) throw notFound('brand not found', 'brand_not_found');
    const { rows, total } = await this.repositories.products.listOfBrand(brandId, filters, offsetOf(page), order);
    return { items: rows.map((row) => productOf(row, brand.currency)), total };
  }

  /** The categories the brand's products name (at most 1,000), alphabetically: what its next product may be filed under. */
  productCategoriesOf(brandId: string): Promise<string[]> {
    return this.repositories.products.categoriesOfBrand(brandId, 1_000);
  }

  /** The brand's own campaigns, newest first, whatever their period (status derived now). */
  async campaignsOf(brandId: string, page: PageRequest): Promise<Paged<CampaignView>> {
    const { rows, total } = await this.repositories.campaigns.listOfBrand(brandId, offsetOf(page));
    const categories = await this.repositories.categories.ofCampaigns(rows);
    const now = this.clock.iso();
    return { items: rows.map((row) => campaignWithoutChannels(row, categories.get(campaignKey(brandId, row.id)) ?? [], now)), total };
  }

  /** The brand's profile. */
  async brandProfile(brandId: string): Promise<BrandProfile> {
    const brand = await this.repositories.brands.find(brandId);
    if (!brand) throw notFound('brand not found', 'brand_not_found');
    return {
      id: brand.id,
      name: brand.name,
      site: brand.site,
      homeUrl: destinationOf('Home', brand),
      domains: brandDomains(brand),
      clickIdParam: brand.click_id_param,
      ...(brand.allowed_channel_kinds !== null && { allowedChannels: JSON.parse(brand.allowed_channel_kinds) as string[] }),
      commission: commissionOf(brand),
      termsNoticeDays: brand.terms_notice_days,
      attributionWindowDays: brand.attribution_window_days,
      validationDays: brand.validation_days,
      claimAutoAcceptDays: brand.claim_auto_accept_days,
      trustTagConversions: brand.trust_tag_conversions === 1,
      attributionPriority: brand.attribution_priority as BrandProfile['attributionPriority'],
      reportsOrdersFromServer: brand.reports_orders_from_server === 1,
      networkTerms: { feeBasisPoints: brand.fee_basis_points, dueDays: brand.statement_due_days },
      currency: brand.currency,
      isPublic: brand.is_public === 1,
      active: brand.active === 1,
      updatedAt: brand.updated_at,
    };
  }

  /**
   * The brand changes its profile, but for its commission (a change of terms: the commission
   * rules' service). Every instance's redirects follow a new site, home page or click id parameter
   * within a second.
   */
  async updateBrandProfile(brandId: string, patch: Omit<BrandProfilePatch, 'commission'>): Promise<void> {
    const brand = await this.repositories.brands.find(brandId);
    if (!brand) throw notFound('brand not found', 'brand_not_found');
    const site = patch.site === undefined ? undefined : siteOf(patch.site);
    const next = { ...brand, ...(site !== undefined && { site }), ...(patch.domains !== undefined && { domains: JSON.stringify(patch.domains) }) };
    const homeUrl = patch.homeUrl === undefined ? brand.home_url : patch.homeUrl;
    if (homeUrl !== null && !isOnBrandDomain(homeUrl, next)) throw invalid('invalid_domain', `homeUrl must be on one of your domains: ${brandDomains(next).join(', ')}`);
    if (patch.allowedChannels) {
      const unknown = patch.allowedChannels.filter((k) => !CHANNEL_KINDS.some((kind) => kind.id === k));
      if (unknown.length > 0) throw invalid('invalid_channel_kind', `unknown channel kind ${unknown.join(', ')}; known kinds: ${CHANNEL_KINDS.map((k) => k.id).join(', ')}`);
    }
    await this.repositories.brands.updateProfile(brandId, {
      ...(site !== undefined && { site }),
      ...(patch.homeUrl !== undefined && { home_url: patch.homeUrl }),
      ...(patch.domains !== undefined && { domains: JSON.stringify(patch.domains) }),
      ...(patch.clickIdParam !== undefined && { click_id_param: patch.clickIdParam }),
      ...(patch.allowedChannels !== undefined && { allowed_channel_kinds: patch.allowedChannels === null ? null : JSON.stringify(patch.allowedChannels) }),
      ...(patch.termsNoticeDays !== undefined && { terms_notice_days: patch.termsNoticeDays }),
      ...(patch.validationDays !== undefined && { validation_days: patch.validationDays }),
      ...(patch.claimAutoAcceptDays !== undefined && { claim_auto_accept_days: patch.claimAutoAcceptDays }),
      ...(patch.trustTagConversions !== undefined && { trust_tag_conversions: patch.trustTagConversions ? 1 : 0 }),
      ...(patch.attributionPriority !== undefined && { attribution_priority: patch.attributionPriority }),
      ...(patch.reportsOrdersFromServer !== undefined && { reports_orders_from_server: patch.reportsOrdersFromServer ? 1 : 0 }),
      updated_at: this.clock.iso(),
    });
  }

  /** The brand puts a whole campaign under its own id: created (true) or replaced (false). */
  async putCampaign(brandId: string, id: string, input: BrandCampaignInput): Promise<{ created: boolean; campaign: CampaignView }> {
    sameOwner(input, brandId, id);
    const outcome = await this.upsertCampaign({ ...input, organizationId: brandId, id });
    return { created: outcome === 'inserted', campaign: await this.campaign(brandId, id) };
  }

  /** The brand changes some fields of one of its campaigns. */
  async patchCampaign(brandId: string, id: string, patch: BrandCampaignPatch): Promise<CampaignView> {
    const { status: _status, createdAt: _createdAt, mediaKit, ...stored } = await this.campaign(brandId, id);
    const checked = checkCampaign({ ...stored, mediaKit: { emailMarketing: null, ...mediaKit }, ...patch, organizationId: brandId, id });
    if (!checked.ok) throw invalid('invalid_body', checked.message);
    await this.upsertCampaign(checked.value);
    return this.campaign(brandId, id);
  }

  async deleteCampaign(brandId: string, id: string): Promise<void> {
    if (!(await this.repositories.campaigns.delete(brandId, id))) throw notFound(`campaign "${id}" not found among your campaigns`, 'campaign_not_found');
  }

  /** One of the brand's campaigns as the API shows it (without an affiliate's channels). */
  async campaign(brandId: string, id: string): Promise<CampaignView> {
    const row = await this.repositories.campaigns.find(brandId, id);
    if (!row) throw notFound(`campaign "${id}" not found among your campaigns`, 'campaign_not_found');
    const categories = await this.repositories.categories.ofCampaigns([row]);
    return campaignWithoutChannels(row, categories.get(campaignKey(brandId, id)) ?? [], this.clock.iso());
  }

  /**
   * The brand's products from NDJSON lines (the import's shape, organizationId optional), each
   * applied on its own: a result per line, at most `maxLines` lines read.
   */
  async bulkProducts(brandId: string, lines: AsyncIterable<string>, maxLines: number): Promise<ImportSummary & { truncated: boolean; results: LineResult[] }> {
    const results: LineResult[] = [];
    const importer: Importer = {
      check: checkBrandProductLine,
      write: async (value) => {
        const line = value as BrandProductInput & { id: string };
        sameOwner(line, brandId, line.id);
        checkEans(line.options);
        return this.upsertProduct({ ...line, organizationId: brandId });
      },
    };
    const summary = await applyLines(lines, importer, (result) => results.push(result), { maxLines });
    return { ...summary, results };
  }

  /** The brand puts a whole product under its own id: created (true) or replaced (false). */
  async putProduct(brandId: string, id: string, input: BrandProductInput): Promise<{ created: boolean; product: Product }> {
    sameOwner(input, brandId, id);
    checkEans(input.options);
    const outcome = await this.upsertProduct({ ...input, organizationId: brandId, id });
    return { created: outcome === 'inserted', product: await this.product(brandId, id) };
  }

  /**
   * The brand changes some fields of one of its products; price, listPrice and available reach its
   * one option (see patchedOptions).
   */
  async patchProduct(brandId: string, id: string, patch: BrandProductPatch): Promise<Product> {
    const { createdAt: _createdAt, updatedAt: _updatedAt, currency: _currency, ...stored } = await this.product(brandId, id);
    const { price: _price, listPrice: _listPrice, ...fields } = patch;
    checkEans(patch.options);
    const options = patchedOptions(stored, patch);
    const checked = checkProduct({ ...stored, ...fields, ...(options && { options }), organizationId: brandId, id });
    if (!checked.ok) throw invalid('invalid_body', checked.message);
    await this.upsertProduct(checked.value);
    return this.product(brandId, id);
  }

  /**
   * Deletes the brand's product, unless an order's items or a link name it: then it becomes
   * unavailable instead (its options too), so what they name still exists and affiliates no longer
   * find it among the available products. Says which it did.
   */
  async deleteProduct(brandId: string, id: string): Promise<ProductDeletion> {
    const row = await this.repositories.products.find(brandId, id);
    if (!row) throw notFound(`product "${id}" not found among your products`, 'product_not_found');
    const options = JSON.parse(row.options) as ProductOption[];
    const itemIds = [...new Set([id, ...options.map((o) => o.id)])];
    if (await this.repositories.products.isNamed(brandId, itemIds, row.url)) {
      const unavailable = JSON.stringify(options.map((o) => ({ ...o, available: false })));
      if (!(await this.repositories.products.makeUnavailable(brandId, id, unavailable, this.clock.iso()))) throw notFound(`product "${id}" not found among your products`, 'product_not_found');
      return 'made_unavailable';
    }
    if (!(await this.repositories.products.delete(brandId, id))) throw notFound(`product "${id}" not found among your products`, 'product_not_found');
    return 'deleted';
  }

  /** One of the brand's products as the API shows it. */
  async product(brandId: string, id: string): Promise<Product> {
    const [row, brand] = await Promise.all([this.repositories.products.find(brandId, id), this.repositories.brands.find(brandId)]);
    if (!row || !brand) throw notFound(`product "${id}" not found among your products`, 'product_not_found');
    return productOf(row, brand.currency);
  }

  /**
   * Imports a file of one kind of resource, one per line; a bad line is reported with its number
   * and reason and never aborts or half-applies the others.
   */
  importNdjson(kind: ImportKind, file: string, hooks: ImportHooks = {}): Promise<ImportSummary> {
    return importNdjson(this, kind, file, hooks);
  }
}

/** A brand's site as people write it (www.lojaazul.com.br, a full URL), as an https address; a 400 when it cannot be one. */
function siteOf(text: string): string {
  const address = profileAddressOf(text);
  if (!address.ok) throw invalid('invalid_url', `site "${text.trim().slice(0, 200)}" is not your shop's address: write it as www.yourshop.com.br or https://…`);
  return address.url;
}
