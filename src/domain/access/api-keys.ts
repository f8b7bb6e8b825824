// API keys: random secrets shown once at creation and stored only as a SHA-256 hash. Keys carry
// 190 bits of randomness, so an unsalted fast hash is safe and lets a lookup use an index.
import { createHash } from 'node:crypto';
import type { Database } from '../../storage/database.js';
import { randomBase62 } from '../random.js';
import { nowIso } from '../time.js';
import { DomainError } from '../errors.js';
import type { Principal } from './principal.js';
import { requireAffiliate, requireBrand } from './affiliates.js';
import { findActiveApiKey, insertApiKey, listApiKeyRows, revokeApiKeyRow } from '../../storage/repositories/api-keys.js';
import { AFFILIATE_SCOPES, BRAND_SCOPES, type Scope } from './scopes.js';

const KEY_PREFIX = 'afn_';
/** Requests per window of an affiliate key unless the operator gave it another limit. */
export const DEFAULT_RATE_LIMIT = 60;
/**
 * Requests per window of a brand key (and of a brand's postback token). A brand reports every
 * order of its shop as it happens; a pixel that is refused may never retry, and the order is lost.
 */
export const DEFAULT_BRAND_RATE_LIMIT = 6000;
export const DEFAULT_RATE_WINDOW_SECONDS = 60;

export const hashKey = (key: string): string => createHash('sha256').update(key).digest('hex');

export interface NewKey {
  affiliateId?: string;
  brandId?: string;
  scopes?: readonly Scope[];
  name?: string;
  rateLimit?: number;
}

export interface KeySummary {
  id: string;
  prefix: string;
  name: string;
  owner: string;
  scopes: string[];
  rateLimit: number;
  createdAt: string;
  revokedAt: string | null;
}

export async function createApiKey(database: Database, input: NewKey): Promise<{ id: string; key: string }> {
  if (Boolean(input.affiliateId) === Boolean(input.brandId)) {
    throw new DomainError('invalid', 'invalid_owner', 'a key belongs to exactly one affiliate or one brand');
  }
  if (input.affiliateId) await requireAffiliate(database, input.affiliateId);
  else await requireBrand(database, input.brandId!);
  const allowed: readonly string[] = input.affiliateId ? AFFILIATE_SCOPES : BRAND_SCOPES;
  const scopes = input.scopes ?? (allowed as readonly Scope[]);
  if (scopes.length === 0) throw new DomainError('invalid', 'invalid_scope', `a key needs at least one scope; allowed: ${allowed.join(', ')}`);
  const misplaced = scopes.filter((s) => !allowed.includes(s));
  if (misplaced.length > 0) {
    throw new DomainError('invalid', 'invalid_scope', `scope ${misplaced.join(', ')} cannot be given to ${input.affiliateId ? 'an affiliate' : 'a brand'} key; allowed: ${allowed.join(', ')}`);
  }
  const rateLimit = input.rateLimit ?? (input.brandId ? DEFAULT_BRAND_RATE_LIMIT : DEFAULT_RATE_LIMIT);
  if (!Number.isInteger(rateLimit) || rateLimit < 1 || rateLimit > 1_000_000_000) {
    throw new DomainError('invalid', 'invalid_rate_limit', 'rate limit must be an integer between 1 and 1000000000 requests per window');
  }
  const key = KEY_PREFIX + randomBase62(32);
  const id = `key_${randomBase62(16)}`;
  await insertApiKey(database, {
    id,
    key_hash: hashKey(key),
    key_prefix: key.slice(0, KEY_PREFIX.length + 4),
    affiliate_id: input.affiliateId ?? null,
    brand_id: input.brandId ?? null,
    name: input.name ?? '',
    scopes: scopes.join(' '),
    rate_limit: rateLimit,
    rate_window_seconds: DEFAULT_RATE_WINDOW_SECONDS,
    created_at: nowIso(),
    revoked_at: null,
  });
  return { id, key };
}

export async function listApiKeys(database: Database, owner: { affiliateId?: string; brandId?: string }): Promise<KeySummary[]> {
  const rows = await listApiKeyRows(database, owner);
  return rows.map((r) => ({
    id: r.id,
    prefix: r.key_prefix,
    name: r.name,
    owner: r.affiliate_id ? `affiliate:${r.affiliate_id}` : `brand:${r.brand_id}`,
    scopes: r.scopes.split(' '),
    rateLimit: r.rate_limit,
    createdAt: r.created_at,
    revokedAt: r.revoked_at,
  }));
}

/** Revokes a key; returns false when no such key exists. Revoking twice keeps the first time. */
export async function revokeApiKey(database: Database, keyId: string): Promise<boolean> {
  return revokeApiKeyRow(database, keyId, nowIso());
}

/** Resolves a presented key to its principal, or undefined when unknown or revoked. */
export async function findPrincipal(database: Database, key: string): Promise<Principal | undefined> {
  if (!key.startsWith(KEY_PREFIX) || key.length > 100) return undefined;
  const row = await findActiveApiKey(database, hashKey(key));
  if (!row) return undefined;
  return {
    keyId: row.id,
    credential: 'api_key',
    affiliateId: row.affiliate_id,
    brandId: row.brand_id,
    scopes: new Set(row.scopes.split(' ') as Scope[]),
    rateLimit: row.rate_limit,
    rateWindowMs: row.rate_window_seconds * 1000,
  };
}
