import { Type } from '@sinclair/typebox';
import { LimitQuery, PageQuery, Pagination, Uuid, pageOf } from '../../../schemas/common.js';
import { LinkTypeSchema, ShortUrl } from '../../../schemas/short-url.js';
import { invalid } from '../../../domain/errors.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';

const Query = Type.Object(
  {
    type: LinkTypeSchema,
    featureId: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Campaign id; required when type is Coupon or Offer' })),
    organizationId: Type.Optional(Uuid),
    page: PageQuery,
    limit: LimitQuery(20, 100),
  },
  { additionalProperties: false },
);

export function listShortUrlsRoute(app: App, services: ServingServices): void {
  app.get(
    '/affiliate/shortener/urls',
    {
      schema: {
        tags: ['Short links'],
        summary: "List the caller's short links",
        description:
          'The caller\'s links of one type, newest first (then id). The answer is an array with one element { data, meta }. type also accepts Custom and Home. Beside the spec\'s fields, each record says which link it is: its channel, mdasc and featureId (omitted when the link has none) and createdAt.',
        security: [{ apiKey: [] }],
        querystring: Query,
        response: {
          200: Type.Array(Type.Object({ data: Type.Array(Type.Ref(ShortUrl)), meta: Type.Ref(Pagination) }), { minItems: 1, maxItems: 1 }),
        },
      },
    },
    async (request) => {
      const q = request.query;
      if ((q.type === 'Coupon' || q.type === 'Offer') && !q.featureId) {
        throw invalid('invalid_query', `featureId is required when type is ${String(q.type)}`);
      }
      const { items, total } = await services.links.listShortUrls(request.affiliateId, { linkType: q.type, featureId: q.featureId, organizationId: q.organizationId }, q);
      return [{ data: items, meta: pageOf(total, q.page, q.limit) }];
    },
  );
}
