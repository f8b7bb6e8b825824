import { Type, type Static } from '@sinclair/typebox';
import { Currency, DateTime, DescribedRef, Uuid } from './common.js';
import { ChannelRef } from './channel.js';
import { MAX_SUB_ID_LENGTH, type SubIdName } from '../lib/sub-ids.js';

/**
 * The affiliate's sub-ids of an order: those its click carried, each present one by name. The
 * affiliate's alone: a brand's view of the conversion never has them.
 */
const SubIdValue = Type.Optional(Type.String({ minLength: 1, maxLength: MAX_SUB_ID_LENGTH }));

/** Query filters sub1 … sub5 (each an exact value), described by `describe`. */
export function subIdFilterQuery(describe: (name: SubIdName) => string) {
  const filter = (name: SubIdName) => Type.Optional(Type.String({ minLength: 1, maxLength: MAX_SUB_ID_LENGTH, description: describe(name) }));
  return { sub1: filter('sub1'), sub2: filter('sub2'), sub3: filter('sub3'), sub4: filter('sub4'), sub5: filter('sub5') } satisfies Record<SubIdName, unknown>;
}
export const SubIds = Type.Object(
  { sub1: SubIdValue, sub2: SubIdValue, sub3: SubIdValue, sub4: SubIdValue, sub5: SubIdValue } satisfies Record<SubIdName, unknown>,
  {
    additionalProperties: false,
    description:
      'Addition to the spec: the sub-ids your click carried (GET /{code}?sub1=…&sub2=…, up to sub5: your tracker’s own labels, e.g. ad set and creative), only the present ones, e.g. { "sub1": "adset-7", "sub2": "creative-3" }; omitted when the click carried none, or the order has none of your clicks. Copied to the order when it was attributed to the click, so they outlive the click record.',
  },
);

export const OrderStatuses = ['pending', 'approved', 'canceled'] as const;
export const CommissionStatuses = ['pending', 'held', 'approved', 'payable', 'paid', 'canceled'] as const;
/**
 * Why a commission was canceled by the network: from the start, the order's click did not count as
 * a person's or its affiliate was suspended; or, after a fraud hold, the network declined it.
 */
export const CommissionReasons = ['bot_click', 'head_click', 'suspicious_click', 'affiliate_suspended', 'fraud_declined', 'unconfirmed'] as const;
export type CommissionReason = (typeof CommissionReasons)[number];
/** The fraud rules a conversion can trip (see docs/decisions.md, "Fraud holds"). */
export const HoldReasons = ['click_to_order_too_fast', 'self_referral', 'conversion_rate', 'conversions_per_click', 'datacenter_traffic'] as const;
export type HoldReason = (typeof HoldReasons)[number];

/** Shared by the affiliate's Order and the brand's Conversion. */
export const HoldReasonsField = Type.Optional(
  Type.Array(
    Type.Union(HoldReasons.map((r) => Type.Literal(r))),
    {
      description:
        'Present once the commission was held for the network\'s fraud review (while commissionStatus is held, and after its release or decline): the rules the conversion tripped. click_to_order_too_fast: ordered very soon after the click; self_referral: the customer is one of the affiliate\'s own users; conversion_rate: the affiliate\'s conversions per counted click on the brand that day are unusually high; conversions_per_click: too many conversions on one click; datacenter_traffic: much of the affiliate\'s traffic that day came from data-centre networks. The thresholds are the network\'s and are not published.',
    },
  ),
);
/** How an order arrived, and why its affiliate gets it. */
export const OrderSources = ['api', 'postback', 'tag', 'pixel', 'claim'] as const;
export const OrderAttributions = ['click', 'coupon', 'claim'] as const;
export type OrderSource = (typeof OrderSources)[number];
export type OrderAttribution = (typeof OrderAttributions)[number];

/** Shared by the affiliate's Order and the brand's Conversion. */
export const SourceField = (addition: string) =>
  Type.Union(OrderSources.map((s) => Type.Literal(s)), {
    description: `${addition}how the order arrived: api (POST /advertiser/conversions), postback (GET /postback; of orders stored before sources were recorded, those reported with a postback token), tag, pixel, or claim (an affiliate's claim the brand or the network accepted)`,
  });
export const AttributionField = (addition: string) =>
  Type.Union(OrderAttributions.map((s) => Type.Literal(s)), { description: `${addition}why the affiliate gets it: click (its link was clicked), coupon (its coupon was used), or claim (an accepted claim)` });

/** Shared by the affiliate's Order and the brand's Conversion. */
export const CommissionReasonField = Type.Optional(
  Type.Union(
    CommissionReasons.map((r) => Type.Literal(r)),
    {
      description:
        'Present only when the network canceled the commission: from the start because the click did not count (bot_click: a crawler or link preview; head_click: a HEAD request; suspicious_click: past the click velocity limit of its address on the link), or affiliate_suspended (the network had suspended the affiliate when the order was reported or when its click was made); or after a fraud hold (fraud_declined: the network reviewed the conversion and declined it, see holdReasons); or at its lock date (unconfirmed: the shop’s tag or pixel reported it, source tag or pixel, and the brand neither confirmed it from its server nor approved it). commission is then 0 and stays canceled whatever happens to the order, a later reactivation included. Omitted otherwise.',
    },
  ),
);

export const OrderItem = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 200 }),
    name: Type.String({ maxLength: 500 }),
    quantity: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
    price: Type.Integer({ minimum: 0, maximum: 1_000_000_000_000, description: 'Unit price in integer cents' }),
    categories: Type.Integer({ minimum: 0, description: 'Numeric category id of the item in the brand catalogue' }),
  },
  { $id: 'OrderItem', additionalProperties: false },
);
export type OrderItem = Static<typeof OrderItem>;

export const Order = Type.Object(
  {
    id: Type.String({ description: 'Network order id (use it with GET /affiliate/orders/{id})' }),
    orderId: Type.String({ description: "The brand's own order id" }),
    status: Type.Union(OrderStatuses.map((s) => Type.Literal(s)), { description: 'pending → approved | canceled' }),
    value: Type.Integer({ description: 'Order value in integer cents' }),
    createdAt: DateTime,
    commission: Type.Integer({ description: "Affiliate's commission in integer cents" }),
    commissionStatus: Type.Union(CommissionStatuses.map((s) => Type.Literal(s)), {
      description:
        'pending → approved → payable → paid; pending → canceled; canceled from the start when the click did not count or the affiliate was suspended (see commissionReason). payable is an addition to the spec: the brand paid the statement that billed the commission, and the next payout run pays it. held is an addition too: the conversion tripped a fraud rule (see holdReasons) and the network reviews it; a held commission never locks, is never billed or paid, and goes back to pending when released (its lockAt then counted from the release) or to canceled when declined (commissionReason fraud_declined)',
    }),
    commissionReason: CommissionReasonField,
    holdReasons: HoldReasonsField,
    items: Type.Array(Type.Ref(OrderItem), { description: 'Order lines; the key is plain "items" (no whitespace)' }),
    organizationId: Uuid,
    brandName: Type.Optional(Type.String({ description: 'Addition to the spec: the brand’s name, in the list, the order itself and the export' })),
    mdasc: Type.Optional(Type.String({ description: 'The additional tracking identifier of the link that earned the order; omitted when the link has none' })),
    // Additions to the spec's order: what an affiliate needs to reconcile it.
    currency: Currency('Addition to the spec: ISO 4217 code of value, commission and item prices (the brand’s currency when the order was reported)'),
    clickId: Type.Optional(Type.String({ description: 'Addition to the spec: your click the order came with; omitted when it has none of yours (a coupon order)' })),
    clickedAt: Type.Optional(Type.String({ format: 'date-time', description: 'Addition to the spec: when that click happened (kept on the order, so it outlives the click record)' })),
    linkCode: Type.Optional(Type.String({ description: 'Addition to the spec: urlCode of the short link that was clicked' })),
    channel: Type.Optional(DescribedRef(ChannelRef, 'Addition to the spec: the channel of that link')),
    payableAt: Type.Optional(Type.String({ format: 'date-time', description: 'Addition to the spec: when the commission became payable (the brand paid the statement that billed it); present from then on' })),
    paidAt: Type.Optional(Type.String({ format: 'date-time', description: 'Addition to the spec: when the commission was paid; present once commissionStatus is paid' })),
    payoutId: Type.Optional(Type.String({ description: 'Addition to the spec: the payout (GET /affiliate/payouts/{id}) the commission was paid in' })),
    lockAt: Type.String({ format: 'date-time', description: 'Addition to the spec: from then on the brand can no longer change the order; one still pending is approved by the network then' }),
    autoApproved: Type.Boolean({ description: 'Addition to the spec: true when the network approved the order at its lock date, the brand not having answered' }),
    source: SourceField('Addition to the spec: '),
    attribution: AttributionField('Addition to the spec: '),
    coupon: Type.Optional(Type.String({ description: 'Addition to the spec: your coupon code the customer used (GET /affiliate/coupons), as the brand reported it; omitted when the order came with none of your codes' })),
    subIds: Type.Optional(SubIds),
  },
  {
    $id: 'Order',
    description:
      'An order earned by one of the caller’s links. currency, clickId, clickedAt, linkCode, channel, payableAt, paidAt, payoutId, lockAt, autoApproved, source, attribution, coupon, subIds and holdReasons are additions to the spec’s fields; a field without a value is omitted, never null.',
  },
);
export type Order = Static<typeof Order>;
