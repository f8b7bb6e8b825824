import { Type, type Static } from '@sinclair/typebox';
import { Currency, DateTime } from './common.js';

export const PayoutStatuses = ['pending', 'sent', 'settled', 'failed'] as const;

export const Payout = Type.Object(
  {
    id: Type.String({ description: 'Payout id; orders paid in it carry it as payoutId' }),
    affiliateId: Type.String(),
    currency: Currency('ISO 4217 code of total (a payout is in one currency; a payout run makes one per affiliate and currency)'),
    periodStart: DateTime,
    periodEnd: DateTime,
    total: Type.Integer({ description: 'What the payout pays, in integer minor units (cents) of currency: the commissions plus the adjustments' }),
    orderCount: Type.Integer({ description: 'Number of orders whose commission it pays' }),
    adjustmentTotal: Type.Integer({ description: "The part of total made of the network's adjustments (negative when they reduce it)" }),
    status: Type.Union(
      PayoutStatuses.map((s) => Type.Literal(s)),
      { description: 'pending: in a run, not yet sent; sent: handed to the bank or payment provider (its commissions are paid); settled: received; failed: did not go through (its commissions are payable again)' },
    ),
    method: Type.Optional(Type.String({ description: 'Where it goes, masked (e.g. "PIX cpf ***.456.789-**"); absent for payouts made before payout details existed' })),
    createdAt: DateTime,
    sentAt: Type.Optional(Type.String({ format: 'date-time', description: 'When it was handed to the bank or payment provider (absent while pending)' })),
    settledAt: Type.Optional(Type.String({ format: 'date-time', description: 'When it was received (absent unless settled)' })),
    failedAt: Type.Optional(Type.String({ format: 'date-time', description: 'When it failed (absent unless failed)' })),
    failureReason: Type.Optional(Type.String({ description: 'Why it failed, as the bank or provider said (absent unless failed)' })),
  },
  {
    $id: 'Payout',
    description:
      'Addition to the spec: a payment to the affiliate of its payable commissions (and any adjustments), in one currency. periodStart and periodEnd are the creation times of the earliest and latest order it pays.',
  },
);
export type Payout = Static<typeof Payout>;
