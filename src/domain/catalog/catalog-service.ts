// The catalogue as an affiliate sees it: brands, products and campaigns of the brands it may see
// (public, or private and approved), brands and campaigns with the affiliate's own channels and
// their links. Offers of offerType Url get their links automatically: the first time an affiliate
// sees such an offer, a link is made for each channel that may have one.
import type { Brand } from '../../schemas/brand.js';
import type { Campaign } from '../../schemas/campaign.js';
import type { Product } from '../../schemas/product.js';
import type { Clock } from '../../lib/clock.js';
import type { AffiliatesRepository } from '../../storage/repositories/affiliates.js';
import type { BrandFilters, BrandsRepository, ListedBrandRow } from '../../storage/repositories/brands.js';
import type { CampaignFilters, CampaignsRepository } from '../../storage/repositories/campaigns.js';
import type { CategoriesRepository } from '../../storage/repositories/categories.js';
import type { LinksRepository } from '../../storage/repositories/links.js';
import type { ProductFilters, ProductsRepository } from '../../storage/repositories/products.js';
import { notFound } from '../errors.js';
import { channelView, shortUrlOf, shortUrlsByChannel } from '../links/channels-view.js';
import { blockReason, requestKey } from '../links/link-rules.js';
import type { LinksService } from '../links/links-service.js';
import { offsetOf, type PageRequest, type Paged } from '../paging.js';
import { brandWithoutChannels, scoreFactsOf } from './brands.js';
import { campaignWithoutChannels } from './campaigns.js';
import { productOf } from './products.js';
import { campaignKey } from '../../lib/catalog-keys.js';

export interface CatalogReadRepositories {
  affiliates: AffiliatesRepository;
  brands: BrandsRepository;
  campaigns: CampaignsRepository;
  categories: CategoriesRepository;
  links: LinksRepository;
  products: ProductsRepository;
}

export class CatalogService {
  constructor(
    private readonly repositories: CatalogReadRepositories,
    private readonly links: LinksService,
    private readonly clock: Clock,
  ) {}

  /** Visible brands ordered by name (then id), with the caller's channels. */
  async listBrands(affiliateId: string, filters: BrandFilters, page: PageRequest): Promise<Paged<Brand>> {
    const { rows, total } = await this.repositories.brands.list(affiliateId, filters, offsetOf(page));
    return { items: await this.withChannels(affiliateId, rows), total };
  }

  async getBrand(affiliateId: string, id: string): Promise<Brand> {
    const row = await this.repositories.brands.findVisible(affiliateId, id);
    if (!row) throw notFound('Brand not found or not available');
    const [brand] = await this.withChannels(affiliateId, [row]);
    // The detail alone shows the facts behind the scores (the lists keep the spec's fields).
    return { ...brand!, network: { ...brand!.network, ...scoreFactsOf(row) } };
  }

  /** Visible products, newest first, with their brand's currency and name. */
  async listProducts(affiliateId: string, filters: ProductFilters, page: PageRequest): Promise<Paged<Product>> {
    const { rows, total } = await this.repositories.products.list(affiliateId, filters, offsetOf(page));
    const brands = await this.repositories.brands.currenciesOf([...new Set(rows.map((r) => r.organization_id))]);
    return {
      items: rows.map((row) => {
        const brand = brands.get(row.organization_id)!;
        return { ...productOf(row, brand.currency), brandName: brand.name };
      }),
      total,
    };
  }

  /** Campaigns of visible brands, newest first, with the caller's channels and their links. */
  async listCampaigns(affiliateId: string, filters: CampaignFilters, page: PageRequest): Promise<Paged<Campaign>> {
    const { campaigns, categories, affiliates, links, brands } = this.repositories;
    // Whole seconds: the status filter and field agree, and identical requests within a second
    // share one remembered total.
    const now = this.clock.iso().replace(/\.\d{3}Z$/, '.000Z');
    const { rows, total } = await campaigns.list(affiliateId, filters, offsetOf(page), now);
    const ids = rows.map((r) => r.id);
    const [categoryMap, channels, linkRows, brandRows] = await Promise.all([
      categories.ofCampaigns(rows),
      affiliates.channelsOf(affiliateId),
      links.forResources(affiliateId, { featureIds: ids, linkTypes: ['Coupon', 'Offer'] }),
      brands.linkRulesOf([...new Set(rows.map((r) => r.organization_id))]),
    ]);
    const brandById = new Map(brandRows.map((b) => [b.id, b]));
    // A campaign id is unique per brand only: links and categories are matched by both.
    const urls = shortUrlsByChannel(linkRows, this.links.publicUrl, (l) => campaignKey(l.organization_id, l.feature_id ?? ''));
    const items: Campaign[] = [];
    for (const row of rows) {
      const brand = brandById.get(row.organization_id)!;
      const views = [];
      for (const ch of channels) {
        const reason = blockReason(ch, brand, row, now);
        let shortUrls = urls.get(`${campaignKey(row.organization_id, row.id)}|${ch.id}`) ?? [];
        if (!reason && shortUrls.length === 0 && row.type === 'Offer' && row.offer_type === 'Url') {
          const link = await this.links.linkForChannel({
            affiliateId,
            channelId: ch.id,
            brandId: row.organization_id,
            type: 'Offer',
            featureId: row.id,
            key: requestKey('Offer', row.url, undefined),
            destination: row.url,
            mdasc: null,
          });
          if (link.active === 1) shortUrls = [shortUrlOf(this.links.publicUrl, link.code)];
        }
        views.push(channelView(ch, shortUrls, reason));
      }
      items.push({ ...campaignWithoutChannels(row, categoryMap.get(campaignKey(row.organization_id, row.id)) ?? [], now), channels: views });
    }
    return { items, total };
  }

  private async withChannels(affiliateId: string, rows: ListedBrandRow[]): Promise<Brand[]> {
    const ids = rows.map((r) => r.id);
    const [categories, channels, links] = await Promise.all([
      this.repositories.categories.ofBrands(ids),
      this.repositories.affiliates.channelsOf(affiliateId),
      this.repositories.links.forResources(affiliateId, { brandIds: ids, linkTypes: ['BrandPage'] }),
    ]);
    const urls = shortUrlsByChannel(links, this.links.publicUrl, (l) => l.organization_id);
    const now = this.clock.iso();
    // Every brand listed here is visible, which for an affiliate means approved or public.
    return rows.map((row) => ({
      ...brandWithoutChannels(row, categories.get(row.id) ?? []),
      channels: channels.map((ch) => channelView(ch, urls.get(`${row.id}|${ch.id}`) ?? [], blockReason(ch, row, undefined, now))),
    }));
  }
}
