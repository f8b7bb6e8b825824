import { Type } from '@sinclair/typebox';
import { DateOrDateTime, DateTime, LimitQuery, PageQuery, Pagination, TimeZoneQuery, pageOf } from '../../../schemas/common.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { dayRange } from '../affiliate/query-rules.js';

const Promoter = Type.Object({
  affiliateId: Type.String(),
  name: Type.String(),
  approval: Type.Union([Type.Literal('approved'), Type.Literal('pending'), Type.Literal('declined'), Type.Literal('none')], {
    description: 'approved; pending (asked, not answered); declined; none (has links to or orders of your brand, which is or was public, without an approval; or, found with q for your public brand, nothing with it yet)',
  }),
  approvedAt: Type.Optional(DateTime),
  requestedAt: Type.Optional(DateTime),
  clicks: Type.Integer({ description: 'Counted clicks on its links to your brand in the hours of the range (all time without one)' }),
  orders: Type.Integer({ description: 'Its orders created in the range, canceled ones left out' }),
  sales: Type.Integer({ description: 'Their value, in integer cents of your currency' }),
  commission: Type.Integer({ description: 'Their commission, in integer cents of your currency' }),
});

const Query = Type.Object(
  {
    page: PageQuery,
    limit: LimitQuery(20, 100),
    status: Type.Optional(Type.Union([Type.Literal('approved'), Type.Literal('pending')], { description: 'Only approved affiliates, or only those asking' })),
    from: Type.Optional(DateOrDateTime('Orders created at or after this time')),
    to: Type.Optional(DateOrDateTime('Orders created at or before this time')),
    timezone: Type.Optional(TimeZoneQuery),
    q: Type.Optional(
      Type.String({
        minLength: 2,
        maxLength: 100,
        description:
          'Only affiliates whose id or name contains this, case aside. For a public brand it also finds any active affiliate of the network (each may promote you and be given a coupon code), with no figures yet; a private brand finds only its own affiliates as listed without q.',
      }),
    ),
  },
  { additionalProperties: false },
);

export function listAffiliatesRoute(app: App, services: ServingServices): void {
  app.get(
    '/advertiser/affiliates',
    {
      schema: {
        tags: ['Advertiser'],
        summary: 'The affiliates that promote your brand',
        description:
          'Affiliates approved for your brand, asking for approval, with links to it, or with orders of it (whatever their status or date, even when their links are gone), ordered by id (with q, only those whose id or name contains it, and for a public brand any active affiliate of the network so found), each with its orders, sales and commission of orders created in from/to (a date is a whole day in timezone) and its counted clicks in the same range (clicks are summed per hour: a bound inside an hour takes that whole hour).',
        security: [{ apiKey: [] }],
        querystring: Query,
        response: { 200: Type.Object({ data: Type.Array(Promoter), meta: Type.Ref(Pagination) }) },
      },
    },
    async (request) => {
      const q = request.query;
      const { items, total } = await services.approvals.promoters(request.brandId, dayRange(q), { status: q.status, search: q.q }, q);
      return { data: items, meta: pageOf(total, q.page, q.limit) };
    },
  );
}
