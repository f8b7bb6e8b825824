// People who sign in to the portal: each user belongs to one affiliate or one brand, with a role
// (owner or member). One-time links (sign-up, password reset) and sessions are kept as SHA-256
// hashes of their random secrets, like API keys: a copy of the database signs nobody in.
import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { textType } from './column-types.js';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const text = textType(dialect);
  await db.schema
    .createTable('users')
    .addColumn('id', text, (c) => c.primaryKey())
    /** Lowercased; one account per address. */
    .addColumn('email', text, (c) => c.notNull().unique())
    .addColumn('affiliate_id', text)
    .addColumn('brand_id', text)
    /** owner or member */
    .addColumn('role', text, (c) => c.notNull())
    /** scrypt, with its parameters and salt; null until the user has set a password. */
    .addColumn('password_hash', text)
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('updated_at', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('users_affiliate_idx').on('users').columns(['affiliate_id', 'email']).execute();
  await db.schema.createIndex('users_brand_idx').on('users').columns(['brand_id', 'email']).execute();

  await db.schema
    .createTable('user_links')
    .addColumn('token_hash', text, (c) => c.primaryKey())
    .addColumn('user_id', text, (c) => c.notNull().references('users.id').onDelete('cascade'))
    /** sign_up or reset */
    .addColumn('purpose', text, (c) => c.notNull())
    .addColumn('expires_at', text, (c) => c.notNull())
    .addColumn('used_at', text)
    .addColumn('created_at', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('user_links_user_idx').on('user_links').columns(['user_id']).execute();

  await db.schema
    .createTable('sessions')
    .addColumn('token_hash', text, (c) => c.primaryKey())
    .addColumn('user_id', text, (c) => c.notNull().references('users.id').onDelete('cascade'))
    /** Sent back by the portal in x-csrf-token on every request that changes something. */
    .addColumn('csrf_token', text, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    /** Moved forward by use: a session ends after SESSION_IDLE_MINUTES without a request. */
    .addColumn('last_seen_at', text, (c) => c.notNull())
    .addColumn('revoked_at', text)
    .execute();
  await db.schema.createIndex('sessions_user_idx').on('sessions').columns(['user_id']).execute();
}
