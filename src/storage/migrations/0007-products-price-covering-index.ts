// The price filter's total counts every product in the range of a visible brand: with the brand in
// the index, that count reads the index alone instead of fetching each product row.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('products_price_idx').execute();
  await db.schema.createIndex('products_price_org_idx').on('products').columns(['price_cents', 'organization_id']).execute();
}
