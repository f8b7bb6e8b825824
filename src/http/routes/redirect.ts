// GET /{urlCode}: the hot path. No authentication, no schema, no logging: look the code up in
// the in-process cache, answer 302, and hand the click to the buffer.
import type { App, AppContext } from '../context.js';
import { errorBody } from '../errors.js';

export function registerRedirect(app: App, ctx: AppContext): void {
  app.get<{ Params: { code: string } }>('/:code', { schema: { hide: true } }, async (request, reply) => {
    const target = await ctx.redirects.resolve(request.params.code);
    if (!target) {
      return reply.status(404).send(errorBody(404, 'link_not_found', 'Short link not found or no longer active'));
    }
    reply.redirect(target.destination, 302);
    ctx.clicks.record(target.linkId);
    return reply;
  });
}
