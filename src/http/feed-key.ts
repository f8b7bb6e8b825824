// The affiliate's product feeds are fetched by comparison sites and shop tools that can only be
// given a URL: there, and only there, the API key may come in the query (key=…). Such a URL ends
// up in other systems' settings and logs, so a key sent in it must be one that can only read.
import type { FastifyRequest } from 'fastify';
import { HttpError } from './errors.js';

export const FEED_PATHS: ReadonlySet<string> = new Set(['/affiliate/feeds/products.csv', '/affiliate/feeds/products.xml']);

/** The key a feed's URL carries (none on other routes, where a key in the URL is never read). */
export function feedKeyFrom(request: FastifyRequest): string | undefined {
  if (!FEED_PATHS.has(request.routeOptions.url ?? '')) return undefined;
  const value = (request.query as { key?: string | string[] }).key;
  if (Array.isArray(value)) throw new HttpError(400, 'invalid_query', `key must be given once (got ${value.length} values)`);
  return value === '' ? undefined : value;
}

/** Refuses a key sent in the URL that could do more than read. */
export function refuseWritingKeyInUrl(request: FastifyRequest): void {
  if (request.headers['x-api-key'] !== undefined || feedKeyFrom(request) === undefined) return;
  const writes = [...(request.principal?.scopes ?? [])].filter((scope) => !scope.endsWith(':read'));
  if (writes.length > 0) {
    throw new HttpError(
      403,
      'key_not_read_only',
      `A key sent in a URL may only read, and this one may also ${writes.join(', ')}: create a key with only products:read for feeds (POST /affiliate/keys, or the portal's API keys page) and put it in the URL instead`,
    );
  }
}
