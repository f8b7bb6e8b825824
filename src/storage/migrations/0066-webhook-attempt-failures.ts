// webhook_attempts.failure: why an attempt got no whole answer, as a code (refused, timeout,
// unreachable; null when an answer came), so the portal says it in the reader's language; the
// error text beside it stays for developers reading the API. Nullable: no row is rewritten, and
// PostgreSQL adds it to every partition of the partitioned table.
import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { textType } from './column-types.js';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema.alterTable('webhook_attempts').addColumn('failure', textType(dialect)).execute();
}
