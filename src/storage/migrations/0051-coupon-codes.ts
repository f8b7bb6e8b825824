// Coupon codes that attribute conversions to affiliates:
// - coupons: a code a brand gave one affiliate, unique per brand without case (code_key, the code
//   lowercased; code as the brand wrote it), optionally one of the brand's PersonalCoupon campaigns;
// - orders.coupon, coupon_key: the code the customer used, as the brand reported it, and folded for
//   the affiliate's filter; coupon_affiliate_id: whose code it was when the order was reported
//   (null for a code no affiliate had), so an affiliate is shown only codes of its own;
// - brands.attribution_priority: which decides when a conversion brings a click of one affiliate
//   and a code of another: coupon (the default) or click.
import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { textType } from './column-types.js';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const text = textType(dialect);
  await db.schema
    .createTable('coupons')
    .addColumn('organization_id', text, (c) => c.notNull())
    .addColumn('code_key', text, (c) => c.notNull())
    .addColumn('code', text, (c) => c.notNull())
    .addColumn('affiliate_id', text, (c) => c.notNull())
    .addColumn('campaign_id', text)
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('updated_at', text, (c) => c.notNull())
    .addPrimaryKeyConstraint('coupons_pk', ['organization_id', 'code_key'])
    .execute();
  await db.schema.createIndex('coupons_affiliate_idx').on('coupons').columns(['affiliate_id', 'organization_id', 'code_key']).execute();

  await db.schema.alterTable('orders').addColumn('coupon', text).execute();
  await db.schema.alterTable('orders').addColumn('coupon_key', text).execute();
  await db.schema.alterTable('orders').addColumn('coupon_affiliate_id', text).execute();
  await db.schema.alterTable('brands').addColumn('attribution_priority', text, (c) => c.notNull().defaultTo('coupon')).execute();
}
