import { Type } from '@sinclair/typebox';
import { LimitQuery, PageQuery, Pagination } from '../../../schemas/common.js';
import { Payout } from '../../../schemas/payout.js';
import { Order } from '../../../schemas/order.js';
import { getPayoutFor } from '../../../domain/orders/payouts.js';
import type { App, AppContext } from '../../context.js';
import { errorResponses } from '../../responses.js';

const Query = Type.Object({ page: PageQuery, limit: LimitQuery(100, 100) }, { additionalProperties: false });

export function getPayoutRoute(app: App, ctx: AppContext): void {
  app.get(
    '/affiliate/payouts/:id',
    {
      schema: {
        tags: ['Orders'],
        summary: 'One payout, with the orders it paid',
        description:
          'Addition to the spec. The payout and a page of the orders it paid (newest first; page and limit page the orders, meta describes that page). Another affiliate’s payout, or an unknown id, answers 404.',
        security: [{ apiKey: [] }],
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) }),
        querystring: Query,
        response: {
          200: Type.Object({
            data: Type.Intersect([Type.Ref(Payout), Type.Object({ orders: Type.Array(Type.Ref(Order), { description: 'A page of the orders paid in it' }) })]),
            meta: Type.Ref(Pagination),
          }),
          ...errorResponses(404),
        },
      },
    },
    async (request) => getPayoutFor(ctx.database, request.affiliateId, request.params.id, request.query.page, request.query.limit),
  );
}
