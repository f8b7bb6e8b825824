import { Type, type Static } from '@sinclair/typebox';
import { Currency, DateTime, Examples } from './common.js';
import { AttributionField, CommissionReasonField, OrderItem, SourceField } from './order.js';

export const MAX_ORDER_VALUE = 10_000_000_000; // 100 million in cents: anything above is a mistake

const ClickId = Type.String({ minLength: 1, maxLength: 64, description: 'The click id your site received on the landing URL (query parameter clickId unless agreed otherwise)' });
const BrandOrderId = Type.String({ minLength: 1, maxLength: 200, pattern: '^[^\\s]+$', description: 'Your own order id, unique per brand; no spaces' });
const OrderValue = Type.Integer({ minimum: 1, maximum: MAX_ORDER_VALUE, description: 'Order value in integer cents (what the commission is computed on)' });

const OrderItems = Type.Array(Type.Object(OrderItem.properties, { additionalProperties: false }), { minItems: 1, maxItems: 500, description: 'Order lines; Σ price × quantity must match value within 1 % or 100 cents' });

export const ConversionInput = Type.Object(
  {
    clickId: ClickId,
    orderId: BrandOrderId,
    value: OrderValue,
    items: OrderItems,
    createdAt: Type.Optional(Type.String({ format: 'date-time', description: 'When the order was placed (default: now); not in the future, not before the click' })),
  },
  {
    additionalProperties: false,
    ...Examples({
      order: ['An order of one item', { clickId: '9f2c4e1a7b3d4c5e8f6a1b2c3d4e5f60', orderId: 'A-1001', value: 19990, items: [{ id: 'sku-1', name: 'Sneakers', quantity: 1, price: 19990, categories: 12 }] }],
    }),
  },
);
export type ConversionInput = Static<typeof ConversionInput>;

export const PostbackQuery = Type.Object(
  {
    clickId: ClickId,
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
  },
  { additionalProperties: false },
);

export const ConversionUpdate = Type.Object(
  {
    status: Type.Optional(
      Type.Union([Type.Literal('approved'), Type.Literal('canceled')], {
        description: 'approved: the order is final, the commission becomes payable (unless it was canceled from the start, see commissionReason); canceled: no commission. Only a pending order can move.',
      }),
    ),
    value: Type.Optional({ ...OrderValue, description: 'Pending orders only: the corrected order value in integer cents (a partial refund); the commission is recomputed with the rule the order was created under' }),
    items: Type.Optional({ ...OrderItems, description: 'Pending orders only: the corrected order lines (a returned item); Σ price × quantity must match the value within 1 % or 100 cents' }),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    ...Examples({
      approve: ['The order is final', { status: 'approved' }],
      refund: ['A partial refund', { value: 9990, items: [{ id: 'sku-1', name: 'Sneakers', quantity: 1, price: 9990, categories: 12 }] }],
    }),
  },
);
export type ConversionUpdate = Static<typeof ConversionUpdate>;

export const Conversion = Type.Object(
  {
    id: Type.String({ description: 'Network order id' }),
    orderId: Type.String({ description: 'Your order id' }),
    clickId: Type.Optional(Type.String({ description: 'The click the order was attributed to; omitted for orders recorded without one' })),
    status: Type.String(),
    commissionStatus: Type.String(),
    commissionReason: CommissionReasonField,
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
    createdAt: DateTime,
    updatedAt: DateTime,
  },
  { $id: 'Conversion', description: 'An order as its brand sees it' },
);
export type Conversion = Static<typeof Conversion>;

export const ConversionEvent = Type.Object(
  {
    field: Type.String({ description: 'What changed: created, status, commissionStatus, value, items or commission' }),
    from: Type.Optional(Type.String({ description: 'The value before (as text; items as JSON); omitted for created' })),
    to: Type.String({ description: 'The value after (as text; items as JSON)' }),
    at: DateTime,
    by: Type.String({ description: 'Who changed it: brand (through the API) or operator (the network)' }),
    keyId: Type.Optional(Type.String({ description: 'The API key (key_…) or postback token (pbt_…) the brand made the change with' })),
  },
  { $id: 'ConversionEvent', description: "One entry of an order's audit trail" },
);
