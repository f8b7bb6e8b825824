// Affiliates manage their own channels through the API. A removed channel keeps its row (its short
// links still redirect and earn, its orders still name it) and is marked removed_at: it leaves
// the channel lists and link creation. Scope channels:write is granted to every affiliate key
// that held the whole set.
import { type Kysely } from 'kysely';
import { grantToFullKeys } from './scope-grants.js';

const AFFILIATE_SET = [
  'brands:read',
  'products:read',
  'campaigns:read',
  'shortener:read',
  'shortener:write',
  'orders:read',
  'channels:read',
  'webhooks:read',
  'webhooks:write',
  'approvals:write',
  'analytics:read',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('affiliate_channels').addColumn('removed_at', 'text').execute();
  await grantToFullKeys(db, { owner: 'affiliate', fullSet: AFFILIATE_SET, scope: 'channels:write' });
}
