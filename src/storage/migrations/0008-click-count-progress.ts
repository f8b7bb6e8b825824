// Link counts on SQLite are added up from the stored clicks every few seconds instead of per
// click batch (a counter update rewrites a random page of short_links; appending clicks does
// not). This row remembers how far the clicks have been added: the rowid of the last click
// counted, so a restart neither loses nor double-counts. Clicks stored before this migration are
// already in their links' counts.
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('click_count_progress')
    .addColumn('id', 'integer', (col) => col.primaryKey())
    .addColumn('last_counted_rowid', 'bigint', (col) => col.notNull())
    .execute();
  // PostgreSQL added clicks to their links' counts in the transaction that stored them (later by
  // the ids in unrolled_clicks, migration 0033); the row exists there only so both schemas are
  // the same.
  const last = dialect === 'sqlite' ? sql`(select coalesce(max(rowid), 0) from clicks)` : sql`0`;
  await sql`insert into click_count_progress (id, last_counted_rowid) values (1, ${last})`.execute(db);
}
