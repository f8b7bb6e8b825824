// The webhook events of an order's creation or change, whoever made it (the brand, the network at
// a lock date, an accepted claim): to the affiliate (its view of the order) and to the brand (the
// conversion), and, when its commission was just settled, the affiliate's commission event.
import type { Clock } from '../../lib/clock.js';
import type { AffiliatesRepository } from '../../storage/repositories/affiliates.js';
import type { NewWebhookEvent, OrderRow } from '../../storage/tables.js';
import { webhookEvent } from '../webhooks/events.js';
import { channelRefsOf, orderOf } from './orders.js';
import { conversionOf } from './conversions.js';

export async function orderEvents(
  affiliates: AffiliatesRepository,
  clock: Clock,
  order: OrderRow,
  what: 'created' | 'updated',
  settled?: 'approved' | 'canceled',
  /** What the order is to its affiliate when that differs from what it is to the brand: new to an affiliate it moved to. */
  toAffiliate: 'created' | 'updated' = what,
): Promise<NewWebhookEvent[]> {
  const affiliate = { kind: 'affiliate' as const, id: order.affiliate_id };
  const affiliateView = orderOf(order, await channelRefsOf(affiliates, order.affiliate_id));
  const events = [webhookEvent(affiliate, `order.${toAffiliate}`, affiliateView, clock), webhookEvent({ kind: 'brand', id: order.organization_id }, `conversion.${what}`, conversionOf(order), clock)];
  if (settled) events.push(webhookEvent(affiliate, `commission.${settled}`, affiliateView, clock));
  return events;
}
