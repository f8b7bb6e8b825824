import { Type } from '@sinclair/typebox';
import { Product } from '../../../schemas/product.js';
import { CommaList, LimitQuery, PageQuery, QueryBoolean, Uuid } from '../../../schemas/common.js';
import { invalid } from '../../../domain/errors.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';

/** The products list's filters, which the product feeds take too. */
export const productFilterProperties = {
  search: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Words that must all appear in the product name or description (each matches as a prefix)' })),
  price: Type.Optional(
    Type.String({
      pattern: '^[0-9]+:[0-9]+$',
      maxLength: 30,
      description: 'from:to in integer cents, both non-negative, e.g. 1000:5000; matches products whose lowest option price is in the range (inclusive)',
    }),
  ),
  organizationIds: Type.Optional(CommaList('Products of these brands (UUIDs)', Uuid)),
  isAvailable: Type.Optional(QueryBoolean('Only available products, or only unavailable ones')),
};

const Query = Type.Object({ page: PageQuery, limit: LimitQuery(5, 100), ...productFilterProperties }, { additionalProperties: false });

/** The catalogue's filters of a query with productFilterProperties. */
export function productFiltersOf(q: { search?: string; price?: string; organizationIds?: string[]; isAvailable?: boolean }) {
  return { search: q.search, organizationIds: q.organizationIds, isAvailable: q.isAvailable, ...parsePrice(q.price) };
}

function parsePrice(price: string | undefined): { priceFrom?: number; priceTo?: number } {
  if (price === undefined) return {};
  const [from, to] = price.split(':').map(Number) as [number, number];
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to)) throw invalid('invalid_query', 'price bounds are too large');
  if (from > to) throw invalid('invalid_query', `price range is empty: from (${from}) is greater than to (${to})`);
  return { priceFrom: from, priceTo: to };
}

export function listProductsRoute(app: App, services: ServingServices): void {
  app.get(
    '/affiliate/products',
    {
      schema: {
        tags: ['Products'],
        summary: 'List products of brands the caller may access',
        description: 'Newest first, in the order products were added to the network. Prices are integer cents. The response has no page metadata, only count.',
        security: [{ apiKey: [] }],
        querystring: Query,
        response: {
          200: Type.Object({
            data: Type.Array(Type.Ref(Product)),
            count: Type.Integer({ description: 'Products matching the filters, across all pages' }),
          }),
        },
      },
    },
    async (request) => {
      const q = request.query;
      const { items, total } = await services.catalog.listProducts(
        request.affiliateId,
        productFiltersOf(q),
        q,
      );
      return { data: items, count: total };
    },
  );
}
