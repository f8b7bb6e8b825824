// What an affiliate earns on a brand's products, as the brand's rules would explain an order of each.
import { Type } from '@sinclair/typebox';
import { Currency, Uuid } from '../../../schemas/common.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { errorResponses } from '../../responses.js';

const ProductEarning = Type.Object({
  productId: Type.String(),
  currency: Currency(),
  price: Type.Integer({ description: 'Cents: the product’s lowest price' }),
  commission: Type.Integer({ description: 'Cents: what one unit at that price earns you' }),
});

export function getBrandProductEarningsRoute(app: App, services: ServingServices): void {
  app.get(
    '/affiliate/brands/:id/earnings',
    {
      schema: {
        tags: ['Brands'],
        summary: 'What you earn on a brand’s products',
        description:
          'Addition to the spec: for each product named (products, repeated, up to 50), what one unit at its lowest price would earn you under the brand’s rules in force and your groups, as GET /affiliate/orders/{id}/commission would explain an order of it. A rule for coupons, a channel or new customers counts only once an order meets it, so the figure is what an order meeting none of them earns. Products the brand does not have, or without a price, are left out. A brand you may not access answers 404.',
        security: [{ apiKey: [] }],
        params: Type.Object({ id: Uuid }),
        querystring: Type.Object({ products: Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { minItems: 1, maxItems: 50 }) }, { additionalProperties: false }),
        response: { 200: Type.Object({ data: Type.Array(ProductEarning) }), ...errorResponses(400, 404) },
      },
    },
    async (request) => ({ data: await services.commissionRules.productEarnings(request.affiliateId, request.params.id, request.query.products) }),
  );
}
