// Running servers keep resolved short links in memory and ask the database once a second which
// links and brands changed since they last asked; these indexes make that question a short range
// read instead of a scan of every link.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('short_links_updated_idx').on('short_links').column('updated_at').execute();
  await db.schema.createIndex('brands_updated_idx').on('brands').column('updated_at').execute();
}
