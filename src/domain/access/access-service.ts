// Who may call, and as whom: API keys and postback tokens (created, listed, revoked, resolved on
// every request), affiliates, and their approvals for private brands. Keys
// carry 190 bits of randomness, so an unsalted fast hash is safe and lets a lookup use an index.
import { createHash } from 'node:crypto';
import type { Clock } from '../../lib/clock.js';
import type { AffiliatesRepository } from '../../storage/repositories/affiliates.js';
import type { ApiKeysRepository } from '../../storage/repositories/api-keys.js';
import type { BrandsRepository } from '../../storage/repositories/brands.js';
import type { PostbackTokensRepository } from '../../storage/repositories/postback-tokens.js';
import { DomainError, invalid, notFound } from '../errors.js';
import type { InvalidationPublisher } from '../invalidation.js';
import { randomBase62 } from '../random.js';
import { KeyResolver } from './key-cache.js';
import { requireAffiliate, requireBrand } from './require.js';
import type { Principal } from './principal.js';
import { AFFILIATE_SCOPES, BRAND_SCOPES, type Scope } from './scopes.js';

const KEY_PREFIX = 'afn_';
export const POSTBACK_TOKEN_PREFIX = 'afp_';
/** Requests per window of an affiliate key unless the operator gave it another limit. */
export const DEFAULT_RATE_LIMIT = 60;
/**
 * Requests per window of a brand key (and of a brand's postback token). A brand reports every
 * order of its shop as it happens; a pixel that is refused may never retry, and the order is lost.
 */
export const DEFAULT_BRAND_RATE_LIMIT = 6000;
export const DEFAULT_RATE_WINDOW_SECONDS = 60;
/**
 * Postback tokens: a brand's secret for GET /postback only. A pixel's URL ends up in proxy, CDN
 * and analytics logs; a token found there can report conversions for its brand and nothing else,
 * where the brand's API key would open every advertiser endpoint.
 */
const POSTBACK_SCOPES: ReadonlySet<Scope> = new Set<Scope>(['conversions:write']);

const AFFILIATE_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export const hashKey = (key: string): string => createHash('sha256').update(key).digest('hex');

/** Whether a presented secret has the shape of a postback token (it may still be unknown). */
export const looksLikePostbackToken = (secret: string): boolean => secret.startsWith(POSTBACK_TOKEN_PREFIX);

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

/** A key as its own account (or an operator) reads it: no owner, no revokedAt while it works. */
export const keyView = ({ owner: _owner, revokedAt, ...key }: KeySummary) => ({ ...key, ...(revokedAt && { revokedAt }) });

export interface AccessRepositories {
  affiliates: AffiliatesRepository;
  apiKeys: ApiKeysRepository;
  brands: BrandsRepository;
  postbackTokens: PostbackTokensRepository;
}

export class AccessService {
  private readonly resolver: KeyResolver;

  constructor(
    private readonly repositories: AccessRepositories,
    private readonly clock: Clock,
    /** Tells every instance's key cache about a revoked key or a replaced token. */
    private readonly publisher: InvalidationPublisher,
  ) {
    this.resolver = new KeyResolver(
      (key) => this.findPrincipal(key),
      (token) => this.findPostbackPrincipal(token),
    );
  }

  /** An API key (x-api-key) to its principal; undefined when unknown or revoked. */
  resolveKey(key: string): Promise<Principal | undefined> {
    return this.resolver.resolve(key);
  }

  /** A brand's postback token to its principal; undefined when unknown, rotated or revoked. */
  resolvePostbackToken(token: string): Promise<Principal | undefined> {
    return this.resolver.resolvePostbackToken(token);
  }

  /** Forgets every cached key and token (another instance revoked or replaced one). */
  forgetKeys(): void {
    this.resolver.clear();
  }

  async createApiKey(input: NewKey): Promise<{ id: string; key: string }> {
    if (Boolean(input.affiliateId) === Boolean(input.brandId)) {
      throw new DomainError('invalid', 'invalid_owner', 'a key belongs to exactly one affiliate or one brand');
    }
    if (input.affiliateId) await this.requireAffiliate(input.affiliateId);
    else await this.requireBrand(input.brandId!);
    const allowed: readonly string[] = input.affiliateId ? AFFILIATE_SCOPES : BRAND_SCOPES;
    const scopes = input.scopes ?? (allowed as readonly Scope[]);
    if (scopes.length === 0) throw invalid('invalid_scope', `a key needs at least one scope; allowed: ${allowed.join(', ')}`);
    const misplaced = scopes.filter((s) => !allowed.includes(s));
    if (misplaced.length > 0) {
      throw invalid('invalid_scope', `scope ${misplaced.join(', ')} cannot be given to ${input.affiliateId ? 'an affiliate' : 'a brand'} key; allowed: ${allowed.join(', ')}`);
    }
    const rateLimit = input.rateLimit ?? (input.brandId ? DEFAULT_BRAND_RATE_LIMIT : DEFAULT_RATE_LIMIT);
    if (!Number.isInteger(rateLimit) || rateLimit < 1 || rateLimit > 1_000_000_000) {
      throw invalid('invalid_rate_limit', 'rate limit must be an integer between 1 and 1000000000 requests per window');
    }
    const key = KEY_PREFIX + randomBase62(32);
    const id = `key_${randomBase62(16)}`;
    await this.repositories.apiKeys.insert({
      id,
      key_hash: hashKey(key),
      key_prefix: key.slice(0, KEY_PREFIX.length + 4),
      affiliate_id: input.affiliateId ?? null,
      brand_id: input.brandId ?? null,
      name: input.name ?? '',
      scopes: scopes.join(' '),
      rate_limit: rateLimit,
      rate_window_seconds: DEFAULT_RATE_WINDOW_SECONDS,
      created_at: this.clock.iso(),
      revoked_at: null,
    });
    return { id, key };
  }

  async listApiKeys(owner: { affiliateId?: string; brandId?: string }): Promise<KeySummary[]> {
    const rows = await this.repositories.apiKeys.list(owner);
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

  /** Revokes one of the owner's keys; another owner's key answers not_found, like an unknown one. */
  async revokeOwnApiKey(owner: { affiliateId?: string; brandId?: string }, keyId: string): Promise<void> {
    const own = (await this.repositories.apiKeys.list(owner)).some((k) => k.id === keyId);
    if (!own) throw notFound(`no key with id "${keyId}" among yours`, 'key_not_found');
    await this.revokeApiKey(keyId);
  }

  /**
   * Revokes a key (refused everywhere at once with Redis, within the key cache's second without);
   * not_found when no such key exists. Revoking twice keeps the first time.
   */
  async revokeApiKey(keyId: string): Promise<void> {
    if (!(await this.repositories.apiKeys.revoke(keyId, this.clock.iso()))) throw notFound(`no key with id "${keyId}"`, 'key_not_found');
    await this.publisher.publish({ kind: 'keys' });
  }

  /**
   * Creates the brand's postback token, replacing the one it had: the old one stops working at
   * once in the database, and running servers forget it when told (or within their key cache's
   * TTL). Random like API keys (a prefix of its own + 32 base62 characters), shown once, stored
   * only as a SHA-256 hash.
   */
  async rotatePostbackToken(brandId: string): Promise<{ id: string; token: string; prefix: string; replaced: string | null }> {
    await this.requireBrand(brandId);
    const token = POSTBACK_TOKEN_PREFIX + randomBase62(32);
    const id = `pbt_${randomBase62(16)}`;
    const prefix = token.slice(0, POSTBACK_TOKEN_PREFIX.length + 4);
    const { replaced } = await this.repositories.postbackTokens.replace({
      id,
      brand_id: brandId,
      token_hash: hashKey(token),
      token_prefix: prefix,
      created_at: this.clock.iso(),
    });
    await this.publisher.publish({ kind: 'keys' });
    return { id, token, prefix, replaced };
  }

  async upsertAffiliate(id: string, name: string): Promise<void> {
    if (!AFFILIATE_ID.test(id)) throw invalid('invalid_affiliate_id', 'affiliate id must be 1-64 letters, digits, dots, dashes or underscores');
    await this.repositories.affiliates.save({ id, name, created_at: this.clock.iso() });
  }

  /** Lets the affiliate promote a (private) brand; approving again changes nothing. */
  async approveForBrand(affiliateId: string, brandId: string): Promise<void> {
    await this.requireBrand(brandId);
    await this.requireAffiliate(affiliateId);
    await this.repositories.brands.approve({ affiliate_id: affiliateId, brand_id: brandId, created_at: this.clock.iso() });
  }

  /** Whether the network has no affiliate yet (a fresh database). */
  async isEmpty(): Promise<boolean> {
    return !(await this.repositories.affiliates.anyExists());
  }

  private requireBrand(brandId: string): Promise<void> {
    return requireBrand(this.repositories.brands, brandId);
  }

  private requireAffiliate(affiliateId: string): Promise<void> {
    return requireAffiliate(this.repositories.affiliates, affiliateId);
  }

  /** Resolves a presented key to its principal, or undefined when unknown or revoked. */
  private async findPrincipal(key: string): Promise<Principal | undefined> {
    if (!key.startsWith(KEY_PREFIX) || key.length > 100) return undefined;
    const row = await this.repositories.apiKeys.findActive(hashKey(key));
    if (!row) return undefined;
    return {
      keyId: row.id,
      credential: 'api_key',
      affiliateId: row.affiliate_id,
      brandId: row.brand_id,
      scopes: new Set(row.scopes.split(' ') as Scope[]),
      ...(row.suspended_at !== null && { suspendedAt: row.suspended_at }),
      rateLimit: row.rate_limit,
      rateWindowMs: row.rate_window_seconds * 1000,
    };
  }

  /**
   * Resolves a presented postback token to its principal: the brand's id, conversions:write only,
   * and the brand rate limit; undefined when unknown, rotated or revoked.
   */
  private async findPostbackPrincipal(token: string): Promise<Principal | undefined> {
    if (!looksLikePostbackToken(token) || token.length > 100) return undefined;
    const row = await this.repositories.postbackTokens.findActive(hashKey(token));
    if (!row) return undefined;
    return {
      keyId: row.id,
      credential: 'postback_token',
      affiliateId: null,
      brandId: row.brand_id,
      scopes: POSTBACK_SCOPES,
      ...(row.suspended_at !== null && { suspendedAt: row.suspended_at }),
      rateLimit: DEFAULT_BRAND_RATE_LIMIT,
      rateWindowMs: DEFAULT_RATE_WINDOW_SECONDS * 1000,
    };
  }
}
