import { Type } from '@sinclair/typebox';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { pageOf } from '../../../schemas/common.js';
import { errorResponses } from '../../responses.js';
import { OrderEnvelopes } from './orders-list.js';

export function getOrderRoute(app: App, services: ServingServices): void {
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
    async (request) => {
      const orders = await services.orders.get(request.affiliateId, request.params.id);
      // The list's shape: every element carries the (single) page's metadata.
      const meta = pageOf(orders.length, 1, orders.length);
      return orders.map((data) => ({ data, meta }));
    },
  );
}
