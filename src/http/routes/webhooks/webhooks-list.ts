import { Type } from '@sinclair/typebox';
import { WebhookEndpoint } from '../../../schemas/webhook.js';
import type { OwnerKind } from '../../../domain/webhooks/events.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { basePath, ownerOf, TAG } from './side.js';

export const listWebhooksRoute = (side: OwnerKind) =>
  function listWebhooksRoute(app: App, services: ServingServices): void {
    app.get(
      basePath(side),
      {
        schema: {
          tags: [TAG],
          summary: 'Your webhook endpoints',
          description: 'Every endpoint of the caller, oldest first (at most 20, so no pages). Secrets are never shown here.',
          security: [{ apiKey: [] }],
          response: { 200: Type.Object({ data: Type.Array(Type.Ref(WebhookEndpoint)) }) },
        },
      },
      async (request) => ({ data: await services.webhooks.list(ownerOf(side, request)) }),
    );
  };
