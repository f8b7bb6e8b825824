import { Type } from '@sinclair/typebox';
import { DateTime, Uuid } from '../../../schemas/common.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { errorResponses } from '../../responses.js';

const ApprovalState = Type.Object({
  brandId: Type.String(),
  status: Type.Union([Type.Literal('approved'), Type.Literal('pending'), Type.Literal('declined')], { description: 'approved: you may promote it; pending: the brand has not answered yet' }),
  requestedAt: Type.Optional(DateTime),
});

export function requestApprovalRoute(app: App, services: ServingServices): void {
  app.post(
    '/affiliate/brands/:id/approval-request',
    {
      schema: {
        tags: ['Brands'],
        summary: 'Ask to promote a private brand',
        description:
          'Addition to the spec. Asks the brand (by its id, as the brand gave it to you) for approval: 201 with status pending; the brand hears of it and answers through its API. Asking again while pending, or once approved, answers 200 with where you stand; after a decline it asks again. A public brand needs no approval (409 approval_not_needed); an unknown id answers 404.',
        security: [{ apiKey: [] }],
        params: Type.Object({ id: Uuid }),
        response: { 200: Type.Object({ data: ApprovalState }), 201: Type.Object({ data: ApprovalState }), ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      const { created, state } = await services.approvals.request(request.affiliateId, request.params.id);
      return reply.status(created ? 201 : 200).send({ data: state });
    },
  );
}
