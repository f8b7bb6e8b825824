// A brand's commission rules in force, as one of the affiliates who may see the brand reads them.
import { Type } from '@sinclair/typebox';
import { BrandCommissionRules } from '../../../schemas/commission-rules.js';
import { Uuid } from '../../../schemas/common.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { errorResponses } from '../../responses.js';

export function getBrandCommissionRulesRoute(app: App, services: ServingServices): void {
  app.get(
    '/affiliate/brands/:id/commission-rules',
    {
      schema: {
        tags: ['Brands'],
        summary: 'A brand’s commission rules',
        description:
          'Addition to the spec: the rules in force for orders reported from now on, in the order they are tried, and the default rule after them (Brand.commission). Each order keeps the version it was computed with (GET /affiliate/orders/{id}/commission). Of a coupon condition’s codes only your own are shown, the others counted. A brand you may not access (unknown, or private and not approved) answers 404.',
        security: [{ apiKey: [] }],
        params: Type.Object({ id: Uuid }),
        response: { 200: Type.Object({ data: Type.Ref(BrandCommissionRules) }), ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await services.commissionRules.ofBrandForAffiliate(request.affiliateId, request.params.id) }),
  );
}
