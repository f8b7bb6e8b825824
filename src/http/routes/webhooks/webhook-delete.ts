import { Type } from '@sinclair/typebox';
import type { OwnerKind } from '../../../domain/webhooks/events.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { errorResponses } from '../../responses.js';
import { EndpointParams } from './webhook-get.js';
import { basePath, ownerOf, TAG } from './side.js';

export const deleteWebhookRoute = (side: OwnerKind) =>
  function deleteWebhookRoute(app: App, services: ServingServices): void {
    app.delete(
      `${basePath(side)}/:id`,
      {
        schema: {
          tags: [TAG],
          summary: 'Delete a webhook endpoint',
          description: 'The endpoint, its pending deliveries and its delivery log are deleted; nothing more is sent to it.',
          security: [{ apiKey: [] }],
          params: EndpointParams,
          response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(404) },
        },
      },
      async (request, reply) => {
        await services.webhooks.delete(ownerOf(side, request), request.params.id);
        return reply.status(204).send(null);
      },
    );
  };
