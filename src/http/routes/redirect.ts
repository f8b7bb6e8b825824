// GET /{urlCode} through Fastify: the slow path behind the redirect front (src/http/redirect-front.ts),
// for paths the front does not take (percent-encoded codes) and for lookups that failed there, so
// errors get the service's error handling. Answers exactly as the front does.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App, AppContext } from '../context.js';
import { LINK_NOT_FOUND } from '../redirect-front.js';
import type { CachedTarget } from '../../domain/links/redirects.js';

export function registerRedirect(app: App, ctx: AppContext): void {
  const answer = (request: FastifyRequest, reply: FastifyReply, target: CachedTarget | undefined) => {
    if (!target) return reply.status(404).send(LINK_NOT_FOUND);
    return reply.redirect(ctx.clicks.clickThrough(target, { method: request.method, ip: request.ip, userAgent: request.headers['user-agent'] }), 302);
  };

  app.get<{ Params: { code: string } }>('/:code', { schema: { hide: true } }, (request, reply) =>
    ctx.redirects.resolve(request.params.code).then((target) => answer(request, reply, target)),
  );
}
