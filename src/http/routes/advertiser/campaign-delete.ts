import { Type } from '@sinclair/typebox';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { errorResponses } from '../../responses.js';
import { CampaignIdParams } from './campaign-put.js';

export function deleteCampaignRoute(app: App, services: ServingServices): void {
  app.delete(
    '/advertiser/campaigns/:id',
    {
      schema: {
        tags: ['Advertiser'],
        summary: 'Delete one of your campaigns',
        description: 'Affiliates no longer find it; links already made for it keep redirecting until you or the network deactivate them. 404 campaign_not_found for an id you have no campaign with.',
        security: [{ apiKey: [] }],
        params: CampaignIdParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await services.imports.deleteCampaign(request.brandId, request.params.id);
      return reply.status(204).send(null);
    },
  );
}
