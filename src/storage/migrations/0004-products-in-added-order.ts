// Products are listed in the order they were added to the network (newest first), i.e. by seq.
// The indexes end in seq, so a filtered page is read in list order instead of sorted.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const name of ['products_order_idx', 'products_org_idx', 'products_available_idx']) {
    await db.schema.dropIndex(name).execute();
  }
  await db.schema.createIndex('products_org_seq_idx').on('products').columns(['organization_id', 'seq']).execute();
  await db.schema.createIndex('products_available_seq_idx').on('products').columns(['available', 'seq']).execute();
}
