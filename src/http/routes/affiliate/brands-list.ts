import { Type } from '@sinclair/typebox';
import { Brand } from '../../../schemas/brand.js';
import { CommaList, DateOrDateTime, LimitQuery, PageQuery, Pagination, QueryBoolean, pageOf } from '../../../schemas/common.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { checkRange, endOf, startOf } from './query-rules.js';

const Query = Type.Object(
  {
    page: PageQuery,
    limit: LimitQuery(20, 20),
    search: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Case-insensitive text contained in the brand name' })),
    categories: Type.Optional(CommaList('Brands in any of these categories (case-insensitive)', Type.String({ minLength: 1, maxLength: 100 }))),
    isExclusive: Type.Optional(QueryBoolean('Only exclusive brands, or only non-exclusive ones')),
    isFavorite: Type.Optional(QueryBoolean('Only favorite brands, or only the others')),
    isHighlight: Type.Optional(QueryBoolean('Only highlighted brands, or only the others')),
    isPublic: Type.Optional(QueryBoolean('true = public brands, false = private brands the caller is approved for')),
    startAt: Type.Optional(DateOrDateTime('Brands created at or after this time')),
    endAt: Type.Optional(DateOrDateTime('Brands created at or before this time')),
  },
  { additionalProperties: false },
);

export function listBrandsRoute(app: App, services: ServingServices): void {
  app.get(
    '/affiliate/brands',
    {
      schema: {
        tags: ['Brands'],
        summary: 'List brands the caller may access',
        description: 'Public brands and the private brands the caller is approved for, ordered by name (then id).',
        security: [{ apiKey: [] }],
        querystring: Query,
        response: {
          200: Type.Object({ data: Type.Array(Type.Ref(Brand)), pagination: Type.Ref(Pagination) }),
        },
      },
    },
    async (request) => {
      const q = request.query;
      const createdFrom = q.startAt && startOf('startAt', q.startAt);
      const createdTo = q.endAt && endOf('endAt', q.endAt);
      checkRange('startAt', createdFrom, 'endAt', createdTo);
      const { items, total } = await services.catalog.listBrands(
        request.affiliateId,
        {
          search: q.search,
          categories: q.categories,
          isExclusive: q.isExclusive,
          isFavorite: q.isFavorite,
          isHighlight: q.isHighlight,
          isPublic: q.isPublic,
          createdFrom,
          createdTo,
        },
        q,
      );
      return { data: items, pagination: pageOf(total, q.page, q.limit) };
    },
  );
}
