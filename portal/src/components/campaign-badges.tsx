import { useMessages } from '../i18n/index.js';
import { CAMPAIGN_STATUSES } from '../statuses.js';
import type { components } from '../../../packages/client/index.js';

/** A campaign's kind (coupon or offer) and its status, as badges. */
export function CampaignBadges({ campaign }: { campaign: Pick<components['schemas']['BrandCampaign'], 'type' | 'status'> }) {
  const { t } = useMessages();
  const status = CAMPAIGN_STATUSES[campaign.status];
  return (
    <>
      <span class="badge">{t(campaign.type === 'Offer' ? 'campaigns.offer' : 'campaigns.coupon')}</span> <span class={`badge ${status.badge}`}>{t(status.key)}</span>
    </>
  );
}
