// The portal's session, for people rather than programs: sign in with an e-mail and password
// (a cookie comes back), read who is signed in, sign out, and set a password through a one-time
// link. Failed sign-ins hold the next try back, longer each time, per account and per address
// (apart for a browser the account knows: see domain/access/sign-in-delays.ts). Everything else
// the portal does goes through the same API routes as keys, with the session as credential.
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext, App } from '../../context.js';
import type { SignedIn } from '../../../domain/access/users-service.js';
import { PasswordReset, Session, SessionChange, SetPassword, SignIn } from '../../../schemas/session.js';
import { SecondFactorStep } from '../../../schemas/second-factors.js';
import { registerSecondFactorRoutes } from './second-factors.js';
import { errorResponses } from '../../responses.js';
import { HttpError, tooManyRequests } from '../../errors.js';
import { answerSignedIn, checkCsrf, clearSessionCookie, clearViewAsCookie, clientOf, portalOrigins, SESSION_COOKIE, sessionOf, VIEW_AS_COOKIE } from '../../session-cookie.js';
import type { ActiveSession } from '../../../domain/access/users-service.js';
import { registerSessionListRoutes } from './sessions.js';

const TAG = 'Session';
const NoQuery = Type.Object({}, { additionalProperties: false });
/**
 * What any of these routes may answer besides its own: they are outside the API's route rules, which
 * add these there (413 and 415 the rules add to every documented route, these included).
 */
const ERRORS = [400, 500, 503];

export function registerSessionRoutes(app: App, ctx: AppContext): void {
  const { users, signInDelays, passwordLinkAttempts, passwordResets, secondFactors } = ctx.services;
  const { publicUrl } = ctx.config;
  const allowedOrigins = portalOrigins(ctx.config);

  const signedIn = (reply: FastifyReply, result: SignedIn) => answerSignedIn(reply, result, publicUrl);
  /** The member an operator's browser views as, while the view lasts; a view that ended has its cookie cleared. */
  const viewingOf = async (request: FastifyRequest, reply: FastifyReply, session: ActiveSession) => {
    const token = request.cookies[VIEW_AS_COOKIE];
    if (!token || session.user.role !== 'operator') return undefined;
    const found = await ctx.services.viewAs.resolve(token, session.id);
    if ('view' in found) return found.view;
    clearViewAsCookie(reply, publicUrl);
    return undefined;
  };
  app.post(
    '/session',
    {
      schema: {
        tags: [TAG],
        summary: 'Sign in',
        description: [
          'Checks the e-mail and password and opens a session: the answer sets an HttpOnly cookie and carries the CSRF token, and a long-lived `affnet_device` cookie (HttpOnly, path /session) that marks the browser as known to the account.',
          '',
          'Failed attempts hold the next one back instead of locking the account: 5 failures per account (in an hour from the first) are free, then each further failure makes the next attempt wait 1 s, 2 s, 4 s … up to 60 s; 20 failures per client address are free, then the same up to 5 min. An attempt made while held back is answered 429 with Retry-After (the password is not checked, and the attempt counts nowhere); attempts sent all at once get no more checks than one after the other. A browser that signed in to the account before (its `affnet_device` cookie) is counted apart, on its own counter for that account, so a stranger guessing at an account never holds its owner back at their usual device.',
          '',
          'A sign-in from a browser new to the account is mailed to the person (not the first sign-in of all), and so is the first failure held back on their account: someone is guessing. Wrong passwords typed to confirm a change in a session (payee details) count here too.',
          '',
          'For a person with a second factor (an authenticator app or a passkey) a right password opens no session: the answer is secondFactor, with the methods they can use and a ticket (five minutes, one use) for POST /session/second-factor, where wrong codes are limited per account and per address, whatever the ticket.',
        ].join('\n'),
        querystring: NoQuery,
        body: SignIn,
        response: { 200: Type.Object({ data: Type.Union([Type.Ref(Session), SecondFactorStep]) }), ...errorResponses(...ERRORS, 401, 429) },
      },
    },
    async (request, reply) => {
      const { email, password } = request.body;
      const client = clientOf(request);
      const attempt = { email, address: request.ip, knownDevice: await users.knownDeviceOf(email, client.deviceToken) };
      const waitMs = await signInDelays.admit(attempt);
      if (waitMs > 0) {
        throw tooManyRequests('too_many_sign_ins', waitMs, ({ seconds }) => `Too many failed sign-ins for this account or from this address: try again in ${seconds} s, or ask for a password reset link`);
      }
      const result = await secondFactors.signIn(email, password, client);
      if (!result && (await signInDelays.startedHolding(attempt))) await users.warnOfWrongPasswords(email, client);
      if (!result) throw new HttpError(401, 'invalid_credentials', 'The e-mail or the password is wrong (or the account has no password yet: use the link you were sent)');
      await signInDelays.succeeded(attempt);
      if ('secondFactor' in result) return { data: result };
      return signedIn(reply, result);
    },
  );

  app.post(
    '/session/password',
    {
      schema: {
        tags: [TAG],
        summary: 'Set a password with a one-time link, and sign in',
        description:
          'The token of a sign-up or password-reset link; the link works once. Other sessions of the user end. The password has 10 to 200 characters and is not one of the most common ones (400 invalid_password says why). For a person with a second factor the answer is secondFactor, as at POST /session: the link sets the password but opens no session, and the second step does (a link never removes a factor). 30 tries per client address in 15 minutes; past them 429.',
        querystring: NoQuery,
        body: SetPassword,
        response: { 200: Type.Object({ data: Type.Union([Type.Ref(Session), SecondFactorStep]) }), ...errorResponses(...ERRORS, 429) },
      },
    },
    async (request, reply) => {
      const waitMs = await passwordLinkAttempts.failed(request.ip);
      if (waitMs > 0) throw tooManyRequests('too_many_sign_ins', waitMs, ({ minutes }) => `Too many password links tried from this address: try again in ${minutes} min`);
      const result = await secondFactors.setPassword(request.body.token, request.body.password, clientOf(request));
      if ('secondFactor' in result) return { data: result };
      return signedIn(reply, result);
    },
  );

  app.post(
    '/session/password-reset',
    {
      schema: {
        tags: [TAG],
        summary: 'Forgot the password: mail a link to set a new one',
        description:
          'Mails the person who signs in with this address a one-time link to set a new password (an hour; a week for someone who never set one). The answer is the same whether or not the address has an account, so it tells nobody who is a member. 3 requests per address asked for and 10 per client address in an hour; past them 429.',
        querystring: NoQuery,
        body: PasswordReset,
        response: { 202: Type.Object({ data: Type.Object({ message: Type.String() }) }), ...errorResponses(...ERRORS, 429) },
      },
    },
    async (request, reply) => {
      // A client past its own limit does not count against the address it names: it cannot use up someone else's links.
      const waitMs = (await passwordResets.address.failed(request.ip)) || (await passwordResets.account.failed(request.body.email.trim().toLowerCase()));
      if (waitMs > 0) throw tooManyRequests('too_many_password_resets', waitMs, ({ minutes }) => `Too many links asked for this address or from this address: try again in ${minutes} min (a link already sent keeps working)`);
      await users.requestPasswordReset(request.body.email);
      return reply.status(202).send({ data: { message: 'If an account uses this address, a link to set a new password is on its way to it' } });
    },
  );

  app.get(
    '/session',
    {
      schema: {
        tags: [TAG],
        summary: 'Who is signed in',
        description: 'The signed-in user, the CSRF token and when the session ends unless used; accountSuspendedAt while the network has suspended their affiliate or brand; viewingAs while an operator’s browser views as a member (POST /operator/affiliates/{id}/view-as). 401 without a session.',
        querystring: NoQuery,
        response: { 200: Type.Object({ data: Type.Ref(Session) }), ...errorResponses(...ERRORS, 401) },
      },
    },
    async (request, reply) => {
      const session = await sessionOf(request, users);
      if (!session) throw new HttpError(401, 'unauthorized', 'Not signed in: POST /session with your e-mail and password');
      const viewingAs = await viewingOf(request, reply, session);
      return { data: { user: session.user, csrfToken: session.csrfToken, expiresAt: session.expiresAt, ...(session.accountSuspendedAt && { accountSuspendedAt: session.accountSuspendedAt }), ...(viewingAs && { viewingAs }) } };
    },
  );

  app.patch(
    '/session',
    {
      schema: {
        tags: [TAG],
        summary: "Change the signed-in person's settings",
        description: 'Their language: the portal shows it and their mail is written in it. Needs the x-csrf-token header.',
        querystring: NoQuery,
        body: SessionChange,
        response: { 200: Type.Object({ data: Type.Ref(Session) }), ...errorResponses(...ERRORS, 401, 403) },
      },
    },
    async (request) => {
      const session = await sessionOf(request, users);
      if (!session) throw new HttpError(401, 'unauthorized', 'Not signed in: POST /session with your e-mail and password');
      checkCsrf(request, session, allowedOrigins);
      const user = await users.setLanguage(session.user.id, request.body.language);
      return { data: { user, csrfToken: session.csrfToken, expiresAt: session.expiresAt, ...(session.accountSuspendedAt && { accountSuspendedAt: session.accountSuspendedAt }) } };
    },
  );

  app.delete(
    '/session',
    {
      schema: {
        tags: [TAG],
        summary: 'Sign out',
        description: 'Ends the session (on the server: the cookie stops working everywhere) and clears the cookie. Needs the x-csrf-token header.',
        querystring: NoQuery,
        response: { 204: Type.Null(), ...errorResponses(...ERRORS, 401, 403) },
      },
    },
    async (request, reply) => {
      const session = await sessionOf(request, users);
      if (!session) throw new HttpError(401, 'unauthorized', 'Not signed in');
      checkCsrf(request, session, allowedOrigins);
      await users.signOut(request.cookies[SESSION_COOKIE]!);
      clearSessionCookie(reply, publicUrl);
      // An operator's view as a member works only with the session that opened it: it ends with it.
      if (request.cookies[VIEW_AS_COOKIE]) clearViewAsCookie(reply, publicUrl);
      return reply.status(204).send(null);
    },
  );

  registerSessionListRoutes(app, ctx);
  registerSecondFactorRoutes(app, ctx);
}
