// "View as" for support: an operator opens a member's portal as its owner sees it, read-only, for
// VIEW_AS_MINUTES. Starting one sets a cookie of its own beside the operator's session cookie (see
// session-cookie.ts); ending it clears that cookie. The member routes refuse every change made
// through it (plugins/authenticate.ts); the member's people see it in their session list.
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { App, AppContext } from '../../context.js';
import { ViewAs, ViewAsStart } from '../../../schemas/view-as.js';
import { errorResponses } from '../../responses.js';
import { clearViewAsCookie, setViewAsCookie, VIEW_AS_COOKIE } from '../../session-cookie.js';
import { SESSION_ONLY, TAG } from './actor.js';
import { userIdOf } from '../account/side.js';

const Id = (what: string) => Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, description: `The ${what}’s id` }) });

/** The operator's own session (ses_…), which the view is bound to. */
function sessionIdOf(request: FastifyRequest): string {
  const id = request.principal?.sessionId;
  if (!id) throw new Error('an operator route reached without a session');
  return id;
}

/** Where an operator views as a member, and stops. */
export function registerViewAsRoutes(app: App, ctx: AppContext): void {
  const { viewAs } = ctx.services;
  const { publicUrl } = ctx.config;

  for (const kind of ['affiliate', 'brand'] as const) {
    const one = kind === 'affiliate' ? 'an affiliate' : 'a brand';
    app.post(
      `/operator/${kind === 'affiliate' ? 'affiliates' : 'brands'}/:id/view-as`,
      {
        schema: {
          tags: [TAG],
          summary: `View as ${one}, read-only`,
          description:
            `Opens the ${kind}’s portal as its owner sees it, read-only, for VIEW_AS_MINUTES (30 by default), whatever its use: the answer sets an HttpOnly cookie (affnet_view_as) beside your session cookie, which stays as it was. ` +
            `While this browser holds it, the ${kind}’s routes (${kind === 'affiliate' ? '/affiliate/*' : '/advertiser/*'}) answer reads as its owner would and refuse every change with 403 read_only_view (downloads are reads); /operator/* and /session stay yours, and GET /session names the view (viewingAs). ` +
            'The view works only with the session that opened it (signing out ends it) and replaces any other view of that session. A suspended member can be viewed. ' +
            'Audited (member.viewed_as, under you, acting as the member, with the reason); the member’s people see the view in their session list as the network’s support, with the reason, and can end it.',
          security: SESSION_ONLY,
          params: Id(kind),
          body: ViewAsStart,
          response: { 201: Type.Object({ data: Type.Ref(ViewAs) }), ...errorResponses(404) },
        },
      },
      async (request, reply) => {
        const member = kind === 'affiliate' ? { affiliateId: request.params.id } : { brandId: request.params.id };
        const actor = { kind: 'operator' as const, userId: userIdOf(request), address: request.ip };
        const { token, view } = await viewAs.start(actor, sessionIdOf(request), member, request.body.reason);
        setViewAsCookie(reply, token, publicUrl, Math.round((Date.parse(view.expiresAt) - Date.parse(view.startedAt)) / 1000));
        return reply.status(201).send({ data: view });
      },
    );
  }

  app.delete(
    '/operator/view-as',
    {
      schema: {
        tags: [TAG],
        summary: 'Stop viewing as a member',
        description: 'Ends the view this browser holds (its affnet_view_as cookie, opened by this session) and clears the cookie: back to your console. Nothing to end answers the same.',
        security: SESSION_ONLY,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      const token = request.cookies[VIEW_AS_COOKIE];
      if (token) await viewAs.end(token, sessionIdOf(request));
      clearViewAsCookie(reply, publicUrl);
      return reply.status(204).send(null);
    },
  );
}
