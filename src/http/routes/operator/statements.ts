// Brands' statements as operators run them: every brand's, by status (unpaid, overdue, paid),
// issued for a month that has ended, and brands' payments recorded against them.
import { Type } from '@sinclair/typebox';
import { IssueStatements, OperatorStatement, StatementPayment } from '../../../schemas/operator-money.js';
import { LimitQuery, PageQuery, Pagination, pageOf } from '../../../schemas/common.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { errorResponses } from '../../responses.js';
import { operatorOf, SESSION_ONLY, TAG } from './actor.js';

export function listStatementsRoute(app: App, services: ServingServices): void {
  app.get(
    '/operator/statements',
    {
      schema: {
        tags: [TAG],
        summary: 'Brands’ statements',
        description: 'Every brand’s statements, newest month first, as { data, meta }: all, or only the unpaid ones, the overdue ones (unpaid past their due date: the brands to chase) or the paid ones; of one brand or month.',
        security: SESSION_ONLY,
        querystring: Type.Object(
          {
            status: Type.Optional(Type.Union([Type.Literal('unpaid'), Type.Literal('overdue'), Type.Literal('paid')])),
            brandId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
            month: Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}$', description: 'YYYY-MM' })),
            page: PageQuery,
            limit: LimitQuery(50, 200),
          },
          { additionalProperties: false },
        ),
        response: { 200: Type.Object({ data: Type.Array(OperatorStatement), meta: Type.Ref(Pagination) }), ...errorResponses(400) },
      },
    },
    async (request) => {
      const { page, limit, ...filters } = request.query;
      const { items, total } = await services.statements.search(filters, { page, limit });
      return { data: items, meta: pageOf(total, page, limit) };
    },
  );
}

export function issueStatementsRoute(app: App, services: ServingServices): void {
  app.post(
    '/operator/statements',
    {
      schema: {
        tags: [TAG],
        summary: 'Issue a month’s statements',
        description:
          'Issues the statements of a month that has ended: one per brand and currency with approved commissions locked by the month’s end and not billed yet (orders still pending past their lock date are approved first). Issuing again makes only those still missing. Each brand is told (statement.issued, mail); each statement is in the audit trail. 400 month_not_ended before the month ends.',
        security: SESSION_ONLY,
        body: IssueStatements,
        response: { 200: Type.Object({ data: Type.Array(Type.Ref('Statement')) }), ...errorResponses(400) },
      },
    },
    async (request) => ({ data: await services.statements.issue(request.body.month, operatorOf(request)) }),
  );
}

export function recordPaymentRoute(app: App, services: ServingServices): void {
  app.post(
    '/operator/statements/:id/payments',
    {
      schema: {
        tags: [TAG],
        summary: 'Record a brand’s payment',
        description:
          'Records money received from the brand against its statement, in parts or at once (at most what is left: 409 overpayment; 409 statement_paid when nothing is left). The payment that completes it makes its commissions payable, so the next payout run pays them. In the audit trail.',
        security: SESSION_ONLY,
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
        body: StatementPayment,
        response: { 200: Type.Object({ data: Type.Ref('Statement') }), ...errorResponses(400, 404, 409) },
      },
    },
    async (request) => ({ data: await services.statements.recordPayment(request.params.id, request.body.amount, request.body.reference, operatorOf(request)) }),
  );
}
