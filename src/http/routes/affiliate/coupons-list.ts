// GET /affiliate/coupons: the coupon codes brands gave the caller.
import { Type } from '@sinclair/typebox';
import { LimitQuery, PageQuery, Pagination, pageOf } from '../../../schemas/common.js';
import { AffiliateCoupon } from '../../../schemas/coupon.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';

const Query = Type.Object({ page: PageQuery, limit: LimitQuery(20, 100) }, { additionalProperties: false });

export function listAffiliateCouponsRoute(app: App, services: ServingServices): void {
  app.get(
    '/affiliate/coupons',
    {
      schema: {
        tags: ['Campaigns'],
        summary: 'Your coupon codes',
        description:
          'Addition to the spec. The codes brands gave you, by brand then code, with the page metadata: an order a customer places with one is yours (attribution coupon) even without a click of your links. Your orders placed with a code: GET /affiliate/orders?coupon={code}.',
        security: [{ apiKey: [] }],
        querystring: Query,
        response: { 200: Type.Object({ data: Type.Array(Type.Ref(AffiliateCoupon)), meta: Type.Ref(Pagination) }) },
      },
    },
    async (request) => {
      const q = request.query;
      const { items, total } = await services.coupons.listOfAffiliate(request.affiliateId, q);
      return { data: items, meta: pageOf(total, q.page, q.limit) };
    },
  );
}
