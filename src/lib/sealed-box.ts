// AES-256-GCM as every secret at rest here uses it (node:crypto): a fresh 96-bit nonce per
// message, the 128-bit tag, and associated data that binds a ciphertext to its owner (a row copied
// to another user or affiliate does not decrypt). The parts are base64url, for the caller to join
// with whatever header its format has (a version, a key's id).
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

export const KEY_BYTES = 32;

/** [nonce, tag, ciphertext], each base64url. */
export type SealedParts = [iv: string, tag: string, data: string];

export function seal(key: Buffer, plaintext: string, associatedData: string): SealedParts {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(associatedData));
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')];
}

/** The plaintext; throws when the key, the associated data or any part is not the one sealed. */
export function unseal(key: Buffer, [iv, tag, data]: SealedParts, associatedData: string): string {
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url')).setAAD(Buffer.from(associatedData));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}

/** Splits `count` dot-separated fields off a stored value; undefined when it has another shape. */
export function sealedFields(stored: string, count: number): string[] | undefined {
  const fields = stored.split('.');
  return fields.length === count && fields.every((f, i) => f !== '' || i === count - 1) ? fields : undefined;
}

/** A short, stable name of a key (8 hex digits of its SHA-256), stored beside what it encrypted: never the key itself. */
export const keyIdOf = (key: Buffer): string => createHash('sha256').update('affnet key id\0').update(key).digest('hex').slice(0, 8);

/** A fresh random key, base64 (what a key file or PAYEE_ENCRYPTION_KEY holds). */
export const newKeyText = (): string => randomBytes(KEY_BYTES).toString('base64');
