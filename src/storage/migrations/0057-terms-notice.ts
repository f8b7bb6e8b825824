// Changes of a brand's terms with notice:
// - commission_rule_versions.effective_at: when the version comes into force. A save that could
//   lower what an affiliate earns takes effect only after the brand's notice; one that cannot, at
//   once (effective_at = created_at, as for every version saved before this migration).
// - commission_rule_versions.default_transfer, default_value: the default rule (the profile's
//   commission) the version goes with, so a change of the default waits for its notice like a
//   change of the rules. Versions saved before went with the brand's default as it is now.
// - brands.terms_notice_days: the days of notice the brand gives (never below the network's
//   minimum, checked when it is set).
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { textType } from './column-types.js';

export const DEFAULT_TERMS_NOTICE_DAYS = 7;

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const text = textType(dialect);
  await db.schema.alterTable('commission_rule_versions').addColumn('effective_at', text).execute();
  await db.schema.alterTable('commission_rule_versions').addColumn('default_transfer', text).execute();
  await db.schema.alterTable('commission_rule_versions').addColumn('default_value', 'integer').execute();
  await sql`update commission_rule_versions set effective_at = created_at,
    default_transfer = (select b.commission_transfer from brands b where b.id = commission_rule_versions.brand_id),
    default_value = (select b.commission_value from brands b where b.id = commission_rule_versions.brand_id)`.execute(db);
  await db.schema.alterTable('brands').addColumn('terms_notice_days', 'integer', (c) => c.notNull().defaultTo(DEFAULT_TERMS_NOTICE_DAYS)).execute();
}
