import { ColumnsQuery } from '../../documents/language.js';
import { Type, type Static } from '@sinclair/typebox';
import { CommaList, DateOrDateTime, LimitQuery, PageQuery, Pagination, QueryBoolean, TimeZoneQuery, Uuid, pageOf } from '../../../schemas/common.js';
import { CommissionStatuses, Order, OrderStatuses, subIdFilterQuery } from '../../../schemas/order.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { anyOfBrands, dayRange } from './query-rules.js';
import { couponKeyOf } from '../../../domain/orders/coupon-codes.js';
import { subIdFiltersOf } from '../../../lib/sub-ids.js';

const oneOf = (values: readonly string[]) => Type.Union(values.map((v) => Type.Literal(v)));

/** from/to (with timezone) and a brand: the range filters the orders list and the balance share. */
export const OrderRangeQuery = {
  organizationId: Type.Optional(Uuid),
  from: Type.Optional(DateOrDateTime('Orders created at or after this time')),
  to: Type.Optional(DateOrDateTime('Orders created at or before this time')),
  timezone: Type.Optional(TimeZoneQuery),
};

/** Every filter of the orders list: the list pages them, the CSV export gives them all. */
export const OrderFilterQuery = {
  ...OrderRangeQuery,
  organizationIds: Type.Optional(CommaList('Orders of any of these brands (UUIDs); combined with organizationId, orders of any of them', Uuid)),
  mdasc: Type.Optional(QueryBoolean('true: only orders that carry mdasc; false: no filter')),
  status: Type.Optional(CommaList('Addition to the spec: orders in any of these statuses (pending, approved, canceled)', oneOf(OrderStatuses))),
  commissionStatus: Type.Optional(CommaList('Addition to the spec: orders whose commission is in any of these statuses (pending, held, approved, payable, paid, canceled)', oneOf(CommissionStatuses))),
  payoutId: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Addition to the spec: the orders paid in this payout' })),
  coupon: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Addition to the spec: the orders placed with this coupon code of yours (GET /affiliate/coupons), compared without case' })),
  ...subIdFilterQuery((name) => `Addition to the spec: the orders whose ${name} (subIds.${name}, the sub-id your click carried) is exactly this, case included`),
};
/** The export's query: the list's filters without pages. */
export const OrderExportQuery = Type.Object({ ...OrderFilterQuery, ...ColumnsQuery.properties }, { additionalProperties: false });

/** The repository's filters for a query of the orders list or export. */
export function orderFiltersOf(q: Static<typeof OrderExportQuery>) {
  return {
    organizationIds: anyOfBrands(q.organizationId, q.organizationIds),
    withMdasc: q.mdasc === true,
    ...dayRange(q),
    statuses: q.status,
    commissionStatuses: q.commissionStatus,
    payoutId: q.payoutId,
    couponKey: q.coupon === undefined ? undefined : couponKeyOf(q.coupon),
    subIds: subIdFiltersOf(q),
  };
}

const Query = Type.Object({ page: PageQuery, limit: LimitQuery(20, 100), ...OrderFilterQuery }, { additionalProperties: false });

export const OrderEnvelopes = Type.Array(Type.Object({ data: Type.Ref(Order), meta: Type.Ref(Pagination) }));

export function listOrdersRoute(app: App, services: ServingServices): void {
  app.get(
    '/affiliate/orders',
    {
      schema: {
        tags: ['Orders'],
        summary: "List the caller's orders",
        description:
          "Orders earned by the caller's links, newest first (createdAt, then id). As the spec describes, the answer is an array with one { data: Order, meta } element per order of the page, each meta repeating the page metadata; a page past the end is an empty array. The total is also in the X-Total-Count header.",
        security: [{ apiKey: [] }],
        querystring: Query,
        response: {
          200: { ...OrderEnvelopes, headers: { 'X-Total-Count': { type: 'integer', description: 'Orders matching the filters, across all pages' } } },
        },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const { items, total } = await services.orders.list(request.affiliateId, orderFiltersOf(q), q);
      reply.header('x-total-count', String(total));
      // The spec's envelope: one { data, meta } element per order, each carrying the page metadata.
      const meta = pageOf(total, q.page, q.limit);
      return items.map((data) => ({ data, meta }));
    },
  );
}
