// Resolving a key costs a hash and a query; a short-lived cache keeps that off most requests
// while a revocation still takes effect within the TTL, even when it was made by another process.
import type { Database } from '../../storage/database.js';
import { findPrincipal } from './api-keys.js';
import type { Principal } from './principal.js';

export class KeyResolver {
  private readonly cache = new Map<string, { principal: Principal | undefined; expires: number }>();

  constructor(
    private readonly database: Database,
    private readonly ttlMs = 1000,
    private readonly maxEntries = 10_000,
  ) {}

  async resolve(key: string): Promise<Principal | undefined> {
    const now = Date.now();
    const hit = this.cache.get(key);
    if (hit && hit.expires > now) return hit.principal;
    const principal = await findPrincipal(this.database, key);
    if (this.cache.size >= this.maxEntries) this.cache.clear();
    this.cache.set(key, { principal, expires: now + this.ttlMs });
    return principal;
  }

  /** Forgets every cached key, e.g. after a revocation in this process. */
  clear(): void {
    this.cache.clear();
  }
}
