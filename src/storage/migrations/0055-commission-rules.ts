// A brand's commission rules, and what each order was computed with:
// - commission_rule_versions: every saved list of rules, one row per save, never changed or
//   deleted (append-only), so an order is recomputed with the version it was computed with. The
//   brand's default rule (brands.commission_*) is not in it: each order keeps the default it was
//   reported under (orders.commission_transfer, commission_value).
// - orders.commission_rules_version: the version the commission was computed with; 0, the orders
//   reported before any rule was saved (and every order before this migration), means no rule:
//   the default alone, on the order's value, as before rules existed.
// - orders.commission_lines: the arithmetic of that computation (JSON: the lines and caps of
//   explainCommission), written with the commission in the same update; null for orders reported
//   before it was kept, whose explanation is recomputed from their default rule.
import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { textType } from './column-types.js';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const text = textType(dialect);
  await db.schema
    .createTable('commission_rule_versions')
    .addColumn('brand_id', text, (c) => c.notNull().references('brands.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('rules', text, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('created_by', text)
    .addPrimaryKeyConstraint('commission_rule_versions_pk', ['brand_id', 'version'])
    .execute();
  await db.schema.alterTable('orders').addColumn('commission_rules_version', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('orders').addColumn('commission_lines', text).execute();
}
