import type { CampaignStatus } from '../../schemas/campaign.js';

/** Derived from the period at read time, so it is never stale. Bounds are inclusive. */
export function campaignStatus(period: { start_at: string; end_at: string }, now: string): CampaignStatus {
  if (now < period.start_at) return 'scheduled';
  if (now > period.end_at) return 'expired';
  return 'onTime';
}
