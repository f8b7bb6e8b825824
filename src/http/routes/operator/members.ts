// Affiliates and brands as operators look them up: searched by id or name, and one with its
// figures over a range, its people, keys and channels.
import { Type } from '@sinclair/typebox';
import { MemberDetail, MemberSummary, StandingChange } from '../../../schemas/operator.js';
import { DayRange } from '../../../schemas/figures.js';
import { LimitQuery, PageQuery, Pagination, pageOf } from '../../../schemas/common.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { errorResponses } from '../../responses.js';
import { NetworkTermsChange } from '../../../schemas/network-terms.js';
import { operatorOf, SESSION_ONLY, TAG } from './actor.js';

const SearchQuery = Type.Object(
  { q: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Part of the id or the name' })), page: PageQuery, limit: LimitQuery(50, 200) },
  { additionalProperties: false },
);
const RangeQuery = Type.Object(DayRange, { additionalProperties: false });
const Id = (what: string) => Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, description: `The ${what}’s id` }) });
const MembersPage = Type.Object({ data: Type.Array(Type.Ref(MemberSummary)), meta: Type.Ref(Pagination) });

export const memberRoutes = (kind: 'affiliate' | 'brand') => {
  const path = kind === 'affiliate' ? '/operator/affiliates' : '/operator/brands';
  return [
    function listMembersRoute(app: App, services: ServingServices): void {
      app.get(
        path,
        {
          schema: {
            tags: [TAG],
            summary: kind === 'affiliate' ? 'Affiliates' : 'Brands',
            description: `Every ${kind} whose id or name contains q (all without it), by name, as { data, meta }.`,
            security: SESSION_ONLY,
            querystring: SearchQuery,
            response: { 200: MembersPage },
          },
        },
        async (request) => {
          const { q, page, limit } = request.query;
          const { items, total } = await services.members.list(kind, q, { page, limit });
          return { data: items, meta: pageOf(total, page, limit) };
        },
      );
    },
    function getMemberRoute(app: App, services: ServingServices): void {
      app.get(
        `${path}/:id`,
        {
          schema: {
            tags: [TAG],
            summary: kind === 'affiliate' ? 'One affiliate' : 'One brand',
            description: `The ${kind} with its figures over whole UTC days from from to to (the last 30 days by default, at most three years): counted and uncounted clicks, and per currency its orders, sales, commission and approval and decline rates; its people, its API keys${kind === 'affiliate' ? ' and its channels' : ''}.`,
            security: SESSION_ONLY,
            params: Id(kind),
            querystring: RangeQuery,
            response: { 200: Type.Object({ data: Type.Ref(MemberDetail) }), ...errorResponses(404) },
          },
        },
        async (request) => ({ data: kind === 'affiliate' ? await services.members.affiliate(request.params.id, request.query) : await services.members.brand(request.params.id, request.query) }),
      );
    },
    ...(['suspend', 'reactivate'] as const).map((change) =>
      function changeStandingRoute(app: App, services: ServingServices): void {
        app.post(
          `${path}/:id/${change}`,
          {
            schema: {
              tags: [TAG],
              summary: change === 'suspend' ? `Suspend ${kind === 'affiliate' ? 'an affiliate' : 'a brand'}` : `Reactivate ${kind === 'affiliate' ? 'an affiliate' : 'a brand'}`,
              description:
                change === 'suspend'
                  ? kind === 'affiliate'
                    ? 'Suspends the affiliate, with a reason its owners are mailed: its links still redirect to the brand but count no click (uncounted reason suspended), its conversions earn nothing (commissionReason affiliate_suspended), payout runs skip it, and its keys, postback use and sessions are refused with account_suspended. 409 already_suspended when it is. Audited.'
                    : 'Suspends the brand, with a reason its owners are mailed: it leaves affiliates’ lists and searches, its links lead to its home page uncounted, and its keys, postback token and sessions are refused with account_suspended. 409 already_suspended when it is. Audited.'
                  : `Lifts the ${kind}’s suspension, with a reason its owners are mailed: from now on its links count again and its keys and sessions work. 409 not_suspended when it is active. Audited.`,
              security: SESSION_ONLY,
              params: Id(kind),
              body: StandingChange,
              response: { 200: Type.Object({ data: Type.Ref(MemberSummary) }), ...errorResponses(404, 409) },
            },
          },
          async (request) => {
            const member = kind === 'affiliate' ? { affiliateId: request.params.id } : { brandId: request.params.id };
            const standing = await services.suspensions[change](operatorOf(request), member, request.body.reason);
            return { data: await services.members.summary(kind, standing.id) };
          },
        );
      },
    ),
  ];
};

/** The network's terms for a brand's statements, changed from the console as `affnet brands terms` changes them. */
export function setBrandTermsRoute(app: App, services: ServingServices): void {
  app.put(
    '/operator/brands/:id/terms',
    {
      schema: {
        tags: [TAG],
        summary: "Change the network's terms for a brand",
        description:
          "Sets the network's fee on each commission the brand is billed (feeBasisPoints: basis points of the commission, 250 is 2.5 %) and the days it has to pay a statement (dueDays), one or both, with a reason. The change is audited before → after (brand.terms_changed), the brand's owners are mailed in their language, and its webhooks get statement.terms_changed, all at once. The next statement issued bills with the new terms; statements issued already keep theirs. The same as `affnet brands terms`. 400 terms_missing without either, invalid_reason without a reason; 404 brand_not_found; 409 terms_unchanged when they are the terms already, concurrent_update when someone changed them meanwhile.",
        security: SESSION_ONLY,
        params: Id('brand'),
        body: NetworkTermsChange,
        response: { 200: Type.Object({ data: Type.Ref('NetworkTermsChanged') }), ...errorResponses(404, 409) },
      },
    },
    async (request) => ({ data: await services.statements.setTerms(operatorOf(request), request.params.id, request.body) }),
  );
}
