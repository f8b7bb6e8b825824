import { Type } from '@sinclair/typebox';
import { OrderCommission } from '../../../schemas/commission-rules.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { errorResponses } from '../../responses.js';

export function getOrderCommissionRoute(app: App, services: ServingServices): void {
  app.get(
    '/affiliate/orders/:id/commission',
    {
      schema: {
        tags: ['Orders'],
        summary: 'How an order’s commission was computed',
        description:
          "For the caller's order whose network id is id (or its brand order id, when that names one order of yours only): the brand's rules version it was computed with, the rule that took each item and the arithmetic in integer cents (the lines sum to total, which is the order's commission unless commissionReason says the network canceled it), the caps that applied, the click facts kept on the order and its attribution. Another affiliate's order, or an unknown id, answers 404.",
        security: [{ apiKey: [] }],
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) }),
        response: { 200: Type.Object({ data: Type.Ref(OrderCommission) }), ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await services.commissionRules.forAffiliate(request.affiliateId, request.params.id) }),
  );
}
