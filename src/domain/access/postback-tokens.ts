// Postback tokens: a brand's secret for GET /postback only. A pixel's URL ends up in proxy,
// CDN and analytics logs; a token found there can report conversions for its brand and nothing
// else, where the brand's API key would open every advertiser endpoint. Tokens are random like
// API keys (a prefix of their own + 32 base62 characters), shown once, stored only as a SHA-256
// hash. A brand has one token at a time: creating another replaces it.
import type { Database } from '../../storage/database.js';
import { findActivePostbackToken, replacePostbackToken } from '../../storage/repositories/postback-tokens.js';
import { randomBase62 } from '../random.js';
import { nowIso } from '../time.js';
import { requireBrand } from './affiliates.js';
import { DEFAULT_BRAND_RATE_LIMIT, DEFAULT_RATE_WINDOW_SECONDS, hashKey } from './api-keys.js';
import type { Principal } from './principal.js';
import type { Scope } from './scopes.js';

export const POSTBACK_TOKEN_PREFIX = 'afp_';
const POSTBACK_SCOPES: ReadonlySet<Scope> = new Set<Scope>(['conversions:write']);

/** Whether a presented secret has the shape of a postback token (it may still be unknown). */
export const looksLikePostbackToken = (secret: string): boolean => secret.startsWith(POSTBACK_TOKEN_PREFIX);

/**
 * Creates the brand's postback token, replacing the one it had: the old one stops working at
 * once in the database (running servers forget it when told, or within their key cache's TTL).
 */
export async function rotatePostbackToken(database: Database, brandId: string): Promise<{ id: string; token: string; prefix: string; replaced: string | null }> {
  await requireBrand(database, brandId);
  const token = POSTBACK_TOKEN_PREFIX + randomBase62(32);
  const id = `pbt_${randomBase62(16)}`;
  const prefix = token.slice(0, POSTBACK_TOKEN_PREFIX.length + 4);
  const { replaced } = await replacePostbackToken(database, {
    id,
    brand_id: brandId,
    token_hash: hashKey(token),
    token_prefix: prefix,
    created_at: nowIso(),
  });
  return { id, token, prefix, replaced };
}

/**
 * Resolves a presented postback token to its principal: the brand's id, conversions:write only,
 * and the brand rate limit; undefined when unknown, rotated or revoked.
 */
export async function findPostbackPrincipal(database: Database, token: string): Promise<Principal | undefined> {
  if (!looksLikePostbackToken(token) || token.length > 100) return undefined;
  const row = await findActivePostbackToken(database, hashKey(token));
  if (!row) return undefined;
  return {
    keyId: row.id,
    credential: 'postback_token',
    affiliateId: null,
    brandId: row.brand_id,
    scopes: POSTBACK_SCOPES,
    rateLimit: DEFAULT_BRAND_RATE_LIMIT,
    rateWindowMs: DEFAULT_RATE_WINDOW_SECONDS * 1000,
  };
}
