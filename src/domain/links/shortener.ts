// Link creation: one link per channel of the calling affiliate, idempotent per request.
import type { Database } from '../../storage/database.js';
import type { Channel } from '../../schemas/channel.js';
import type { LinkType } from '../../schemas/short-url.js';
import type { CampaignRow } from '../../storage/tables.js';
import { findBrand, isApproved } from '../../storage/repositories/brands.js';
import { findCampaign } from '../../storage/repositories/campaigns.js';
import { channelsOf } from '../../storage/repositories/channels.js';
import { insertOrGetLink } from '../../storage/repositories/links.js';
import { invalid, notFound } from '../errors.js';
import { newId, randomBase62 } from '../random.js';
import { nowIso } from '../time.js';
import { channelView, shortUrlOf } from './channels-view.js';
import { LINK_DEACTIVATED, blockReason, checkCustomUrl, destinationOf, requestKey, withMdasc } from './link-rules.js';

export const CODE_LENGTH = 7;

export interface ShortenRequest {
  organizationId: string;
  type: LinkType;
  featureId?: string;
  url?: string;
  mdasc?: string;
}

export interface LinkDeps {
  database: Database;
  publicUrl: string;
}

const COUPON_TYPES = new Set(['PersonalCoupon', 'GenericCoupon']);

async function findFeature(database: Database, req: ShortenRequest): Promise<CampaignRow | undefined> {
  if (!req.featureId) return undefined;
  const campaign = await findCampaign(database, req.featureId);
  const kindMatches = campaign && (req.type === 'Offer' ? campaign.type === 'Offer' : COUPON_TYPES.has(campaign.type));
  if (!campaign || campaign.organization_id !== req.organizationId || !kindMatches) {
    const kind = req.type === 'Offer' ? 'an offer' : 'a coupon';
    throw invalid('feature_not_found', `featureId "${req.featureId}" is not ${kind} of this brand; take it from GET /affiliate/campaigns`);
  }
  return campaign;
}

/** Gets the channel's link for this request, creating it with a fresh random code if needed. */
export async function linkForChannel(
  database: Database,
  link: { affiliateId: string; channelId: string; brandId: string; type: LinkType; featureId: string | null; key: string; destination: string; mdasc: string | null },
) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await insertOrGetLink(
        database,
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
        nowIso(),
      );
    } catch (error) {
      // A code collision (one in trillions) violates the code's unique index: draw again.
      if (attempt >= 4) throw error;
    }
  }
}

export async function createShortLinks(deps: LinkDeps, affiliateId: string, req: ShortenRequest): Promise<Channel[]> {
  const { database } = deps;
  const brand = await findBrand(database, req.organizationId);
  if (!brand) throw notFound('Brand not found or not available');
  const campaign = await findFeature(database, req);
  const target = req.type === 'Custom' ? checkCustomUrl(req.url!, brand) : destinationOf(req.type, brand, campaign);
  const destination = withMdasc(target, req.mdasc);
  const approved = brand.is_public === 1 || (await isApproved(database, affiliateId, brand.id));
  const key = requestKey(req.type, target, req.mdasc);

  const channels = await channelsOf(database, affiliateId);
  const now = nowIso();
  const result: Channel[] = [];
  for (const channel of channels) {
    const reason = blockReason(channel, brand, approved, campaign, now);
    if (reason) {
      result.push(channelView(channel, [], reason));
      continue;
    }
    const link = await linkForChannel(database, {
      affiliateId,
      channelId: channel.id,
      brandId: brand.id,
      type: req.type,
      featureId: req.featureId ?? null,
      key,
      destination,
      mdasc: req.mdasc ?? null,
    });
    result.push(
      link.active === 1 ? channelView(channel, [shortUrlOf(deps.publicUrl, link.code)], undefined) : channelView(channel, [], LINK_DEACTIVATED),
    );
  }
  return result;
}
