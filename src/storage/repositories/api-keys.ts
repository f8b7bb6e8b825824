// API keys, stored hashed: the SQL behind creating, listing, revoking and resolving them.
import type { Database } from '../database.js';
import type { ApiKeyRow } from '../tables.js';

export class ApiKeysRepository {
  constructor(private readonly database: Database) {}

  async insert(row: ApiKeyRow): Promise<void> {
    await this.database.db.insertInto('api_keys').values(row).execute();
  }

  /** The keys of one affiliate or brand (or every key), oldest first. */
  list(owner: { affiliateId?: string; brandId?: string }): Promise<ApiKeyRow[]> {
    let query = this.database.db.selectFrom('api_keys').selectAll().orderBy('created_at').orderBy('id');
    if (owner.affiliateId) query = query.where('affiliate_id', '=', owner.affiliateId);
    if (owner.brandId) query = query.where('brand_id', '=', owner.brandId);
    return query.execute();
  }

  /** Sets revoked_at unless already set; false when no such key exists. */
  async revoke(keyId: string, now: string): Promise<boolean> {
    const { db } = this.database;
    const existing = await db.selectFrom('api_keys').select(['id', 'revoked_at']).where('id', '=', keyId).executeTakeFirst();
    if (!existing) return false;
    if (!existing.revoked_at) await db.updateTable('api_keys').set({ revoked_at: now }).where('id', '=', keyId).execute();
    return true;
  }

  /** The key with this hash unless revoked, with when its affiliate or brand was suspended (null while active). */
  findActive(keyHash: string): Promise<(ApiKeyRow & { suspended_at: string | null }) | undefined> {
    return this.database.db
      .selectFrom('api_keys as k')
      .leftJoin('affiliates as a', 'a.id', 'k.affiliate_id')
      .leftJoin('brands as b', 'b.id', 'k.brand_id')
      .selectAll('k')
      .select((eb) => eb.fn.coalesce('a.suspended_at', 'b.suspended_at').as('suspended_at'))
      .where('k.key_hash', '=', keyHash)
      .where('k.revoked_at', 'is', null)
      .executeTakeFirst();
  }
}
