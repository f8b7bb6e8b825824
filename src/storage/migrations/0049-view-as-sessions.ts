// An operator's read-only "view as" of a member: a credential of its own, apart from the
// operator's session (which stays as it was), kept as the SHA-256 of its random token like
// sessions and keys. It is valid only together with the operator's session that opened it
// (operator_session_id), until expires_at, and until someone ends it (ended_at: the operator,
// or the member from their session list; ended_by says which). The member's people see it in
// their session list while it is open; the audit trail keeps its start.
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { textType } from './column-types.js';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const text = textType(dialect);
  await db.schema
    .createTable('view_sessions')
    .addColumn('token_hash', text, (c) => c.primaryKey())
    /** What it is named by (vas_…): in the member's session list, the audit entry, the operator's answer. */
    .addColumn('id', text, (c) => c.notNull().unique())
    .addColumn('operator_id', text, (c) => c.notNull().references('users.id').onDelete('cascade'))
    /** The id (ses_…) of the operator's session that opened it: the view works with that session only. */
    .addColumn('operator_session_id', text, (c) => c.notNull())
    /** The member viewed: one of the two. */
    .addColumn('affiliate_id', text)
    .addColumn('brand_id', text)
    .addColumn('reason', text, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    /** Moved forward by use, at most once a minute (as sessions). */
    .addColumn('last_seen_at', text, (c) => c.notNull())
    .addColumn('expires_at', text, (c) => c.notNull())
    .addColumn('ended_at', text)
    /** operator or member */
    .addColumn('ended_by', text)
    .execute();
  // A member's open views (their session list), and an operator session's (ended when another starts).
  await db.schema.createIndex('view_sessions_affiliate_idx').on('view_sessions').columns(['affiliate_id', 'expires_at']).where(sql.ref('ended_at'), 'is', null).execute();
  await db.schema.createIndex('view_sessions_brand_idx').on('view_sessions').columns(['brand_id', 'expires_at']).where(sql.ref('ended_at'), 'is', null).execute();
  await db.schema.createIndex('view_sessions_operator_session_idx').on('view_sessions').column('operator_session_id').where(sql.ref('ended_at'), 'is', null).execute();
}
