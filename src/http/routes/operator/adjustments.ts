// Operators' adjustments of what affiliates are owed: listed, and made with the second factor again.
import { Type } from '@sinclair/typebox';
import { Adjustment, AdjustmentRequest } from '../../../schemas/operator-money.js';
import { LimitQuery, PageQuery, Pagination, pageOf } from '../../../schemas/common.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import type { AdjustmentView } from '../../../domain/ledger/ledger-service.js';
import { errorResponses } from '../../responses.js';
import { confirmAgain, operatorOf, SESSION_ONLY, TAG } from './actor.js';

const viewOf = (row: AdjustmentView) => ({
  id: row.id,
  affiliateId: row.affiliate_id,
  amount: Number(row.amount),
  currency: row.currency,
  reason: row.reason,
  createdBy: row.created_by,
  createdAt: row.created_at,
  ...(row.payout_id !== null && { payoutId: row.payout_id }),
});

export function listAdjustmentsRoute(app: App, services: ServingServices): void {
  app.get(
    '/operator/adjustments',
    {
      schema: {
        tags: [TAG],
        summary: 'Adjustments',
        description: 'Operators’ adjustments, newest first, as { data, meta }: every affiliate’s, or one’s. An adjustment is paid with the affiliate’s next payout.',
        security: SESSION_ONLY,
        querystring: Type.Object({ affiliateId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })), page: PageQuery, limit: LimitQuery(50, 200) }, { additionalProperties: false }),
        response: { 200: Type.Object({ data: Type.Array(Adjustment), meta: Type.Ref(Pagination) }) },
      },
    },
    async (request) => {
      const { affiliateId, page, limit } = request.query;
      const { items, total } = await services.ledger.adjustments(affiliateId, { page, limit });
      return { data: items.map(viewOf), meta: pageOf(total, page, limit) };
    },
  );
}

export function createAdjustmentRoute(app: App, services: ServingServices): void {
  app.post(
    '/operator/adjustments',
    {
      schema: {
        tags: [TAG],
        summary: 'Adjust what an affiliate is owed',
        description:
          'Adds (or, negative, takes away) an amount the affiliate is owed in a currency, with the reason it reads; paid with its next payout, in the ledger at once. Asks for the second factor again (400 second_factor_needed). Adjustments are never changed or deleted: correct one with another. Audited.',
        security: SESSION_ONLY,
        body: AdjustmentRequest,
        response: { 201: Type.Object({ data: Adjustment }), ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      const { code, ...input } = request.body;
      await confirmAgain(request, services, code);
      const row = await services.ledger.adjust({ ...input, actor: operatorOf(request) });
      return reply.code(201).send({ data: viewOf(row) });
    },
  );
}
