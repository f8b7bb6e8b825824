// The redirect hot path, in front of Fastify: GET or HEAD /{code} (or /{code}/) is answered
// straight on node:http, without routing, hooks or reply objects, which cost about as much as the
// redirect itself. Every other request, and any redirect whose lookup fails, goes on to Fastify,
// whose /:code route answers the same way the slow path (with the service's error handling).
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { isCodeShaped, type CachedTarget } from '../domain/links/redirect-cache.js';
import type { AppContext } from './context.js';
import { clientAddress, trustFunction } from './client-address.js';
import { errorBody } from './errors.js';
import { REQUEST_ID_HEADER, requestIdFor } from './request-id.js';
import { announcesTooLargeBody } from './plugins/body-limit.js';

export const LINK_NOT_FOUND = errorBody(404, 'link_not_found', 'Short link not found or no longer active');
const NOT_FOUND_JSON = JSON.stringify(LINK_NOT_FOUND);
const NOT_FOUND_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(NOT_FOUND_JSON) };

/**
 * A request listener that answers redirects itself and hands everything else to `next`.
 * `reserved` holds the first path segments of the service's own routes (healthz, docs, …), which
 * are never read as codes.
 */
export function redirectFront(ctx: AppContext, reserved: ReadonlySet<string>, next: RequestListener): RequestListener {
  const trust = trustFunction(ctx.config.trustProxy);
  const requestId = requestIdFor(trust);
  const { tracking } = ctx.services;

  const { metrics } = ctx;
  /** `query`: the visitor's query string (after '?'), undefined without one; `startedAt`: performance.now() on arrival. */
  const answer = (request: IncomingMessage, response: ServerResponse, target: CachedTarget | null | undefined, query: string | undefined, startedAt: number) => {
    if (!target) {
      response.writeHead(404, { ...NOT_FOUND_HEADERS, [REQUEST_ID_HEADER]: requestId(request) }).end(NOT_FOUND_JSON);
      metrics.redirectNotFound();
      metrics.redirectAnswers[request.method as 'GET' | 'HEAD'].notFound.observe((performance.now() - startedAt) / 1000);
      return;
    }
    const location = tracking.clickThrough(target, { method: request.method!, ip: clientAddress(request, trust), userAgent: request.headers['user-agent'], referer: request.headers.referer }, query);
    response.writeHead(302, { location, 'content-length': 0, [REQUEST_ID_HEADER]: requestId(request) }).end();
    metrics.redirectAnswers[request.method as 'GET' | 'HEAD'].found.observe((performance.now() - startedAt) / 1000);
  };

  return (request, response) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return next(request, response);
    const url = request.url!;
    const queryAt = url.indexOf('?');
    const code = codeOf(url, queryAt);
    // A body past the limit is refused by Fastify, as on every operation.
    if (code === undefined || reserved.has(code) || announcesTooLargeBody(request.headers)) return next(request, response);
    const startedAt = performance.now();
    const query = queryAt === -1 ? undefined : url.slice(queryAt + 1);
    const cached = tracking.cached(code);
    if (cached !== undefined) return answer(request, response, cached, query, startedAt);
    tracking.resolve(code).then(
      (target) => answer(request, response, target, query, startedAt),
      () => next(request, response),
    );
  };
}

/** The code of a path of the form /{code} or /{code}/ (query string at `queryAt` allowed), or undefined. */
function codeOf(url: string, queryAt: number): string | undefined {
  let end = queryAt === -1 ? url.length : queryAt;
  if (end > 2 && url.charCodeAt(end - 1) === 47 /* / */) end--;
  const code = url.slice(1, end);
  return url.charCodeAt(0) === 47 /* / */ && isCodeShaped(code) ? code : undefined;
}
