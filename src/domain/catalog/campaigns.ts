// Campaigns (coupons and offers) as an affiliate sees them, with its channels and their links.
// Offers of offerType Url get their links automatically: the first time an affiliate sees such
// an offer, a link is made for each channel that may have one.
import type { Campaign } from '../../schemas/campaign.js';
import { pageOf, type Pagination } from '../../schemas/common.js';
import type { CampaignRow } from '../../storage/tables.js';
import { brandsByIds } from '../../storage/repositories/brands.js';
import { listCampaigns, categoriesOfCampaigns, type CampaignFilters } from '../../storage/repositories/campaigns.js';
import { channelsOf } from '../../storage/repositories/channels.js';
import { linksFor } from '../../storage/repositories/links.js';
import { channelView, shortUrlOf, shortUrlsByChannel } from '../links/channels-view.js';
import { blockReason, requestKey } from '../links/link-rules.js';
import { linkForChannel, type LinkDeps } from '../links/shortener.js';
import { nowIso } from '../time.js';
import { campaignStatus } from './campaign-status.js';

export function campaignWithoutChannels(row: CampaignRow, categories: string[], now: string): Omit<Campaign, 'channels'> {
  // Fields without a value are omitted, never null (see docs/decisions.md).
  const mediaKit: Campaign['mediaKit'] = { banners: JSON.parse(row.banners) as string[] };
  if (row.email_marketing !== null) mediaKit.emailMarketing = row.email_marketing;
  return {
    id: row.id,
    name: row.name,
    period: { startAt: row.start_at, endAt: row.end_at },
    type: row.type,
    ...(row.offer_type !== null && { offerType: row.offer_type }),
    categories,
    description: row.description,
    ...(row.code !== null && { code: row.code }),
    url: row.url,
    organizationId: row.organization_id,
    isHighlight: row.is_highlight === 1,
    status: campaignStatus(row, now),
    createdAt: row.created_at,
    mediaKit,
  };
}

export async function listCampaignsFor(
  deps: LinkDeps,
  affiliateId: string,
  filters: CampaignFilters,
  page: number,
  limit: number,
): Promise<{ data: Campaign[]; meta: Pagination }> {
  const { database } = deps;
  // Whole seconds: the status filter and field agree, and identical requests within a second
  // share one remembered total.
  const now = nowIso().replace(/\.\d{3}Z$/, '.000Z');
  const { rows, total } = await listCampaigns(database, affiliateId, filters, { limit, offset: (page - 1) * limit }, now);
  const ids = rows.map((r) => r.id);
  const brandIds = [...new Set(rows.map((r) => r.organization_id))];
  const [categories, channels, links, brands] = await Promise.all([
    categoriesOfCampaigns(database, ids),
    channelsOf(database, affiliateId),
    linksFor(database, affiliateId, { featureIds: ids, linkTypes: ['Coupon', 'Offer'] }),
    brandsByIds(database, brandIds),
  ]);
  const brandById = new Map(brands.map((b) => [b.id, b]));
  const urls = shortUrlsByChannel(links, deps.publicUrl, (l) => l.feature_id ?? '');
  const data: Campaign[] = [];
  for (const row of rows) {
    const brand = brandById.get(row.organization_id)!;
    const views = [];
    for (const ch of channels) {
      const reason = blockReason(ch, brand, true, row, now);
      let shortUrls = urls.get(`${row.id}|${ch.id}`) ?? [];
      if (!reason && shortUrls.length === 0 && row.type === 'Offer' && row.offer_type === 'Url') {
        const link = await linkForChannel(database, {
          affiliateId,
          channelId: ch.id,
          brandId: row.organization_id,
          type: 'Offer',
          featureId: row.id,
          key: requestKey('Offer', row.url, undefined),
          destination: row.url,
          mdasc: null,
        });
        if (link.active === 1) shortUrls = [shortUrlOf(deps.publicUrl, link.code)];
      }
      views.push(channelView(ch, shortUrls, reason));
    }
    data.push({ ...campaignWithoutChannels(row, categories.get(row.id) ?? [], now), channels: views });
  }
  return { data, meta: pageOf(total, page, limit) };
}
