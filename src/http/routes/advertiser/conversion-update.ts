import { Type } from '@sinclair/typebox';
import { Conversion, ConversionUpdate } from '../../../schemas/conversion.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { errorResponses } from '../../responses.js';
import { OrderIdParams } from './conversion-get.js';

export function updateConversionRoute(app: App, services: ServingServices): void {
  app.patch(
    '/advertiser/conversions/:orderId',
    {
      schema: {
        tags: ['Advertiser'],
        summary: 'Approve, cancel or correct an order',
        description:
          'orderId is your own order id. status: pending → approved (commission approved, later paid by the network) or pending → canceled (commission canceled); a commission canceled from the start (see commissionReason) stays canceled either way. ' +
          'value and items correct a pending order (a partial refund, a returned item): the commission is recomputed in integer cents with the commission rule the order was created under, whatever your rule is now; items must add up to the value within 1 % or 100 cents (422 items_mismatch). ' +
          'Every change is recorded in the order\'s history with the key that made it (GET /advertiser/conversions/{orderId}), and in the audit trail (conversion.approved, conversion.canceled or conversion.corrected, with the statuses, value and commission before and after and your reason) that you and the affiliate read. Asking for what the order already is answers 200 and changes nothing; a move from a final status answers 409 invalid_transition, and a correction of an order that is no longer pending 409 order_not_pending. ' +
          'While the commission is held for the network\'s fraud review (commissionStatus held) the order does not lock: you may cancel it (a refund is a refund) or correct it, but approving it answers 409 commission_held; once released it is pending again until its new lockAt, when the network approves it if you have not.',
        security: [{ apiKey: [] }],
        params: OrderIdParams,
        body: ConversionUpdate,
        response: { 200: Type.Object({ data: Type.Ref(Conversion) }), ...errorResponses(404, 409, 422) },
      },
    },
    async (request) => ({ data: await services.conversions.update(request.brandCaller, request.params.orderId, request.body) }),
  );
}
