// Operators in tests: a person of the network who has set their password and enrolled an
// authenticator app (operators must, before anything else), signed in.
import { Secret, TOTP } from 'otpauth';
import type { Harness } from './harness.js';
import { PASSWORD, tokenOf } from './sessions.js';

let made = 0;

/** A current code of an authenticator app set up with `secret`, at `now` (the service's clock). */
export const totpCode = (secret: string, now = Date.now()): string => new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: now });

export interface OperatorSession {
  userId: string;
  email: string;
  sessionToken: string;
  csrfToken: string;
  /** The authenticator app's secret: totpCode(secret) gives a code. */
  secret: string;
  /** The session as the route walker's credential string (route-samples.ts). */
  credential: string;
  /** Cookie and CSRF headers for h.request. */
  headers: Record<string, string>;
}

/** A new operator, signed in, with an authenticator app; `now` is the service's clock. */
export async function operatorSession(h: Harness, now = Date.now(), email = `operator${++made}-${process.pid}@network.example`): Promise<OperatorSession> {
  const { users, secondFactors } = h.service.services;
  const { user, link } = await users.createOperator(email);
  const signed = await users.setPassword(tokenOf(link), PASSWORD);
  const who = { userId: user.id, email: user.email, sessionToken: signed.sessionToken };
  const { secret } = await secondFactors.startTotp(who);
  await secondFactors.confirmTotp(who, totpCode(secret, now));
  return {
    userId: user.id,
    email: user.email,
    sessionToken: signed.sessionToken,
    csrfToken: signed.csrfToken,
    secret,
    credential: `session:${signed.sessionToken}:${signed.csrfToken}`,
    headers: { cookie: `affnet_session=${signed.sessionToken}`, 'x-csrf-token': signed.csrfToken },
  };
}
