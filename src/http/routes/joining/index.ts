// Joining without a key: an affiliate signs up, a brand applies, and either confirms its address
// with the link mailed to it. Limited per address given and per client address; the answers never
// tell whether an address has an account.
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { AppContext, App } from '../../context.js';
import { COUNTRY_CODES } from '../../../domain/access/application-checks.js';
import { BrandApplication, JoiningOptions, SignUp, VerifiedApplication, VerifyApplication } from '../../../schemas/applications.js';
import { CURRENCY_CODES } from '../../../schemas/common.js';
import { errorResponses } from '../../responses.js';
import { tooManyRequests } from '../../errors.js';

const TAG = 'Joining';
const NoQuery = Type.Object({}, { additionalProperties: false });
/** Outside the API's route rules, like the session's: they add 413 and 415 to every documented route. */
const ERRORS = [400, 429, 500, 503];
const Accepted = Type.Object({ data: Type.Object({ message: Type.String() }) });
const LIMITS = 'At most 3 per address given and 10 per client address in an hour; past them 429.';

export function registerJoiningRoutes(app: App, ctx: AppContext): void {
  const { applications, joinAttempts } = ctx.services;
  const { termsVersion, termsUrl } = ctx.config;

  /** 429 once the client or the address given has asked too often (a client past its own limit does not count against the address). */
  const limit = async (request: FastifyRequest, email?: string) => {
    const waitMs = (await joinAttempts.address.failed(request.ip)) || (email === undefined ? 0 : await joinAttempts.account.failed(email.trim().toLowerCase()));
    if (waitMs > 0) throw tooManyRequests('too_many_requests', waitMs, ({ minutes }) => `Too many sign-ups or applications from here or for this address: try again in ${minutes} min (a link already sent keeps working)`);
  };
  const sent = { data: { message: 'Check your inbox: follow the link we sent to confirm your address (it works for 24 hours)' } };

  app.get(
    '/signup/options',
    {
      schema: {
        tags: [TAG],
        summary: 'What the sign-up and application forms offer',
        description: 'The version (and address) of the terms accepted by joining now, and the countries and currencies accepted.',
        querystring: NoQuery,
        response: { 200: Type.Object({ data: JoiningOptions }), ...errorResponses(...ERRORS) },
      },
    },
    async () => ({ data: { termsVersion, ...(termsUrl && { termsUrl }), countries: [...COUNTRY_CODES], currencies: [...CURRENCY_CODES] } }),
  );

  app.post(
    '/signup',
    {
      schema: {
        tags: [TAG],
        summary: 'Sign up as an affiliate',
        description: `Mails a link (24 hours, one use) that confirms the address; the application then waits for the network's decision (or is approved at once where the network says so), and the person is mailed either way. An address that has an account gets the same answer, and its owner a message instead. ${LIMITS}`,
        querystring: NoQuery,
        body: SignUp,
        response: { 202: Accepted, ...errorResponses(...ERRORS) },
      },
    },
    async (request, reply) => {
      await limit(request, request.body.email);
      await applications.signUp(request.body, request.ip);
      return reply.status(202).send(sent);
    },
  );

  app.post(
    '/brand-applications',
    {
      schema: {
        tags: [TAG],
        summary: 'Apply to join as a brand',
        description: `Mails the contact a link (24 hours, one use) that confirms the address; the network then decides, and the contact is mailed. On approval the brand exists with its contact as owner, out of affiliates' sight until the owner sets a commission and a first product or campaign and launches it. ${LIMITS}`,
        querystring: NoQuery,
        body: BrandApplication,
        response: { 202: Accepted, ...errorResponses(...ERRORS) },
      },
    },
    async (request, reply) => {
      await limit(request, request.body.email);
      await applications.apply(request.body, request.ip);
      return reply.status(202).send(sent);
    },
  );

  app.post(
    '/signup/verify',
    {
      schema: {
        tags: [TAG],
        summary: 'Confirm the address of a sign-up or application',
        description: 'The token of the link mailed at sign-up or application; it works once, for 24 hours. 10 tries per client address in an hour.',
        querystring: NoQuery,
        body: VerifyApplication,
        response: { 200: Type.Object({ data: VerifiedApplication }), ...errorResponses(...ERRORS) },
      },
    },
    async (request) => {
      await limit(request);
      const application = await applications.verify(request.body.token);
      return { data: { kind: application.kind, status: application.status === 'approved' ? 'approved' : 'pending' } as const };
    },
  );
}
