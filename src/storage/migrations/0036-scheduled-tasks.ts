// Scheduled tasks (retention today; lock dates, statements and feeds later) run once across
// instances: a row per task holds when it is due next and, while one instance runs it, that
// instance's lease.
import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { textType } from './column-types.js';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const text = textType(dialect);
  await db.schema
    .createTable('scheduled_tasks')
    .addColumn('name', text, (c) => c.primaryKey())
    .addColumn('next_run_at', text, (c) => c.notNull())
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lease_owner', text)
    .addColumn('lease_until', text)
    .addColumn('last_run_at', text)
    .addColumn('last_error', text)
    .addColumn('updated_at', text, (c) => c.notNull())
    .execute();
}
