// Mail waits in the database, written in the same transaction as what caused it, until a job
// runner's mail queue sends it. A row holds what the message says (its template, language and
// values) but never a live token: a one-time link is made when the message is sent (`with_link`),
// for the user the row names, or whoever then has its address; its kind follows that person then. The values are dropped once the message is sent.
import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { textType } from './column-types.js';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const text = textType(dialect);
  await db.schema
    .createTable('mail_messages')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('to_address', text, (c) => c.notNull())
    .addColumn('template', text, (c) => c.notNull())
    .addColumn('locale', text, (c) => c.notNull())
    .addColumn('params', text)
    .addColumn('link_user_id', text)
    .addColumn('with_link', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', text, (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', text, (c) => c.notNull())
    .addColumn('lease_owner', text)
    .addColumn('lease_until', text)
    .addColumn('last_error', text)
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('sent_at', text)
    .addColumn('updated_at', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('mail_messages_due').on('mail_messages').columns(['status', 'next_attempt_at']).execute();
}
