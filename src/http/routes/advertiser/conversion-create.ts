import { Type } from '@sinclair/typebox';
import { Conversion, ConversionInput } from '../../../schemas/conversion.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { errorResponses } from '../../responses.js';

export function createConversionRoute(app: App, services: ServingServices): void {
  app.post(
    '/advertiser/conversions',
    {
      schema: {
        tags: ['Advertiser'],
        summary: 'Report an order (conversion) for a click or a coupon code',
        description:
          'Attributes the order to the affiliate, link and mdasc of the click, or to the affiliate you gave the coupon code (PUT /advertiser/coupons/{code}; attribution coupon, no link or click facts); give clickId, coupon or both (400 click_or_coupon_required without either). A coupon alone must be a code you gave (422 coupon_not_registered). With both, a click that cannot earn the order (placed before it, past your attribution window) gives way to the code, and when both could, your attributionPriority decides (GET /advertiser/brand: coupon by default); the order keeps the click id and the coupon either way. Computes the commission from your commission rule, and stores it pending. A click that did not count as a person\'s (a crawler or link preview, a HEAD request, a click past the velocity limit of its address) or a click of an affiliate the network has suspended, earns nothing: the order is stored all the same, with commission 0, commissionStatus canceled and a commissionReason. A conversion that trips one of the network\'s fraud rules is stored with commissionStatus held and holdReasons: the network reviews it (it does not lock and is not billed to you meanwhile) and releases it (pending again, lockAt from then) or declines it (canceled, commissionReason fraud_declined). customer.emailHash (hex SHA-256 of the trimmed, lowercased address) serves the self-referral rule alone: the network keeps only an HMAC of it and never returns it. 201 when new; 200 with the stored order when the same orderId is reported again with the same value, clickId and coupon; 409 when it differs. An order your tag or pixel reported (source tag or pixel) and still pending is taken over by your report, whatever its fraud hold: it becomes your report as if it had come first (your click or code and so its affiliate, value, items, customer, createdAt or now), its commission is recomputed and its hold judged again on these facts, every change in its history (200). 503 click_not_stored_yet (with Retry-After) for a click id made in the last 10 minutes that is not stored yet (clicks answered while the database was unavailable are stored once it is back): retry it; 404 for a click id that is not a click on your links; 422 for a click older than your attribution window, an order time in the future or before the click, or items that do not add up to value.',
        security: [{ apiKey: [] }],
        body: ConversionInput,
        response: {
          200: Type.Object({ data: Type.Ref(Conversion) }, { description: 'Already reported: the stored order, unchanged' }),
          201: Type.Object({ data: Type.Ref(Conversion) }, { description: 'Recorded' }),
          ...errorResponses(400, 404, 409, 422),
        },
      },
    },
    async (request, reply) => {
      const { created, conversion } = await services.conversions.report(request.brandCaller, request.body);
      return reply.status(created ? 201 : 200).send({ data: conversion });
    },
  );
}
