// Authentication, per-key rate limiting and scope checks for the API, in that order:
// onRequest resolves the x-api-key (401), the rate limiter counts the request against the key
// (429, and X-RateLimit-* headers on every response), and preParsing checks the route's scope
// (403) before the body is read or validated. A brand's postback token is resolved only where
// the routes ask for it (GET /postback's token parameter); anywhere else it is an unknown key.
import rateLimit from '@fastify/rate-limit';
import { failoverRateStore } from './failover-rate-store.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '../../domain/access/principal.js';
import { PAYEE_SCOPES, SESSION_ONLY_SCOPES, type Scope } from '../../domain/access/scopes.js';
import { looksLikePostbackToken } from '../../domain/access/access-service.js';
import { errorBody, HttpError, tooManyRequests } from '../errors.js';
import { checkCsrf, portalOrigins, sessionOf, VIEW_AS_COOKIE } from '../session-cookie.js';
import type { ActiveSession } from '../../domain/access/users-service.js';
import type { App, AppContext } from '../context.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
    /** The calling affiliate, on affiliate routes (authentication has checked the key is one). */
    readonly affiliateId: string;
    /** The calling brand, on advertiser routes and the postback. */
    readonly brandId: string;
    /** The calling brand with the key (or postback token) it called with and its address, for audit trails. */
    readonly brandCaller: { brandId: string; keyId: string; address: string };
  }
  interface FastifyContextConfig {
    /** Scope the API key must carry for this route. */
    scope?: Scope;
  }
}

/** What a view as a member may do: read. */
const READ_METHODS = new Set(['GET', 'HEAD']);

/** Whose routes these are: an affiliate's, a brand's, or the network's operators' (a session only). */
export type KeyOwner = 'affiliate' | 'brand' | 'operator';

/** Reads the caller's id from the principal; asking for the wrong side is a bug, not a 4xx. */
function callerOf(side: 'affiliateId' | 'brandId') {
  return function (this: FastifyRequest): string {
    const id = this.principal?.[side];
    if (!id) throw new Error(`${side} asked for on a request not authenticated for that side`);
    return id;
  };
}

/** The key from the x-api-key header. */
export function keyFromHeader(request: FastifyRequest): string | undefined {
  const header = request.headers['x-api-key'];
  return Array.isArray(header) ? header[0] : header;
}

export interface AuthenticationOptions {
  owner: KeyOwner;
  /** Where the key is read from (default: the x-api-key header). */
  keyFrom?: (request: FastifyRequest) => string | undefined;
  /**
   * Where a brand's postback token is read from, on the routes that accept one; it is tried
   * before the key. Without it, a postback token is refused like an unknown key.
   */
  postbackTokenFrom?: (request: FastifyRequest) => string | undefined;
  /** The 401 message when nothing was sent: it tells the caller what to send, and where. */
  missingKeyMessage?: string;
}

const UNKNOWN_POSTBACK_TOKEN = 'Postback token is unknown or has been replaced by a newer one: use the brand\'s current postback token';
const POSTBACK_TOKEN_ELSEWHERE = 'This is a postback token: it is accepted only as the token parameter of GET /postback; send a brand API key in the x-api-key header';

export async function registerAuthentication(app: App, ctx: AppContext, options: AuthenticationOptions): Promise<void> {
  const { owner, keyFrom = keyFromHeader, postbackTokenFrom, missingKeyMessage = 'API key is required: send it in the x-api-key header' } = options;
  if (!app.hasRequestDecorator('principal')) {
    app.decorateRequest('principal', null);
    app.decorateRequest('affiliateId', { getter: callerOf('affiliateId') });
    app.decorateRequest('brandId', { getter: callerOf('brandId') });
    app.decorateRequest('brandCaller', {
      getter(this: FastifyRequest) {
        return { brandId: this.brandId, keyId: this.principal!.keyId, address: this.ip };
      },
    });
  }

  /** Counts an invalid key or token against the client address; 429 once the address is past the limit. */
  const refuseGuessing = async (request: FastifyRequest) => {
    const waitMs = await ctx.services.failedKeys.failed(request.ip);
    if (waitMs === 0) return;
    ctx.metrics.refused('invalid_keys');
    throw tooManyRequests('TOO_MANY_REQUESTS', waitMs, ({ seconds }) => `Too many requests with an invalid API key from this address; retry in ${seconds} s with a valid key (requests with a valid key are served meanwhile)`);
  };

  /** A team that requires a second factor: a member without one reaches only their security page (the session routes). */
  const requireSecondFactor = async (session: ActiveSession) => {
    if (await ctx.services.secondFactors.enrolmentRequired(session.user)) {
      throw new HttpError(403, 'second_factor_required', 'Your team requires a second factor: set up an authenticator app or a passkey on your Security page first');
    }
  };

  /**
   * An operator's read-only view as a member, on the member's routes: its owner's reading, every
   * change refused (403 read_only_view) before anything is read or written; 401 view_as_ended once
   * it ended (expired, ended by either side, or the operator's session is another one).
   */
  const viewPrincipal = async (request: FastifyRequest, session: ActiveSession, token: string): Promise<Principal> => {
    await requireSecondFactor(session);
    const found = await ctx.services.viewAs.resolve(token, session.id);
    if ('ended' in found) {
      throw new HttpError(401, 'view_as_ended', `${found.ended}: end it (DELETE /operator/view-as) to be back in your console, or view as the member again from its page`);
    }
    if (!READ_METHODS.has(request.method)) {
      throw new HttpError(403, 'read_only_view', `You are viewing as ${found.view.name}, read-only: nothing can be changed through this view. End the view (the portal’s End button, or DELETE /operator/view-as) to act as yourself`);
    }
    return {
      keyId: `view:${found.view.id}`,
      credential: 'session',
      affiliateId: found.view.affiliateId ?? null,
      brandId: found.view.brandId ?? null,
      scopes: found.scopes,
      rateLimit: ctx.config.userRateLimit,
      rateWindowMs: 60_000,
      sessionId: session.id,
      viewing: { viewId: found.view.id, operatorId: found.operatorId },
    };
  };

  /** The signed-in user's principal (same scopes by role as keys have by scope), CSRF checked; undefined without a cookie. */
  const sessionPrincipal = async (request: FastifyRequest): Promise<Principal | undefined> => {
    const session = await sessionOf(request, ctx.services.users);
    if (!session) return undefined;
    // An operator's browser viewing as a member: the member's routes read through the view; the operator's own stay theirs.
    const viewToken = owner === 'operator' ? undefined : request.cookies[VIEW_AS_COOKIE];
    if (viewToken && session.user.role === 'operator') return viewPrincipal(request, session, viewToken);
    checkCsrf(request, session, allowedOrigins);
    await requireSecondFactor(session);
    return {
      sessionId: session.id,
      keyId: `user:${session.user.id}`,
      credential: 'session',
      affiliateId: session.user.affiliateId ?? null,
      brandId: session.user.brandId ?? null,
      scopes: session.scopes,
      ...(session.accountSuspendedAt && { suspendedAt: session.accountSuspendedAt }),
      rateLimit: ctx.config.userRateLimit,
      rateWindowMs: 60_000,
    };
  };
  const allowedOrigins = portalOrigins(ctx.config);

  app.addHook('onRequest', async (request: FastifyRequest) => {
    const token = postbackTokenFrom?.(request);
    let principal = token && looksLikePostbackToken(token) ? await ctx.services.access.resolvePostbackToken(token) : undefined;
    const key = principal ? undefined : keyFrom(request);
    // Without a key, the portal's session cookie (if any) is the credential; never for the postback.
    if (!principal && !key && !postbackTokenFrom) principal = await sessionPrincipal(request);
    if (!principal) {
      if (!key) throw new HttpError(401, 'unauthorized', missingKeyMessage);
      principal = await ctx.services.access.resolveKey(key);
      if (!principal) {
        await refuseGuessing(request);
        if (looksLikePostbackToken(key)) throw new HttpError(401, 'unauthorized', key === token ? UNKNOWN_POSTBACK_TOKEN : POSTBACK_TOKEN_ELSEWHERE);
        throw new HttpError(401, 'unauthorized', 'API key is invalid or has been revoked');
      }
    }
    if (principal.credential === 'postback_token' && !postbackTokenFrom) {
      throw new HttpError(401, 'unauthorized', POSTBACK_TOKEN_ELSEWHERE);
    }
    // A suspended affiliate's or brand's keys, postback token and sessions are refused everywhere.
    if (principal.suspendedAt) throw new HttpError(403, 'account_suspended', suspendedMessage(principal));
    // A signed-in user is told about their account, a program about its key.
    const session = principal.credential === 'session';
    if (owner === 'affiliate' && !principal.affiliateId) {
      throw new HttpError(403, 'forbidden', session ? 'You are signed in for a brand; affiliate endpoints need an affiliate account' : 'This API key belongs to a brand; affiliate endpoints need an affiliate key');
    }
    if (owner === 'operator' && !principal.scopes.has('operator:read')) {
      const scope = String(request.routeOptions.config.scope);
      throw new HttpError(403, 'forbidden', session ? `Operator endpoints are for the network's operators (scope ${scope}): you are signed in for an affiliate or a brand` : `Operator endpoints take no API key (scope ${scope} is an operator's session's only): sign in to the portal as an operator`);
    }
    if (owner === 'brand' && !principal.brandId) {
      throw new HttpError(403, 'forbidden', session ? 'You are signed in for an affiliate; advertiser endpoints need a brand account' : 'This API key belongs to an affiliate; advertiser endpoints need a brand key');
    }
    request.principal = principal;
  });

  await app.register(rateLimit, {
    global: true,
    cache: 100_000,
    // With Redis every instance counts against one shared window per key; while Redis cannot
    // answer, each instance counts alone (see docs/decisions.md), so no key goes unlimited.
    ...(ctx.redis ? { store: failoverRateStore(ctx.redis.client, `${ctx.redis.prefix}rate:`) } : {}),
    keyGenerator: (request: FastifyRequest) => request.principal!.keyId,
    max: async (request: FastifyRequest) => request.principal!.rateLimit,
    timeWindow: async (request: FastifyRequest) => request.principal!.rateWindowMs,
    errorResponseBuilder: (_request: FastifyRequest, context: { max: number; after: string; ttl: number }) => {
      ctx.metrics.refused('key_rate_limit');
      return errorBody(
        429,
        'TOO_MANY_REQUESTS',
        `Rate limit of ${context.max} requests per window exceeded for this API key; retry in ${Math.max(1, Math.ceil(context.ttl / 1000))} s`,
      );
    },
  });

  app.addHook('preParsing', async (request: FastifyRequest, _reply: FastifyReply, payload) => {
    const scope = request.routeOptions.config.scope;
    if (scope && !request.principal!.scopes.has(scope)) {
      throw new HttpError(403, 'forbidden', refusal(request.principal!, scope));
    }
    return payload;
  });
}

/** Why a suspended member's credential is refused, in the caller's terms. */
function suspendedMessage(principal: Principal): string {
  const account = principal.affiliateId ? 'affiliate' : 'brand';
  const since = `since ${principal.suspendedAt}`;
  const until = 'until the network reactivates it; its owners were mailed the reason';
  if (principal.credential === 'session') return `Your ${account} account is suspended by the network (${since}): the API refuses its sessions ${until}`;
  if (principal.credential === 'postback_token') return `This postback token's brand is suspended by the network (${since}): its conversions are refused ${until}`;
  return `This API key's ${account} is suspended by the network (${since}): its keys are refused ${until}`;
}

/** Why a caller lacks a route's scope, in the caller's terms. */
function refusal(principal: Principal, scope: Scope): string {
  if (principal.credential === 'session') return `Your role does not allow this (it needs the scope ${scope}): ask an owner of your account`;
  if ((PAYEE_SCOPES as readonly string[]).includes(scope)) return `This endpoint needs the scope ${scope}, which only a signed-in owner's session holds: payee details are never read or changed with an API key (sign in to the portal)`;
  if (SESSION_ONLY_SCOPES.includes(scope)) return `This endpoint needs the scope ${scope}, which only a signed-in owner's session holds: team and API keys are never managed with an API key`;
  return `This API key lacks the scope ${scope} required by this endpoint`;
}
