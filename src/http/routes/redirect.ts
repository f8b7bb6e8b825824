// GET /{urlCode} through Fastify: the slow path behind the redirect front (src/http/redirect-front.ts),
// for paths the front does not take (percent-encoded codes) and for lookups that failed there, so
// errors get the service's error handling. Answers exactly as the front does, /{urlCode}/ too.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App, AppContext } from '../context.js';
import { LINK_NOT_FOUND } from '../redirect-front.js';
import type { CachedTarget } from '../../domain/links/redirects.js';

export function registerRedirect(app: App, ctx: AppContext): void {
  const answer = (request: FastifyRequest, reply: FastifyReply, target: CachedTarget | undefined) => {
    if (!target) return reply.status(404).send(LINK_NOT_FOUND);
    const queryAt = request.url.indexOf('?');
    const visit = { method: request.method, ip: request.ip, userAgent: request.headers['user-agent'] };
    return reply.redirect(ctx.clicks.clickThrough(target, visit, queryAt === -1 ? undefined : request.url.slice(queryAt + 1)), 302);
  };
  const follow = (request: FastifyRequest<{ Params: { code: string } }>, reply: FastifyReply) =>
    ctx.redirects.resolve(request.params.code).then((target) => answer(request, reply, target));

  app.get('/:code', { schema: { hide: true } }, follow);
  // The same with a trailing slash: one route, two spellings.
  app.get('/:code/', { schema: { hide: true } }, follow);
}
