// An affiliate's links of one type, newest first (the shortener's list without a brand): the
// listing index puts the brand before the date, so a page read every link of the type and sorted
// them (10,000 of the first bench affiliate's 30,000 links: 23–37 ms a page at 100k). In date order
// a page stops after its rows.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('short_links_type_newest_idx').on('short_links').columns(['affiliate_id', 'link_type', 'created_at', 'id']).execute();
}
