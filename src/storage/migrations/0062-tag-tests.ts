// Test orders: a brand proves its install without a real sale.
// - tag_tests: one per "send a test order" — its id has a click id's shape, so the tag keeps it
//   from the test link as it keeps any click id; the visit the tag announced from the test link
//   (when and from which page). Kept as long as the tag's reports.
// - tag_reports.test_id: the test a report belongs to (its click id was the test's); such a report
//   is never an order.
// - tag_reports.detail: JSON of what the report read (value, currency, coupon, lines) and, when
//   refused, the refusal's code and details, so the brand's page says it in the person's words.
import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { textType } from './column-types.js';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const TEXT = textType(dialect);
  await db.schema
    .createTable('tag_tests')
    .addColumn('id', TEXT, (c) => c.primaryKey())
    .addColumn('brand_id', TEXT, (c) => c.notNull().references('brands.id').onDelete('cascade'))
    .addColumn('created_at', TEXT, (c) => c.notNull())
    .addColumn('visited_at', TEXT)
    .addColumn('visit_origin', TEXT)
    .execute();
  await db.schema.createIndex('tag_tests_brand_idx').on('tag_tests').columns(['brand_id', 'created_at']).execute();
  await db.schema.alterTable('tag_reports').addColumn('test_id', TEXT).execute();
  await db.schema.alterTable('tag_reports').addColumn('detail', TEXT).execute();
  await db.schema.createIndex('tag_reports_test_idx').on('tag_reports').columns(['test_id', 'created_at']).execute();
}
