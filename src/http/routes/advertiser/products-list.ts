import { Type } from '@sinclair/typebox';
import { LimitQuery, PageQuery, Pagination, QueryBoolean, pageOf } from '../../../schemas/common.js';
import { Product } from '../../../schemas/product.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';

const Query = Type.Object(
  {
    page: PageQuery,
    limit: LimitQuery(20, 100),
    isAvailable: Type.Optional(QueryBoolean('Only available products, or only unavailable ones')),
    q: Type.Optional(
      Type.String({
        maxLength: 200,
        description: 'Addition: products whose name or description holds every word (as the start of a word, accents and case ignored), or whose id starts with it (case ignored)',
      }),
    ),
    sort: Type.Optional(
      Type.Union([Type.Literal('added'), Type.Literal('changed')], {
        default: 'added',
        description: 'Addition: added (default) lists the newest products first, in the order they were added; changed lists the most recently changed first (updatedAt)',
      }),
    ),
  },
  { additionalProperties: false },
);

export function listBrandProductsRoute(app: App, services: ServingServices): void {
  app.get(
    '/advertiser/products',
    {
      schema: {
        tags: ['Advertiser'],
        summary: 'Your products',
        description:
          'Every product of your catalogue, available or not, newest first (the order they were added; sort=changed: most recently changed first), in the shape affiliates read them, with the page metadata. Prices are integer cents of your currency. ' +
          'q narrows the list to the products whose name or description holds its words, or whose id starts with it.',
        security: [{ apiKey: [] }],
        querystring: Query,
        response: { 200: Type.Object({ data: Type.Array(Type.Ref(Product)), meta: Type.Ref(Pagination) }) },
      },
    },
    async (request) => {
      const q = request.query;
      const { items, total } = await services.imports.productsOf(request.brandId, { isAvailable: q.isAvailable, ...(q.q !== undefined && { search: q.q }) }, q, q.sort);
      return { data: items, meta: pageOf(total, q.page, q.limit) };
    },
  );
}
