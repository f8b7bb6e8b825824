// Postback tokens: a brand's secret for GET /postback, so the URL a pixel fires (and every proxy
// and analytics tool logs) no longer carries the brand's API key. Stored only as a SHA-256 hash.
// A brand has at most one active token (revoked_at is null); rotating marks the active one revoked
// and names the token that replaced it, so the history of a brand's tokens stays readable.
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { textType } from './column-types.js';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const TEXT = textType(dialect);
  await db.schema
    .createTable('postback_tokens')
    .addColumn('id', TEXT, (c) => c.primaryKey())
    .addColumn('brand_id', TEXT, (c) => c.notNull().references('brands.id').onDelete('cascade'))
    .addColumn('token_hash', TEXT, (c) => c.notNull().unique())
    .addColumn('token_prefix', TEXT, (c) => c.notNull())
    .addColumn('created_at', TEXT, (c) => c.notNull())
    .addColumn('revoked_at', TEXT)
    .addColumn('replaced_by', TEXT)
    .execute();
  // One active token per brand: two rotations at once cannot both leave a working token behind.
  await db.schema
    .createIndex('postback_tokens_active_brand_idx')
    .on('postback_tokens')
    .column('brand_id')
    .unique()
    .where(sql.ref('revoked_at'), 'is', null)
    .execute();
}
