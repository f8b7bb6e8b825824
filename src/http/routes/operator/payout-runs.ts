// Payout runs as operators make them: a dry run first, then the run (second factor again), the
// file for the bank or provider (second factor again: it holds payee details in full), and the
// provider's results uploaded back.
import { Type } from '@sinclair/typebox';
import { ExportRequest, PayoutRunRequest, PayoutRunResult, PayoutRunSummary, SettlementOutcome, SettlementRequest } from '../../../schemas/operator-money.js';
import { LimitQuery, PageQuery, Pagination, pageOf } from '../../../schemas/common.js';
import { payoutsCsv, settlementResults } from '../../../domain/ledger/payout-files.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { errorResponses } from '../../responses.js';
import { confirmAgain, operatorOf, SESSION_ONLY, TAG } from './actor.js';
import { CSV_CELLS_RULE } from '../../../lib/csv.js';

const RunId = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, description: 'The run’s id' }) });

export function listPayoutRunsRoute(app: App, services: ServingServices): void {
  app.get(
    '/operator/payout-runs',
    {
      schema: {
        tags: [TAG],
        summary: 'Payout runs',
        description: 'The runs, newest first, as { data, meta }: who made each, when, and its payouts counted and summed per status and currency.',
        security: SESSION_ONLY,
        querystring: Type.Object({ page: PageQuery, limit: LimitQuery(20, 100) }, { additionalProperties: false }),
        response: { 200: Type.Object({ data: Type.Array(PayoutRunSummary), meta: Type.Ref(Pagination) }) },
      },
    },
    async (request) => {
      const { page, limit } = request.query;
      const { items, total } = await services.payoutRuns.list({ page, limit });
      return { data: items, meta: pageOf(total, page, limit) };
    },
  );
}

export function getPayoutRunRoute(app: App, services: ServingServices): void {
  app.get(
    '/operator/payout-runs/:id',
    {
      schema: {
        tags: [TAG],
        summary: 'One payout run',
        description: 'The run’s payouts, by affiliate and currency, with their status; payee details only in the export.',
        security: SESSION_ONLY,
        params: RunId,
        response: { 200: Type.Object({ data: Type.Array(Type.Ref('Payout')) }), ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await services.payoutRuns.payoutsOf(request.params.id) }),
  );
}

export function createPayoutRunRoute(app: App, services: ServingServices): void {
  app.post(
    '/operator/payout-runs',
    {
      schema: {
        tags: [TAG],
        summary: 'Run payouts (or a dry run)',
        description:
          'Pays each affiliate (or one) its payable commissions and unpaid adjustments, per currency, where they reach PAYOUT_MINIMUM and its payout details are complete and not on hold, unless the network suspended it; every other amount says why it waits. With dryRun, pays nothing. The run itself asks for the second factor again (code, unless the session passed it within 10 minutes: 400 second_factor_needed). Two runs at the same time never pay a commission twice. Audited.',
        security: SESSION_ONLY,
        body: PayoutRunRequest,
        response: { 200: Type.Object({ data: PayoutRunResult }), ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const { dryRun, affiliateId, code } = request.body;
      if (!dryRun) await confirmAgain(request, services, code);
      const { batchId, lines } = await services.payoutRuns.run({ affiliateId, dryRun, actor: operatorOf(request) });
      return { data: { ...(batchId && { runId: batchId }), dryRun: dryRun === true, lines } };
    },
  );
}

export function exportPayoutRunRoute(app: App, services: ServingServices): void {
  app.post(
    '/operator/payout-runs/:id/export',
    {
      schema: {
        tags: [TAG],
        summary: 'The file for the bank or provider',
        description:
          `The run’s payouts as CSV (text/csv), payee details in full, one column per detail: keep the file safe. amount_cents and amount (in the currency’s major units, e.g. 12.50, 150 for JPY) are number cells. Pending payouts are marked sent as they are exported (their commissions paid, the affiliate told); one whose payout details changed since the run, or whose affiliate was suspended since, fails instead and its commissions are payable again. Exporting again gives the file again and changes nothing more. Asks for the second factor again; the export is in the audit trail. ${CSV_CELLS_RULE}`,
        security: SESSION_ONLY,
        params: RunId,
        body: ExportRequest,
        produces: ['text/csv'],
        response: { 200: Type.String({ description: 'CSV: payout_id, affiliate_id, currency, amount_cents, amount, status, method, failure_reason, payee.…' }), ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      await confirmAgain(request, services, request.body.code);
      const exported = await services.payoutRuns.export(request.params.id, operatorOf(request));
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="payout-run-${request.params.id}.csv"`)
        .header('cache-control', 'no-store')
        .send(payoutsCsv(exported));
    },
  );
}

export function settlePayoutRunRoute(app: App, services: ServingServices): void {
  app.post(
    '/operator/payout-runs/:id/settlement',
    {
      schema: {
        tags: [TAG],
        summary: 'Upload the provider’s results',
        description:
          'Records what the bank or provider did with each sent payout of the run, from its results file (CSV: payout_id, status settled or failed, reason). A failed payout returns its commissions to payable and its affiliate is told. Each payout answers what was done; a file naming a payout of another run, a failure without a reason or a line that is not CSV is refused whole (400), saying which line.',
        security: SESSION_ONLY,
        params: RunId,
        body: SettlementRequest,
        response: { 200: Type.Object({ data: Type.Array(SettlementOutcome) }), ...errorResponses(400, 404) },
      },
    },
    async (request) => ({ data: await services.payoutRuns.settle(request.params.id, settlementResults(request.body.file), operatorOf(request)) }),
  );
}
