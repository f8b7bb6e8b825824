import { Type } from '@sinclair/typebox';
import { DateTime } from '../../../schemas/common.js';
import { WebhookSecret } from '../../../schemas/webhook.js';
import type { OwnerKind } from '../../../domain/webhooks/events.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { errorResponses } from '../../responses.js';
import { EndpointParams } from './webhook-get.js';
import { basePath, ownerOf, TAG } from './side.js';

export const rotateWebhookSecretRoute = (side: OwnerKind) =>
  function rotateWebhookSecretRoute(app: App, services: ServingServices): void {
    app.post(
      `${basePath(side)}/:id/rotate-secret`,
      {
        schema: {
          tags: [TAG],
          summary: "Rotate an endpoint's signing secret",
          description:
            'A new secret, shown this once. For 24 hours every request carries two signatures (one per secret, space-separated in webhook-signature), so your receiver can switch to the new secret without missing an event; after that only the new one signs.',
          security: [{ apiKey: [] }],
          params: EndpointParams,
          response: {
            200: Type.Object({ data: Type.Object({ secret: WebhookSecret, previousSecretExpiresAt: DateTime }) }),
            ...errorResponses(404),
          },
        },
      },
      async (request) => ({ data: await services.webhooks.rotateSecret(ownerOf(side, request), request.params.id) }),
    );
  };
