// Clicks past the per-address velocity limit of their link are flagged suspicious (and, like
// bots, HEAD requests and repeats, not counted). An order reported for a click that did not count
// as a person's keeps the reason its commission was canceled from the start.
// Both columns have a default (0, null), so instances of the previous version, which do not name
// them, keep writing clicks and orders while new ones start.
import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { textType } from './column-types.js';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema
    .alterTable('clicks')
    .addColumn('is_suspicious', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  /** 'bot_click', 'head_click' or 'suspicious_click'; null for a commission earned normally. */
  await db.schema.alterTable('orders').addColumn('commission_reason', textType(dialect)).execute();
}
