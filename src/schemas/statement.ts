import { Type, type Static } from '@sinclair/typebox';
import { Currency, DateTime } from './common.js';

export const Statement = Type.Object(
  {
    id: Type.String(),
    brandId: Type.String(),
    month: Type.String({ pattern: '^\\d{4}-\\d{2}$', description: 'YYYY-MM: the commissions it bills locked by the end of this UTC month' }),
    currency: Currency('ISO 4217 code of every amount of the statement (one statement per currency)'),
    lineCount: Type.Integer({ description: 'Number of commissions billed (one line per order)' }),
    commission: Type.Integer({ description: 'Sum of the commissions billed, in cents' }),
    fee: Type.Integer({ description: "Sum of the network's fee on each line, in cents" }),
    feeBasisPoints: Type.Integer({ description: "The network's fee on each line, in basis points of its commission (3000: 30 %), rounded half up to the cent per line" }),
    total: Type.Integer({ description: 'commission + fee, in cents: what the brand pays' }),
    paidAmount: Type.Integer({ description: 'What the network has received so far, in cents (payments add up)' }),
    status: Type.Union([Type.Literal('open'), Type.Literal('overdue'), Type.Literal('paid')], { description: 'open: to pay by dueAt; overdue: dueAt passed unpaid; paid: received in full' }),
    issuedAt: DateTime,
    dueAt: DateTime,
    paidAt: Type.Optional(Type.String({ format: 'date-time', description: 'When it was paid in full (absent until then); its commissions became payable then' })),
  },
  { $id: 'Statement', description: "Addition to the spec: what a brand is billed for one month's locked commissions in one currency, with the network's fee." },
);
export type Statement = Static<typeof Statement>;

export const StatementLine = Type.Object(
  {
    orderId: Type.String({ description: "The brand's own order id" }),
    affiliateId: Type.String(),
    value: Type.Integer({ description: 'Order value, in cents' }),
    orderedAt: DateTime,
    lockAt: DateTime,
    autoApproved: Type.Boolean({ description: 'true when the network approved the order at its lock date' }),
    commission: Type.Integer({ description: 'Commission billed, in cents' }),
    fee: Type.Integer({ description: "The network's fee on it, in cents" }),
  },
  { $id: 'StatementLine' },
);
export type StatementLine = Static<typeof StatementLine>;
