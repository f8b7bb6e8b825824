import { Type } from '@sinclair/typebox';
import { CommaList, DateOrDateTime, LimitQuery, PageQuery, Pagination, TimeZoneQuery, pageOf } from '../../../schemas/common.js';
import { Conversion } from '../../../schemas/conversion.js';
import { CommissionStatuses, OrderStatuses } from '../../../schemas/order.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { dayRange } from '../affiliate/query-rules.js';

const oneOf = (values: readonly string[]) => Type.Union(values.map((v) => Type.Literal(v)));

const Query = Type.Object(
  {
    page: PageQuery,
    limit: LimitQuery(20, 100),
    status: Type.Optional(CommaList('Orders in any of these statuses (pending, approved, canceled)', oneOf(OrderStatuses))),
    commissionStatus: Type.Optional(CommaList('Orders whose commission is in any of these statuses (pending, held, approved, payable, paid, canceled)', oneOf(CommissionStatuses))),
    affiliateId: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Orders attributed to this affiliate' })),
    orderId: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Your own order id' })),
    from: Type.Optional(DateOrDateTime('Orders created at or after this time')),
    to: Type.Optional(DateOrDateTime('Orders created at or before this time')),
    timezone: Type.Optional(TimeZoneQuery),
  },
  { additionalProperties: false },
);

export function listConversionsRoute(app: App, services: ServingServices): void {
  app.get(
    '/advertiser/conversions',
    {
      schema: {
        tags: ['Advertiser'],
        summary: 'The orders you reported',
        description:
          'Your orders, newest first (createdAt, then id), as { data, meta }: what you reported, with the affiliate it was attributed to, its commission and statuses. from/to: a date is a whole day in timezone (default UTC).',
        security: [{ apiKey: [] }],
        querystring: Query,
        response: { 200: Type.Object({ data: Type.Array(Type.Ref(Conversion)), meta: Type.Ref(Pagination) }) },
      },
    },
    async (request) => {
      const q = request.query;
      const filters = { statuses: q.status, commissionStatuses: q.commissionStatus, affiliateId: q.affiliateId, orderId: q.orderId, ...dayRange(q) };
      const { items, total } = await services.conversions.list(request.brandId, filters, q);
      return { data: items, meta: pageOf(total, q.page, q.limit) };
    },
  );
}
