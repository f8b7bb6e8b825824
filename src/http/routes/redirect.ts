// GET /{urlCode}: the hot path. No authentication, no schema, no logging: look the code up in
// the in-process cache, answer 302 with a fresh click id, and only then hand the click to the
// buffer. HEAD is answered the same way (and flagged, so it never counts).
import type { App, AppContext } from '../context.js';
import { errorBody } from '../errors.js';
import { newClickId } from '../../domain/links/redirects.js';

export function registerRedirect(app: App, ctx: AppContext): void {
  app.get<{ Params: { code: string } }>('/:code', { schema: { hide: true } }, async (request, reply) => {
    const target = await ctx.redirects.resolve(request.params.code);
    if (!target) {
      return reply.status(404).send(errorBody(404, 'link_not_found', 'Short link not found or no longer active'));
    }
    const clickId = newClickId();
    reply.redirect(target.locationBefore + clickId + target.locationAfter, 302);
    ctx.clicks.record(target, { clickId, method: request.method, ip: request.ip, userAgent: request.headers['user-agent'] });
    return reply;
  });
}
