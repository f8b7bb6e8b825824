// Resolving a key costs a hash and a query; a short-lived cache keeps that off most requests
// while a revocation still takes effect within the TTL, even when it was made by another process.
// API keys and postback tokens are cached apart: a postback token never resolves as an API key,
// whatever was cached before. Unknown secrets are cached apart from known ones, so a client
// spraying made-up keys fills (and empties) only its own part and never evicts a working key.
// The TTL is a cache lifetime, measured on the event loop's time.
import type { Principal } from './principal.js';

type Lookup = (secret: string) => Promise<Principal | undefined>;
type Entry<T> = { value: T; expires: number };

/** At most `maxEntries` entries; when full it starts again empty (entries live a second anyway). */
class Expiring<T> {
  private readonly entries = new Map<string, Entry<T>>();

  constructor(private readonly maxEntries: number) {}

  get(secret: string, now: number): Entry<T> | undefined {
    const hit = this.entries.get(secret);
    return hit && hit.expires > now ? hit : undefined;
  }

  set(secret: string, value: T, expires: number): void {
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(secret, { value, expires });
  }

  clear(): void {
    this.entries.clear();
  }
}

class TtlCache {
  private readonly known: Expiring<Principal>;
  private readonly unknown: Expiring<true>;

  constructor(
    private readonly lookup: Lookup,
    private readonly ttlMs: number,
    maxEntries: number,
  ) {
    this.known = new Expiring(maxEntries);
    this.unknown = new Expiring(maxEntries);
  }

  async resolve(secret: string): Promise<Principal | undefined> {
    const now = performance.now();
    const hit = this.known.get(secret, now);
    if (hit) return hit.value;
    if (this.unknown.get(secret, now)) return undefined;
    const principal = await this.lookup(secret);
    if (principal) this.known.set(secret, principal, now + this.ttlMs);
    else this.unknown.set(secret, true, now + this.ttlMs);
    return principal;
  }

  clear(): void {
    this.known.clear();
    this.unknown.clear();
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
