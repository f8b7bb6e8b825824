// The network's scores of a brand, computed hourly from its orders and clicks (brand-scores task):
// - the five rating_* columns keep holding the ratings the lists read (NOT NULL as before, so no
//   table is rebuilt on SQLite); ratings_absent says which of them have no score (bits: approval 1,
//   commission 2, conversion 4, popularity 8, validation 16), and the API leaves those out;
// - epc_cents: commission per 100 counted clicks, in cents of the brand's currency; null: none;
// - median_decision_seconds: the median time from an order's report to its decision; null: none;
// - scores_computed_at: when the task last judged the brand; from then on imports' ratings are ignored.
import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { textType } from './column-types.js';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const text = textType(dialect);
  await db.schema.alterTable('brands').addColumn('ratings_absent', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('brands').addColumn('epc_cents', 'integer').execute();
  await db.schema.alterTable('brands').addColumn('median_decision_seconds', 'integer').execute();
  await db.schema.alterTable('brands').addColumn('scores_computed_at', text).execute();
}
