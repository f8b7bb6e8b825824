// The first-party tag and the pixel report conversions from the shop's own pages.
// - publishable_keys: a brand's public key for POST /track/conversions and the pixel only. It is
//   public by design (it sits in the shop's pages), so it is kept as it is, to be shown again in
//   the brand's install snippet. A brand has at most one active key; replacing it marks the old
//   one revoked and names its successor, as postback tokens do.
// - brands.trust_tag_conversions: 1 when the brand lets tag and pixel conversions lock without its
//   confirmation (by default they are canceled as unconfirmed at their lock date).
// - tag_reports: what the tag and the pixel sent lately, accepted or refused with the reason, so a
//   brand can test its install; only reports carrying a known key are kept, a few days at most.
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { textType } from './column-types.js';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const TEXT = textType(dialect);
  await db.schema
    .createTable('publishable_keys')
    .addColumn('id', TEXT, (c) => c.primaryKey())
    .addColumn('brand_id', TEXT, (c) => c.notNull().references('brands.id').onDelete('cascade'))
    .addColumn('key', TEXT, (c) => c.notNull().unique())
    .addColumn('created_at', TEXT, (c) => c.notNull())
    .addColumn('revoked_at', TEXT)
    .addColumn('replaced_by', TEXT)
    .execute();
  await db.schema.createIndex('publishable_keys_active_brand_idx').on('publishable_keys').column('brand_id').unique().where(sql.ref('revoked_at'), 'is', null).execute();

  await db.schema.alterTable('brands').addColumn('trust_tag_conversions', 'integer', (c) => c.notNull().defaultTo(0)).execute();

  await db.schema
    .createTable('tag_reports')
    .addColumn('id', TEXT, (c) => c.primaryKey())
    .addColumn('brand_id', TEXT, (c) => c.notNull().references('brands.id').onDelete('cascade'))
    .addColumn('source', TEXT, (c) => c.notNull())
    .addColumn('order_id', TEXT)
    .addColumn('outcome', TEXT, (c) => c.notNull())
    .addColumn('reason', TEXT)
    .addColumn('origin', TEXT)
    .addColumn('created_at', TEXT, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('tag_reports_brand_idx').on('tag_reports').columns(['brand_id', 'created_at']).execute();
}
