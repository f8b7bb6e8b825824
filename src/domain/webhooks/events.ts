// The events each side can subscribe to, and the body every endpoint receives: versioned JSON
// `{ type, version, timestamp, data }`, the same bytes on every attempt (they are signed).
import type { Clock } from '../../lib/clock.js';
import type { NewWebhookEvent } from '../../storage/tables.js';
import { randomBase62 } from '../random.js';

export type OwnerKind = 'affiliate' | 'brand';

export const AFFILIATE_EVENTS = [
  'order.created',
  'order.updated',
  'commission.approved',
  'commission.canceled',
  'commission.held',
  'commission.payable',
  'payout.created',
  'payout.sent',
  'payout.settled',
  'payout.failed',
  'link.deactivated',
  'claim.created',
  'claim.resolved',
  'program.terms_changed',
] as const;
export const BRAND_EVENTS = ['conversion.created', 'conversion.updated', 'affiliate.approval.requested', 'claim.created', 'claim.resolved', 'statement.issued', 'statement.overdue', 'statement.terms_changed'] as const;
export type WebhookEventType = (typeof AFFILIATE_EVENTS)[number] | (typeof BRAND_EVENTS)[number];

export const EVENTS_OF: Record<OwnerKind, readonly WebhookEventType[]> = { affiliate: AFFILIATE_EVENTS, brand: BRAND_EVENTS };

/** The version of every payload's shape; a change that is not an addition raises it. */
export const PAYLOAD_VERSION = 1;

/** An event for the outbox: its id (the webhook-id header, the same on every attempt) and its body. */
export function webhookEvent(owner: { kind: OwnerKind; id: string }, type: WebhookEventType, data: unknown, clock: Clock): NewWebhookEvent {
  const id = `msg_${randomBase62(24)}`;
  return {
    id,
    owner_kind: owner.kind,
    owner_id: owner.id,
    type,
    payload: JSON.stringify({ type, version: PAYLOAD_VERSION, timestamp: clock.iso(), data }),
  };
}
