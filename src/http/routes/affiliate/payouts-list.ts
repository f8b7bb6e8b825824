import { Type } from '@sinclair/typebox';
import { LimitQuery, PageQuery, Pagination, pageOf } from '../../../schemas/common.js';
import { Payout } from '../../../schemas/payout.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';

const Query = Type.Object({ page: PageQuery, limit: LimitQuery(20, 100) }, { additionalProperties: false });

export function listPayoutsRoute(app: App, services: ServingServices): void {
  app.get(
    '/affiliate/payouts',
    {
      schema: {
        tags: ['Orders'],
        summary: "List the caller's payouts",
        description:
          'Addition to the spec. Payments of the caller’s payable commissions (and any adjustments), newest first (createdAt, then id): one per currency per payout run, each with its status (pending → sent → settled | failed), where it went (masked) and when.',
        security: [{ apiKey: [] }],
        querystring: Query,
        response: { 200: Type.Object({ data: Type.Array(Type.Ref(Payout)), meta: Type.Ref(Pagination) }) },
      },
    },
    async (request) => {
      const { items, total } = await services.payouts.list(request.affiliateId, request.query);
      return { data: items, meta: pageOf(total, request.query.page, request.query.limit) };
    },
  );
}
