import { Type } from '@sinclair/typebox';
import { WebhookEndpoint, WebhookEndpointInput, WebhookSecret } from '../../../schemas/webhook.js';
import type { OwnerKind } from '../../../domain/webhooks/events.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { errorResponses } from '../../responses.js';
import { basePath, ownerOf, TAG } from './side.js';

export const createWebhookRoute = (side: OwnerKind) =>
  function createWebhookRoute(app: App, services: ServingServices): void {
    app.post(
      basePath(side),
      {
        schema: {
          tags: [TAG],
          summary: 'Create a webhook endpoint',
          description:
            'Events of the chosen types are POSTed to url as they happen, signed (Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature headers). The answer carries the signing secret, shown this once. Your receiver has WEBHOOK_TIMEOUT_MS (10 s by default) to answer a 2xx, its body included; a slower answer is a failed attempt, retried. At most 20 endpoints each (409 endpoint_limit).',
          security: [{ apiKey: [] }],
          body: WebhookEndpointInput(side),
          response: { 201: Type.Object({ data: Type.Intersect([Type.Ref(WebhookEndpoint), Type.Object({ secret: WebhookSecret })]) }), ...errorResponses(409) },
        },
      },
      async (request, reply) => {
        const { endpoint, secret } = await services.webhooks.create(ownerOf(side, request), request.body);
        return reply.status(201).send({ data: { ...endpoint, secret } });
      },
    );
  };
