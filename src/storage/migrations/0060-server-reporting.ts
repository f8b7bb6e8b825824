// brands.reports_orders_from_server: the brand's word that its own server reports its orders (the
// API or the postback) rather than the tag or the pixel; 1 once said, 0 otherwise. Its launch
// checklist counts tracking as installed on it, as on any order or tag report seen.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('brands').addColumn('reports_orders_from_server', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}
