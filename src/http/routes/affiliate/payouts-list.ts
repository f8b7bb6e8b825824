import { Type } from '@sinclair/typebox';
import { LimitQuery, PageQuery, Pagination } from '../../../schemas/common.js';
import { Payout } from '../../../schemas/payout.js';
import { listPayoutsFor } from '../../../domain/orders/payouts.js';
import type { App, AppContext } from '../../context.js';

const Query = Type.Object({ page: PageQuery, limit: LimitQuery(20, 100) }, { additionalProperties: false });

export function listPayoutsRoute(app: App, ctx: AppContext): void {
  app.get(
    '/affiliate/payouts',
    {
      schema: {
        tags: ['Orders'],
        summary: "List the caller's payouts",
        description:
          'Addition to the spec. Payments of approved commissions to the caller, newest first (createdAt, then id); one payout per currency per payment run.',
        security: [{ apiKey: [] }],
        querystring: Query,
        response: { 200: Type.Object({ data: Type.Array(Type.Ref(Payout)), meta: Type.Ref(Pagination) }) },
      },
    },
    async (request) => listPayoutsFor(ctx.database, request.affiliateId, request.query.page, request.query.limit),
  );
}
