// People ask to join: an affiliate signs up, a brand applies. An application waits unverified
// until its address is confirmed by a one-time link (kept only as a hash, made when the mail is
// sent: the mail row names the application), then pending until an operator decides (or at once,
// when affiliates are approved automatically). Approval creates the affiliate or the brand and
// its owner; a brand made so stays out of affiliates' sight and refuses links until its owner
// has set it up and launched it (`setup_pending`).
import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { textType } from './column-types.js';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const text = textType(dialect);
  await db.schema
    .createTable('applications')
    .addColumn('id', text, (c) => c.primaryKey())
    /** affiliate or brand */
    .addColumn('kind', text, (c) => c.notNull())
    /** unverified → pending → approved | declined */
    .addColumn('status', text, (c) => c.notNull())
    /** Lowercased. */
    .addColumn('email', text, (c) => c.notNull())
    /** The person's name (an affiliate's name, a brand's contact). */
    .addColumn('name', text, (c) => c.notNull())
    .addColumn('language', text, (c) => c.notNull())
    .addColumn('country', text)
    /** An affiliate's main site or profile; a brand's site. */
    .addColumn('website', text, (c) => c.notNull())
    .addColumn('company', text)
    .addColumn('tax_id', text)
    .addColumn('currency', text)
    .addColumn('expected_monthly_orders', 'integer')
    /** An affiliate's chosen password (scrypt); dropped once decided. */
    .addColumn('password_hash', text)
    .addColumn('terms_version', text, (c) => c.notNull())
    .addColumn('terms_accepted_at', text, (c) => c.notNull())
    .addColumn('terms_address', text, (c) => c.notNull())
    /** SHA-256 of the verification link's token, the last one sent; null once used. */
    .addColumn('verify_token_hash', text)
    .addColumn('verify_expires_at', text)
    .addColumn('verified_at', text)
    .addColumn('decided_at', text)
    /** Who decided: cli, network (automatic approval), or an operator's user id. */
    .addColumn('decided_by', text)
    .addColumn('decline_reason', text)
    .addColumn('affiliate_id', text)
    .addColumn('brand_id', text)
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('updated_at', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('applications_status_idx').on('applications').columns(['status', 'created_at']).execute();
  await db.schema.createIndex('applications_email_idx').on('applications').columns(['email', 'kind']).execute();
  await db.schema.createIndex('applications_verify_idx').on('applications').columns(['verify_token_hash']).execute();

  await db.schema.alterTable('mail_messages').addColumn('link_application_id', text).execute();
  await db.schema.alterTable('brands').addColumn('setup_pending', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}
