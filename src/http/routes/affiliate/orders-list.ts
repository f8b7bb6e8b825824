import { Type } from '@sinclair/typebox';
import { CommaList, DateOrDateTime, LimitQuery, PageQuery, Pagination, QueryBoolean, Uuid } from '../../../schemas/common.js';
import { Order } from '../../../schemas/order.js';
import { listOrdersFor } from '../../../domain/orders/orders.js';
import { rangeEnd, rangeStart } from '../../../domain/time.js';
import type { App, AppContext } from '../../context.js';
import { checkRange, anyOfBrands } from './query-rules.js';

const Query = Type.Object(
  {
    page: PageQuery,
    limit: LimitQuery(20, 100),
    organizationId: Type.Optional(Uuid),
    organizationIds: Type.Optional(CommaList('Orders of any of these brands (UUIDs); combined with organizationId, orders of any of them', Uuid)),
    mdasc: Type.Optional(QueryBoolean('true: only orders that carry mdasc; false: no filter')),
    from: Type.Optional(DateOrDateTime('Orders created at or after this time')),
    to: Type.Optional(DateOrDateTime('Orders created at or before this time')),
  },
  { additionalProperties: false },
);

export const OrderEnvelopes = Type.Array(Type.Object({ data: Type.Ref(Order), meta: Type.Ref(Pagination) }));

export function listOrdersRoute(app: App, ctx: AppContext): void {
  app.get(
    '/affiliate/orders',
    {
      config: { scope: 'orders:read' },
      schema: {
        tags: ['Orders'],
        summary: "List the caller's orders",
        description:
          "Orders earned by the caller's links, newest first (createdAt, then id). As the spec describes, the answer is an array with one { data: Order, meta } element per order of the page, each meta repeating the page metadata; a page past the end is an empty array. The total is also in the X-Total-Count header. Scope: orders:read.",
        security: [{ apiKey: [] }],
        querystring: Query,
        response: {
          200: { ...OrderEnvelopes, headers: { 'X-Total-Count': { type: 'integer', description: 'Orders matching the filters, across all pages' } } },
        },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const from = q.from && rangeStart('from', q.from);
      const to = q.to && rangeEnd('to', q.to);
      checkRange('from', from, 'to', to);
      const organizationIds = anyOfBrands(q.organizationId, q.organizationIds);
      const { items, total } = await listOrdersFor(ctx.database, request.principal!.affiliateId!, { organizationIds, withMdasc: q.mdasc === true, from, to }, q.page, q.limit);
      reply.header('x-total-count', String(total));
      return items;
    },
  );
}
