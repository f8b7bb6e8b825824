import { Type } from '@sinclair/typebox';
import { Conversion, ConversionEvent } from '../../../schemas/conversion.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { errorResponses } from '../../responses.js';

export const OrderIdParams = Type.Object({ orderId: Type.String({ minLength: 1, maxLength: 200, description: 'Your own order id' }) });

export function getConversionRoute(app: App, services: ServingServices): void {
  app.get(
    '/advertiser/conversions/:orderId',
    {
      schema: {
        tags: ['Advertiser'],
        summary: 'One of your orders, with its history',
        description:
          'The order you reported under orderId (your own order id), with its items, commission and its history: every change of status, commission status, value, items and commission, oldest first, with who made it (and the key, for changes made through the API). Another brand\'s order id, or an unknown one, answers 404.',
        security: [{ apiKey: [] }],
        params: OrderIdParams,
        response: {
          200: Type.Object({ data: Type.Intersect([Type.Ref(Conversion), Type.Object({ history: Type.Array(Type.Ref(ConversionEvent)) })]) }),
          ...errorResponses(404),
        },
      },
    },
    async (request) => {
      const { conversion, history } = await services.conversions.get(request.brandId, request.params.orderId);
      return { data: { ...conversion, history } };
    },
  );
}
