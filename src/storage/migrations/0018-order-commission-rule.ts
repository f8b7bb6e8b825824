// Brands read back what they reported and correct pending orders:
// - an order keeps the commission rule it was created under (transfer and value, as the brand had
//   it then), so a correction is recomputed with that rule: a brand changing its rule changes
//   later orders only. Existing orders take their brand's current rule, the one they were
//   computed with unless it changed since (nothing recorded it before);
// - a brand's list of its orders, newest first;
// - a new brand scope, conversions:read, granted to every brand key that held the whole brand
//   set of the time (conversions:write).
// The sets are written out: a migration must do the same thing whatever the code says later.
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { textType } from './column-types.js';
import { grantToFullKeys } from './scope-grants.js';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const bigint = dialect === 'postgres' ? 'bigint' : 'integer';
  await db.schema.alterTable('orders').addColumn('commission_transfer', textType(dialect), (c) => c.notNull().defaultTo('cps')).execute();
  await db.schema.alterTable('orders').addColumn('commission_value', bigint, (c) => c.notNull().defaultTo(0)).execute();
  await sql`update orders set
      commission_transfer = (select b.commission_transfer from brands b where b.id = orders.organization_id),
      commission_value = (select b.commission_value from brands b where b.id = orders.organization_id)`.execute(db);
  await db.schema.createIndex('orders_brand_created_idx').on('orders').columns(['organization_id', 'created_at', 'id']).execute();
  await db.schema.alterTable('order_events').addColumn('actor_key_id', textType(dialect)).execute();
  await grantToFullKeys(db, { owner: 'brand', fullSet: ['conversions:write'], scope: 'conversions:read' });
}
