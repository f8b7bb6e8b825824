// The events an affiliate's postbacks fire on, and which outbox event (src/domain/orders/order-events.ts)
// each one follows: shared by the outbox, which writes a postback's deliveries in the transaction of
// the change, and by the postbacks' service, which names them to the affiliate.

export const POSTBACK_EVENTS = ['conversion.created', 'conversion.approved', 'conversion.canceled', 'commission.paid'] as const;
export type PostbackEvent = (typeof POSTBACK_EVENTS)[number];

/**
 * The affiliate's webhook event a postback event follows. commission.paid has none: a payout's
 * sending writes one per order it pays (src/domain/postbacks/postback-payloads.ts).
 */
export const POSTBACK_EVENT_OF: Readonly<Record<string, PostbackEvent>> = {
  'order.created': 'conversion.created',
  'commission.approved': 'conversion.approved',
  'commission.canceled': 'conversion.canceled',
};
