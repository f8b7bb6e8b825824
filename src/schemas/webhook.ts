import { Type } from '@sinclair/typebox';
import { DateTime, Examples } from './common.js';
import { AFFILIATE_EVENTS, BRAND_EVENTS, type OwnerKind } from '../domain/webhooks/events.js';

const eventType = (side: OwnerKind) => Type.Union((side === 'affiliate' ? AFFILIATE_EVENTS : BRAND_EVENTS).map((e) => Type.Literal(e)));

const Url = Type.String({
  minLength: 1,
  maxLength: 2048,
  description: 'Where events are POSTed: an https URL reaching a public address (the network never calls its own or private networks). Redirects are not followed.',
});

export const WebhookEndpointInput = (side: OwnerKind) =>
  Type.Object(
    {
      url: Url,
      events: Type.Array(eventType(side), { minItems: 1, maxItems: 20, description: 'The event types to send to this endpoint' }),
      description: Type.Optional(Type.String({ maxLength: 500, description: 'A note for yourself' })),
      enabled: Type.Optional(Type.Boolean({ description: 'false: keep the endpoint but send nothing (default true)' })),
    },
    { additionalProperties: false, ...Examples({ endpoint: ['Your receiver, for some events', { url: 'https://hooks.example.com/affnet', events: [(side === 'affiliate' ? AFFILIATE_EVENTS : BRAND_EVENTS)[0]] }] }) },
  );

export const WebhookEndpointUpdate = (side: OwnerKind) =>
  Type.Object(
    {
      url: Type.Optional(Url),
      events: Type.Optional(Type.Array(eventType(side), { minItems: 1, maxItems: 20 })),
      description: Type.Optional(Type.String({ maxLength: 500 })),
      enabled: Type.Optional(
        Type.Boolean({ description: 'true switches the endpoint on again, also after the network switched it off for failing (see disabledReason); false switches it off' }),
      ),
    },
    { additionalProperties: false, minProperties: 1, ...Examples({ enable: ['Switched on again', { enabled: true }] }) },
  );

export const WebhookEndpoint = Type.Object(
  {
    id: Type.String({ description: 'whe_…' }),
    url: Type.String(),
    description: Type.String(),
    events: Type.Array(Type.String()),
    enabled: Type.Boolean(),
    disabledReason: Type.Optional(Type.String({ description: 'Why the network switched the endpoint off (every delivery failed for 3 days); omitted otherwise' })),
    failingSince: Type.Optional(DateTime),
    createdAt: DateTime,
    updatedAt: DateTime,
  },
  { $id: 'WebhookEndpoint', description: 'Where and which events are sent; the signing secret is shown only when created or rotated' },
);

export const WebhookSecret = Type.String({
  description: 'The signing secret (whsec_ + base64): shown once. Verify each request as the Standard Webhooks convention says (see the README): HMAC-SHA256 over "<webhook-id>.<webhook-timestamp>.<body>".',
});

export const DeliveryAttempt = Type.Object(
  {
    deliveryId: Type.String({ description: 'The delivery (one event to this endpoint); redeliver it by this id' }),
    eventId: Type.String({ description: 'The event id, also the webhook-id header: the same on every attempt' }),
    eventType: Type.String(),
    attempt: Type.Integer({ description: 'Attempt number of the delivery, from 1' }),
    outcome: Type.String({ description: 'delivered; retrying (another attempt is scheduled); failed (given up 24 hours after the event); endpoint_disabled (the endpoint was switched off)' }),
    responseStatus: Type.Optional(Type.Integer({ description: 'The status your receiver answered; omitted when it did not answer. With an error, the answer began but did not end within WEBHOOK_TIMEOUT_MS (10 s by default): a failed attempt' })),
    error: Type.Optional(Type.String({ description: 'Why the attempt failed: what is wrong (e.g. refused: the address of HOST is not public; refused: HOST could not be resolved), never which address a name resolves to' })),
    failure: Type.Optional(
      Type.Union([Type.Literal('refused'), Type.Literal('timeout'), Type.Literal('unreachable')], {
        description: 'Why no whole answer came, as a code: refused (the address may not be requested: not https, not resolved, not public), timeout (no whole answer in time), unreachable (the connection failed); omitted when an answer came, whatever its status',
      }),
    ),
    durationMs: Type.Integer(),
    at: DateTime,
  },
  { $id: 'DeliveryAttempt', description: 'One entry of an endpoint’s delivery log' },
);
