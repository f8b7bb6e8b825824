// Claims of sales the tracking missed: what an affiliate files, what each side reads, and the
// brand's answer.
import { Type, type Static } from '@sinclair/typebox';
import { Currency, DateTime, Examples, Uuid } from './common.js';
import { MAX_ORDER_VALUE } from './conversion.js';

export const ClaimStatuses = ['open', 'accepted', 'declined'] as const;
export type ClaimStatus = (typeof ClaimStatuses)[number];

const ClaimValue = Type.Integer({ minimum: 1, maximum: MAX_ORDER_VALUE, description: 'Order value in integer cents of the brand’s currency' });

export const ClaimInput = Type.Object(
  {
    organizationId: Uuid,
    orderId: Type.String({ minLength: 1, maxLength: 200, pattern: '^[^\\s]+$', description: "The brand's own order id, as the customer's confirmation shows it; no spaces" }),
    orderedAt: Type.String({ format: 'date-time', description: 'When the order was placed: not in the future, and no longer ago than the brand’s attribution window plus its validation days' }),
    value: ClaimValue,
    currency: Type.Optional(Currency('The brand’s currency (GET /affiliate/brands/{id}); optional, refused when it is another (422 currency_mismatch)')),
    linkCode: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'The code of your short link the customer came through, if you know it' })),
    clickId: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'The click id the brand’s site received, if you know it' })),
    note: Type.Optional(Type.String({ maxLength: 2000, description: 'What the brand should know to find the order (the customer’s confirmation, the campaign…)' })),
  },
  {
    additionalProperties: false,
    ...Examples({
      claim: ['A sale the tracking missed', { organizationId: '11111111-1111-4111-8111-111111111111', orderId: 'A-1001', orderedAt: '2026-11-20T14:30:00.000Z', value: 19990, linkCode: 'Abc1234', note: 'The customer sent me the confirmation e-mail' }],
    }),
  },
);
export type ClaimInput = Static<typeof ClaimInput>;

export const ClaimAnswer = Type.Object(
  {
    status: Type.Union([Type.Literal('accepted'), Type.Literal('declined')], { description: 'accepted: the order is recorded for the affiliate (a pending conversion, source and attribution claim); declined: nothing is recorded' }),
    reason: Type.Optional(Type.String({ minLength: 1, maxLength: 2000, description: 'Why you decline it (required to decline; the affiliate reads it)' })),
    value: Type.Optional({ ...ClaimValue, description: 'Accepting only: the order’s actual value in integer cents, when the claimed one is wrong; the commission is computed on it' }),
  },
  {
    additionalProperties: false,
    ...Examples({
      accept: ['Accept at the claimed value', { status: 'accepted' }],
      correct: ['Accept at the actual value', { status: 'accepted', value: 15990 }],
      decline: ['Decline, saying why', { status: 'declined', reason: 'The order was canceled by the customer' }],
    }),
  },
);
export type ClaimAnswer = Static<typeof ClaimAnswer>;

export const Claim = Type.Object(
  {
    id: Type.String({ description: 'The claim’s id' }),
    organizationId: Uuid,
    brandName: Type.Optional(Type.String({ description: 'The brand’s name (in lists)' })),
    affiliateId: Type.String({ description: 'The affiliate that filed it' }),
    affiliateName: Type.Optional(Type.String({ description: 'The affiliate’s name (in lists)' })),
    orderId: Type.String({ description: "The brand's own order id" }),
    orderedAt: DateTime,
    value: Type.Integer({ description: 'Claimed value in integer cents' }),
    currency: Currency('ISO 4217 code of value (the brand’s currency)'),
    linkCode: Type.Optional(Type.String()),
    clickId: Type.Optional(Type.String()),
    note: Type.String(),
    status: Type.Union(ClaimStatuses.map((s) => Type.Literal(s)), { description: 'open → accepted | declined' }),
    acceptedValue: Type.Optional(Type.Integer({ description: 'The value it was accepted at: the brand’s correction, or the claimed value' })),
    reason: Type.Optional(Type.String({ description: 'Why the brand declined it' })),
    resolvedBy: Type.Optional(Type.Union([Type.Literal('brand'), Type.Literal('network')], { description: 'brand, or network: accepted at the claimed value when the brand did not answer in time' })),
    resolvedAt: Type.Optional(DateTime),
    orderNetworkId: Type.Optional(Type.String({ description: 'The network id of the order it made (affiliates: GET /affiliate/orders/{id})' })),
    autoAcceptAt: Type.String({ format: 'date-time', description: 'When the network accepts it at the claimed value if the brand has not answered (the brand’s claimAutoAcceptDays after it was filed)' }),
    createdAt: DateTime,
    updatedAt: DateTime,
  },
  { $id: 'Claim', description: 'A claim of a sale the tracking missed. A field without a value is omitted, never null.' },
);
export type Claim = Static<typeof Claim>;
