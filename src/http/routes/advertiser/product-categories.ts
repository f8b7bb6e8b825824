import { Type } from '@sinclair/typebox';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';

export function productCategoriesRoute(app: App, services: ServingServices): void {
  app.get(
    '/advertiser/product-categories',
    {
      schema: {
        tags: ['Advertiser'],
        summary: 'The categories your products are filed under',
        description:
          'Every category name the options of your products give (options[].categories), each once (case ignored, the first spelling kept), in alphabetical order; at most 1,000. ' +
          'What a new product may be filed under; a new name is simply given with the product.',
        security: [{ apiKey: [] }],
        response: { 200: Type.Object({ data: Type.Array(Type.String()) }) },
      },
    },
    async (request) => ({ data: await services.imports.productCategoriesOf(request.brandId) }),
  );
}
