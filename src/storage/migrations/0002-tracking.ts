// The tracking loop: every click (humans and bots alike, with flags) and an audit trail of
// order and commission status changes.
import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { textType } from './column-types.js';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const text = textType(dialect);
  await db.schema
    .createTable('clicks')
    // The click id handed to the brand: random and unguessable.
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('link_id', text, (c) => c.notNull())
    .addColumn('affiliate_id', text, (c) => c.notNull())
    .addColumn('channel_id', text, (c) => c.notNull())
    .addColumn('organization_id', text, (c) => c.notNull())
    .addColumn('mdasc', text)
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('is_bot', 'integer', (c) => c.notNull())
    .addColumn('is_head', 'integer', (c) => c.notNull())
    .addColumn('is_repeat', 'integer', (c) => c.notNull())
    /** 1 when the click counts: not a bot, not HEAD, not a repeat. */
    .addColumn('counted', 'integer', (c) => c.notNull())
    /** Hash of IP + user agent; the raw IP is never stored. */
    .addColumn('visitor_hash', text, (c) => c.notNull())
    .addColumn('user_agent', text)
    .execute();
  await db.schema.createIndex('clicks_link_idx').on('clicks').columns(['link_id', 'created_at']).execute();

  await db.schema
    .createTable('order_events')
    .addColumn('id', dialect === 'postgres' ? 'bigint' : 'integer', (c) =>
      dialect === 'postgres' ? c.primaryKey().generatedAlwaysAsIdentity() : c.primaryKey(),
    )
    .addColumn('order_id', text, (c) => c.notNull())
    /** 'status', 'commissionStatus' or 'created'. */
    .addColumn('field', text, (c) => c.notNull())
    .addColumn('from_value', text)
    .addColumn('to_value', text, (c) => c.notNull())
    /** Who: 'brand:<id>', 'operator' … */
    .addColumn('actor', text, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('order_events_order_idx').on('order_events').columns(['order_id', 'id']).execute();
}
