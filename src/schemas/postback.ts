import { Type } from '@sinclair/typebox';
import { DateTime, Examples, Uuid } from './common.js';
import { POSTBACK_EVENTS } from '../lib/postback-events.js';
import { MACROS } from '../domain/postbacks/templates.js';
import { MAX_BRANDS, MAX_POSTBACKS, POSTBACK_ID_PATTERN } from '../domain/postbacks/postbacks-service.js';

const EventType = Type.Union(
  POSTBACK_EVENTS.map((e) => Type.Literal(e)),
  { description: 'conversion.created (an order is recorded for you), conversion.approved (its commission is approved), conversion.canceled (its commission is canceled), commission.paid (a payout paid it, one per order the payout pays)' },
);

const macroList = MACROS.map((m) => `{${m}}`).join(', ');

export const PostbackParams = Type.Object({
  id: Type.String({ pattern: POSTBACK_ID_PATTERN, description: 'The postback’s id, chosen by you: 1 to 64 letters, digits, - and _, beginning with a letter or digit (e.g. voluum). Unique among your postbacks; another affiliate’s ids are its own.' }),
});

export const PostbackInput = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: 2048,
      description:
        `Your tracker’s postback URL, with macros in braces filled in for each event: ${macroList}. Each value is URL-encoded; a macro without a value (an order without a click of yours, a sub-id the click did not carry) becomes empty. ` +
        '{order_id} is the network’s order id (GET /affiliate/orders/{id}), never the brand’s own number; {commission} is in the currency’s units (12.90 for 1290 cents of BRL, 1290 for JPY, which has none), {commission_cents} the integer; {status} is the commission’s status the event announces (pending, approved, canceled, paid); {timestamp} is when the event happened (UTC ISO 8601). ' +
        'https only, to a public address; macros go in the path or query, never the host. Refused with 400 and details.position, the character offset (from 0) of what is wrong, and details.macro: unknown_macro (a name that is not a macro), unclosed_macro (a brace that opens or closes nothing), macro_in_host, invalid_url (not https: position 0).',
    }),
    events: Type.Array(EventType, { minItems: 1, maxItems: POSTBACK_EVENTS.length, description: 'The events that fire it: at least one' }),
    brandIds: Type.Optional(
      Type.Array(Uuid, {
        minItems: 1,
        maxItems: MAX_BRANDS,
        description: 'Only orders of these brands fire it; omitted, every brand’s. Each must be a brand you may promote (GET /affiliate/brands) or have orders of: any other is refused (400 brand_not_found, details.values naming them).',
      }),
    ),
    active: Type.Optional(
      Type.Boolean({
        description: 'false: keep it but fire nothing: events while it is paused are not sent to it (deliveries already waiting for a retry wait, and go on once it is active again, until a day after their event); default true',
      }),
    ),
  },
  {
    additionalProperties: false,
    ...Examples({ voluum: ['Voluum, on every conversion and approval', { url: 'https://abc12.voluumtrk.com/postback?cid={sub1}&payout={commission}&txid={order_id}&et={status}', events: ['conversion.created', 'conversion.approved'] }] }),
  },
);

export const Postback = Type.Object(
  {
    id: Type.String({ description: 'Your id for it' }),
    url: Type.String({ description: 'The template, macros unfilled' }),
    events: Type.Array(EventType),
    brandIds: Type.Optional(Type.Array(Uuid, { description: 'The brands whose orders fire it; omitted: every brand' })),
    active: Type.Boolean(),
    createdAt: DateTime,
    updatedAt: DateTime,
  },
  { $id: 'Postback', description: `A postback: a GET to your tracker’s URL on the events it names, at most ${MAX_POSTBACKS} per affiliate` },
);

export const PostbackDelivery = Type.Object(
  {
    id: Type.String(),
    event: Type.String({ description: 'The event sent (conversion.created, conversion.approved, conversion.canceled, commission.paid)' }),
    test: Type.Boolean({ description: 'true for a test you sent (POST /affiliate/postbacks/{id}/test): example values, never retried' }),
    status: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')], {
      description: 'pending (not sent yet, or retried at nextAttemptAt), delivered (your tracker answered 2xx) or failed (given up 24 hours after the event)',
    }),
    attempts: Type.Integer({ description: 'Requests made so far' }),
    url: Type.Optional(Type.String({ description: 'The URL of the last attempt, as sent (macros filled in); omitted before the first' })),
    responseStatus: Type.Optional(Type.Integer({ description: 'The status your tracker answered the last attempt; omitted when it did not answer' })),
    error: Type.Optional(Type.String({ description: 'Why the last attempt failed: a status other than 2xx, no answer in time, or a refused address (what is wrong, never which address a name resolves to)' })),
    failure: Type.Optional(
      Type.Union([Type.Literal('refused'), Type.Literal('timeout'), Type.Literal('unreachable')], {
        description:
          'Why no whole answer came to the last attempt: refused (the address may not be requested: not https, not found, or not a public address), timeout (no whole answer within WEBHOOK_TIMEOUT_MS), unreachable (the connection failed). Omitted when your tracker answered, whatever its status (see responseStatus).',
      }),
    ),
    durationMs: Type.Optional(Type.Integer({ description: 'How long the last attempt took' })),
    at: Type.String({ format: 'date-time', description: 'When the event happened (of a test: when it was sent)' }),
    lastAttemptAt: Type.Optional(DateTime),
    nextAttemptAt: Type.Optional(Type.String({ format: 'date-time', description: 'While pending: when it is sent (again)' })),
  },
  { $id: 'PostbackDelivery', description: 'One event sent to one postback, with how its last attempt went' },
);

export const PostbackTestQuery = Type.Object(
  {
    event: Type.Optional(Type.Union(POSTBACK_EVENTS.map((e) => Type.Literal(e)), { description: 'The event to send an example of; by default the postback’s first' })),
  },
  { additionalProperties: false },
);

export const PostbackTestResult = Type.Object({
  delivery: Type.Ref(PostbackDelivery),
  answer: Type.Optional(Type.String({ description: 'The beginning of what your tracker answered (1 KB at most), as text; omitted when it answered nothing' })),
});
