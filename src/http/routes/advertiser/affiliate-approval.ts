import { Type } from '@sinclair/typebox';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { errorResponses } from '../../responses.js';

const Params = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, description: 'The affiliate id' }) });

export function approveAffiliateRoute(app: App, services: ServingServices): void {
  app.post(
    '/advertiser/affiliates/:id/approval',
    {
      schema: {
        tags: ['Advertiser'],
        summary: 'Approve an affiliate for your brand',
        description: 'The affiliate may promote your (private) brand from now on, whether or not it asked; approving again changes nothing. An unknown affiliate answers 404. Audited (approval.granted), in your audit trail and the affiliate’s.',
        security: [{ apiKey: [] }],
        params: Params,
        response: { 200: Type.Object({ data: Type.Object({ affiliateId: Type.String(), approval: Type.Literal('approved') }) }), ...errorResponses(404) },
      },
    },
    async (request) => {
      await services.approvals.approve(request.brandId, request.params.id, request.brandCaller);
      return { data: { affiliateId: request.params.id, approval: 'approved' as const } };
    },
  );
}

export function revokeAffiliateRoute(app: App, services: ServingServices): void {
  app.delete(
    '/advertiser/affiliates/:id/approval',
    {
      schema: {
        tags: ['Advertiser'],
        summary: "Withdraw an affiliate's approval, or decline its request",
        description:
          'The affiliate no longer sees your private brand; its channels carry the approval message and its links to your brand stop redirecting (404) within seconds on every instance. 404 approval_not_found when the affiliate was neither approved nor asking. Audited (approval.withdrawn, or approval.declined for a request), in your audit trail and the affiliate’s.',
        security: [{ apiKey: [] }],
        params: Params,
        response: { 204: Type.Null({ description: 'Withdrawn' }), ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await services.approvals.revoke(request.brandId, request.params.id, request.brandCaller);
      return reply.status(204).send(null);
    },
  );
}
