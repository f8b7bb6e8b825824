// The portal's credential: a server-side session named by an HttpOnly cookie (SameSite=Lax,
// Secure whenever PUBLIC_URL is https). Because a browser sends the cookie by itself, every
// request that changes something must also prove it comes from the portal: an Origin of this
// service (or of CORS_ORIGINS) when the browser sends one, and always the session's CSRF token in
// x-csrf-token, which only a page that read the sign-in answer (or GET /session) knows.
import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type {} from '@fastify/cookie';
import type { ActiveSession, Client, SignedIn, UsersService } from '../domain/access/users-service.js';
import { HttpError } from './errors.js';
import type { Config } from '../config.js';

export const SESSION_COOKIE = 'affnet_session';
/**
 * The browser's known-device token: random, long-lived, sent only to /session and below, stored
 * on the server only as a hash beside the sessions it opened. A sign-in presenting one the account
 * knows is not held back by other people's failures, and is not announced by mail.
 */
export const DEVICE_COOKIE = 'affnet_device';
/** 400 days: the longest a browser keeps a cookie. */
const DEVICE_COOKIE_SECONDS = 400 * 86_400;
export const CSRF_HEADER = 'x-csrf-token';
/**
 * An operator's read-only view as a member (domain/access/view-as.ts): HttpOnly, beside the
 * operator's own session cookie, which it never replaces. While a browser holds one, member routes
 * (/affiliate/*, /advertiser/*) read as the member; /operator/* and /session stay the operator's.
 */
export const VIEW_AS_COOKIE = 'affnet_view_as';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The origins a state-changing request with the session may come from: this service's, and CORS_ORIGINS. */
export const portalOrigins = (config: Pick<Config, 'publicUrl' | 'corsOrigins'>): string[] => [new URL(config.publicUrl).origin, ...config.corsOrigins];

export function setSessionCookie(reply: FastifyReply, token: string, publicUrl: string): void {
  void reply.setCookie(SESSION_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'lax', secure: publicUrl.startsWith('https:') });
}

export function setDeviceCookie(reply: FastifyReply, token: string, publicUrl: string): void {
  void reply.setCookie(DEVICE_COOKIE, token, { path: '/session', httpOnly: true, sameSite: 'lax', secure: publicUrl.startsWith('https:'), maxAge: DEVICE_COOKIE_SECONDS });
}

/** The answer to a sign-in that opened a session: its cookie and the browser's device cookie set, the user and CSRF token in the body. */
export function answerSignedIn(reply: FastifyReply, result: SignedIn, publicUrl: string) {
  setSessionCookie(reply, result.sessionToken, publicUrl);
  setDeviceCookie(reply, result.deviceToken, publicUrl);
  return { data: { user: result.user, csrfToken: result.csrfToken } };
}

/** Who signs in: the client address, the browser, and its known-device token if it has one. */
export const clientOf = (request: FastifyRequest): Client => ({ address: request.ip, userAgent: request.headers['user-agent'], deviceToken: request.cookies[DEVICE_COOKIE] });

export function clearSessionCookie(reply: FastifyReply, publicUrl: string): void {
  void reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: publicUrl.startsWith('https:') });
}

/** The session the request's cookie names, while it lasts; undefined without a cookie. */
export async function sessionOf(request: FastifyRequest, users: UsersService): Promise<ActiveSession | undefined> {
  const token = request.cookies[SESSION_COOKIE];
  if (!token) return undefined;
  const session = await users.resolveSession(token);
  if (!session) throw new HttpError(401, 'session_expired', 'Your session has ended (signed out, or unused for too long): sign in again');
  // A person with a second factor is signed in only by a session that passed it.
  if (session.secondFactorPending) throw new HttpError(401, 'second_factor_pending', 'This session did not pass your second factor (it was opened before you set one up, or with the password alone): sign in again');
  return session;
}

const sameText = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** Refuses a state-changing request that may come from another site (403 csrf_failed). */
export function checkCsrf(request: FastifyRequest, session: ActiveSession, allowedOrigins: readonly string[]): void {
  if (SAFE_METHODS.has(request.method)) return;
  const origin = request.headers.origin;
  if (origin !== undefined && !allowedOrigins.includes(origin)) {
    throw new HttpError(403, 'csrf_failed', `Requests from ${origin} are refused: use the portal at this service's address`);
  }
  const sent = request.headers[CSRF_HEADER];
  if (typeof sent !== 'string' || !sameText(sent, session.csrfToken)) {
    throw new HttpError(403, 'csrf_failed', `Send the session's CSRF token in the ${CSRF_HEADER} header (the sign-in answer and GET /session carry it)`);
  }
}

export function setViewAsCookie(reply: FastifyReply, token: string, publicUrl: string, maxAgeSeconds: number): void {
  void reply.setCookie(VIEW_AS_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'lax', secure: publicUrl.startsWith('https:'), maxAge: maxAgeSeconds });
}

export function clearViewAsCookie(reply: FastifyReply, publicUrl: string): void {
  void reply.clearCookie(VIEW_AS_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: publicUrl.startsWith('https:') });
}
