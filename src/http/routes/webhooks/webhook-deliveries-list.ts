import { Type } from '@sinclair/typebox';
import { LimitQuery, PageQuery, Pagination, pageOf } from '../../../schemas/common.js';
import { DeliveryAttempt } from '../../../schemas/webhook.js';
import type { OwnerKind } from '../../../domain/webhooks/events.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { errorResponses } from '../../responses.js';
import { EndpointParams } from './webhook-get.js';
import { basePath, ownerOf, TAG } from './side.js';

const Query = Type.Object({ page: PageQuery, limit: LimitQuery(20, 100) }, { additionalProperties: false });

export const listWebhookDeliveriesRoute = (side: OwnerKind) =>
  function listWebhookDeliveriesRoute(app: App, services: ServingServices): void {
    app.get(
      `${basePath(side)}/:id/deliveries`,
      {
        schema: {
          tags: [TAG],
          summary: "An endpoint's delivery log",
          description:
            'Every attempt to deliver an event to the endpoint, newest first: the event, the attempt number, the outcome, your receiver\'s status and the time it took, or why it failed. A failed delivery is retried with exponential backoff (5 s doubling up to an hour, with jitter) until 24 hours after its event. An entry endpoint_disabled says the network switched the endpoint off after 3 days of failures.',
          security: [{ apiKey: [] }],
          params: EndpointParams,
          querystring: Query,
          response: { 200: Type.Object({ data: Type.Array(Type.Ref(DeliveryAttempt)), meta: Type.Ref(Pagination) }), ...errorResponses(404) },
        },
      },
      async (request) => {
        const { page, limit } = request.query;
        const { items, total } = await services.webhooks.attempts(ownerOf(side, request), request.params.id, { page, limit });
        return { data: items, meta: pageOf(total, page, limit) };
      },
    );
  };
