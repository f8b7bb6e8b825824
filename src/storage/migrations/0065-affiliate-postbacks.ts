// Affiliates' postbacks: GET requests to a tracker's URL template, filled in with the click's ids.
// - affiliate_postbacks: an affiliate's templates, each under an id the affiliate chose (unique
//   among its own); the events it fires on (' conversion.created … ', as webhook endpoints keep
//   theirs), the brands it is limited to (' id id ', null: every brand), whether it is active.
// - postback_deliveries: one event to one template, written in the transaction of the change (as
//   the webhook outbox is), with the event's payload, its lease, its attempts and how the last one
//   went (the URL as sent, the tracker's status, or the error and its kind): the delivery log. A template fires
//   once per event: (affiliate, template, event_key) is unique. A test is a delivery too, made
//   over at once.
import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { textType } from './column-types.js';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const TEXT = textType(dialect);
  await db.schema
    .createTable('affiliate_postbacks')
    .addColumn('affiliate_id', TEXT, (c) => c.notNull().references('affiliates.id').onDelete('cascade'))
    .addColumn('id', TEXT, (c) => c.notNull())
    .addColumn('url', TEXT, (c) => c.notNull())
    .addColumn('events', TEXT, (c) => c.notNull())
    .addColumn('brand_ids', TEXT)
    .addColumn('active', 'integer', (c) => c.notNull())
    .addColumn('created_at', TEXT, (c) => c.notNull())
    .addColumn('updated_at', TEXT, (c) => c.notNull())
    .addPrimaryKeyConstraint('affiliate_postbacks_pk', ['affiliate_id', 'id'])
    .execute();

  await db.schema
    .createTable('postback_deliveries')
    .addColumn('id', TEXT, (c) => c.primaryKey())
    .addColumn('affiliate_id', TEXT, (c) => c.notNull())
    .addColumn('postback_id', TEXT, (c) => c.notNull())
    .addColumn('event', TEXT, (c) => c.notNull())
    .addColumn('event_key', TEXT, (c) => c.notNull())
    .addColumn('payload', TEXT, (c) => c.notNull())
    .addColumn('test', 'integer', (c) => c.notNull())
    /** pending, delivered or failed */
    .addColumn('status', TEXT, (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('url', TEXT)
    .addColumn('response_status', 'integer')
    .addColumn('error', TEXT)
    /** refused, timeout or unreachable: why no whole answer came */
    .addColumn('failure', TEXT)
    .addColumn('duration_ms', 'integer')
    .addColumn('next_attempt_at', TEXT, (c) => c.notNull())
    .addColumn('lease_owner', TEXT)
    .addColumn('lease_until', TEXT)
    .addColumn('last_attempt_at', TEXT)
    .addColumn('created_at', TEXT, (c) => c.notNull())
    .addColumn('updated_at', TEXT, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('postback_deliveries_once_idx').on('postback_deliveries').columns(['affiliate_id', 'postback_id', 'event_key']).unique().execute();
  await db.schema.createIndex('postback_deliveries_log_idx').on('postback_deliveries').columns(['affiliate_id', 'postback_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('postback_deliveries_due_idx').on('postback_deliveries').columns(['status', 'next_attempt_at']).execute();
  await db.schema.createIndex('postback_deliveries_created_idx').on('postback_deliveries').column('created_at').execute();
}
