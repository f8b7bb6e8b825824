// Brands' product feeds (Google Merchant Center XML, TSV or CSV) and the report of each run:
// - product_feeds: a brand's feed under the id it chose, its URL, format and schedule, when it is
//   due next and the lease of the instance running it (one run of a feed at a time);
// - feed_runs: one row per run, fetched or uploaded: what it added, updated, left unchanged and
//   made unavailable, and a bounded list of the items it refused with the total;
// - products.feed_id: the feed that brought the product (null: written through the API or an
//   import); products.feed_run_id: the last run whose file held it, so a complete run can tell
//   which of the feed's products it no longer lists.
import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { textType } from './column-types.js';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const text = textType(dialect);
  await db.schema
    .createTable('product_feeds')
    .addColumn('organization_id', text, (c) => c.notNull())
    .addColumn('id', text, (c) => c.notNull())
    .addColumn('url', text, (c) => c.notNull())
    /** google-xml | google-tsv | csv */
    .addColumn('format', text, (c) => c.notNull())
    /** hourly | daily */
    .addColumn('schedule', text, (c) => c.notNull())
    .addColumn('next_run_at', text, (c) => c.notNull())
    .addColumn('lease_owner', text)
    .addColumn('lease_until', text)
    /** Runs that could not be recorded in a row (the runner's retries), 0 after one that was. */
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_run_id', text)
    /** Items the last complete run held: what the next run's share is measured against. */
    .addColumn('last_complete_items', 'integer')
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('updated_at', text, (c) => c.notNull())
    .addPrimaryKeyConstraint('product_feeds_pk', ['organization_id', 'id'])
    .execute();
  await db.schema.createIndex('product_feeds_due_idx').on('product_feeds').columns(['next_run_at']).execute();

  await db.schema
    .createTable('feed_runs')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('organization_id', text, (c) => c.notNull())
    .addColumn('feed_id', text, (c) => c.notNull())
    /** fetch | upload */
    .addColumn('source', text, (c) => c.notNull())
    /** running | complete | failed */
    .addColumn('status', text, (c) => c.notNull())
    .addColumn('reason', text)
    .addColumn('bytes', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('items', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('added', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('unchanged', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('made_unavailable', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('refused', 'integer', (c) => c.notNull().defaultTo(0))
    /** JSON: the first refusals, each { line?, item?, reason }. */
    .addColumn('refusals', text, (c) => c.notNull().defaultTo('[]'))
    .addColumn('started_at', text, (c) => c.notNull())
    .addColumn('finished_at', text)
    .execute();
  await db.schema.createIndex('feed_runs_feed_idx').on('feed_runs').columns(['organization_id', 'feed_id', 'started_at']).execute();

  await db.schema.alterTable('products').addColumn('feed_id', text).execute();
  await db.schema.alterTable('products').addColumn('feed_run_id', text).execute();
  await db.schema.createIndex('products_feed_idx').on('products').columns(['organization_id', 'feed_id']).execute();
}
