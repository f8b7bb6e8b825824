// Time-based one-time passwords (RFC 6238) as authenticator apps make them: SHA-1, 6 digits, a
// new code every 30 seconds. A code is accepted for its own step or the one before or after (a
// phone's clock a little off), and the step it was accepted for is remembered by the caller so the
// same code (or an older one) never works twice.
import { Secret, TOTP } from 'otpauth';

export const TOTP_PERIOD_S = 30;
/** Steps either side of the current one a code may belong to. */
export const TOTP_DRIFT_STEPS = 1;

const totpOf = (secret: string, label = '', issuer = '') => new TOTP({ issuer, label, algorithm: 'SHA1', digits: 6, period: TOTP_PERIOD_S, secret: Secret.fromBase32(secret) });

/** A fresh secret: 160 random bits, in base32 as authenticator apps take it. */
export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

/** The otpauth:// URI an authenticator app reads from the QR code. */
export const totpUri = (secret: string, account: string, issuer: string): string => totpOf(secret, account, issuer).toString();

/** The step (30-second window since the epoch) a code belongs to, at `nowMs`; undefined when it matches none near now. */
export function totpStep(secret: string, code: string, nowMs: number): number | undefined {
  const token = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(token)) return undefined;
  const delta = totpOf(secret).validate({ token, timestamp: nowMs, window: TOTP_DRIFT_STEPS });
  return delta === null ? undefined : Math.floor(nowMs / 1000 / TOTP_PERIOD_S) + delta;
}
