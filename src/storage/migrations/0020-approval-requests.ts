// Affiliates ask to promote a private brand, and brands answer through the API:
// - approval_requests: one per affiliate and brand, pending until the brand approves (the
//   approval itself stays in brand_approvals) or declines it;
// - scopes approvals:write (affiliates ask), affiliates:read and affiliates:write (brands read
//   who promotes them and approve or revoke), granted to every key that held its kind's whole set.
import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { textType } from './column-types.js';
import { grantToFullKeys } from './scope-grants.js';

const AFFILIATE_SET = ['brands:read', 'products:read', 'campaigns:read', 'shortener:read', 'shortener:write', 'orders:read', 'channels:read', 'webhooks:read', 'webhooks:write'];
const BRAND_SET = ['conversions:write', 'conversions:read', 'webhooks:read', 'webhooks:write'];

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const text = textType(dialect);
  await db.schema
    .createTable('approval_requests')
    .addColumn('affiliate_id', text, (c) => c.notNull().references('affiliates.id').onDelete('cascade'))
    .addColumn('brand_id', text, (c) => c.notNull().references('brands.id').onDelete('cascade'))
    /** pending or declined; an approved request is deleted (the approval is in brand_approvals). */
    .addColumn('status', text, (c) => c.notNull())
    .addColumn('message', text, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('updated_at', text, (c) => c.notNull())
    .addPrimaryKeyConstraint('approval_requests_pk', ['affiliate_id', 'brand_id'])
    .execute();
  await db.schema.createIndex('approval_requests_brand_idx').on('approval_requests').columns(['brand_id', 'status', 'created_at']).execute();
  await db.schema.createIndex('brand_approvals_brand_idx').on('brand_approvals').columns(['brand_id', 'affiliate_id']).execute();
  await grantToFullKeys(db, { owner: 'affiliate', fullSet: AFFILIATE_SET, scope: 'approvals:write' });
  await grantToFullKeys(db, { owner: 'brand', fullSet: BRAND_SET, scope: 'affiliates:read' });
  await grantToFullKeys(db, { owner: 'brand', fullSet: BRAND_SET, scope: 'affiliates:write' });
}
