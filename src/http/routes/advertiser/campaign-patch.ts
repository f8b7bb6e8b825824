import { Type } from '@sinclair/typebox';
import { BrandCampaign, BrandCampaignPatch } from '../../../schemas/campaign.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { errorResponses } from '../../responses.js';
import { CampaignIdParams } from './campaign-put.js';

export function patchCampaignRoute(app: App, services: ServingServices): void {
  app.patch(
    '/advertiser/campaigns/:id',
    {
      schema: {
        tags: ['Advertiser'],
        summary: 'Change some fields of one of your campaigns',
        description: 'Fields given replace the stored ones; the result must be a valid campaign (its url on your domain). 404 campaign_not_found for an id you have no campaign with.',
        security: [{ apiKey: [] }],
        params: CampaignIdParams,
        body: BrandCampaignPatch,
        response: { 200: Type.Object({ data: Type.Ref(BrandCampaign) }), ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await services.imports.patchCampaign(request.brandId, request.params.id, request.body) }),
  );
}
