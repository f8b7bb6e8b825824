// Webhooks to affiliates and brands:
// - webhook_endpoints: where an owner (affiliate or brand) wants its events, which ones, and the
//   signing secret (kept as it is: a signature needs it; the previous one stays valid for a day
//   after a rotation);
// - webhook_events: the outbox. An event is written in the transaction of the change that caused
//   it, with a delivery per subscribed endpoint, so a crash after the change loses nothing;
// - webhook_deliveries: one event to one endpoint, with its next attempt and the lease of the
//   instance delivering it (only one does);
// - webhook_attempts: the delivery log the owner reads.
// - webhooks:read and webhooks:write, granted to every key that held its kind's whole set.
import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { textType } from './column-types.js';
import { grantToFullKeys } from './scope-grants.js';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const text = textType(dialect);
  const bigint = dialect === 'postgres' ? 'bigint' : 'integer';
  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('owner_kind', text, (c) => c.notNull())
    .addColumn('owner_id', text, (c) => c.notNull())
    .addColumn('url', text, (c) => c.notNull())
    .addColumn('description', text, (c) => c.notNull())
    /** Event types, space-separated with a space at each end (' order.created order.updated '). */
    .addColumn('events', text, (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('disabled_reason', text)
    .addColumn('secret', text, (c) => c.notNull())
    .addColumn('previous_secret', text)
    .addColumn('previous_secret_expires_at', text)
    /** When the current run of failed attempts began; null after a success. */
    .addColumn('failing_since', text)
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('updated_at', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_endpoints_owner_idx').on('webhook_endpoints').columns(['owner_kind', 'owner_id', 'created_at', 'id']).execute();

  await db.schema
    .createTable('webhook_events')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('owner_kind', text, (c) => c.notNull())
    .addColumn('owner_id', text, (c) => c.notNull())
    .addColumn('type', text, (c) => c.notNull())
    .addColumn('payload', text, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('event_id', text, (c) => c.notNull().references('webhook_events.id').onDelete('cascade'))
    .addColumn('endpoint_id', text, (c) => c.notNull().references('webhook_endpoints.id').onDelete('cascade'))
    /** pending, delivered or failed */
    .addColumn('status', text, (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', text, (c) => c.notNull())
    .addColumn('lease_owner', text)
    .addColumn('lease_until', text)
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('updated_at', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_deliveries_due_idx').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute();
  await db.schema.createIndex('webhook_deliveries_endpoint_idx').on('webhook_deliveries').columns(['endpoint_id', 'created_at']).execute();

  await db.schema
    .createTable('webhook_attempts')
    .addColumn('id', dialect === 'postgres' ? 'bigserial' : 'integer', (c) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('delivery_id', text, (c) => c.notNull())
    .addColumn('endpoint_id', text, (c) => c.notNull().references('webhook_endpoints.id').onDelete('cascade'))
    .addColumn('event_id', text, (c) => c.notNull())
    .addColumn('event_type', text, (c) => c.notNull())
    .addColumn('attempt', 'integer', (c) => c.notNull())
    /** delivered, retrying, failed (given up), or disabled (the endpoint was switched off) */
    .addColumn('outcome', text, (c) => c.notNull())
    .addColumn('response_status', 'integer')
    .addColumn('error', text)
    .addColumn('duration_ms', bigint, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_attempts_endpoint_idx').on('webhook_attempts').columns(['endpoint_id', 'created_at', 'id']).execute();

  await grantToFullKeys(db, {
    owner: 'affiliate',
    fullSet: ['brands:read', 'products:read', 'campaigns:read', 'shortener:read', 'shortener:write', 'orders:read', 'channels:read'],
    scope: 'webhooks:read',
  });
  await grantToFullKeys(db, {
    owner: 'affiliate',
    fullSet: ['brands:read', 'products:read', 'campaigns:read', 'shortener:read', 'shortener:write', 'orders:read', 'channels:read'],
    scope: 'webhooks:write',
  });
  await grantToFullKeys(db, { owner: 'brand', fullSet: ['conversions:write', 'conversions:read'], scope: 'webhooks:read' });
  await grantToFullKeys(db, { owner: 'brand', fullSet: ['conversions:write', 'conversions:read'], scope: 'webhooks:write' });
}
