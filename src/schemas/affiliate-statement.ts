import { Type, type Static } from '@sinclair/typebox';
import { Currency, DateTime } from './common.js';

const Cents = (description: string) => Type.Integer({ description: `${description}, in cents` });

export const AffiliateStatementMovement = Type.Object(
  {
    at: DateTime,
    kind: Type.String({
      description:
        'What moved the balance: approval (a commission approved, by the brand or at its lock date), opening (a commission owed from before statements existed), adjustment (by the network), payout_sent (a payout sent: negative), payout_failed (a payout that failed: owed again)',
    }),
    amount: Type.Integer({ description: 'What it added to the balance owed to the affiliate, in cents (negative when it reduced it)' }),
    orderId: Type.Optional(Type.String({ description: "The order's id on the network (id in GET /affiliate/orders), for approval and opening" })),
    orderNumber: Type.Optional(Type.String({ description: 'With orderId: the brand’s own order id (orderId in GET /affiliate/orders)' })),
    brandId: Type.Optional(Type.String({ description: 'With orderId: the order’s brand' })),
    brandName: Type.Optional(Type.String({ description: 'With orderId: the brand’s name' })),
    payoutId: Type.Optional(Type.String({ description: 'The payout, for payout_sent and payout_failed' })),
    adjustmentId: Type.Optional(Type.String({ description: 'The adjustment, for adjustment' })),
  },
  { $id: 'AffiliateStatementMovement' },
);

export const AffiliateStatement = Type.Object(
  {
    month: Type.String({ pattern: '^\\d{4}-\\d{2}$', description: 'YYYY-MM, a UTC month' }),
    currency: Currency('ISO 4217 code of every amount of this statement (one statement per currency the affiliate had money in)'),
    openingBalance: Cents('Owed to the affiliate at the start of the month (approved and payable)'),
    approved: Cents('Commissions approved in the month'),
    payable: Cents('Commissions that became payable in the month (their brands paid their statements): a move within the balance, not an addition'),
    paid: Cents('Payouts sent in the month'),
    returned: Cents('Payouts that failed in the month (their amounts owed again)'),
    adjustments: Cents("The network's adjustments in the month (negative when they reduce what is owed)"),
    closingBalance: Cents('Owed at the end of the month (or now, for the month in progress): openingBalance + approved + adjustments − paid + returned'),
    awaitingBrandPayment: Cents('Of closingBalance: approved, waiting for the brand to pay its statement'),
    payableBalance: Cents('Of closingBalance: payable, for the next payout run'),
    movements: Type.Array(Type.Ref(AffiliateStatementMovement), { description: 'Every movement of the month, oldest first (commissions made payable are counted in payable, not listed)' }),
  },
  {
    $id: 'AffiliateStatement',
    description: 'Addition to the spec: what the network owed the affiliate over one month in one currency, read from its ledger accounts.',
  },
);
export type AffiliateStatement = Static<typeof AffiliateStatement>;
