import { Type } from '@sinclair/typebox';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { errorResponses } from '../../responses.js';
import { ProductIdParams } from './product-put.js';

/** The header of a DELETE's answer saying whether the product was deleted or made unavailable. */
export const OUTCOME_HEADER = 'x-product-outcome';

export function deleteProductRoute(app: App, services: ServingServices): void {
  app.delete(
    '/advertiser/products/:id',
    {
      schema: {
        tags: ['Advertiser'],
        summary: 'Delete one of your products',
        description:
          'Affiliates no longer find it. Orders that listed it keep their items as reported. ' +
          'A product an order or a link names is not removed but made unavailable (its options too), so the orders and links keep naming a product that exists: an order of yours with an item whose id is the product\'s or one of its options\', or an affiliate link whose address begins with the product\'s url. ' +
          `Either way the answer is 204; its header ${OUTCOME_HEADER} says which happened (deleted or made_unavailable). ` +
          '404 product_not_found for an id you have no product with.',
        security: [{ apiKey: [] }],
        params: ProductIdParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const outcome = await services.imports.deleteProduct(request.brandId, request.params.id);
      return reply.status(204).header(OUTCOME_HEADER, outcome).send(null);
    },
  );
}
