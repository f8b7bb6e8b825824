// "This brand's available products" is the commonest catalogue query: one index answers it in
// list order, where the brand index or the availability index alone would scan past thousands.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('products_org_available_seq_idx').on('products').columns(['organization_id', 'available', 'seq']).execute();
}
