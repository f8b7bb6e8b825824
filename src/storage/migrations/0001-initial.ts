// The initial schema: catalogue, affiliates and their channels, API keys, short links and orders.
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { textType } from './column-types.js';

const INT = 'integer';
// SQLite gives "double precision" REAL affinity; PostgreSQL an 8-byte float (real would be 4 bytes).
const FLOAT = 'double precision';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const bigint = dialect === 'postgres' ? 'bigint' : 'integer';
  const TEXT = textType(dialect);

  await db.schema
    .createTable('channel_kinds')
    .addColumn('id', TEXT, (c) => c.primaryKey())
    .addColumn('name', TEXT, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('brands')
    .addColumn('id', TEXT, (c) => c.primaryKey())
    .addColumn('name', TEXT, (c) => c.notNull())
    // Case- and accent-folded name, what the search filter compares.
    .addColumn('name_key', TEXT, (c) => c.notNull())
    .addColumn('slug', TEXT, (c) => c.notNull().unique())
    .addColumn('logo', TEXT, (c) => c.notNull())
    .addColumn('site', TEXT, (c) => c.notNull())
    .addColumn('segment', TEXT, (c) => c.notNull())
    .addColumn('active', INT, (c) => c.notNull().defaultTo(1))
    .addColumn('is_public', INT, (c) => c.notNull().defaultTo(1))
    .addColumn('is_exclusive', INT, (c) => c.notNull().defaultTo(0))
    .addColumn('is_highlight', INT, (c) => c.notNull().defaultTo(0))
    .addColumn('is_favorite', INT, (c) => c.notNull().defaultTo(0))
    .addColumn('rating_approval', FLOAT, (c) => c.notNull().defaultTo(0))
    .addColumn('rating_commission', FLOAT, (c) => c.notNull().defaultTo(0))
    .addColumn('rating_conversion', FLOAT, (c) => c.notNull().defaultTo(0))
    .addColumn('rating_popularity', FLOAT, (c) => c.notNull().defaultTo(0))
    .addColumn('rating_validation', FLOAT, (c) => c.notNull().defaultTo(0))
    .addColumn('commission_transfer', TEXT, (c) => c.notNull().defaultTo('cps'))
    .addColumn('commission_value', INT, (c) => c.notNull().defaultTo(0))
    .addColumn('allowed_channel_kinds', TEXT)
    .addColumn('click_id_param', TEXT, (c) => c.notNull().defaultTo('clickId'))
    .addColumn('attribution_window_days', INT, (c) => c.notNull().defaultTo(30))
    .addColumn('created_at', TEXT, (c) => c.notNull())
    .addColumn('updated_at', TEXT, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('brands_name_idx').on('brands').columns(['name_key', 'id']).execute();
  await db.schema.createIndex('brands_created_at_idx').on('brands').columns(['created_at']).execute();

  await db.schema
    .createTable('brand_categories')
    .addColumn('brand_id', TEXT, (c) => c.notNull().references('brands.id').onDelete('cascade'))
    .addColumn('category', TEXT, (c) => c.notNull())
    // Lower-cased category: filters match categories case-insensitively through this column.
    .addColumn('category_key', TEXT, (c) => c.notNull())
    .addPrimaryKeyConstraint('brand_categories_pk', ['brand_id', 'category_key'])
    .execute();
  await db.schema.createIndex('brand_categories_key_idx').on('brand_categories').columns(['category_key', 'brand_id']).execute();

  await db.schema
    .createTable('affiliates')
    .addColumn('id', TEXT, (c) => c.primaryKey())
    .addColumn('name', TEXT, (c) => c.notNull())
    .addColumn('created_at', TEXT, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('affiliate_channels')
    .addColumn('id', TEXT, (c) => c.primaryKey())
    .addColumn('affiliate_id', TEXT, (c) => c.notNull().references('affiliates.id').onDelete('cascade'))
    .addColumn('kind_id', TEXT, (c) => c.notNull().references('channel_kinds.id'))
    .addColumn('name', TEXT, (c) => c.notNull())
    .addColumn('created_at', TEXT, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('affiliate_channels_affiliate_idx').on('affiliate_channels').columns(['affiliate_id', 'id']).execute();

  await db.schema
    .createTable('brand_approvals')
    .addColumn('affiliate_id', TEXT, (c) => c.notNull().references('affiliates.id').onDelete('cascade'))
    .addColumn('brand_id', TEXT, (c) => c.notNull().references('brands.id').onDelete('cascade'))
    .addColumn('created_at', TEXT, (c) => c.notNull())
    .addPrimaryKeyConstraint('brand_approvals_pk', ['affiliate_id', 'brand_id'])
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', TEXT, (c) => c.primaryKey())
    .addColumn('key_hash', TEXT, (c) => c.notNull().unique())
    .addColumn('key_prefix', TEXT, (c) => c.notNull())
    .addColumn('affiliate_id', TEXT, (c) => c.references('affiliates.id').onDelete('cascade'))
    .addColumn('brand_id', TEXT, (c) => c.references('brands.id').onDelete('cascade'))
    .addColumn('name', TEXT, (c) => c.notNull())
    .addColumn('scopes', TEXT, (c) => c.notNull())
    .addColumn('rate_limit', INT, (c) => c.notNull().defaultTo(60))
    .addColumn('rate_window_seconds', INT, (c) => c.notNull().defaultTo(60))
    .addColumn('created_at', TEXT, (c) => c.notNull())
    .addColumn('revoked_at', TEXT)
    .execute();
  await db.schema.createIndex('api_keys_affiliate_idx').on('api_keys').columns(['affiliate_id']).execute();

  await db.schema
    .createTable('products')
    .addColumn('seq', dialect === 'postgres' ? 'bigint' : INT, (c) =>
      dialect === 'postgres' ? c.primaryKey().generatedAlwaysAsIdentity() : c.primaryKey(),
    )
    .addColumn('id', TEXT, (c) => c.notNull().unique())
    .addColumn('organization_id', TEXT, (c) => c.notNull().references('brands.id').onDelete('cascade'))
    .addColumn('integration', TEXT)
    .addColumn('available', INT, (c) => c.notNull().defaultTo(1))
    .addColumn('name', TEXT, (c) => c.notNull())
    .addColumn('description', TEXT, (c) => c.notNull())
    .addColumn('url', TEXT, (c) => c.notNull())
    .addColumn('images', TEXT, (c) => c.notNull())
    .addColumn('options', TEXT, (c) => c.notNull())
    .addColumn('metadata', TEXT, (c) => c.notNull())
    .addColumn('price_cents', bigint)
    // Name and the visible text of the description, case- and accent-folded: what search indexes.
    .addColumn('search_text', TEXT, (c) => c.notNull())
    .addColumn('created_at', TEXT, (c) => c.notNull())
    .addColumn('updated_at', TEXT, (c) => c.notNull())
    .execute();
  // Lists are ordered newest first with id as tie-breaker; each index ends in those columns so a
  // filtered page is read in order instead of sorted.
  await db.schema.createIndex('products_order_idx').on('products').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('products_org_idx').on('products').columns(['organization_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('products_available_idx').on('products').columns(['available', 'created_at', 'id']).execute();
  await db.schema.createIndex('products_price_idx').on('products').columns(['price_cents']).execute();

  if (dialect === 'sqlite') {
    await sql`create virtual table products_fts using fts5(search_text, content='products', content_rowid='seq', tokenize='unicode61 remove_diacritics 2')`.execute(db);
    await sql`create trigger products_fts_insert after insert on products begin
      insert into products_fts(rowid, search_text) values (new.seq, new.search_text);
    end`.execute(db);
    await sql`create trigger products_fts_delete after delete on products begin
      insert into products_fts(products_fts, rowid, search_text) values ('delete', old.seq, old.search_text);
    end`.execute(db);
    await sql`create trigger products_fts_update after update of search_text on products begin
      insert into products_fts(products_fts, rowid, search_text) values ('delete', old.seq, old.search_text);
      insert into products_fts(rowid, search_text) values (new.seq, new.search_text);
    end`.execute(db);
  } else {
    await sql`alter table products add column search tsvector generated always as (to_tsvector('simple', search_text)) stored`.execute(db);
    await sql`create index products_search_idx on products using gin (search)`.execute(db);
  }

  await db.schema
    .createTable('campaigns')
    .addColumn('id', TEXT, (c) => c.primaryKey())
    .addColumn('organization_id', TEXT, (c) => c.notNull().references('brands.id').onDelete('cascade'))
    .addColumn('name', TEXT, (c) => c.notNull())
    .addColumn('name_key', TEXT, (c) => c.notNull())
    .addColumn('type', TEXT, (c) => c.notNull())
    .addColumn('offer_type', TEXT)
    .addColumn('description', TEXT, (c) => c.notNull())
    .addColumn('code', TEXT)
    .addColumn('url', TEXT, (c) => c.notNull())
    .addColumn('is_highlight', INT, (c) => c.notNull().defaultTo(0))
    .addColumn('start_at', TEXT, (c) => c.notNull())
    .addColumn('end_at', TEXT, (c) => c.notNull())
    .addColumn('banners', TEXT, (c) => c.notNull())
    .addColumn('email_marketing', TEXT)
    .addColumn('created_at', TEXT, (c) => c.notNull())
    .addColumn('updated_at', TEXT, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('campaigns_order_idx').on('campaigns').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('campaigns_org_idx').on('campaigns').columns(['organization_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('campaigns_period_idx').on('campaigns').columns(['end_at', 'start_at']).execute();
  await db.schema.createIndex('campaigns_type_idx').on('campaigns').columns(['type', 'offer_type']).execute();

  await db.schema
    .createTable('campaign_categories')
    .addColumn('campaign_id', TEXT, (c) => c.notNull().references('campaigns.id').onDelete('cascade'))
    .addColumn('category', TEXT, (c) => c.notNull())
    .addColumn('category_key', TEXT, (c) => c.notNull())
    .addPrimaryKeyConstraint('campaign_categories_pk', ['campaign_id', 'category_key'])
    .execute();
  await db.schema.createIndex('campaign_categories_key_idx').on('campaign_categories').columns(['category_key', 'campaign_id']).execute();

  await db.schema
    .createTable('short_links')
    .addColumn('id', TEXT, (c) => c.primaryKey())
    .addColumn('code', TEXT, (c) => c.notNull().unique())
    .addColumn('affiliate_id', TEXT, (c) => c.notNull().references('affiliates.id').onDelete('cascade'))
    .addColumn('channel_id', TEXT, (c) => c.notNull().references('affiliate_channels.id').onDelete('cascade'))
    .addColumn('organization_id', TEXT, (c) => c.notNull().references('brands.id').onDelete('cascade'))
    .addColumn('link_type', TEXT, (c) => c.notNull())
    .addColumn('feature_id', TEXT)
    .addColumn('request_key', TEXT, (c) => c.notNull())
    .addColumn('original_url', TEXT, (c) => c.notNull())
    .addColumn('mdasc', TEXT)
    .addColumn('active', INT, (c) => c.notNull().defaultTo(1))
    .addColumn('click_count', bigint, (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', TEXT, (c) => c.notNull())
    .addColumn('updated_at', TEXT, (c) => c.notNull())
    .addUniqueConstraint('short_links_request_unique', ['channel_id', 'request_key'])
    .execute();
  await db.schema
    .createIndex('short_links_listing_idx')
    .on('short_links')
    .columns(['affiliate_id', 'link_type', 'organization_id', 'created_at', 'id'])
    .execute();
  await db.schema.createIndex('short_links_feature_idx').on('short_links').columns(['affiliate_id', 'feature_id']).execute();

  await db.schema
    .createTable('orders')
    .addColumn('id', TEXT, (c) => c.primaryKey())
    .addColumn('order_id', TEXT, (c) => c.notNull())
    .addColumn('organization_id', TEXT, (c) => c.notNull().references('brands.id'))
    .addColumn('affiliate_id', TEXT, (c) => c.notNull().references('affiliates.id'))
    .addColumn('link_id', TEXT)
    .addColumn('click_id', TEXT)
    .addColumn('channel_id', TEXT)
    .addColumn('mdasc', TEXT)
    .addColumn('status', TEXT, (c) => c.notNull())
    .addColumn('commission_status', TEXT, (c) => c.notNull())
    .addColumn('value', bigint, (c) => c.notNull())
    .addColumn('commission', bigint, (c) => c.notNull())
    .addColumn('items', TEXT, (c) => c.notNull())
    .addColumn('created_at', TEXT, (c) => c.notNull())
    .addColumn('updated_at', TEXT, (c) => c.notNull())
    .addUniqueConstraint('orders_brand_order_unique', ['organization_id', 'order_id'])
    .execute();
  await db.schema.createIndex('orders_affiliate_idx').on('orders').columns(['affiliate_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('orders_affiliate_org_idx').on('orders').columns(['affiliate_id', 'organization_id', 'created_at', 'id']).execute();
}
