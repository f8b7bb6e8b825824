// A campaign (coupon or offer) as the API shows it, from its stored row (channels are added per
// caller).
import type { Campaign } from '../../schemas/campaign.js';
import type { CampaignRow } from '../../storage/tables.js';
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
