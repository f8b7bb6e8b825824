import { Type } from '@sinclair/typebox';
import { WebhookEndpoint, WebhookEndpointUpdate } from '../../../schemas/webhook.js';
import type { OwnerKind } from '../../../domain/webhooks/events.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { errorResponses } from '../../responses.js';
import { EndpointParams } from './webhook-get.js';
import { basePath, ownerOf, TAG } from './side.js';

export const updateWebhookRoute = (side: OwnerKind) =>
  function updateWebhookRoute(app: App, services: ServingServices): void {
    app.patch(
      `${basePath(side)}/:id`,
      {
        schema: {
          tags: [TAG],
          summary: 'Change a webhook endpoint',
          description:
            'Changes what is given. enabled: true switches the endpoint on again, also after the network switched it off for failing (its pending deliveries then resume, within 24 hours of their event).',
          security: [{ apiKey: [] }],
          params: EndpointParams,
          body: WebhookEndpointUpdate(side),
          response: { 200: Type.Object({ data: Type.Ref(WebhookEndpoint) }), ...errorResponses(404) },
        },
      },
      async (request) => ({ data: await services.webhooks.update(ownerOf(side, request), request.params.id, request.body) }),
    );
  };
