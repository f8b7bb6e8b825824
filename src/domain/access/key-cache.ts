// Resolving a key costs a hash and a query; a short-lived cache keeps that off most requests
// while a revocation still takes effect within the TTL, even when it was made by another process.
// API keys and postback tokens are cached apart: a postback token never resolves as an API key,
// whatever was cached before. The TTL is a cache lifetime, measured on the event loop's time.
import type { Principal } from './principal.js';

type Lookup = (secret: string) => Promise<Principal | undefined>;

class TtlCache {
  private readonly entries = new Map<string, { principal: Principal | undefined; expires: number }>();

  constructor(
    private readonly lookup: Lookup,
    private readonly ttlMs: number,
    private readonly maxEntries: number,
  ) {}

  async resolve(secret: string): Promise<Principal | undefined> {
    const now = performance.now();
    const hit = this.entries.get(secret);
    if (hit && hit.expires > now) return hit.principal;
    const principal = await this.lookup(secret);
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(secret, { principal, expires: now + this.ttlMs });
    return principal;
  }

  clear(): void {
    this.entries.clear();
  }
}

export class KeyResolver {
  private readonly keys: TtlCache;
  private readonly postbackTokens: TtlCache;

  constructor(findKey: Lookup, findPostbackToken: Lookup, ttlMs = 1000, maxEntries = 10_000) {
    this.keys = new TtlCache(findKey, ttlMs, maxEntries);
    this.postbackTokens = new TtlCache(findPostbackToken, ttlMs, maxEntries);
  }

  /** An API key (x-api-key) to its principal; undefined when unknown or revoked. */
  resolve(key: string): Promise<Principal | undefined> {
    return this.keys.resolve(key);
  }

  /** A brand's postback token to its principal; undefined when unknown, rotated or revoked. */
  resolvePostbackToken(token: string): Promise<Principal | undefined> {
    return this.postbackTokens.resolve(token);
  }

  /** Forgets every cached key and token, e.g. after a revocation or rotation. */
  clear(): void {
    this.keys.clear();
    this.postbackTokens.clear();
  }
}
