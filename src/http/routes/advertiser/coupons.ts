// The brand's coupon codes given to affiliates: give one (or give it to another), list, take back.
import { Type } from '@sinclair/typebox';
import { LimitQuery, PageQuery, Pagination, pageOf } from '../../../schemas/common.js';
import { BrandCoupon, CouponCodeParams, CouponInput } from '../../../schemas/coupon.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { errorResponses } from '../../responses.js';

const ListQuery = Type.Object(
  {
    page: PageQuery,
    limit: LimitQuery(20, 100),
    affiliateId: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Only the codes of this affiliate' })),
  },
  { additionalProperties: false },
);

export function putCouponRoute(app: App, services: ServingServices): void {
  app.put(
    '/advertiser/coupons/:code',
    {
      schema: {
        tags: ['Advertiser'],
        summary: 'Give a coupon code to an affiliate',
        description:
          'Conversions you report with this code (coupon on POST /advertiser/conversions or GET /postback) go to this affiliate, with attribution coupon, even without a click. ' +
          'The code: 3 to 40 letters A-Z (any case), digits, hyphens and underscores (400 invalid_coupon_code); unique among your codes without case (MARIA10 and maria10 are one code: a PUT of either replaces it). ' +
          'It may be the code of one of your PersonalCoupon campaigns (linked by itself, or named by campaignId, whose code must be this one: 400 coupon_code_mismatch, not_personal_coupon; 422 campaign_not_found), never a GenericCoupon’s (400 public_coupon_code: a public code belongs to no one affiliate). ' +
          'The affiliate must exist (422 affiliate_not_found) and be in your programme: any affiliate when your brand is public, one you approved when it is private (422 affiliate_not_approved). 201 when new, 200 when it replaced the code (its affiliate or campaign); orders already placed with it keep their affiliate.',
        security: [{ apiKey: [] }],
        params: CouponCodeParams,
        body: CouponInput,
        response: { 200: Type.Object({ data: Type.Ref(BrandCoupon) }), 201: Type.Object({ data: Type.Ref(BrandCoupon) }), ...errorResponses(400, 422) },
      },
    },
    async (request, reply) => {
      const { created, coupon } = await services.coupons.give(request.brandId, request.params.code, request.body);
      return reply.status(created ? 201 : 200).send({ data: coupon });
    },
  );
}

export function listCouponsRoute(app: App, services: ServingServices): void {
  app.get(
    '/advertiser/coupons',
    {
      schema: {
        tags: ['Advertiser'],
        summary: 'Your coupon codes given to affiliates',
        description: 'By code (case-insensitively), with the page metadata; affiliateId: only that affiliate’s codes.',
        security: [{ apiKey: [] }],
        querystring: ListQuery,
        response: { 200: Type.Object({ data: Type.Array(Type.Ref(BrandCoupon)), meta: Type.Ref(Pagination) }) },
      },
    },
    async (request) => {
      const q = request.query;
      const { items, total } = await services.coupons.listOfBrand(request.brandId, { affiliateId: q.affiliateId }, q);
      return { data: items, meta: pageOf(total, q.page, q.limit) };
    },
  );
}

export function deleteCouponRoute(app: App, services: ServingServices): void {
  app.delete(
    '/advertiser/coupons/:code',
    {
      schema: {
        tags: ['Advertiser'],
        summary: 'Take a coupon code back',
        description: 'Conversions reported with it from now on no longer go to its affiliate (without a click they are refused); orders already placed with it stay the affiliate’s. 404 coupon_not_found for a code you have not given (compared without case).',
        security: [{ apiKey: [] }],
        params: CouponCodeParams,
        response: { 204: Type.Null({ description: 'Taken back' }), ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await services.coupons.remove(request.brandId, request.params.code);
      return reply.status(204).send(null);
    },
  );
}
