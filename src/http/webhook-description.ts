// The OpenAPI document's `webhooks` section: every event the service sends, the headers that sign
// it and the body, so a receiver can be generated and checked like a client.
import { AFFILIATE_EVENTS, BRAND_EVENTS, PAYLOAD_VERSION, type WebhookEventType } from '../domain/webhooks/events.js';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const LINK_DEACTIVATED = {
  type: 'object',
  required: ['urlCode', 'shortUrl', 'originalUrl', 'organizationId', 'channelId', 'linkType'],
  properties: {
    urlCode: { type: 'string' },
    shortUrl: { type: 'string' },
    originalUrl: { type: 'string' },
    organizationId: { type: 'string' },
    channelId: { type: 'string' },
    linkType: { type: 'string' },
    mdasc: { type: 'string' },
    featureId: { type: 'string' },
  },
};

const APPROVAL_REQUESTED = {
  type: 'object',
  required: ['affiliateId', 'affiliateName', 'requestedAt'],
  properties: { affiliateId: { type: 'string' }, affiliateName: { type: 'string' }, requestedAt: { type: 'string', format: 'date-time' } },
};

const TERMS_CHANGED = {
  type: 'object',
  required: ['brandId', 'brandName', 'version', 'effectiveAt', 'lowersEarnings', 'raisesEarnings'],
  properties: {
    brandId: { type: 'string' },
    brandName: { type: 'string' },
    version: { type: 'integer', description: 'The version of the brand’s terms (GET /affiliate/brands/{id}/commission-rules)' },
    effectiveAt: { type: 'string', format: 'date-time', description: 'Orders reported from then on are computed with the new terms' },
    lowersEarnings: { type: 'boolean', description: 'true: the change could pay some orders less, so it waits for the brand’s notice' },
    raisesEarnings: { type: 'boolean', description: 'true: a raise, in force at once: the change pays no order less than the terms in force and some more' },
    reason: {
      type: 'string',
      description: 'Why the change could pay less, with an order that would earn less, when it could (e.g. the default rule would pay 5 % instead of 7.5 %: e.g. an order of 100.00 BRL would earn 5.00 BRL instead of 7.50 BRL)',
    },
    raise: { type: 'string', description: 'What a raise pays more, with an order that earns more (e.g. no order earns less, and some earn more: e.g. an order of 100.00 BRL with a coupon code, of an item at 100.00 BRL earns 15.00 BRL instead of 10.00 BRL)' },
  },
};

const ORDER = ref('Order');
/** What an affiliate's order event carries: its order as the API gives it, sub-ids included. */
const ORDER_DATA =
  ' data is your order as GET /affiliate/orders/{id} answers it, with subIds: the sub-ids (sub1 … sub5) the click that earned it carried, e.g. { "sub1": "adset-7", "sub2": "creative-3" }, omitted when it carried none.';

const EVENTS: Record<WebhookEventType, { summary: string; data: object }> = {
  'order.created': { summary: 'An order was attributed to one of your links (its commission pending, held for the network\'s fraud review, or canceled when the click did not count)', data: ORDER },
  'order.updated': { summary: 'One of your orders changed: its status, value, items or commission', data: ORDER },
  'commission.approved': { summary: 'The brand approved the order: its commission will be paid', data: ORDER },
  'commission.canceled': { summary: 'The brand canceled the order, or the network declined its held commission (commissionReason fraud_declined): no commission', data: ORDER },
  'commission.held': { summary: 'The conversion tripped a fraud rule: the network holds its commission for review (see holdReasons); you will get order.updated when it is released (pending again) or declined', data: ORDER },
  'payout.created': { summary: 'A payout run made a payout of your payable commissions (one per currency), not yet sent', data: ref('Payout') },
  'commission.payable': { summary: 'The brand paid the statement that billed the order: its commission goes into the next payout run', data: ORDER },
  'payout.sent': { summary: 'A payout was sent to your payout method: its commissions are paid', data: ref('Payout') },
  'payout.settled': { summary: 'A payout reached you', data: ref('Payout') },
  'payout.failed': { summary: 'A payout did not go through: its commissions are payable again (see failureReason)', data: ref('Payout') },
  'link.deactivated': { summary: 'The network stopped one of your short links: it answers 404 from now on', data: LINK_DEACTIVATED },
  'conversion.created': { summary: 'An order you reported was recorded', data: ref('Conversion') },
  'conversion.updated': { summary: 'One of your orders changed: by you through the API, by the network at its lock date, or by the network\'s fraud review (commissionStatus held, then pending again when released or canceled when declined)', data: ref('Conversion') },
  'claim.created': { summary: 'A claim of a sale the tracking missed was filed (affiliates: by you; brands: of one of your orders)', data: ref('Claim') },
  'program.terms_changed': {
    summary: 'A brand you promote changed its commission terms, compared as a whole with those in force: a change that could pay some order less takes effect after the brand’s notice (effectiveAt); a raise (no order paid less, some more) or any other change that pays no order less, at once',
    data: TERMS_CHANGED,
  },
  'claim.resolved': { summary: 'A claim was accepted (its order recorded) or declined with its reason, by the brand or, unanswered in time, by the network', data: ref('Claim') },
  'affiliate.approval.requested': { summary: 'An affiliate asked to promote your (private) brand', data: APPROVAL_REQUESTED },
  'statement.issued': { summary: "Your statement for a month was issued: the commissions that locked and the network's fee, to pay by dueAt", data: ref('Statement') },
  'statement.overdue': { summary: 'A statement passed its due date unpaid (sent once); your campaigns keep running', data: ref('Statement') },
  'statement.terms_changed': {
    summary: "The network changed its terms for your statements (its fee on each commission, the days to pay), with its reason: the next statement issued bills with them; those issued already keep theirs",
    data: ref('NetworkTermsChanged'),
  },
};

const HEADERS = [
  { name: 'webhook-id', in: 'header', required: true, description: 'The event id (msg_…): the same on every attempt and redelivery; deduplicate by it', schema: { type: 'string' } },
  { name: 'webhook-timestamp', in: 'header', required: true, description: 'Unix seconds when this attempt was signed; reject it when more than 5 minutes from your clock', schema: { type: 'string' } },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      'v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>"> keyed with the base64-decoded part of your secret after whsec_; two signatures, space-separated, for a day after a rotation. Accept the request when one matches.',
    schema: { type: 'string' },
  },
];

export function webhookDescriptions(): Record<string, object> {
  const out: Record<string, object> = {};
  for (const [side, types] of [
    ['affiliates', AFFILIATE_EVENTS],
    ['brands', BRAND_EVENTS],
  ] as const) {
    for (const type of types) {
      const event = EVENTS[type];
      out[type] = {
        post: {
          summary: event.summary,
          description: `Sent to ${side}' endpoints subscribed to ${type}. Answer any 2xx within 10 seconds to confirm; anything else is retried with exponential backoff for 24 hours.${event.data === ORDER ? ORDER_DATA : ''}`,
          parameters: HEADERS,
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['type', 'version', 'timestamp', 'data'],
                  properties: {
                    type: { type: 'string', const: type },
                    version: { type: 'integer', const: PAYLOAD_VERSION, description: 'The payload shape; fields may be added within a version' },
                    timestamp: { type: 'string', format: 'date-time', description: 'When the event happened' },
                    data: event.data,
                  },
                },
              },
            },
          },
          responses: { '2XX': { description: 'Received' } },
        },
      };
    }
  }
  return out;
}
