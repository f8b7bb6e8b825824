// Second factors of the people who sign in to the portal: an authenticator app (TOTP, its secret
// encrypted with the installation's own key), single-use recovery codes (keyed hashes), passkeys
// (WebAuthn public keys); the short-lived tickets between a right password and the second factor
// and the WebAuthn challenges (single use, hashed or random); when a session last passed a second
// factor; and the teams whose owner requires one of every member.
import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { textType } from './column-types.js';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const text = textType(dialect);
  await db.schema
    .createTable('user_totp')
    .addColumn('user_id', text, (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    /** AES-256-GCM under the installation's second-factor key, bound to the user id. */
    .addColumn('secret', text, (c) => c.notNull())
    /** Null while enrolment waits for its first code: until then it does not count. */
    .addColumn('confirmed_at', text)
    /** The last 30-second step a code was accepted for: a code works once. */
    .addColumn('last_step', 'integer')
    .addColumn('created_at', text, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('user_recovery_codes')
    .addColumn('user_id', text, (c) => c.notNull().references('users.id').onDelete('cascade'))
    /** HMAC-SHA-256 of the code under the installation's second-factor key. */
    .addColumn('code_hash', text, (c) => c.notNull())
    .addColumn('used_at', text)
    .addColumn('created_at', text, (c) => c.notNull())
    .addPrimaryKeyConstraint('user_recovery_codes_pk', ['user_id', 'code_hash'])
    .execute();

  await db.schema
    .createTable('user_passkeys')
    /** The credential id (base64url), as the authenticator made it. */
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('user_id', text, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', text, (c) => c.notNull())
    /** COSE public key, base64url. */
    .addColumn('public_key', text, (c) => c.notNull())
    .addColumn('counter', 'bigint', (c) => c.notNull().defaultTo(0))
    /** JSON array of transports (internal, usb, hybrid…). */
    .addColumn('transports', text, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('last_used_at', text)
    .execute();
  await db.schema.createIndex('user_passkeys_user_idx').on('user_passkeys').columns(['user_id']).execute();

  await db.schema
    .createTable('second_factor_tickets')
    /** SHA-256 of the ticket handed out after a right password. */
    .addColumn('token_hash', text, (c) => c.primaryKey())
    .addColumn('user_id', text, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', text, (c) => c.notNull())
    .addColumn('used_at', text)
    .addColumn('created_at', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('second_factor_tickets_user_idx').on('second_factor_tickets').columns(['user_id']).execute();

  await db.schema
    .createTable('webauthn_challenges')
    /** The challenge as sent (base64url, random). */
    .addColumn('challenge', text, (c) => c.primaryKey())
    /** register, second_factor (with the ticket's hash) or sign_in (no user: the passkey names them). */
    .addColumn('purpose', text, (c) => c.notNull())
    .addColumn('user_id', text, (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('ticket_hash', text)
    .addColumn('expires_at', text, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webauthn_challenges_expiry_idx').on('webauthn_challenges').columns(['expires_at']).execute();

  await db.schema
    .createTable('session_second_factors')
    .addColumn('token_hash', text, (c) => c.primaryKey().references('sessions.token_hash').onDelete('cascade'))
    /** When the session last passed a second factor (sign-in, enrolment). */
    .addColumn('verified_at', text, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('second_factor_requirements')
    /** affiliate:<id> or brand:<id>: a team whose members all need a second factor. */
    .addColumn('account', text, (c) => c.primaryKey())
    .addColumn('required_by', text, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .execute();
}
