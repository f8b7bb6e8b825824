import { Type, type Static } from '@sinclair/typebox';
import { Currency, DateTime } from './common.js';

export const Payout = Type.Object(
  {
    id: Type.String({ description: 'Payout id; orders paid in it carry it as payoutId' }),
    affiliateId: Type.String(),
    currency: Currency('ISO 4217 code of total (a payout is in one currency; a payment run makes one per currency)'),
    periodStart: DateTime,
    periodEnd: DateTime,
    total: Type.Integer({ description: 'Sum of the commissions paid, in integer minor units (cents) of currency' }),
    orderCount: Type.Integer({ description: 'Number of orders whose commission was paid in it' }),
    createdAt: DateTime,
  },
  {
    $id: 'Payout',
    description:
      'Addition to the spec: a payment of approved commissions to the affiliate, in one currency. periodStart and periodEnd are the creation times of the earliest and latest order it paid.',
  },
);
export type Payout = Static<typeof Payout>;
