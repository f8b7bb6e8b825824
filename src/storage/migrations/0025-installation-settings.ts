// Settings of this installation kept with its data, shared by every instance on the database:
// the visitor salt (random, made at the first start that needs it; see InstallationService).
import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { textType } from './column-types.js';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const text = textType(dialect);
  await db.schema
    .createTable('settings')
    .addColumn('name', text, (c) => c.primaryKey())
    .addColumn('value', text, (c) => c.notNull())
    .addColumn('updated_at', text, (c) => c.notNull())
    .execute();
}
