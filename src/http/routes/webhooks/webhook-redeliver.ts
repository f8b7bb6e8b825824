import { Type } from '@sinclair/typebox';
import type { OwnerKind } from '../../../domain/webhooks/events.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { errorResponses } from '../../responses.js';
import { basePath, ownerOf, TAG } from './side.js';

const Params = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 100, description: 'The endpoint id (whe_…)' }),
  deliveryId: Type.String({ minLength: 1, maxLength: 100, description: 'A deliveryId from the delivery log' }),
});

export const redeliverWebhookRoute = (side: OwnerKind) =>
  function redeliverWebhookRoute(app: App, services: ServingServices): void {
    app.post(
      `${basePath(side)}/:id/deliveries/:deliveryId/redeliver`,
      {
        schema: {
          tags: [TAG],
          summary: 'Send a delivery again',
          description:
            'Sends the delivery\'s event to the endpoint again, whatever became of it (delivered, failed): a new delivery, due at once, with the same event id (webhook-id), so a receiver that deduplicates by it sees a repeat. Answers 202 with the new delivery\'s id. Deliveries are kept for WEBHOOK_RETENTION_DAYS (30 by default): an older one is not found.',
          security: [{ apiKey: [] }],
          params: Params,
          response: { 202: Type.Object({ data: Type.Object({ deliveryId: Type.String() }) }), ...errorResponses(404) },
        },
      },
      async (request, reply) => {
        const data = await services.webhooks.redeliver(ownerOf(side, request), request.params.id, request.params.deliveryId);
        return reply.status(202).send({ data });
      },
    );
  };
