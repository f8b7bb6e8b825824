// Rules every API route follows, applied when the route is registered, so a new route cannot miss
// them: unknown query parameters are refused, and the OpenAPI document declares every status the
// route can answer (with the headers that come with it), not only the ones its file names.
// Routes outside the API, and why, are listed in one place: API_EXEMPTIONS.
import { Type } from '@sinclair/typebox';
import type { RouteOptions } from 'fastify';
import { ErrorBody } from '../schemas/common.js';
import { ERROR_DESCRIPTIONS } from './responses.js';
import { scopeOf } from './route-scopes.js';

/** Paths of the API: authenticated, rate-limited, scoped, strict about their input. */
export const API_PREFIXES = ['/affiliate/', '/advertiser/', '/operator/', '/postback'] as const;

/** Routes the API rules do not apply to, with the reason. */
export const API_EXEMPTIONS: Readonly<Record<string, string>> = {
  '/:code': 'the redirect passes the visitor’s query string on to the destination',
  '/:code/': 'the redirect, with a trailing slash',
  '/healthz': 'health check for load balancers, no input',
  '/readyz': 'readiness check for load balancers, no input',
  '/openapi.json': 'the API description itself',
  '/docs': 'static pages of the API reference',
  '*': 'CORS preflight (OPTIONS), answered by @fastify/cors for the origins CORS_ORIGINS names',
  '/app': 'the portal’s pages and assets (static files; the pages call the API like any client)',
  '/session': 'the portal’s sign-in and the person’s own sessions: no key (a password, then a session cookie), failed attempts held back per account and address, CSRF checked',
  '/signup': 'joining: anyone may sign up (and confirm an address) without a key; limited per address given and per client address',
  '/brand-applications': 'joining: any brand may apply without a key; limited per address given and per client address',
  '/tag.js': 'the first-party tag: a static script every shop loads, without a key',
  '/track/conversions': 'the tag’s reports: the brand’s publishable key (public by design, checked against its domains) instead of an API key; limited per client address',
  '/track/visits': 'the tag announces a test link’s landing: the brand’s publishable key instead of an API key; limited per client address',
  '/links.js': 'the link script: a static script every affiliate’s site loads, without a key',
  '/links/domains': 'the link script’s domain list: the channel’s link key (public by design, checked against the sites allowed for it) instead of an API key; limited per client address',
  '/links/auto': 'the link script’s links: the channel’s link key (public by design, checked against the sites allowed for it) instead of an API key; limited per client address and per key',
  '/track/pixel.gif': 'the pixel: always answers its image (a page cannot read an image’s answer), so a refusal, unknown parameters included, is logged and counted, never shown; limited per client address',
};

/** Routes outside the API that still read what a client sends: the boundary checks apply to them too. */
const PUBLIC_INPUT_PATHS = ['/session', '/signup', '/brand-applications', '/track/conversions', '/track/visits', '/links/domains', '/links/auto'];

export const isApiRoute = (url: string): boolean => API_PREFIXES.some((prefix) => url.startsWith(prefix));

/** Routes that read what a client sends (the API, the portal's sign-in, joining): the boundary checks apply. */
export const takesClientInput = (url: string): boolean => isApiRoute(url) || PUBLIC_INPUT_PATHS.some((path) => url === path || url.startsWith(`${path}/`));

/** Whether a route is exempt from the API rules: listed above, or under a listed path. */
export const isExempt = (url: string): boolean => Object.keys(API_EXEMPTIONS).some((path) => url === path || url.startsWith(`${path}/`));

/** A query that takes no parameter at all: anything sent is an unknown parameter (400). */
const NoQuery = Type.Object({}, { additionalProperties: false });

const integerHeader = (description: string) => ({ type: 'integer', description });

/** Sent on every answer to a request whose key was accepted (all but 401 and router errors). */
const RATE_HEADERS = {
  'X-RateLimit-Limit': integerHeader('Requests allowed per window for this API key'),
  'X-RateLimit-Remaining': integerHeader('Requests left in the current window'),
  'X-RateLimit-Reset': integerHeader('Seconds until the current window ends'),
};
const RETRY_AFTER = { 'Retry-After': integerHeader('Seconds to wait before retrying') };

type ResponseMap = Record<string, unknown>;

const errorRef = (status: number) => Type.Ref(ErrorBody, { description: ERROR_DESCRIPTIONS[status] ?? 'Error' });

/** Methods whose body is read, and refused when not JSON (415), whether the route takes one or not. */
const BODY_READING_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * What any documented route can answer about a body: 413 past the limit on every one (a GET's is
 * never read, but one announced too large is refused: plugins/body-limit.ts), 415 where it is read.
 */
function bodyStatuses(route: RouteOptions): number[] {
  return [route.method].flat().some((m) => BODY_READING_METHODS.has(m)) || route.schema?.body ? [413, 415] : [413];
}

/**
 * Statuses any API route can answer, beside the ones its own file declares: input errors (400),
 * keys (401, 403), the limit (429), failures (500, 503), bodies (413, 415: bodyStatuses), 414 where
 * a path parameter can be too long.
 */
function commonStatuses(route: RouteOptions): number[] {
  const statuses = [400, 401, 403, 429, 500, 503, ...bodyStatuses(route)];
  if (route.schema?.params) statuses.push(414);
  return statuses;
}

/** The headers that come with a status of an API route. */
function headersFor(status: number): Record<string, unknown> | undefined {
  if (status === 401 || status === 414 || status === 500) return undefined;
  if (status === 503) return RETRY_AFTER;
  if (status === 429) return { ...RATE_HEADERS, ...RETRY_AFTER };
  return RATE_HEADERS;
}

function describeApiResponses(route: RouteOptions): ResponseMap {
  const declared = (route.schema?.response ?? {}) as ResponseMap;
  const all: ResponseMap = {};
  for (const status of commonStatuses(route)) all[status] = errorRef(status);
  Object.assign(all, declared);
  for (const [status, schema] of Object.entries(all)) {
    const headers = headersFor(Number(status));
    const own = (schema as { headers?: object }).headers;
    if (headers) all[status] = { ...(schema as object), headers: { ...headers, ...own } };
  }
  return all;
}

/** Every documented route can fail unexpectedly (500), find the database away (503), or refuse a body (413, 415). */
function describeFailures(route: RouteOptions): ResponseMap {
  const declared = (route.schema?.response ?? {}) as ResponseMap;
  const bodies = Object.fromEntries(bodyStatuses(route).map((status) => [status, errorRef(status)]));
  return { ...bodies, 500: errorRef(500), 503: { ...errorRef(503), headers: RETRY_AFTER }, ...declared };
}

/** onRoute hook: applies the rules above to each route as it is registered. */
export function applyRouteRules(route: RouteOptions): void {
  if (isApiRoute(route.url)) {
    const method = [route.method].flat()[0]!;
    const scope = scopeOf(method, route.url);
    if (!scope) throw new Error(`${method} ${route.url} has no scope in ROUTE_SCOPES (src/http/route-scopes.ts): every API route needs one`);
    route.config = { ...route.config, scope };
  }
  if (!route.schema || route.schema.hide) return;
  if (isApiRoute(route.url)) {
    route.schema = {
      ...route.schema,
      description: `${route.schema.description ?? ''} Scope: ${String(route.config?.scope)}.`.trim(),
      querystring: route.schema.querystring ?? NoQuery,
      response: describeApiResponses(route),
    };
  } else if (route.schema.response) {
    route.schema = { ...route.schema, response: describeFailures(route) };
  }
}
