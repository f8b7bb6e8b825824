// Affiliates' sign-ups and brands' applications: the list with what each sent, and the decision on
// one or several.
import { Type } from '@sinclair/typebox';
import { Application, ApplicationDecision, ApplicationDecisions, ApplicationKinds, ApplicationStatuses, DecisionOutcome, literals } from '../../../schemas/operator.js';
import { LimitQuery, PageQuery, Pagination, pageOf } from '../../../schemas/common.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { errorResponses } from '../../responses.js';
import { operatorOf, SESSION_ONLY, TAG } from './actor.js';

const Id = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, description: 'The application’s id (apl_…)' }) });

export function listApplicationsRoute(app: App, services: ServingServices): void {
  app.get(
    '/operator/applications',
    {
      schema: {
        tags: [TAG],
        summary: 'Applications',
        description: 'Affiliates’ sign-ups and brands’ applications with what they sent, the oldest waiting first (status=pending) or the newest first otherwise, as { data, meta }.',
        security: SESSION_ONLY,
        querystring: Type.Object(
          {
            status: Type.Optional(literals(ApplicationStatuses)),
            kind: Type.Optional(literals(ApplicationKinds)),
            page: PageQuery,
            limit: LimitQuery(50, 500),
          },
          { additionalProperties: false },
        ),
        response: { 200: Type.Object({ data: Type.Array(Type.Ref(Application)), meta: Type.Ref(Pagination) }) },
      },
    },
    async (request) => {
      const { page, limit, ...filters } = request.query;
      const { items, total } = await services.applications.search(filters, { page, limit });
      return { data: items, meta: pageOf(total, page, limit) };
    },
  );
}

export function getApplicationRoute(app: App, services: ServingServices): void {
  app.get(
    '/operator/applications/:id',
    {
      schema: { tags: [TAG], summary: 'One application', security: SESSION_ONLY, params: Id, response: { 200: Type.Object({ data: Type.Ref(Application) }), ...errorResponses(404) } },
    },
    async (request) => ({ data: await services.applications.get(request.params.id) }),
  );
}

export function decideApplicationRoute(app: App, services: ServingServices): void {
  app.patch(
    '/operator/applications/:id',
    {
      schema: {
        tags: [TAG],
        summary: 'Approve or decline an application',
        description:
          'approved: the affiliate (with its first channel) or the brand (hidden until its owner launches it) and its owner are made, and the applicant is mailed; declined: reason is required (400 invalid_reason) and the applicant is mailed it. ' +
          'An application whose address is not confirmed yet answers 409 application_unverified; one decided already 409 application_decided; an address that has an account by now 409 email_taken. Recorded in the audit trail.',
        security: SESSION_ONLY,
        params: Id,
        body: ApplicationDecision,
        response: { 200: Type.Object({ data: Type.Ref(Application) }), ...errorResponses(404, 409) },
      },
    },
    async (request) => ({ data: await services.applications.decide(request.params.id, request.body, operatorOf(request)) }),
  );
}

export function decideApplicationsRoute(app: App, services: ServingServices): void {
  app.post(
    '/operator/applications/decisions',
    {
      schema: {
        tags: [TAG],
        summary: 'Approve or decline several applications',
        description:
          'The same decision on each application named, one after another; each answers decided or the code and message deciding it alone would have given (one refusal does not stop the others). A decline without a reason is refused (400 invalid_reason) before any is decided.',
        security: SESSION_ONLY,
        body: ApplicationDecisions,
        response: { 200: Type.Object({ data: Type.Array(DecisionOutcome) }) },
      },
    },
    async (request) => {
      const { ids, ...decision } = request.body;
      const outcomes = await services.applications.decideMany(ids, decision, operatorOf(request));
      return {
        data: outcomes.map(({ id, view, refusal }) => (view ? { id, decided: true, status: view.status } : { id, decided: false, code: refusal!.code, message: refusal!.message })),
      };
    },
  );
}
