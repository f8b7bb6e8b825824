// A brand's reconciliations: the shop's own order export read against the brand's orders.
// - reconciliations: one per file uploaded, with its platform, the file's date range, what its
//   preview counted of each kind, and when (and with which outcome) it was applied;
// - reconciliation_lines: the preview, one row per order the file names (or per bad row), and one
//   per order of the range the file lacks: what would be done to it and why;
// - order_events.reconciliation_id: the reconciliation a change of an order came from.
import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { textType } from './column-types.js';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const text = textType(dialect);
  await db.schema
    .createTable('reconciliations')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('organization_id', text, (c) => c.notNull())
    /** shopify | nuvemshop | mapped */
    .addColumn('platform', text, (c) => c.notNull())
    .addColumn('currency', text, (c) => c.notNull())
    /** The file's range: the first and the last order time it holds (null: no readable row). */
    .addColumn('range_from', text)
    .addColumn('range_to', text)
    .addColumn('rows', 'integer', (c) => c.notNull().defaultTo(0))
    /** JSON: { confirm, cancel, correct, leave, skipped, unknown, missing, invalid }. */
    .addColumn('counts', text, (c) => c.notNull())
    /** The key or person that uploaded the file. */
    .addColumn('created_by', text)
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('applied_at', text)
    .addColumn('applied_by', text)
    /** JSON once applied: { confirmed, canceled, corrected, changedMeanwhile }. */
    .addColumn('outcome', text)
    .execute();
  await db.schema.createIndex('reconciliations_brand_idx').on('reconciliations').columns(['organization_id', 'created_at']).execute();

  await db.schema
    .createTable('reconciliation_lines')
    .addColumn('reconciliation_id', text, (c) => c.notNull())
    /** The order of the lines: the file's order, then the orders it lacks. */
    .addColumn('seq', 'integer', (c) => c.notNull())
    /** confirm | cancel | correct | leave | skipped | unknown | missing | invalid */
    .addColumn('kind', text, (c) => c.notNull())
    /** The file's line number (null for an order the file lacks). */
    .addColumn('line', 'integer')
    /** The brand's order id as the network knows it (as the file writes it when unknown). */
    .addColumn('order_id', text)
    /** The network's id of the order, when known. */
    .addColumn('network_id', text)
    /** JSON: the shop's status, the amounts, the order's status and value, the reason. */
    .addColumn('detail', text, (c) => c.notNull())
    .addPrimaryKeyConstraint('reconciliation_lines_pk', ['reconciliation_id', 'seq'])
    .execute();
  await db.schema.createIndex('reconciliation_lines_kind_idx').on('reconciliation_lines').columns(['reconciliation_id', 'kind', 'seq']).execute();
  await db.schema.createIndex('reconciliation_lines_order_idx').on('reconciliation_lines').columns(['reconciliation_id', 'order_id']).execute();

  await db.schema.alterTable('order_events').addColumn('reconciliation_id', text).execute();
}
