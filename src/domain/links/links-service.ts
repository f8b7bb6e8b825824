// Short links: created one per channel of the calling affiliate, idempotent per request; listed;
// activated and deactivated by the operator.
import type { Channel } from '../../schemas/channel.js';
import type { LinkType, ShortUrl } from '../../schemas/short-url.js';
import type { Clock } from '../../lib/clock.js';
import type { AffiliateChannel, AffiliatesRepository } from '../../storage/repositories/affiliates.js';
import type { BrandsRepository } from '../../storage/repositories/brands.js';
import type { CampaignsRepository } from '../../storage/repositories/campaigns.js';
import type { FEED_LINK_TYPE, LinkListFilters, LinksRepository } from '../../storage/repositories/links.js';
import type { CampaignRow, ShortLinkRow } from '../../storage/tables.js';
import { invalid, notFound } from '../errors.js';
import type { InvalidationPublisher } from '../invalidation.js';
import { offsetOf, type PageRequest, type Paged } from '../paging.js';
import { newId, randomBase62 } from '../random.js';
import { channelView, shortUrlOf } from './channels-view.js';
import { APPROVAL_REQUIRED, LINK_DEACTIVATED, blockReason, checkCustomUrl, destinationOf, requestKey, withMdasc } from './link-rules.js';
import { shortUrlRecord } from './short-urls.js';
import { webhookEvent } from '../webhooks/events.js';

export const CODE_LENGTH = 7;

export interface ShortenRequest {
  organizationId: string;
  type: LinkType;
  featureId?: string;
  url?: string;
  mdasc?: string;
  /** Only these of the affiliate's channels; every channel when absent. */
  channelIds?: string[];
  /** A Custom url may be http (the link script's links where local targets are allowed: a shop on loopback). */
  allowHttp?: boolean;
}

/** A channel's link for one request, as linkForChannel makes or finds it. */
export interface ChannelLinkRequest {
  affiliateId: string;
  channelId: string;
  brandId: string;
  type: LinkType | typeof FEED_LINK_TYPE;
  featureId: string | null;
  key: string;
  destination: string;
  mdasc: string | null;
}

export interface LinkRepositories {
  affiliates: AffiliatesRepository;
  brands: BrandsRepository;
  campaigns: CampaignsRepository;
  links: LinksRepository;
}

const COUPON_TYPES = new Set(['PersonalCoupon', 'GenericCoupon']);

export class LinksService {
  constructor(
    private readonly repositories: LinkRepositories,
    private readonly clock: Clock,
    /** Tells every instance's redirect cache about a (de)activated link. */
    private readonly publisher: InvalidationPublisher,
    /** Base of short links (PUBLIC_URL). */
    readonly publicUrl: string,
  ) {}

  async createShortLinks(affiliateId: string, req: ShortenRequest): Promise<Channel[]> {
    const { brands, affiliates } = this.repositories;
    const brand = await brands.find(req.organizationId);
    // A suspended brand is out of affiliates' sight: it answers as an unknown one.
    if (!brand || brand.suspended_at !== null) throw notFound('Brand not found or not available');
    const channels = this.chosen(await affiliates.channelsOf(affiliateId), req.channelIds);
    // Approval first: an affiliate a private brand has not approved learns nothing more about it
    // (its domains from a refused URL, its campaigns from a refused featureId), only the message.
    const approved = brand.is_public === 1 || (await brands.isApproved(affiliateId, brand.id));
    if (!approved) return channels.map((channel) => channelView(channel, [], APPROVAL_REQUIRED));
    const campaign = await this.findFeature(req);
    const target = req.type === 'Custom' ? checkCustomUrl(req.url!, brand, { allowHttp: req.allowHttp === true }) : destinationOf(req.type, brand, campaign);
    const destination = withMdasc(target, req.mdasc);
    const key = requestKey(req.type, target, req.mdasc);

    const now = this.clock.iso();
    const result: Channel[] = [];
    for (const channel of channels) {
      const reason = blockReason(channel, brand, campaign, now);
      if (reason) {
        result.push(channelView(channel, [], reason));
        continue;
      }
      const link = await this.linkForChannel({
        affiliateId,
        channelId: channel.id,
        brandId: brand.id,
        type: req.type,
        featureId: req.featureId ?? null,
        key,
        destination,
        mdasc: req.mdasc ?? null,
      });
      result.push(link.active === 1 ? channelView(channel, [shortUrlOf(this.publicUrl, link.code)], undefined) : channelView(channel, [], LINK_DEACTIVATED));
    }
    return result;
  }

  /** The caller's links of one type, newest first (then id). */
  async listShortUrls(affiliateId: string, filters: LinkListFilters, page: PageRequest): Promise<Paged<ShortUrl>> {
    const { rows, total } = await this.repositories.links.list(affiliateId, filters, offsetOf(page));
    const brandNames = await this.repositories.brands.namesOf([...new Set(rows.map((r) => r.organization_id))]);
    return { items: rows.map((r) => shortUrlRecord(r, this.publicUrl, brandNames.get(r.organization_id))), total };
  }

  /** Gets the channel's link for this request, creating it with a fresh random code if needed. */
  async linkForChannel(link: ChannelLinkRequest): Promise<ShortLinkRow> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.repositories.links.insertOrGet(
          {
            id: newId(),
            code: randomBase62(CODE_LENGTH),
            affiliate_id: link.affiliateId,
            channel_id: link.channelId,
            organization_id: link.brandId,
            link_type: link.type,
            feature_id: link.featureId,
            request_key: link.key,
            original_url: link.destination,
            mdasc: link.mdasc,
          },
          this.clock.iso(),
        );
      } catch (error) {
        // A code collision (one in trillions) violates the code's unique index: draw again.
        if (attempt >= 4) throw error;
      }
    }
  }

  /**
   * Makes a link redirect again, or stops it (404, nothing counted): at once on every instance
   * with Redis, within about a second without. not_found when no link has this code.
   */
  async setActive(code: string, active: boolean): Promise<void> {
    const link = await this.repositories.links.setActive(code, active, this.clock.iso(), (was) =>
      active ? [] : [webhookEvent({ kind: 'affiliate', id: was.affiliate_id }, 'link.deactivated', this.deactivated(was), this.clock)],
    );
    if (!link) throw notFound(`no short link with code "${code}"`, 'link_not_found');
    await this.publisher.publish({ kind: 'link', code });
  }

  /** What a link.deactivated event tells the affiliate: which link, of which brand and channel. */
  private deactivated(link: ShortLinkRow) {
    return {
      urlCode: link.code,
      shortUrl: shortUrlOf(this.publicUrl, link.code),
      originalUrl: link.original_url,
      organizationId: link.organization_id,
      channelId: link.channel_id,
      linkType: link.link_type,
      ...(link.mdasc !== null && { mdasc: link.mdasc }),
      ...(link.feature_id !== null && { featureId: link.feature_id }),
    };
  }

  /** The channels a request names, in the affiliate's order; every one when it names none. */
  private chosen(channels: AffiliateChannel[], ids: string[] | undefined): AffiliateChannel[] {
    if (!ids) return channels;
    const unknown = ids.filter((id) => !channels.some((channel) => channel.id === id));
    if (unknown.length > 0) throw invalid('invalid_body', `channelIds: ${unknown.join(', ')} is not one of your channels (see GET /affiliate/channels)`);
    return channels.filter((channel) => ids.includes(channel.id));
  }

  private async findFeature(req: ShortenRequest): Promise<CampaignRow | undefined> {
    if (!req.featureId) return undefined;
    const campaign = await this.repositories.campaigns.find(req.organizationId, req.featureId);
    const kindMatches = campaign && (req.type === 'Offer' ? campaign.type === 'Offer' : COUPON_TYPES.has(campaign.type));
    if (!campaign || campaign.organization_id !== req.organizationId || !kindMatches) {
      const kind = req.type === 'Offer' ? 'an offer' : 'a coupon';
      throw invalid('feature_not_found', `featureId "${req.featureId}" is not ${kind} of this brand; take it from GET /affiliate/campaigns`);
    }
    return campaign;
  }
}
