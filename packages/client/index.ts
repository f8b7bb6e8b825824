// The typed client of the affnet API: openapi-fetch over the types generated from the service's
// own OpenAPI document (schema.d.ts, `npm run client:generate`), so every path, parameter, body
// and answer is checked by the compiler against the API as it is.
import createClient, { type ClientOptions } from 'openapi-fetch';
import type { components, paths } from './schema.js';

export type { components, paths, webhooks } from './schema.js';

type Schemas = components['schemas'];
export type ApiError = Schemas['Error'];
export type Brand = Schemas['Brand'];
export type Product = Schemas['Product'];
export type Campaign = Schemas['Campaign'];
export type ShortUrl = Schemas['ShortUrl'];
export type Order = Schemas['Order'];
export type Conversion = Schemas['Conversion'];
export type Payout = Schemas['Payout'];
export type WebhookEndpoint = Schemas['WebhookEndpoint'];
export type Postback = Schemas['Postback'];
export type PostbackDelivery = Schemas['PostbackDelivery'];

export interface AffnetClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** Where the service answers, e.g. https://go.example.com */
  baseUrl: string;
  /** An affiliate or brand API key, sent as x-api-key on every request. */
  apiKey?: string;
}

/** A client whose `GET`, `POST`, `PUT`, `PATCH` and `DELETE` take the API's paths, typed end to end. */
export function createAffnetClient({ baseUrl, apiKey, headers, ...options }: AffnetClientOptions) {
  return createClient<paths>({ ...options, baseUrl, headers: { ...(apiKey ? { 'x-api-key': apiKey } : {}), ...(headers as Record<string, string> | undefined) } });
}

export type AffnetClient = ReturnType<typeof createAffnetClient>;
