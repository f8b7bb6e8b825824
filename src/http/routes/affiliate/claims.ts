// The affiliate's claims of sales the tracking missed: filing one, and the list with each answer.
import { Type } from '@sinclair/typebox';
import { CommaList, LimitQuery, PageQuery, Pagination, pageOf } from '../../../schemas/common.js';
import { Claim, ClaimInput, ClaimStatuses } from '../../../schemas/claim.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { errorResponses } from '../../responses.js';

/** The status filter both sides' lists take. */
export const ClaimsQuery = Type.Object(
  {
    page: PageQuery,
    limit: LimitQuery(20, 100),
    status: Type.Optional(CommaList('Claims in any of these statuses (open, accepted, declined)', Type.Union(ClaimStatuses.map((s) => Type.Literal(s))))),
  },
  { additionalProperties: false },
);
export const ClaimsPage = Type.Object({ data: Type.Array(Type.Ref(Claim)), meta: Type.Ref(Pagination) });

export function createClaimRoute(app: App, services: ServingServices): void {
  app.post(
    '/affiliate/claims',
    {
      schema: {
        tags: ['Orders'],
        summary: 'Claim a sale the tracking missed',
        description:
          'Addition to the spec. Tells a brand you may promote that one of its orders came through you though its tracking did not record it: 201 with the claim, open until the brand answers (claim.created and claim.resolved webhooks; GET /affiliate/claims). ' +
          'Accepted within the brand’s attributionWindowDays plus its validationDays of orderedAt (422 claim_too_late says until when), orderedAt not in the future (422 invalid_order_time). value is in integer cents of the brand’s currency (currency, if given, must be it: 422 currency_mismatch). linkCode and clickId, when given, must be of your own links to this brand (422 link_not_found, click_not_found; a click older than the attribution window at orderedAt: 422 click_expired). ' +
          'An order the brand already reported is refused (409 order_already_attributed, never saying to whom when not to you); one open claim per brand and order id, whoever filed it (409 claim_open; after a decline it may be claimed again). ' +
          'The brand accepts it (the order is recorded for you: source and attribution claim, its commission pending at the brand’s rule, GET /affiliate/orders) or declines it with a reason; unanswered after the brand’s claimAutoAcceptDays (autoAcceptAt), the network accepts it at the claimed value. A brand you may not promote answers 404.',
        security: [{ apiKey: [] }],
        body: ClaimInput,
        response: { 201: Type.Object({ data: Type.Ref(Claim) }), ...errorResponses(404, 409, 422) },
      },
    },
    async (request, reply) => reply.status(201).send({ data: await services.claims.file(request.affiliateId, request.body) }),
  );
}

export function listClaimsRoute(app: App, services: ServingServices): void {
  app.get(
    '/affiliate/claims',
    {
      schema: {
        tags: ['Orders'],
        summary: "List the caller's claims",
        description: 'Addition to the spec. Your claims of sales the tracking missed, newest first (createdAt, then id), as { data, meta }: open, accepted (orderNetworkId is the order it recorded) or declined (reason says why).',
        security: [{ apiKey: [] }],
        querystring: ClaimsQuery,
        response: { 200: ClaimsPage },
      },
    },
    async (request) => {
      const q = request.query;
      const { items, total } = await services.claims.list({ affiliateId: request.affiliateId }, { statuses: q.status }, q);
      return { data: items, meta: pageOf(total, q.page, q.limit) };
    },
  );
}
