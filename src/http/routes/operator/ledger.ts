// The ledger as an accountant asks of it: does it balance and agree with the records (the check),
// and a month's trial balance per currency.
import { Type } from '@sinclair/typebox';
import { LedgerCheck, TrialBalance } from '../../../schemas/operator-money.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { errorResponses } from '../../responses.js';
import { SESSION_ONLY, TAG } from './actor.js';

export function ledgerCheckRoute(app: App, services: ServingServices): void {
  app.get(
    '/operator/ledger/check',
    {
      schema: {
        tags: [TAG],
        summary: 'Check the ledger',
        description: 'Whether every entry balances, every currency adds up to zero, and each tracked account (brands’ unbilled and receivable, affiliates’ approved and payable, payouts sent) holds what the orders, statements, payouts and adjustments say; each difference in words.',
        security: SESSION_ONLY,
        response: { 200: Type.Object({ data: LedgerCheck }) },
      },
    },
    async () => {
      const differences = await services.ledger.check();
      return { data: { balanced: differences.length === 0, differences } };
    },
  );
}

export function trialBalanceRoute(app: App, services: ServingServices): void {
  app.get(
    '/operator/ledger/trial-balance',
    {
      schema: {
        tags: [TAG],
        summary: 'A month’s trial balance',
        description: 'Per currency, each account’s opening balance, debits, credits and closing balance over the UTC month (cents).',
        security: SESSION_ONLY,
        querystring: Type.Object({ month: Type.String({ pattern: '^\\d{4}-\\d{2}$', description: 'YYYY-MM' }) }, { additionalProperties: false }),
        response: { 200: Type.Object({ data: TrialBalance }), ...errorResponses(400) },
      },
    },
    async (request) => {
      const report = await services.ledger.report(request.query.month);
      return { data: { month: request.query.month, currencies: [...report].map(([currency, accounts]) => ({ currency, accounts })) } };
    },
  );
}
