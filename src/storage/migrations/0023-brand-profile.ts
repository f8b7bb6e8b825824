// A brand's own profile through the API: a home page of its own (the Home link's destination,
// the site's origin until set) and more domains than its site's (campaign and Custom link URLs
// may be on any of them).
import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { textType } from './column-types.js';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema.alterTable('brands').addColumn('home_url', textType(dialect)).execute();
  await db.schema.alterTable('brands').addColumn('domains', textType(dialect), (c) => c.notNull().defaultTo('[]')).execute();
}
