// The money as operators run it: statements to issue and payments to record, payout runs (dry run,
// run, export, the provider's results), adjustments, and the ledger's check and trial balance.
import { Type, type Static } from '@sinclair/typebox';
import { Currency, DateTime, Examples } from './common.js';
import { Statement } from './statement.js';

/** A current code of the operator's authenticator app: money moves ask for the second factor again. */
const SecondFactorCode = Type.Optional(
  Type.String({
    minLength: 6,
    maxLength: 8,
    pattern: '^[0-9]+$',
    description: 'A current code of your authenticator app. Needed unless this session passed its second factor within the last 10 minutes (a passkey: sign in again with it)',
  }),
);

export const OperatorStatement = Type.Composite([Statement, Type.Object({ brandName: Type.String() })], { description: 'A statement, with its brand’s name' });

export const IssueStatements = Type.Object(
  { month: Type.String({ pattern: '^\\d{4}-\\d{2}$', description: 'YYYY-MM, a month that has ended' }) },
  { additionalProperties: false, ...Examples({ lastMonth: ['Issue October’s statements', { month: '2026-10' }] }) },
);

export const StatementPayment = Type.Object(
  {
    amount: Type.Integer({ minimum: 1, description: 'Cents received, at most what is left to pay' }),
    reference: Type.String({ minLength: 1, maxLength: 200, description: 'The bank transfer id or receipt' }),
  },
  { additionalProperties: false, ...Examples({ inFull: ['A transfer received', { amount: 128_450, reference: 'PIX E2E 3f9a…' }] }) },
);

export const PayoutRunRequest = Type.Object(
  {
    dryRun: Type.Optional(Type.Boolean({ description: 'Say what would be paid and why the rest waits; pay nothing (no second factor needed)' })),
    affiliateId: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Only this affiliate' })),
    code: SecondFactorCode,
  },
  { additionalProperties: false, ...Examples({ dryRun: ['A dry run first', { dryRun: true }], run: ['The run', { code: '123456' }] }) },
);

/** Why an amount waits, as a code and the values a page words it with. */
export const RunLineWait = Type.Object(
  {
    reason: Type.Union([
      Type.Literal('affiliate_suspended'),
      Type.Literal('below_minimum'),
      Type.Literal('no_payee_details'),
      Type.Literal('payee_details_held'),
      Type.Literal('payee_details_unreadable'),
      Type.Literal('paid_meanwhile'),
    ]),
    minimum: Type.Optional(Type.Integer({ description: 'below_minimum: the least a payout in this currency pays, cents' })),
    since: Type.Optional(DateTime),
    until: Type.Optional(Type.String({ format: 'date-time', description: 'payee_details_held: when payouts may go again' })),
  },
  { description: 'Why a run does not pay the amount now (skipped says the same in English): affiliate_suspended (since), below_minimum (minimum), no_payee_details, payee_details_held (since the change, until), payee_details_unreadable, paid_meanwhile (another run paid it, or it fell below the minimum).' },
);
export type RunLineWait = Static<typeof RunLineWait>;

export const RunLine = Type.Object({
  affiliateId: Type.String(),
  currency: Currency(),
  commission: Type.Integer({ description: 'Payable commissions, cents' }),
  orders: Type.Integer(),
  adjustments: Type.Integer({ description: 'Unpaid adjustments, cents (±)' }),
  total: Type.Integer({ description: 'commission + adjustments, cents' }),
  skipped: Type.Optional(Type.String({ description: 'Why it waits, in English' })),
  waits: Type.Optional(RunLineWait),
  payout: Type.Optional(Type.Ref('Payout')),
});

export const PayoutRunResult = Type.Object({
  runId: Type.Optional(Type.String({ description: 'The run made (absent on a dry run, or when nothing could be paid)' })),
  dryRun: Type.Boolean({ description: 'true for a dry run (nothing paid); false for a run, even one that found nothing to pay' }),
  lines: Type.Array(RunLine),
});

export const PayoutRunSummary = Type.Object({
  id: Type.String(),
  createdBy: Type.String({ description: 'The operator’s user id, cli or network' }),
  createdAt: DateTime,
  payoutCount: Type.Integer(),
  totals: Type.Array(Type.Object({ status: Type.Union([Type.Literal('pending'), Type.Literal('sent'), Type.Literal('settled'), Type.Literal('failed')]), currency: Currency(), payouts: Type.Integer(), total: Type.Integer({ description: 'Cents' }) })),
});

export const ExportRequest = Type.Object({ code: SecondFactorCode }, { additionalProperties: false, ...Examples({ export: ['Export', { code: '123456' }] }) });

export const SettlementRequest = Type.Object(
  {
    file: Type.String({ minLength: 1, maxLength: 5_000_000, description: 'The provider’s results as CSV: columns payout_id, status (settled or failed) and reason (required when failed)' }),
  },
  { additionalProperties: false, ...Examples({ results: ['The provider’s file', { file: 'payout_id,status,reason\r\n4c1d…,settled,\r\n' }] }) },
);

export const SettlementOutcome = Type.Object({
  payoutId: Type.String(),
  status: Type.Union([Type.Literal('settled'), Type.Literal('failed')]),
  reason: Type.Optional(Type.String()),
  outcome: Type.String({ description: 'What was done, in English: settled, failed…, already settled, left sent…' }),
  result: Type.Union([Type.Literal('settled'), Type.Literal('failed'), Type.Literal('already_done'), Type.Literal('not_sent'), Type.Literal('changed_meanwhile')], {
    description: 'What was done, as a code: settled; failed (its commissions are payable again); already_done (it had that status); not_sent (only a sent payout can be settled or failed: payoutStatus says what it is); changed_meanwhile (left as it is)',
  }),
  payoutStatus: Type.Optional(Type.String({ description: 'not_sent: the payout’s status' })),
});

export const AdjustmentRequest = Type.Object(
  {
    affiliateId: Type.String({ minLength: 1, maxLength: 64 }),
    amount: Type.Integer({ description: 'Cents, negative to reduce what the affiliate is owed; never 0' }),
    currency: Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code' }),
    reason: Type.String({ minLength: 1, maxLength: 500, description: 'The affiliate reads it' }),
    code: SecondFactorCode,
  },
  { additionalProperties: false, ...Examples({ bonus: ['A bonus', { affiliateId: 'aff-1', amount: 5_000, currency: 'BRL', reason: 'Black Friday bonus', code: '123456' }] }) },
);

export const Adjustment = Type.Object({
  id: Type.String(),
  affiliateId: Type.String(),
  amount: Type.Integer({ description: 'Cents (±)' }),
  currency: Currency(),
  reason: Type.String(),
  createdBy: Type.String({ description: 'The operator’s user id, or cli' }),
  createdAt: DateTime,
  payoutId: Type.Optional(Type.String({ description: 'The payout that paid it; absent until one did' })),
});

export const LedgerCheck = Type.Object({
  balanced: Type.Boolean({ description: 'true when every entry balances and every tracked account agrees with the records' }),
  differences: Type.Array(Type.String(), { description: 'Each difference found, in words' }),
});

export const TrialBalance = Type.Object({
  month: Type.String(),
  currencies: Type.Array(
    Type.Object({
      currency: Currency(),
      accounts: Type.Array(
        Type.Object({
          account: Type.String(),
          holder: Type.Object(
            { kind: Type.Union([Type.Literal('brand'), Type.Literal('affiliate'), Type.Literal('network')]), id: Type.Optional(Type.String()), name: Type.Optional(Type.String()) },
            { description: 'Whose account it is: a brand’s or an affiliate’s (with its name), or the network’s own' },
          ),
          purpose: Type.String({ description: 'What the account holds: unbilled, receivable (a brand’s); approved, payable (an affiliate’s); cash, fees, adjustments, payouts_sent, opening (the network’s)' }),
          opening: Type.Integer(),
          debit: Type.Integer(),
          credit: Type.Integer(),
          closing: Type.Integer(),
        }),
      ),
    }),
  ),
});
