// Product feeds for comparison and coupon sites: every product the affiliate may promote (the
// products list's visibility and filters), each with a deep link for one of its channels, read a
// batch at a time so that a feed of any size streams. One stored link per brand serves all its
// products (docs/adr/0018-product-feed-deep-links.md).
import { createHash } from 'node:crypto';
import type { Clock } from '../../lib/clock.js';
import type { AffiliateChannel, AffiliatesRepository } from '../../storage/repositories/affiliates.js';
import type { BrandsRepository } from '../../storage/repositories/brands.js';
import type { FEED_LINK_TYPE as FeedLinkType } from '../../storage/repositories/links.js';
import type { FeedProductRow, ProductFilters, ProductsRepository } from '../../storage/repositories/products.js';
import type { SettingsRepository } from '../../storage/repositories/settings.js';
import type { BrandRow } from '../../storage/tables.js';
import type { ProductOption } from '../../schemas/product.js';
import { notFound } from '../errors.js';
import { deepLinkKey } from '../installation.js';
import { DeepLinks } from '../links/deep-links.js';
import { blockReason, brandHome, withMdasc } from '../links/link-rules.js';
import type { LinksService } from '../links/links-service.js';
import { shortUrlOf } from '../links/channels-view.js';

/** One product of a feed, as both formats write it. */
export interface FeedItem {
  id: string;
  organizationId: string;
  brandName: string;
  name: string;
  /** HTML, as the brand wrote it. */
  description: string;
  /** The product page itself (untracked). */
  url: string;
  /** The tracked deep link to the product page. */
  link: string;
  /** Integer cents: the lowest option price, and that option's price before discount. */
  price?: number;
  listPrice?: number;
  currency: string;
  available: boolean;
  imageUrl?: string;
  categories: string[];
}

export interface FeedRequest {
  channelId: string;
  mdasc?: string;
  filters: ProductFilters;
}

/** A feed ready to stream: its items, and how long a client may keep it. */
export interface Feed {
  items: AsyncIterable<FeedItem>;
  etag: string;
  /** Seconds until the feed's day ends (UTC): a client may keep it that long. */
  maxAge: number;
}

/** The type of the feeds' stored links (the redirect reads their deep links); typed as storage names it. */
const FEED_LINK_TYPE: typeof FeedLinkType = 'ProductFeed';

/** Products read from the database at a time: one batch in memory, whatever the feed's size. */
const BATCH = 500;

/** A brand's part of a feed: its link's code and short URL, or null when the channel may not link to it. */
interface BrandFeedLink {
  brand: BrandRow;
  link: { code: string; shortUrl: string } | null;
}

export interface FeedRepositories {
  products: ProductsRepository;
  brands: BrandsRepository;
  affiliates: AffiliatesRepository;
  settings: SettingsRepository;
}

export class ProductFeeds {
  private deepLinks: Promise<DeepLinks> | undefined;

  constructor(
    private readonly repositories: FeedRepositories,
    private readonly links: LinksService,
    private readonly clock: Clock,
  ) {}

  /**
   * The version of a feed: one per affiliate, day (UTC) and request, so a client asking again the
   * same day is answered 304. `request` names everything that shapes the feed (format, channel,
   * mdasc, filters); the channel is checked first (channel_not_found: not one of the caller's).
   */
  async version(affiliateId: string, channelId: string, request: string): Promise<{ etag: string; maxAge: number; channel: AffiliateChannel }> {
    const channel = (await this.repositories.affiliates.channelsOf(affiliateId)).find((c) => c.id === channelId);
    if (!channel) throw notFound(`channelId "${channelId}" is not one of your channels; take one from GET /affiliate/channels`, 'channel_not_found');
    const now = this.clock.now();
    const day = new Date(now).toISOString().slice(0, 10);
    const etag = `"${createHash('sha256').update(`${affiliateId}\n${day}\n${request}`).digest('base64url').slice(0, 27)}"`;
    const maxAge = Math.max(1, Math.ceil((Date.parse(`${day}T00:00:00.000Z`) + 86_400_000 - now) / 1000));
    return { etag, maxAge, channel };
  }

  /** The feed's items: products of visible brands whose links the channel may have, newest first. */
  async *items(affiliateId: string, channel: AffiliateChannel, request: FeedRequest): AsyncGenerator<FeedItem> {
    const deepLinks = await (this.deepLinks ??= deepLinkKey(this.repositories.settings, this.clock).then((key) => new DeepLinks(key)));
    const brandLinks = new Map<string, BrandFeedLink | null>();
    let before: number | undefined;
    for (;;) {
      const rows = await this.repositories.products.feedBatch(affiliateId, request.filters, before, BATCH);
      for (const row of rows) {
        let part = brandLinks.get(row.organization_id);
        if (part === undefined) brandLinks.set(row.organization_id, (part = await this.brandLink(affiliateId, channel, row.organization_id, request.mdasc)));
        if (part === null || part.link === null) continue;
        yield itemOf(row, part.brand, deepLinks.link(part.link.shortUrl, part.link.code, row.url));
      }
      if (rows.length < BATCH) return;
      before = rows.at(-1)!.seq;
    }
  }

  /** The brand's feed link for the channel (made at the first feed that needs it), or why there is none. */
  private async brandLink(affiliateId: string, channel: AffiliateChannel, brandId: string, mdasc: string | undefined): Promise<BrandFeedLink | null> {
    const brand = await this.repositories.brands.find(brandId);
    if (!brand) return null;
    // An inactive brand, or one that does not take this channel's kind, gets no new links: its products are left out.
    if (blockReason(channel, brand, undefined, this.clock.iso())) return { brand, link: null };
    const stored = await this.links.linkForChannel({
      affiliateId,
      channelId: channel.id,
      brandId,
      type: FEED_LINK_TYPE,
      featureId: null,
      // One link per brand, channel and mdasc, whatever the brand's home page becomes.
      key: JSON.stringify([FEED_LINK_TYPE, brandId, mdasc ?? null]),
      destination: withMdasc(brandHome(brand), mdasc),
      mdasc: mdasc ?? null,
    });
    // A link the network deactivated redirects nowhere: its products are left out, as the shortener leaves out its links.
    if (stored.active !== 1) return { brand, link: null };
    return { brand, link: { code: stored.code, shortUrl: shortUrlOf(this.links.publicUrl, stored.code) } };
  }
}

function itemOf(row: FeedProductRow, brand: BrandRow, link: string): FeedItem {
  const options = JSON.parse(row.options) as ProductOption[];
  const images = JSON.parse(row.images) as Array<{ url: string }>;
  // The option whose price is the product's (the lowest): its price before discount and categories.
  const cheapest = options.find((o) => o.pricing.some((p) => p.price === row.price_cents));
  const pricing = cheapest?.pricing.find((p) => p.price === row.price_cents);
  const item: FeedItem = {
    id: row.id,
    organizationId: row.organization_id,
    brandName: brand.name,
    name: row.name,
    description: row.description,
    url: row.url,
    link,
    currency: brand.currency,
    available: row.available === 1,
    categories: (cheapest ?? options[0])?.categories ?? [],
  };
  if (row.price_cents !== null) item.price = row.price_cents;
  if (pricing && pricing.listPrice > pricing.price) item.listPrice = pricing.listPrice;
  const image = images[0]?.url ?? options.find((o) => o.images.length > 0)?.images[0]?.url;
  if (image) item.imageUrl = image;
  return item;
}
