// Clicks are written tens of thousands a second at peak: every index on them costs a write per
// click. The (link, time) index served nothing the service asks, so it goes; click ids now grow
// with time, so their primary-key index is appended to rather than scattered.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('clicks_link_idx').execute();
}
