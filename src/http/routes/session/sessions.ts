// The signed-in person's sessions, as they see them on the account's security page: which browsers
// are signed in, from where, last used when; and signing one out, or every one but this. Only ever
// the person's own: another person's session id is answered as unknown (404).
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { App, AppContext } from '../../context.js';
import { OpenSession } from '../../../schemas/session.js';
import { errorResponses } from '../../responses.js';
import { HttpError } from '../../errors.js';
import { checkCsrf, clearSessionCookie, DEVICE_COOKIE, portalOrigins, SESSION_COOKIE, sessionOf } from '../../session-cookie.js';

const TAG = 'Session';
const NoQuery = Type.Object({}, { additionalProperties: false });
const ERRORS = [400, 500, 503];

export function registerSessionListRoutes(app: App, ctx: AppContext): void {
  const { users, viewAs } = ctx.services;
  const { publicUrl } = ctx.config;
  const allowedOrigins = portalOrigins(ctx.config);

  /** The request's session, CSRF checked for writes; 401 without one. */
  const signedIn = async (request: FastifyRequest) => {
    const session = await sessionOf(request, users);
    if (!session) throw new HttpError(401, 'unauthorized', 'Not signed in: POST /session with your e-mail and password');
    checkCsrf(request, session, allowedOrigins);
    return session;
  };

  app.get(
    '/session/sessions',
    {
      schema: {
        tags: [TAG],
        summary: "The signed-in person's open sessions",
        description:
          'Every session of the signed-in person that is still open, the most recently used first: its device, country, address (kept SESSION_ADDRESS_DAYS days), when it was opened and last used, and which is this one. ' +
          'Also, for every person of an affiliate or a brand, the network’s support viewing the account read-only while it does (viewedByNetwork, with the reason and when it ends; never who): ending it like a session ends their view.',
        querystring: NoQuery,
        response: { 200: Type.Object({ data: Type.Array(Type.Ref(OpenSession)) }), ...errorResponses(...ERRORS, 401) },
      },
    },
    async (request) => {
      const session = await signedIn(request);
      const [own, views] = await Promise.all([users.sessionsOf(session), viewAs.sessionsOf(session.user)]);
      return { data: [...own, ...views].sort((a, b) => b.lastSeenAt.localeCompare(a.lastSeenAt) || b.createdAt.localeCompare(a.createdAt)) };
    },
  );

  app.delete(
    '/session/sessions/:id',
    {
      schema: {
        tags: [TAG],
        summary: 'Sign out one of your sessions',
        description:
          'Ends one of the signed-in person’s sessions (the browser it belongs to is signed out at its next request) and forgets that browser: its next sign-in is mailed as a new device. 404 for an id that is not one of the person’s open sessions. Needs the x-csrf-token header.',
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, description: 'The session’s id (GET /session/sessions)' }) }),
        querystring: NoQuery,
        response: { 204: Type.Null(), ...errorResponses(...ERRORS, 401, 403, 404, 414) },
      },
    },
    async (request, reply) => {
      const session = await signedIn(request);
      // The network's view of the account ends like a session; anything else is one of the person's own.
      if (await viewAs.endByMember(session.user, request.params.id)) return reply.status(204).send(null);
      await users.signOutSession(session, request.params.id, request.cookies[DEVICE_COOKIE]);
      if (request.params.id === session.id) clearSessionCookie(reply, publicUrl);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/session/sessions/sign-out-others',
    {
      schema: {
        tags: [TAG],
        summary: 'Sign out everywhere else',
        description: 'Ends every session of the signed-in person but this one, and forgets every browser but this one (their next sign-ins are mailed as new devices); the network’s support viewing the account stops too. Needs the x-csrf-token header.',
        querystring: NoQuery,
        response: { 200: Type.Object({ data: Type.Object({ signedOut: Type.Integer({ minimum: 0, description: 'How many sessions ended' }) }) }), ...errorResponses(...ERRORS, 401, 403) },
      },
    },
    async (request) => {
      const session = await signedIn(request);
      const own = await users.signOutOthers(session, request.cookies[SESSION_COOKIE]!, request.cookies[DEVICE_COOKIE]);
      return { data: { signedOut: own + (await viewAs.endAllByMember(session.user)) } };
    },
  );
}
