import type { Database } from '../database.js';
import type { ApiKeyRow } from '../tables.js';

export async function insertApiKey(database: Database, row: ApiKeyRow): Promise<void> {
  await database.db.insertInto('api_keys').values(row).execute();
}

/** The keys of one affiliate or brand (or every key), oldest first. */
export async function listApiKeyRows(database: Database, owner: { affiliateId?: string; brandId?: string }): Promise<ApiKeyRow[]> {
  let query = database.db.selectFrom('api_keys').selectAll().orderBy('created_at').orderBy('id');
  if (owner.affiliateId) query = query.where('affiliate_id', '=', owner.affiliateId);
  if (owner.brandId) query = query.where('brand_id', '=', owner.brandId);
  return query.execute();
}

/** Sets revoked_at unless already set; false when no such key exists. */
export async function revokeApiKeyRow(database: Database, keyId: string, now: string): Promise<boolean> {
  const existing = await database.db.selectFrom('api_keys').select(['id', 'revoked_at']).where('id', '=', keyId).executeTakeFirst();
  if (!existing) return false;
  if (!existing.revoked_at) await database.db.updateTable('api_keys').set({ revoked_at: now }).where('id', '=', keyId).execute();
  return true;
}

export async function findActiveApiKey(database: Database, keyHash: string): Promise<ApiKeyRow | undefined> {
  return database.db.selectFrom('api_keys').selectAll().where('key_hash', '=', keyHash).where('revoked_at', 'is', null).executeTakeFirst();
}
