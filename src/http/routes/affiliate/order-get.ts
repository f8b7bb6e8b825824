import { Type } from '@sinclair/typebox';
import { getOrdersFor } from '../../../domain/orders/orders.js';
import type { App, AppContext } from '../../context.js';
import { errorResponses } from '../../responses.js';
import { OrderEnvelopes } from './orders-list.js';

export function getOrderRoute(app: App, ctx: AppContext): void {
  app.get(
    '/affiliate/orders/:id',
    {
      schema: {
        tags: ['Orders'],
        summary: 'One order',
        description:
          "The caller's order whose network id or brand order id is id, in the list's shape (an array of { data, meta }). Should a brand order id match orders of several brands, each is an element. Another affiliate's order, or an unknown id, answers 404.",
        security: [{ apiKey: [] }],
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) }),
        response: { 200: OrderEnvelopes, ...errorResponses(404) },
      },
    },
    async (request) => getOrdersFor(ctx.database, request.affiliateId, request.params.id),
  );
}
