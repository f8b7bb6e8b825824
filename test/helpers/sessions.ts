// Portal sessions in tests: a user who has set their password through the one-time link, and
// requests made with their cookie (and CSRF token).
import assert from 'node:assert/strict';
import type { InjectOptions } from 'light-my-request';
import type { Harness } from './harness.js';
import { hashKey } from '../../src/domain/access/access-service.js';

export const PASSWORD = 'correct horse battery';

export const tokenOf = (link: string): string => new URL(link).searchParams.get('token')!;

/** The `affnet_session=…` pair of an answer's Set-Cookie, if it sets one. */
export const cookieOf = (res: { headers: Record<string, unknown> }): string | undefined => {
  const header = [res.headers['set-cookie'] as string | string[] | undefined].flat().find((c) => c?.startsWith('affnet_session='));
  return header?.split(';')[0];
};

/** The `affnet_device=…` pair (the browser's known-device token) of an answer's Set-Cookie, if it sets one. */
export const deviceOf = (res: { headers: Record<string, unknown> }): string | undefined => {
  const header = [res.headers['set-cookie'] as string | string[] | undefined].flat().find((c) => c?.startsWith('affnet_device='));
  return header?.split(';')[0];
};

export interface TestSession {
  cookie: string;
  csrf: string;
  /** The browser's known-device cookie, as set at sign-up. */
  device: string;
  /** The whole Set-Cookie header the sign-up answered. */
  setCookie: string;
}

/** A user of aff-1 (or of the given account) who has set their password; their cookie and CSRF token. */
export async function signedUp(h: Harness, email: string, owner: { affiliateId?: string; brandId?: string } = { affiliateId: 'aff-1' }, role: 'owner' | 'member' = 'member'): Promise<TestSession> {
  const { link } = await h.service.services.users.create(owner, email, role);
  const res = await h.request({ method: 'POST', url: '/session/password', payload: { token: tokenOf(link), password: PASSWORD } });
  assert.equal(res.statusCode, 200, res.body);
  return { cookie: cookieOf(res)!, csrf: res.json<{ data: { csrfToken: string } }>().data.csrfToken, device: deviceOf(res)!, setCookie: String([res.headers['set-cookie']].flat()[0]) };
}

/** The request with the session's cookie, and its CSRF token when given. */
export const withSession = (options: InjectOptions, session: { cookie: string; csrf?: string }, extra: Record<string, string> = {}): InjectOptions => ({
  ...options,
  headers: { ...(options.headers as Record<string, string>), cookie: session.cookie, ...(session.csrf ? { 'x-csrf-token': session.csrf } : {}), ...extra },
});

/**
 * Records that a session passed its person's second factor now, as a sign-in with one does: for
 * tests that open sessions of people with a factor through the services (the API refuses any other).
 */
export async function passSecondFactor(h: Harness, sessionToken: string, method: 'totp' | 'passkey' = 'passkey', at = new Date()): Promise<void> {
  const values = { token_hash: hashKey(sessionToken), verified_at: at.toISOString(), method };
  await h.service.database.db.insertInto('session_second_factors').values(values).onConflict((oc) => oc.column('token_hash').doUpdateSet(values)).execute();
}
