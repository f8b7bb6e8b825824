import { Type } from '@sinclair/typebox';
import { BrandProductInput, Product } from '../../../schemas/product.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';

export const ProductIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200, description: 'Your product id (unique among your products)' }) });

export function putProductRoute(app: App, services: ServingServices): void {
  app.put(
    '/advertiser/products/:id',
    {
      schema: {
        tags: ['Advertiser'],
        summary: 'Create or replace one of your products',
        description:
          'The whole product. Required: name, url, available and a price: either price (integer cents of your currency; listPrice defaults to it), stored as one option whose id is the product\'s, or options, each with its pricing. ' +
          'The rest may be left out and takes its default (empty lists and strings): a PUT replaces the product, so a field left out is emptied, not kept (PATCH changes only the fields it names). ' +
          'organizationId and id come from your key and the path; given (the catalogue import\'s shape), they must agree. 400 invalid_body says what is missing or wrong (neither price nor options, or both). ' +
          '201 when new, 200 when it replaced yours with that id. Ids are yours: another brand using the same id has another product.',
        security: [{ apiKey: [] }],
        params: ProductIdParams,
        body: BrandProductInput,
        response: { 200: Type.Object({ data: Type.Ref(Product) }), 201: Type.Object({ data: Type.Ref(Product) }) },
      },
    },
    async (request, reply) => {
      const { created, product } = await services.imports.putProduct(request.brandId, request.params.id, request.body);
      return reply.status(created ? 201 : 200).send({ data: product });
    },
  );
}
