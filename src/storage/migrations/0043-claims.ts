// Claims for sales the tracking missed, and where every order came from:
// - orders.source: how the order arrived (api | postback | tag | pixel | claim). Stored orders
//   are `postback` when the report that created them came with a postback token (its id is in
//   the order's audit trail), else `api` (a postback sent with the brand's API key cannot be told
//   from an API report);
// - orders.attribution: why its affiliate gets it (click | coupon | claim); stored orders `click`;
// - brands.claim_auto_accept_days: a claim the brand has not answered after this many days
//   (30-120, default 60) is accepted by the network at the claimed value;
// - claims: an affiliate's claim of a sale of a brand, open until the brand (or the network)
//   accepts or declines it; at most one open claim per brand and order id.
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { textType } from './column-types.js';
import { grantToFullKeys } from './scope-grants.js';

/** The days every brand starts with. */
const DEFAULT_CLAIM_AUTO_ACCEPT_DAYS = 60;

/** Every affiliate scope before claims:write. */
const AFFILIATE_FULL_SET = ['brands:read', 'products:read', 'campaigns:read', 'shortener:read', 'shortener:write', 'orders:read', 'channels:read', 'channels:write', 'webhooks:read', 'webhooks:write', 'approvals:write', 'analytics:read'];

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const text = textType(dialect);
  const bigint = dialect === 'postgres' ? 'bigint' : 'integer';
  await db.schema.alterTable('orders').addColumn('source', text, (c) => c.notNull().defaultTo('api')).execute();
  await db.schema.alterTable('orders').addColumn('attribution', text, (c) => c.notNull().defaultTo('click')).execute();
  await sql`update orders set source = 'postback' where id in (
    select e.order_id from order_events as e join postback_tokens as t on t.id = e.actor_key_id where e.field = 'created'
  )`.execute(db);
  await db.schema.alterTable('brands').addColumn('claim_auto_accept_days', 'integer', (c) => c.notNull().defaultTo(DEFAULT_CLAIM_AUTO_ACCEPT_DAYS)).execute();

  await db.schema
    .createTable('claims')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('affiliate_id', text, (c) => c.notNull())
    .addColumn('organization_id', text, (c) => c.notNull())
    /** The brand's own order id, as the affiliate gave it. */
    .addColumn('order_id', text, (c) => c.notNull())
    .addColumn('ordered_at', text, (c) => c.notNull())
    /** Claimed value in integer cents of currency (the brand's). */
    .addColumn('value', bigint, (c) => c.notNull())
    .addColumn('currency', text, (c) => c.notNull())
    .addColumn('link_code', text)
    .addColumn('click_id', text)
    .addColumn('note', text, (c) => c.notNull())
    /** open → accepted | declined */
    .addColumn('status', text, (c) => c.notNull())
    /** The value the claim was accepted at (the brand's correction, or the claimed value). */
    .addColumn('accepted_value', bigint)
    /** Why the brand declined it. */
    .addColumn('reason', text)
    /** brand or network (accepted when the brand did not answer in time). */
    .addColumn('resolved_by', text)
    .addColumn('resolved_at', text)
    /** The network id of the order an accepted claim made. */
    .addColumn('network_order_id', text)
    /** When the network accepts it if the brand has not answered (its claimAutoAcceptDays when it was filed). */
    .addColumn('auto_accept_at', text, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('updated_at', text, (c) => c.notNull())
    .execute();
  // A partial index in both databases: one open claim per brand and order id, any number answered.
  await sql`create unique index claims_one_open_idx on claims (organization_id, order_id) where status = 'open'`.execute(db);
  await db.schema.createIndex('claims_affiliate_idx').on('claims').columns(['affiliate_id', 'created_at']).execute();
  await db.schema.createIndex('claims_brand_idx').on('claims').columns(['organization_id', 'created_at']).execute();
  await db.schema.createIndex('claims_due_idx').on('claims').columns(['status', 'auto_accept_at']).execute();

  await grantToFullKeys(db, { owner: 'affiliate', fullSet: AFFILIATE_FULL_SET, scope: 'claims:write' });
}
