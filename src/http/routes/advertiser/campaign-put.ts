import { Type } from '@sinclair/typebox';
import { BrandCampaign, BrandCampaignInput } from '../../../schemas/campaign.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';

export const CampaignIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200, description: 'Your campaign id (unique among your campaigns)' }) });

export function putCampaignRoute(app: App, services: ServingServices): void {
  app.put(
    '/advertiser/campaigns/:id',
    {
      schema: {
        tags: ['Advertiser'],
        summary: 'Create or replace one of your campaigns',
        description:
          'The whole campaign (coupon or offer), in the shape of the catalogue import (organizationId and id may be left out). Its url must be on your brand domain or one of its subdomains (400 invalid_domain). 201 when new, 200 when it replaced yours with that id; another brand using the same id has another campaign.',
        security: [{ apiKey: [] }],
        params: CampaignIdParams,
        body: BrandCampaignInput,
        response: { 200: Type.Object({ data: Type.Ref(BrandCampaign) }), 201: Type.Object({ data: Type.Ref(BrandCampaign) }) },
      },
    },
    async (request, reply) => {
      const { created, campaign } = await services.imports.putCampaign(request.brandId, request.params.id, request.body);
      return reply.status(created ? 201 : 200).send({ data: campaign });
    },
  );
}
