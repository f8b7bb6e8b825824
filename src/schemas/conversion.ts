import { Type, type Static } from '@sinclair/typebox';
import { DateTime } from './common.js';
import { CommissionReasonField, OrderItem } from './order.js';

export const MAX_ORDER_VALUE = 10_000_000_000; // 100 million in cents: anything above is a mistake

const ClickId = Type.String({ minLength: 1, maxLength: 64, description: 'The click id your site received on the landing URL (query parameter clickId unless agreed otherwise)' });
const BrandOrderId = Type.String({ minLength: 1, maxLength: 200, pattern: '^[^\\s]+$', description: 'Your own order id, unique per brand; no spaces' });
const OrderValue = Type.Integer({ minimum: 1, maximum: MAX_ORDER_VALUE, description: 'Order value in integer cents (what the commission is computed on)' });

export const ConversionInput = Type.Object(
  {
    clickId: ClickId,
    orderId: BrandOrderId,
    value: OrderValue,
    items: Type.Array(Type.Object(OrderItem.properties, { additionalProperties: false }), { minItems: 1, maxItems: 500, description: 'Order lines; Σ price × quantity must match value within 1 % or 100 cents' }),
    createdAt: Type.Optional(Type.String({ format: 'date-time', description: 'When the order was placed (default: now); not in the future, not before the click' })),
  },
  { additionalProperties: false },
);
export type ConversionInput = Static<typeof ConversionInput>;

export const PostbackQuery = Type.Object(
  {
    clickId: ClickId,
    orderId: BrandOrderId,
    value: OrderValue,
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
    status: Type.Union([Type.Literal('approved'), Type.Literal('canceled')], {
      description: 'approved: the order is final, the commission becomes payable (unless it was canceled from the start, see commissionReason); canceled: no commission. Only a pending order can move.',
    }),
  },
  { additionalProperties: false },
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
    value: Type.Integer({ description: 'Cents' }),
    commission: Type.Integer({ description: 'Cents' }),
    createdAt: DateTime,
    updatedAt: DateTime,
  },
  { $id: 'Conversion', description: 'An order as its brand sees it' },
);
export type Conversion = Static<typeof Conversion>;
