import { Type, type Static } from '@sinclair/typebox';
import { Currency, DateTime, Examples } from './common.js';
import { AttributionField, CommissionReasonField, CommissionStatuses, HoldReasonsField, OrderItem, OrderStatuses, SourceField } from './order.js';

export const MAX_ORDER_VALUE = 10_000_000_000; // 100 million in cents: anything above is a mistake

export const ClickId = Type.String({ minLength: 1, maxLength: 64, description: 'The click id your site received on the landing URL (query parameter clickId unless agreed otherwise); optional when coupon is given' });
export const Coupon = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '^[^\\s]+$',
  description:
    'The coupon code the customer used, as they typed it (compared without case; no spaces). A code you gave an affiliate (PUT /advertiser/coupons/{code}) attributes the order to that affiliate; without clickId it must be such a code. With both, your attributionPriority decides (GET /advertiser/brand)',
});
export const BrandOrderId = Type.String({ minLength: 1, maxLength: 200, pattern: '^[^\\s]+$', description: 'Your own order id, unique per brand; no spaces' });
export const OrderValue = Type.Integer({ minimum: 1, maximum: MAX_ORDER_VALUE, description: 'Order value in integer cents (what the commission is computed on)' });

/** An order line as a brand reports it: the category may be left out. */
export const OrderItemInput = Type.Object(
  {
    ...OrderItem.properties,
    categories: Type.Optional(Type.Integer({ minimum: 0, description: 'Numeric category id of the item in your catalogue; leave out when you have none: 0 (unknown) is recorded' })),
  },
  { additionalProperties: false },
);
export type OrderItemInput = Static<typeof OrderItemInput>;

export const OrderItems = Type.Array(OrderItemInput, { minItems: 1, maxItems: 500, description: 'Order lines; Σ price × quantity must match value within 1 % or 100 cents. categories may be left out (0, unknown)' });

/** The customer's address as emailHash: lowercase hex SHA-256 of the address, trimmed and lowercased. */
export const EMAIL_HASH_PATTERN = '^[0-9a-fA-F]{64}$';
export const EmailHash = Type.String({
  pattern: EMAIL_HASH_PATTERN,
  description:
    "The customer's email address as hex SHA-256 (64 hex digits) of the address trimmed and lowercased, e.g. sha256(' Ana@Example.com ' → 'ana@example.com'). Used only to tell whether the customer is one of the affiliate's own users (a self-referral): the network keeps an HMAC of it, never this value, and never shows it to anyone.",
});

export const CustomerInput = Type.Object(
  {
    isNew: Type.Optional(Type.Boolean({ description: 'Whether this is the customer’s first order with you' })),
    emailHash: Type.Optional(EmailHash),
  },
  { additionalProperties: false, description: 'What you know of the customer, all optional' },
);

export const ConversionInput = Type.Object(
  {
    clickId: Type.Optional(ClickId),
    coupon: Type.Optional(Coupon),
    orderId: BrandOrderId,
    value: OrderValue,
    items: OrderItems,
    createdAt: Type.Optional(Type.String({ format: 'date-time', description: 'When the order was placed (default: now); not in the future, not before the click' })),
    customer: Type.Optional(CustomerInput),
  },
  {
    additionalProperties: false,
    ...Examples({
      order: ['An order of one item', { clickId: '9f2c4e1a7b3d4c5e8f6a1b2c3d4e5f60', orderId: 'A-1001', value: 19990, items: [{ id: 'sku-1', name: 'Sneakers', quantity: 1, price: 19990, categories: 12 }] }],
      coupon: ['An order placed with an affiliate’s coupon code, no click', { coupon: 'MARIA10', orderId: 'A-1002', value: 9990, items: [{ id: 'sku-2', name: 'Socks', quantity: 1, price: 9990, categories: 12 }] }],
    }),
  },
);
export type ConversionInput = Static<typeof ConversionInput>;

export const PostbackQuery = Type.Object(
  {
    clickId: Type.Optional(ClickId),
    coupon: Type.Optional(Coupon),
    orderId: BrandOrderId,
    // Digits only: a query string is text, and a lenient number reading takes 0x10 for 16 or 1e3
    // for 1000, amounts nobody meant.
    value: Type.String({ pattern: '^[0-9]{1,11}$', description: 'Order value in integer cents, digits only (no sign, decimal point, exponent or hex), at least 1' }),
    token: Type.String({
      minLength: 1,
      maxLength: 100,
      description:
        "Your brand's postback token (afp_…, issued by the network with `affnet brands postback-token`): it can report conversions through this URL and nothing else. " +
        'Your brand API key (afn_…) is still accepted here for compatibility, but discouraged: URLs are written to proxy, CDN and analytics logs, and the API key opens every advertiser endpoint.',
    }),
    createdAt: Type.Optional(Type.String({ format: 'date-time' })),
    customerIsNew: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')], { description: 'customer.isNew of POST /advertiser/conversions: true or false' })),
    customerEmailHash: Type.Optional({ ...EmailHash, description: `customer.emailHash of POST /advertiser/conversions: ${EmailHash.description}` }),
  },
  { additionalProperties: false },
);

/** customer of the API from the flat query parameters of a URL report (the postback, the pixel); none when neither is given. */
export function customerFromQuery(query: { customerIsNew?: 'true' | 'false' | undefined; customerEmailHash?: string | undefined }): { isNew?: boolean | undefined; emailHash?: string | undefined } | undefined {
  const { customerIsNew, customerEmailHash } = query;
  if (customerIsNew === undefined && customerEmailHash === undefined) return undefined;
  return { isNew: customerIsNew === undefined ? undefined : customerIsNew === 'true', emailHash: customerEmailHash };
}

export const ConversionUpdate = Type.Object(
  {
    status: Type.Optional(
      Type.Union([Type.Literal('approved'), Type.Literal('canceled')], {
        description: 'approved: the order is final, the commission becomes payable (unless it was canceled from the start, see commissionReason); canceled: no commission. Only a pending order can move.',
      }),
    ),
    value: Type.Optional({ ...OrderValue, description: 'Pending orders only: the corrected order value in integer cents (a partial refund); the commission is recomputed with the rule the order was created under' }),
    items: Type.Optional({ ...OrderItems, description: 'Pending orders only: the corrected order lines (a returned item); Σ price × quantity must match the value within 1 % or 100 cents' }),
    reason: Type.Optional(
      Type.String({ minLength: 1, maxLength: 500, description: 'Addition: why (a refund, a returned item, a fraudulent order), with a change; kept in the audit trail, which you and the affiliate read (GET /advertiser/audit, GET /affiliate/audit)' }),
    ),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    ...Examples({
      approve: ['The order is final', { status: 'approved' }],
      cancel: ['The customer returned the order', { status: 'canceled', reason: 'Returned within 7 days' }],
      refund: ['A partial refund', { value: 9990, items: [{ id: 'sku-1', name: 'Sneakers', quantity: 1, price: 9990, categories: 12 }] }],
    }),
  },
);
export type ConversionUpdate = Static<typeof ConversionUpdate>;

export const Conversion = Type.Object(
  {
    id: Type.String({ description: 'Network order id' }),
    orderId: Type.String({ description: 'Your order id' }),
    clickId: Type.Optional(Type.String({ description: 'The click you reported the order with (kept even when a coupon decided the affiliate, see attribution); omitted for orders recorded without one' })),
    status: Type.Union(OrderStatuses.map((st) => Type.Literal(st)), { description: 'pending → approved | canceled (your decision, or the network’s approval at lockAt)' }),
    commissionStatus: Type.Union(CommissionStatuses.map((st) => Type.Literal(st)), {
      description:
        'The affiliate’s commission: pending, held (the network reviews the conversion for fraud, see holdReasons: it does not lock and is not billed to you until released; you may still cancel the order, and approve it once released), approved, payable, paid, or canceled',
    }),
    commissionReason: CommissionReasonField,
    holdReasons: HoldReasonsField,
    value: Type.Integer({ description: 'Order value in integer minor units (cents) of currency' }),
    commission: Type.Integer({ description: "The affiliate's commission in integer minor units (cents) of currency" }),
    currency: Currency('ISO 4217 code of value and commission: your currency when the order was reported'),
    items: Type.Array(Type.Ref(OrderItem), { description: 'The order lines as reported (or last corrected)' }),
    affiliateId: Type.String({ description: 'The affiliate the order was attributed to' }),
    linkCode: Type.Optional(Type.String({ description: 'The short link that earned the order; omitted without one' })),
    mdasc: Type.Optional(Type.String({ description: "The affiliate's tracking id on that link; omitted without one" })),
    clickedAt: Type.Optional(DateTime),
    lockAt: Type.String({ format: 'date-time', description: 'Your validation days after the order was reported: until then you approve, cancel or correct it; after, it is locked (409 order_locked) and, if still pending, approved by the network' }),
    autoApproved: Type.Boolean({ description: 'True when the network approved the order at its lock date, you not having answered' }),
    source: SourceField(''),
    attribution: AttributionField(''),
    customer: Type.Optional(Type.Object({ isNew: Type.Optional(Type.Boolean({ description: 'As you reported it' })) }, { description: 'What you reported of the customer (never emailHash); omitted when you reported nothing of it' })),
    coupon: Type.Optional(Type.String({ description: 'The coupon code you reported with the order, as you sent it (whether or not an affiliate had it); omitted without one' })),
    createdAt: DateTime,
    updatedAt: DateTime,
  },
  { $id: 'Conversion', description: 'An order as its brand sees it' },
);
export type Conversion = Static<typeof Conversion>;

export const ConversionEvent = Type.Object(
  {
    field: Type.String({ description: 'What changed: created, status, commissionStatus, value, items, commission, commissionReason, lockAt, source (your server reported an order the tag or the pixel had reported), affiliateId (and your server named another affiliate’s click), clickId, createdAt (the order’s time, yours once your server reports it) or holdReasons (as JSON text; [] when a fraud hold ended because your server’s report no longer trips a rule)' }),
    from: Type.Optional(Type.String({ description: 'The value before (as text; items as JSON); omitted for created' })),
    to: Type.String({ description: 'The value after (as text; items as JSON)' }),
    at: DateTime,
    by: Type.String({ description: 'Who changed it: brand (you, through the API), operator (a person of the network, or one of its commands), or network (its scheduled work: a lock date, an accepted claim)' }),
    keyId: Type.Optional(Type.String({ description: 'The API key (key_…) or postback token (pbt_…) the brand made the change with' })),
    reconciliationId: Type.Optional(Type.String({ description: 'Addition: the reconciliation (your shop’s order export, POST /advertiser/conversions/reconciliations) the change was applied from' })),
  },
  { $id: 'ConversionEvent', description: "One entry of an order's audit trail" },
);
