import { Type } from '@sinclair/typebox';
import { Conversion, ConversionUpdate } from '../../../schemas/conversion.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { errorResponses } from '../../responses.js';

export function updateConversionRoute(app: App, services: ServingServices): void {
  app.patch(
    '/advertiser/conversions/:orderId',
    {
      schema: {
        tags: ['Advertiser'],
        summary: 'Approve or cancel a pending order',
        description:
          'orderId is your own order id. pending → approved (commission approved, later paid by the network) or pending → canceled (commission canceled). A commission canceled from the start (see commissionReason) stays canceled either way. Asking for the status the order already has answers 200 and changes nothing; any other move answers 409.',
        security: [{ apiKey: [] }],
        params: Type.Object({ orderId: Type.String({ minLength: 1, maxLength: 200 }) }),
        body: ConversionUpdate,
        response: { 200: Type.Object({ data: Type.Ref(Conversion) }), ...errorResponses(404, 409) },
      },
    },
    async (request) => ({ data: await services.conversions.update(request.brandId, request.params.orderId, request.body.status) }),
  );
}
