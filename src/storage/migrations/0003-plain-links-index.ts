// Brands and campaigns show each channel's plain links (those without mdasc); a partial index
// finds them without reading the per-use links, of which an affiliate may have thousands.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('short_links_plain_idx')
    .on('short_links')
    .columns(['affiliate_id', 'organization_id', 'link_type', 'feature_id'])
    .where(sql.ref('mdasc'), 'is', null)
    .execute();
}
