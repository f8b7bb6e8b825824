// GET /postback: the same conversion report for brands that can only fire a URL (a pixel or a
// server-to-server callback). The brand's postback token travels as the token query parameter
// (its API key is still accepted there, see src/http/app.ts).
import { Type } from '@sinclair/typebox';
import { Conversion, customerFromQuery, MAX_ORDER_VALUE, PostbackQuery } from '../../../schemas/conversion.js';
import { HttpError } from '../../errors.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { errorResponses } from '../../responses.js';

export function registerPostback(app: App, services: ServingServices): void {
  app.get(
    '/postback',
    {
      // A HEAD (link checkers, prefetchers) must never record an order.
      exposeHeadRoute: false,
      schema: {
        tags: ['Advertiser'],
        summary: 'Report an order by URL (server-to-server postback)',
        description:
          'Same rules as POST /advertiser/conversions, without items. value is in integer cents; token is your postback token (not your API key: URLs get logged); customerIsNew and customerEmailHash are customer.isNew and customer.emailHash of the API; coupon is the code the customer used (clickId may then be left out). ' +
          '201 when new, 200 when already reported identically, or when it takes over the pending order your tag or pixel reported (whatever its fraud hold), as POST /advertiser/conversions does. On 429 or 503, retry after Retry-After seconds: a retry is always safe, as reports are idempotent per orderId.',
        querystring: PostbackQuery,
        response: {
          200: Type.Object({ data: Type.Ref(Conversion) }),
          201: Type.Object({ data: Type.Ref(Conversion) }),
          ...errorResponses(400, 404, 409, 422),
        },
      },
    },
    async (request, reply) => {
      const { clickId, coupon, orderId, createdAt } = request.query;
      const value = Number(request.query.value);
      if (value < 1 || value > MAX_ORDER_VALUE) throw new HttpError(400, 'invalid_query', `value must be between 1 and ${MAX_ORDER_VALUE} cents, got ${request.query.value}`);
      const customer = customerFromQuery(request.query);
      const { created, conversion } = await services.conversions.report(request.brandCaller, { clickId, coupon, orderId, value, createdAt, items: [], source: 'postback', customer });
      return reply.status(created ? 201 : 200).send({ data: conversion });
    },
  );
}
