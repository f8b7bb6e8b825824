import { Type } from '@sinclair/typebox';
import { BrandProductPatch, Product } from '../../../schemas/product.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { errorResponses } from '../../responses.js';
import { ProductIdParams } from './product-put.js';

export function patchProductRoute(app: App, services: ServingServices): void {
  app.patch(
    '/advertiser/products/:id',
    {
      schema: {
        tags: ['Advertiser'],
        summary: 'Change some fields of one of your products',
        description:
          'Fields given replace the stored ones (options and images as a whole); the result must be a valid product. ' +
          'price and listPrice change the price of a product with one option (one without options gets one, as with PUT): listPrice follows a new price when it was equal to the old one (no discount stays none) and is kept otherwise, unless given. ' +
          'On a product with several options they answer 400 invalid_body naming the options: send options, each with its pricing, instead. available changes a one-option product\'s option too, so the two agree. ' +
          '404 product_not_found for an id you have no product with.',
        security: [{ apiKey: [] }],
        params: ProductIdParams,
        body: BrandProductPatch,
        response: { 200: Type.Object({ data: Type.Ref(Product) }), ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await services.imports.patchProduct(request.brandId, request.params.id, request.body) }),
  );
}
