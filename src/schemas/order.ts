import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Uuid } from './common.js';

export const OrderStatuses = ['pending', 'approved', 'canceled'] as const;
export const CommissionStatuses = ['pending', 'approved', 'paid', 'canceled'] as const;

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
      description: 'pending → approved → paid; pending or approved → canceled',
    }),
    items: Type.Array(Type.Ref(OrderItem), { description: 'Order lines; the key is plain "items" (no whitespace)' }),
    organizationId: Uuid,
    mdasc: Type.Optional(Type.String({ description: 'The additional tracking identifier of the link that earned the order; omitted when the link has none' })),
  },
  { $id: 'Order' },
);
export type Order = Static<typeof Order>;
