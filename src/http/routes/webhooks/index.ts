import type { OwnerKind } from '../../../domain/webhooks/events.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { createWebhookRoute } from './webhook-create.js';
import { listWebhooksRoute } from './webhooks-list.js';
import { getWebhookRoute } from './webhook-get.js';
import { updateWebhookRoute } from './webhook-update.js';
import { deleteWebhookRoute } from './webhook-delete.js';
import { rotateWebhookSecretRoute } from './webhook-rotate-secret.js';
import { listWebhookDeliveriesRoute } from './webhook-deliveries-list.js';
import { redeliverWebhookRoute } from './webhook-redeliver.js';

/** The webhook endpoints of one side, listed in that side's routes. */
export const webhookRoutes = (side: OwnerKind): Array<(app: App, services: ServingServices) => void> =>
  [createWebhookRoute, listWebhooksRoute, getWebhookRoute, updateWebhookRoute, deleteWebhookRoute, rotateWebhookSecretRoute, listWebhookDeliveriesRoute, redeliverWebhookRoute].map((route) => route(side));
