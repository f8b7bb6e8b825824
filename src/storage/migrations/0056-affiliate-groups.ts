// A brand's affiliate groups, which its commission rules name (conditions.affiliateGroups):
// - affiliate_groups: the brand's groups, by the brand's own id; a volume tier
//   (tier_min_approved_orders) places the affiliates with at least that many approved orders at
//   the brand in the last calendar month, recomputed when the tier is saved and once a month
//   (tier_month: the month 'YYYY-MM' the tier members were last computed in).
// - affiliate_group_members: who is in a group, named by the brand ('member') or placed by the
//   tier ('tier'); an affiliate may be both.
import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { textType } from './column-types.js';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const text = textType(dialect);
  await db.schema
    .createTable('affiliate_groups')
    .addColumn('brand_id', text, (c) => c.notNull().references('brands.id').onDelete('cascade'))
    .addColumn('id', text, (c) => c.notNull())
    .addColumn('name', text, (c) => c.notNull())
    .addColumn('tier_min_approved_orders', 'integer')
    .addColumn('tier_month', text)
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('updated_at', text, (c) => c.notNull())
    .addPrimaryKeyConstraint('affiliate_groups_pk', ['brand_id', 'id'])
    .execute();
  await db.schema
    .createTable('affiliate_group_members')
    .addColumn('brand_id', text, (c) => c.notNull())
    .addColumn('group_id', text, (c) => c.notNull())
    .addColumn('affiliate_id', text, (c) => c.notNull())
    .addColumn('source', text, (c) => c.notNull())
    .addPrimaryKeyConstraint('affiliate_group_members_pk', ['brand_id', 'group_id', 'source', 'affiliate_id'])
    .addForeignKeyConstraint('affiliate_group_members_group_fk', ['brand_id', 'group_id'], 'affiliate_groups', ['brand_id', 'id'], (c) => c.onDelete('cascade'))
    .execute();
  // groupsOf: the groups of one affiliate at one brand.
  await db.schema.createIndex('affiliate_group_members_affiliate_idx').on('affiliate_group_members').columns(['brand_id', 'affiliate_id']).execute();
}
