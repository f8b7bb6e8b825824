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
          'The whole campaign (coupon or offer). Required: name, type, period and what the type needs: code for a coupon (PersonalCoupon, GenericCoupon), offerType for an Offer, and url for an Offer of offerType Url. ' +
          'The rest may be left out and takes its default: categories [], description "", isHighlight false, no media kit, url your home page. A PUT replaces the campaign, so a field left out takes its default, not the stored value (PATCH changes only the fields it names). ' +
          'url, when given, must be on your brand domain or one of its subdomains (400 invalid_domain). organizationId and id come from your key and the path; given (the catalogue import\'s shape), they must agree. ' +
          '201 when new, 200 when it replaced yours with that id; another brand using the same id has another campaign.',
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
