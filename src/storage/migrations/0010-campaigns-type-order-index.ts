// Campaign lists filter by type and are ordered newest first. With (type, offer_type) the planner
// fetched every campaign of the type and sorted them (90–150 ms at 100,000 campaigns); with
// (type, created_at, id) it reads each type's newest campaigns in order and stops at the page.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('campaigns_type_idx').execute();
  await db.schema.createIndex('campaigns_type_order_idx').on('campaigns').columns(['type', 'created_at', 'id']).execute();
}
