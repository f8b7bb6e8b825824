// Lock dates: each brand has a number of days to validate an order (validation_days), and each
// order the moment from which the brand can no longer change it (lock_at: when it was reported
// plus the brand's days then). An order still pending at its lock date is approved by the network
// (auto_approved). Orders already stored lock that many days after the upgrade, not after their
// creation, so an upgrade never approves a backlog at once.
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Dialect } from '../database.js';
import { textType } from './column-types.js';

/** The validation days every brand starts with. */
const DEFAULT_VALIDATION_DAYS = 30;

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const text = textType(dialect);
  await db.schema.alterTable('brands').addColumn('validation_days', 'integer', (c) => c.notNull().defaultTo(DEFAULT_VALIDATION_DAYS)).execute();
  await db.schema.alterTable('orders').addColumn('lock_at', text).execute();
  await db.schema.alterTable('orders').addColumn('auto_approved', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  // Every stored order was created before now: the later of the two is now.
  const lockAt = new Date(Date.now() + DEFAULT_VALIDATION_DAYS * 86_400_000).toISOString();
  await sql`update orders set lock_at = ${lockAt}`.execute(db);
  await db.schema.createIndex('orders_lock_idx').on('orders').columns(['status', 'lock_at']).execute();
}
