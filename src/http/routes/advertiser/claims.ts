// Claims of the brand's orders its tracking missed: the list, and the answer to one.
import { Type } from '@sinclair/typebox';
import { Claim, ClaimAnswer } from '../../../schemas/claim.js';
import { pageOf } from '../../../schemas/common.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { errorResponses } from '../../responses.js';
import { ClaimsPage, ClaimsQuery } from '../affiliate/claims.js';

export function listBrandClaimsRoute(app: App, services: ServingServices): void {
  app.get(
    '/advertiser/claims',
    {
      schema: {
        tags: ['Advertiser'],
        summary: 'Claims of your orders',
        description:
          'Affiliates’ claims of your orders your tracking did not record, newest first (createdAt, then id), as { data, meta }. status=open lists those waiting for your answer; each one you leave unanswered is accepted by the network at its autoAcceptAt (your claimAutoAcceptDays after it was filed, GET /advertiser/brand).',
        security: [{ apiKey: [] }],
        querystring: ClaimsQuery,
        response: { 200: ClaimsPage },
      },
    },
    async (request) => {
      const q = request.query;
      const { items, total } = await services.claims.list({ brandId: request.brandId }, { statuses: q.status }, q);
      return { data: items, meta: pageOf(total, q.page, q.limit) };
    },
  );
}

export function answerClaimRoute(app: App, services: ServingServices): void {
  app.patch(
    '/advertiser/claims/:id',
    {
      schema: {
        tags: ['Advertiser'],
        summary: 'Accept or decline a claim',
        description:
          'accepted: the order is recorded for the affiliate as a conversion of yours (source and attribution claim, one item of the claimed value or of value, your correction; its commission pending at your commission rule; it locks your validationDays from now like any new conversion); the claim keeps its id (orderNetworkId). ' +
          'declined: reason is required (422 reason_required) and the affiliate reads it; value is for acceptance only (422 value_not_allowed). ' +
          'If you reported the order id meanwhile, attributed to another affiliate, acceptance answers 409 order_exists: decline it, saying so (the claimant’s own order stands for it, and the claim is accepted). ' +
          'A later report of the same order id (POST /advertiser/conversions, GET /postback) with a click of the same affiliate gives the order your value while it is pending; another affiliate’s click is 409 order_conflict. ' +
          'The same answer again answers the claim as it is; another answer to an answered claim 409 claim_resolved. Another brand’s claim answers 404 claim_not_found.',
        security: [{ apiKey: [] }],
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, description: 'The claim’s id' }) }),
        body: ClaimAnswer,
        response: { 200: Type.Object({ data: Type.Ref(Claim) }), ...errorResponses(404, 409, 422) },
      },
    },
    async (request) => ({ data: await services.claims.answer(request.brandCaller, request.params.id, request.body) }),
  );
}
