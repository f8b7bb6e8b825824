import { Type } from '@sinclair/typebox';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { errorResponses } from '../../responses.js';
import { ProductIdParams } from './product-put.js';

export function deleteProductRoute(app: App, services: ServingServices): void {
  app.delete(
    '/advertiser/products/:id',
    {
      schema: {
        tags: ['Advertiser'],
        summary: 'Delete one of your products',
        description: 'Affiliates no longer find it. Orders that listed it keep their items as reported. 404 product_not_found for an id you have no product with.',
        security: [{ apiKey: [] }],
        params: ProductIdParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await services.imports.deleteProduct(request.brandId, request.params.id);
      return reply.status(204).send(null);
    },
  );
}
