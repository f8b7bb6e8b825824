// Where each affiliate is paid: its payee details (legal name, country, tax id, PIX key or bank
// account), encrypted as a whole with AES-256-GCM under the payee key (PAYEE_ENCRYPTION_KEY or the
// key file), the key's id kept inside the ciphertext and beside it (what a rotation looks for). A
// change holds the affiliate's payouts until held_until.
import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { textType } from './column-types.js';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const text = textType(dialect);
  await db.schema
    .createTable('payee_details')
    .addColumn('affiliate_id', text, (c) => c.primaryKey().references('affiliates.id').onDelete('cascade'))
    /** pk1.<key id>.<nonce>.<tag>.<ciphertext>, bound to the affiliate id. */
    .addColumn('details', text, (c) => c.notNull())
    .addColumn('key_id', text, (c) => c.notNull())
    /** The owner who saved them (null when an operator's command did). */
    .addColumn('updated_by', text)
    .addColumn('updated_at', text, (c) => c.notNull())
    /** Payouts wait until then after a change (PAYEE_CHANGE_HOLD_HOURS). */
    .addColumn('held_until', text, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('payee_details_key_idx').on('payee_details').column('key_id').execute();
}
