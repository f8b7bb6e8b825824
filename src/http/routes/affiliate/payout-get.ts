import { Type } from '@sinclair/typebox';
import { LimitQuery, PageQuery, Pagination, pageOf } from '../../../schemas/common.js';
import { Payout } from '../../../schemas/payout.js';
import { Order } from '../../../schemas/order.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { errorResponses } from '../../responses.js';

const Query = Type.Object({ page: PageQuery, limit: LimitQuery(100, 100) }, { additionalProperties: false });

export function getPayoutRoute(app: App, services: ServingServices): void {
  app.get(
    '/affiliate/payouts/:id',
    {
      schema: {
        tags: ['Orders'],
        summary: 'One payout, with the orders it paid',
        description:
          'Addition to the spec. The payout and a page of the orders it paid (newest first; page and limit page the orders, meta describes that page). Another affiliate’s payout, or an unknown id, answers 404. A failed payout lists no orders: its commissions are payable again, for the next run.',
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
    async (request) => {
      const { page, limit } = request.query;
      const { payout, orders } = await services.payouts.get(request.affiliateId, request.params.id, { page, limit });
      return { data: { ...payout, orders: orders.items }, meta: pageOf(orders.total, page, limit) };
    },
  );
}
