// Second factors, for the portal: the second step of a sign-in (a ticket with a code, a recovery
// code or a passkey), signing in with a passkey alone, and the signed-in person's own factors (the
// authenticator app, recovery codes, passkeys). Like the other session routes they take no API
// key; every change needs the session's CSRF token. Nobody reaches another person's factors: each
// route acts on the signed-in person's own.
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App, AppContext } from '../../context.js';
import type { SignedIn } from '../../../domain/access/users-service.js';
import { Session } from '../../../schemas/session.js';
import {
  Confirmation,
  FactorConfirmation,
  FactorConfirmed,
  Passkey,
  PasskeyOptions,
  PasskeyParams,
  PasskeyRegistration,
  PasskeyRename,
  PasskeySignIn,
  RecoveryCodes,
  SecondFactorSignIn,
  SecondFactorStatus,
  TicketOnly,
  TotpConfirm,
  TotpEnrolment,
} from '../../../schemas/second-factors.js';
import { errorResponses } from '../../responses.js';
import { HttpError, tooManyRequests } from '../../errors.js';
import { answerSignedIn, checkCsrf, clientOf, portalOrigins, SESSION_COOKIE, sessionOf } from '../../session-cookie.js';

const TAG = 'Session';
const NoQuery = Type.Object({}, { additionalProperties: false });
const ERRORS = [400, 500, 503];
const INVALID_TICKET = 'This sign-in has expired, was completed already or had too many wrong codes: sign in again with your password';

export function registerSecondFactorRoutes(app: App, ctx: AppContext): void {
  const { users, secondFactors, passkeySignIns } = ctx.services;
  const { publicUrl } = ctx.config;
  const allowedOrigins = portalOrigins(ctx.config);

  const signedIn = (reply: FastifyReply, result: SignedIn) => answerSignedIn(reply, result, publicUrl);
  /** The signed-in person (401 otherwise), with the CSRF token checked on changes. */
  const signedInPerson = async (request: FastifyRequest) => {
    const session = await sessionOf(request, users);
    if (!session) throw new HttpError(401, 'unauthorized', 'Not signed in: POST /session with your e-mail and password');
    checkCsrf(request, session, allowedOrigins);
    const token = request.cookies[SESSION_COOKIE]!;
    return { session, user: session.user, token, who: { userId: session.user.id, email: session.user.email, sessionToken: token, client: clientOf(request) } };
  };

  /** 429 once the client address has tried too often (the passwordless sign-in has no account to count against). */
  const limitAddress = async (request: FastifyRequest) => {
    const waitMs = await passkeySignIns.failed(request.ip);
    if (waitMs === 0) return;
    throw tooManyRequests('too_many_sign_ins', waitMs, ({ minutes }) => `Too many sign-in attempts from this address: try again in ${minutes} min`);
  };

  app.post(
    '/session/second-factor',
    {
      schema: {
        tags: [TAG],
        summary: 'Complete a sign-in with a second factor',
        description:
          'After POST /session answered secondFactor (a right password, and the person has a second factor): the ticket with exactly one of a current code of the authenticator app (each code works once), a recovery code (each works once) or a passkey\'s signature (options from POST /session/second-factor/passkey-options) opens the session, like POST /session does for others. A ticket works once, for five minutes; after 5 wrong codes it stops working and the person signs in again with their password. Wrong codes (and recovery codes) also count per account and per client address, whatever the ticket: past 10 per account or 30 per address in 15 minutes (from the first), every code is answered 429 too_many_codes with Retry-After until the window ends, unread (a right password resets nothing; a passkey still works). 401 invalid_code for a wrong code, 401 invalid_ticket for a ticket that no longer works.',
        querystring: NoQuery,
        body: SecondFactorSignIn,
        response: { 200: Type.Object({ data: Type.Ref(Session) }), ...errorResponses(...ERRORS, 401, 429) },
      },
    },
    async (request, reply) => {
      const { ticket, code, recoveryCode, passkey } = request.body;
      const result = await secondFactors.completeSignIn(ticket, { code, recoveryCode, passkey: passkey }, clientOf(request));
      if (result.ok) return signedIn(reply, result.signedIn);
      if (result.reason === 'invalid_ticket') throw new HttpError(401, 'invalid_ticket', INVALID_TICKET);
      throw new HttpError(401, 'invalid_code', 'This code is wrong or was used already: try the current code, a recovery code or a passkey');
    },
  );

  app.post(
    '/session/second-factor/passkey-options',
    {
      schema: {
        tags: [TAG],
        summary: 'Passkey options for the second step of a sign-in',
        description: "WebAuthn options (a challenge for five minutes, the person's own passkeys) for navigator.credentials.get(); send its answer to POST /session/second-factor as passkey.",
        querystring: NoQuery,
        body: TicketOnly,
        response: { 200: Type.Object({ data: PasskeyOptions }), ...errorResponses(...ERRORS, 401) },
      },
    },
    async (request) => {
      const options = await secondFactors.ticketPasskeyOptions(request.body.ticket);
      if (!options) throw new HttpError(401, 'invalid_ticket', INVALID_TICKET);
      return { data: options };
    },
  );

  app.post(
    '/session/passkey/options',
    {
      schema: {
        tags: [TAG],
        summary: 'Options to sign in with a passkey, without a password',
        description: 'WebAuthn options (a challenge for five minutes, used once; no list of credentials: the authenticator offers its discoverable passkeys for this site) for navigator.credentials.get(); send its answer to POST /session/passkey. Counted with the sign-in attempts of the client address.',
        querystring: NoQuery,
        response: { 200: Type.Object({ data: PasskeyOptions }), ...errorResponses(...ERRORS, 429) },
      },
    },
    async (request) => {
      await limitAddress(request);
      return { data: await secondFactors.passwordlessOptions() };
    },
  );

  app.post(
    '/session/passkey',
    {
      schema: {
        tags: [TAG],
        summary: 'Sign in with a passkey',
        description: 'The signature of the challenge from POST /session/passkey/options by a passkey registered here, which must have verified the person (PIN or biometrics): it opens a session without a password or another factor, like POST /session. 401 invalid_passkey otherwise.',
        querystring: NoQuery,
        body: PasskeySignIn,
        response: { 200: Type.Object({ data: Type.Ref(Session) }), ...errorResponses(...ERRORS, 401) },
      },
    },
    async (request, reply) => {
      const result = await secondFactors.signInWithPasskey(request.body.passkey, clientOf(request));
      if (!result) throw new HttpError(401, 'invalid_passkey', 'This passkey is not registered here, or its answer is not for a current sign-in: try again');
      return signedIn(reply, result);
    },
  );

  app.post(
    '/session/second-factor/confirm',
    {
      schema: {
        tags: [TAG],
        summary: 'Confirm it is you, with your second factor',
        description:
          'For a signed-in person with a second factor, before a change that asks for a current one (turning the app off, new recovery codes, adding or removing a passkey, payee details, an operator moving money): exactly one of a current code of the authenticator app and a passkey\'s signature (options from POST /session/second-factor/confirm/passkey-options). For the next 10 minutes those changes need nothing more in this session. A recovery code or the password confirms nothing. Wrong codes count as at sign-in (429 too_many_codes past the limits). 409 second_factor_missing for a person without one. Needs the x-csrf-token header.',
        querystring: NoQuery,
        body: FactorConfirmation,
        response: { 200: Type.Object({ data: FactorConfirmed }), ...errorResponses(...ERRORS, 401, 403, 409, 429) },
      },
    },
    async (request) => {
      const { who } = await signedInPerson(request);
      const { code, passkey } = request.body;
      return { data: await secondFactors.confirmFactor(who, { ...(code !== undefined && { code }), ...(passkey !== undefined && { passkey }) }) };
    },
  );

  app.post(
    '/session/second-factor/confirm/passkey-options',
    {
      schema: {
        tags: [TAG],
        summary: 'Passkey options to confirm it is you',
        description: "WebAuthn options (a challenge for five minutes, used once, your own passkeys) for navigator.credentials.get(); send its answer to POST /session/second-factor/confirm as passkey. 409 no_passkey for a person without one. Needs the x-csrf-token header.",
        querystring: NoQuery,
        response: { 200: Type.Object({ data: PasskeyOptions }), ...errorResponses(...ERRORS, 401, 403, 409) },
      },
    },
    async (request) => {
      const { user } = await signedInPerson(request);
      return { data: await secondFactors.confirmPasskeyOptions(user.id) };
    },
  );

  app.get(
    '/session/second-factors',
    {
      schema: {
        tags: [TAG],
        summary: 'Your second factors',
        description: "Whether the signed-in person's authenticator app is set up, how many recovery codes are left, their passkeys, and whether their team requires a second factor.",
        querystring: NoQuery,
        response: { 200: Type.Object({ data: SecondFactorStatus }), ...errorResponses(...ERRORS, 401) },
      },
    },
    async (request) => {
      const { user } = await signedInPerson(request);
      return { data: await secondFactors.status(user) };
    },
  );

  app.post(
    '/session/totp',
    {
      schema: {
        tags: [TAG],
        summary: 'Start setting up an authenticator app',
        description:
          'A new secret (replacing one not confirmed yet), as text and as an otpauth:// URI for a QR code. It counts only once POST /session/totp/confirm has a current code. The secret is kept encrypted with the installation\'s own key. 409 totp_enabled when an app is set up already. A person who has a passkey confirms with it first (POST /session/second-factor/confirm, 10 minutes; 400 second_factor_needed otherwise). Needs the x-csrf-token header.',
        querystring: NoQuery,
        response: { 200: Type.Object({ data: TotpEnrolment }), ...errorResponses(...ERRORS, 401, 403, 409) },
      },
    },
    async (request) => {
      const { who } = await signedInPerson(request);
      return { data: await secondFactors.startTotp(who) };
    },
  );

  app.post(
    '/session/totp/confirm',
    {
      schema: {
        tags: [TAG],
        summary: 'Confirm the authenticator app with a current code',
        description: 'From now on the app is asked for at sign-in. Answers ten recovery codes, shown this once. 400 invalid_code for a wrong code (counted like the sign-in\'s: 429 too_many_codes past the limits). Needs the x-csrf-token header.',
        querystring: NoQuery,
        body: TotpConfirm,
        response: { 200: Type.Object({ data: RecoveryCodes }), ...errorResponses(...ERRORS, 401, 403, 409, 429) },
      },
    },
    async (request) => {
      const { who } = await signedInPerson(request);
      return { data: await secondFactors.confirmTotp(who, request.body.code) };
    },
  );

  app.delete(
    '/session/totp',
    {
      schema: {
        tags: [TAG],
        summary: 'Turn the authenticator app off',
        description: 'With a current second factor: a code of the app, or a code or passkey this session passed within the last 10 minutes; never the password or a recovery code (400 second_factor_needed). Its recovery codes stop working too. 409 totp_not_enabled without an app. Needs the x-csrf-token header.',
        querystring: NoQuery,
        body: Confirmation,
        response: { 204: Type.Null(), ...errorResponses(...ERRORS, 401, 403, 409, 429) },
      },
    },
    async (request, reply) => {
      const { who } = await signedInPerson(request);
      await secondFactors.disableTotp(who, request.body);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/session/recovery-codes',
    {
      schema: {
        tags: [TAG],
        summary: 'New recovery codes',
        description: 'Ten new single-use codes, shown this once; the old ones (used or not) stop working. With a current second factor, as DELETE /session/totp. 409 totp_not_enabled without an app. Needs the x-csrf-token header.',
        querystring: NoQuery,
        body: Confirmation,
        response: { 200: Type.Object({ data: RecoveryCodes }), ...errorResponses(...ERRORS, 401, 403, 409, 429) },
      },
    },
    async (request) => {
      const { who } = await signedInPerson(request);
      return { data: await secondFactors.regenerateRecoveryCodes(who, request.body) };
    },
  );

  app.post(
    '/session/passkeys/options',
    {
      schema: {
        tags: [TAG],
        summary: 'Options to register a passkey',
        description: 'WebAuthn options (a challenge for five minutes, used once; a discoverable credential for this site; your passkeys excluded) for navigator.credentials.create(); send its answer to POST /session/passkeys. A person who has a second factor confirms with it first (POST /session/second-factor/confirm, 10 minutes; 400 second_factor_needed otherwise). Needs the x-csrf-token header.',
        querystring: NoQuery,
        response: { 200: Type.Object({ data: PasskeyOptions }), ...errorResponses(...ERRORS, 401, 403, 409) },
      },
    },
    async (request) => {
      const { who } = await signedInPerson(request);
      return { data: await secondFactors.passkeyRegistrationOptions(who) };
    },
  );

  app.post(
    '/session/passkeys',
    {
      schema: {
        tags: [TAG],
        summary: 'Register a passkey',
        description: 'The answer of navigator.credentials.create() to the options of POST /session/passkeys/options: the passkey then signs in alone, or completes a sign-in as a second factor. Needs the x-csrf-token header.',
        querystring: NoQuery,
        body: PasskeyRegistration,
        response: { 201: Type.Object({ data: Passkey }), ...errorResponses(...ERRORS, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      const { who } = await signedInPerson(request);
      const passkey = await secondFactors.registerPasskey(who, request.body.name, request.body.passkey);
      return reply.status(201).send({ data: passkey });
    },
  );

  app.patch(
    '/session/passkeys/:id',
    {
      schema: {
        tags: [TAG],
        summary: 'Rename a passkey',
        description: 'One of your own passkeys (404 for any other). Needs the x-csrf-token header.',
        querystring: NoQuery,
        params: PasskeyParams,
        body: PasskeyRename,
        response: { 200: Type.Object({ data: Passkey }), ...errorResponses(...ERRORS, 401, 403, 404, 414) },
      },
    },
    async (request) => {
      const { user } = await signedInPerson(request);
      return { data: await secondFactors.renamePasskey(user.id, request.params.id, request.body.name) };
    },
  );

  app.delete(
    '/session/passkeys/:id',
    {
      schema: {
        tags: [TAG],
        summary: 'Remove a passkey',
        description: 'One of your own passkeys (404 for any other); it no longer signs in. With a current second factor: a code or passkey this session passed within the last 10 minutes (POST /session/second-factor/confirm; 400 second_factor_needed otherwise). Needs the x-csrf-token header.',
        querystring: NoQuery,
        params: PasskeyParams,
        response: { 204: Type.Null(), ...errorResponses(...ERRORS, 401, 403, 404, 414) },
      },
    },
    async (request, reply) => {
      const { who } = await signedInPerson(request);
      await secondFactors.removePasskey(who, request.params.id);
      return reply.status(204).send(null);
    },
  );
}
