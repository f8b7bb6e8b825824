// GET /{urlCode}: the hot path. No authentication, no schema, no logging. A code the cache knows
// is answered without waiting on anything; otherwise it is looked up once. The 302 carries a
// fresh click id; the click is then only appended to the buffer. HEAD is answered the same way
// (and flagged, so it never counts).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App, AppContext } from '../context.js';
import { errorBody } from '../errors.js';
import { newClickId, type CachedTarget } from '../../domain/links/redirects.js';

const NOT_FOUND = errorBody(404, 'link_not_found', 'Short link not found or no longer active');

export function registerRedirect(app: App, ctx: AppContext): void {
  const answer = (request: FastifyRequest, reply: FastifyReply, target: CachedTarget | null | undefined) => {
    if (!target) return reply.status(404).send(NOT_FOUND);
    const clickId = newClickId();
    reply.redirect(target.locationBefore + clickId + target.locationAfter, 302);
    ctx.clicks.record(target, { clickId, method: request.method, ip: request.ip, userAgent: request.headers['user-agent'] });
    return reply;
  };

  app.get<{ Params: { code: string } }>('/:code', { schema: { hide: true } }, (request, reply) => {
    const { code } = request.params;
    const cached = ctx.redirects.cached(code);
    if (cached !== undefined) return answer(request, reply, cached);
    return ctx.redirects.resolve(code).then((target) => answer(request, reply, target));
  });
}
