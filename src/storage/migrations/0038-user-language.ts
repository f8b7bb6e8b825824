// A person's language (en or pt-BR), for the mail they are sent and the portal they see. Null
// until they choose one or the portal tells the one their browser shows (existing users: at their
// next visit); mail goes in English meanwhile.
import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { textType } from './column-types.js';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema.alterTable('users').addColumn('language', textType(dialect)).execute();
}
