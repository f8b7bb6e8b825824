// Sub-ids (src/lib/sub-ids.ts): the affiliate's own labels a click carries (GET /{code}?sub1=…),
// copied to the order the click earns.
// - clicks.sub_ids: the present ones as one JSON object, null on every click without any. A null
//   costs a row nothing measurable (PostgreSQL: a bit of the null bitmap the row already has for
//   mdasc or asn; SQLite: a 100,000-click table took the same pages with and without it), where
//   five columns or a side table would cost every click, or every click carrying them, a second
//   row with its own key, to write, prune and join. Adding a nullable column rewrites no row.
// - clicks_sub_ids_idx: the affiliate's clicks that carry sub-ids, in id (time) order, so the
//   analytics by sub-id read only those clicks of the range (partial: the clicks without any add
//   nothing to it, and PostgreSQL makes it on every monthly partition, present and future).
// - orders.sub1 … sub5: filtered by exactly and grouped by, within the affiliate's orders of a
//   range (orders_affiliate_idx).
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { textType } from './column-types.js';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const TEXT = textType(dialect);
  await db.schema.alterTable('clicks').addColumn('sub_ids', TEXT).execute();
  await db.schema.createIndex('clicks_sub_ids_idx').on('clicks').columns(['affiliate_id', 'id']).where(sql.ref('sub_ids'), 'is not', null).execute();
  for (const column of ['sub1', 'sub2', 'sub3', 'sub4', 'sub5']) await db.schema.alterTable('orders').addColumn(column, TEXT).execute();
}
