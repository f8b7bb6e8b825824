// Passwords are hashed with scrypt (node:crypto), a memory-hard function: each guess at a stolen
// hash costs 32 MiB and tens of milliseconds. The stored form carries its parameters and salt
// (`scrypt$N$r$p$salt$hash`, base64), so they can be raised later without breaking old hashes.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * scrypt's cost as a power of two (N = 2^cost, PASSWORD_HASH_COST): each step doubles the time and
 * memory of a hash, and of every guess at one. 15 takes 32 MiB; lower is for tests only.
 */
export const DEFAULT_PASSWORD_HASH_COST = 15;
export const PASSWORD_HASH_COSTS = { min: 10, max: 17 } as const;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;
const KEY_LENGTH = 32;
/** scrypt needs 128·N·r bytes; allow that with room. */
const maxmem = (N: number, r: number) => 256 * N * r;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => scrypt(password.normalize('NFC'), salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key))));
}

export async function hashPassword(password: string, cost: number = DEFAULT_PASSWORD_HASH_COST): Promise<string> {
  const salt = randomBytes(16);
  const [N, r, p] = [2 ** cost, BLOCK_SIZE, PARALLELISM];
  const key = await derive(password, salt, { N, r, p, maxmem: maxmem(N, r) });
  return `scrypt$${N}$${r}$${p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/**
 * A stored form of `cost` that no password matches: checked when an e-mail is unknown, so that
 * a sign-in takes as long whether the person exists or not.
 */
export function unmatchableHash(cost: number = DEFAULT_PASSWORD_HASH_COST): string {
  return `scrypt$${2 ** cost}$${BLOCK_SIZE}$${PARALLELISM}$${Buffer.alloc(16).toString('base64')}$${Buffer.alloc(32).toString('base64')}`;
}

/** Whether `password` is the one `stored` was made from; false for a stored value of another form. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const N = Number(n);
  const actual = await derive(password, Buffer.from(salt, 'base64'), { N, r: Number(r), p: Number(p), maxmem: maxmem(N, Number(r)) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
