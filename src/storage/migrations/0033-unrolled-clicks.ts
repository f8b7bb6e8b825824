// PostgreSQL: the click writer now stores clicks alone, and their links' counts and rollups
// follow in the background (as on SQLite). Without SQLite's rowid, "how far the clicks have been
// added" cannot be one number: transactions of several instances commit out of id order. Each
// stored click's id is therefore also written here, in the same transaction as the click, and
// deleted by the transaction that adds the click to the sums: a crash in between rolls the
// delete back with the sums, and instances claim disjoint ids (FOR UPDATE SKIP LOCKED).
// Every click stored before this migration is already in the sums, so the table starts empty.
// SQLite keeps its rowid progress (rollup_progress); the table exists there only so both
// schemas are the same.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('unrolled_clicks')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .execute();
}
