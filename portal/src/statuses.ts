// The words for an order's status and its commission's (and why a commission was canceled from
// the start), on every page that shows them: a canceled order or commission reads "Declined", as
// brands decline conversions. Likewise a
// campaign's status, with the badge it shows in (the affiliate's campaigns, the brand's catalogue).
import type { MessageKey } from './i18n/en.js';
import type { components, paths } from '../../packages/client/index.js';

export type CommissionStatus = NonNullable<NonNullable<paths['/affiliate/orders']['get']['parameters']['query']>['commissionStatus']>[number];

/** Every commission status (order statuses are among them), in the order a commission moves through them. */
export const STATUS_MESSAGES: Record<CommissionStatus, MessageKey> = { pending: 'status.pending', held: 'status.held', approved: 'status.approved', payable: 'status.payable', paid: 'status.paid', canceled: 'status.declined' };

/** The message of a status the API sends as plain text; undefined for one the portal does not know. */
export const statusMessage = (status: string): MessageKey | undefined => (STATUS_MESSAGES as Partial<Record<string, MessageKey>>)[status];

export type CommissionReason = NonNullable<components['schemas']['Order']['commissionReason']>;

/** Why a commission was canceled from the start (an order's commissionReason), in words. */
export const COMMISSION_REASON_MESSAGES: Record<CommissionReason, MessageKey> = {
  bot_click: 'commissionReason.bot_click',
  head_click: 'commissionReason.head_click',
  suspicious_click: 'commissionReason.suspicious_click',
  affiliate_suspended: 'commissionReason.affiliate_suspended',
  fraud_declined: 'commissionReason.fraud_declined',
  unconfirmed: 'commissionReason.unconfirmed',
};

export type CampaignStatus = components['schemas']['BrandCampaign']['status'];

/** A campaign's status: its words and the colour of its badge. */
export const CAMPAIGN_STATUSES: Record<CampaignStatus, { key: MessageKey; badge: string }> = {
  onTime: { key: 'campaigns.onTime', badge: 'approved' },
  scheduled: { key: 'campaigns.scheduled', badge: 'pending' },
  expired: { key: 'campaigns.expired', badge: 'canceled' },
};
