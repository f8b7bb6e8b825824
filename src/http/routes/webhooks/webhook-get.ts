import { Type } from '@sinclair/typebox';
import { WebhookEndpoint } from '../../../schemas/webhook.js';
import type { OwnerKind } from '../../../domain/webhooks/events.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { errorResponses } from '../../responses.js';
import { basePath, ownerOf, TAG } from './side.js';

export const EndpointParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100, description: 'The endpoint id (whe_…)' }) });

export const getWebhookRoute = (side: OwnerKind) =>
  function getWebhookRoute(app: App, services: ServingServices): void {
    app.get(
      `${basePath(side)}/:id`,
      {
        schema: {
          tags: [TAG],
          summary: 'One webhook endpoint',
          description: "Another caller's endpoint, or an unknown id, answers 404.",
          security: [{ apiKey: [] }],
          params: EndpointParams,
          response: { 200: Type.Object({ data: Type.Ref(WebhookEndpoint) }), ...errorResponses(404) },
        },
      },
      async (request) => ({ data: await services.webhooks.get(ownerOf(side, request), request.params.id) }),
    );
  };
