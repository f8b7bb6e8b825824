// Standard Webhooks signatures: `v1,<base64 HMAC-SHA256>` over `<webhook-id>.<webhook-timestamp>.<body>`,
// keyed with the bytes of the secret (whsec_ + base64). While a rotated-out secret is still valid,
// both signatures are sent, space-separated, so a receiver that has either verifies.
import { createHmac, randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

/** A new signing secret: 32 random bytes. */
export const newSecret = (): string => SECRET_PREFIX + randomBytes(32).toString('base64');

export function signature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** The webhook-signature header: one signature per secret still valid. */
export const signatures = (secrets: readonly string[], id: string, timestamp: number, body: string): string =>
  secrets.map((secret) => signature(secret, id, timestamp, body)).join(' ');
