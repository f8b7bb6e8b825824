// Search words match as prefixes ("sneak" finds "sneakers"). Without a prefix index, SQLite's
// full-text search merges the entries of every word starting with the prefix before it can
// return the first row, so a prefix shared by most products took 40 ms per page at a million
// products. Prefix indexes for 2 to 8 characters let such a page stop after its rows (0.2 ms);
// they make the full-text index about twice as large, and rebuilding it takes about a minute per
// million products. Longer words still merge, but few products share a prefix that long.
// PostgreSQL's GIN index answers prefix queries already.
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect !== 'sqlite') return;
  // The triggers that keep the index in step with products name it, so they stay as they are.
  await sql`drop table products_fts`.execute(db);
  await sql`create virtual table products_fts using fts5(search_text, content='products', content_rowid='seq', tokenize='unicode61 remove_diacritics 2', prefix='2 3 4 5 6 7 8')`.execute(db);
  await sql`insert into products_fts(products_fts) values ('rebuild')`.execute(db);
}
