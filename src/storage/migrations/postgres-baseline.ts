// Written by `npm run sql:sync` (scripts/postgres-baseline.ts); do not edit. The statements the migrations
// named here run on a new PostgreSQL database, given to a new database in one step (src/storage/postgres-baseline.ts).
import type { PostgresSnapshot } from '../postgres-baseline.js';

export const POSTGRES_SNAPSHOT: PostgresSnapshot = {
  "migrations": [
    {
      "name": "0001-initial",
      "statements": [
        "create table \"channel_kinds\" (\"id\" text collate \"C\" primary key, \"name\" text collate \"C\" not null)",
        "create table \"brands\" (\"id\" text collate \"C\" primary key, \"name\" text collate \"C\" not null, \"name_key\" text collate \"C\" not null, \"slug\" text collate \"C\" not null unique, \"logo\" text collate \"C\" not null, \"site\" text collate \"C\" not null, \"segment\" text collate \"C\" not null, \"active\" integer default 1 not null, \"is_public\" integer default 1 not null, \"is_exclusive\" integer default 0 not null, \"is_highlight\" integer default 0 not null, \"is_favorite\" integer default 0 not null, \"rating_approval\" double precision default 0 not null, \"rating_commission\" double precision default 0 not null, \"rating_conversion\" double precision default 0 not null, \"rating_popularity\" double precision default 0 not null, \"rating_validation\" double precision default 0 not null, \"commission_transfer\" text collate \"C\" default 'cps' not null, \"commission_value\" integer default 0 not null, \"allowed_channel_kinds\" text collate \"C\", \"click_id_param\" text collate \"C\" default 'clickId' not null, \"attribution_window_days\" integer default 30 not null, \"created_at\" text collate \"C\" not null, \"updated_at\" text collate \"C\" not null)",
        "create index \"brands_name_idx\" on \"brands\" (\"name_key\", \"id\")",
        "create index \"brands_created_at_idx\" on \"brands\" (\"created_at\")",
        "create table \"brand_categories\" (\"brand_id\" text collate \"C\" not null references \"brands\" (\"id\") on delete cascade, \"category\" text collate \"C\" not null, \"category_key\" text collate \"C\" not null, constraint \"brand_categories_pk\" primary key (\"brand_id\", \"category_key\"))",
        "create index \"brand_categories_key_idx\" on \"brand_categories\" (\"category_key\", \"brand_id\")",
        "create table \"affiliates\" (\"id\" text collate \"C\" primary key, \"name\" text collate \"C\" not null, \"created_at\" text collate \"C\" not null)",
        "create table \"affiliate_channels\" (\"id\" text collate \"C\" primary key, \"affiliate_id\" text collate \"C\" not null references \"affiliates\" (\"id\") on delete cascade, \"kind_id\" text collate \"C\" not null references \"channel_kinds\" (\"id\"), \"name\" text collate \"C\" not null, \"created_at\" text collate \"C\" not null)",
        "create index \"affiliate_channels_affiliate_idx\" on \"affiliate_channels\" (\"affiliate_id\", \"id\")",
        "create table \"brand_approvals\" (\"affiliate_id\" text collate \"C\" not null references \"affiliates\" (\"id\") on delete cascade, \"brand_id\" text collate \"C\" not null references \"brands\" (\"id\") on delete cascade, \"created_at\" text collate \"C\" not null, constraint \"brand_approvals_pk\" primary key (\"affiliate_id\", \"brand_id\"))",
        "create table \"api_keys\" (\"id\" text collate \"C\" primary key, \"key_hash\" text collate \"C\" not null unique, \"key_prefix\" text collate \"C\" not null, \"affiliate_id\" text collate \"C\" references \"affiliates\" (\"id\") on delete cascade, \"brand_id\" text collate \"C\" references \"brands\" (\"id\") on delete cascade, \"name\" text collate \"C\" not null, \"scopes\" text collate \"C\" not null, \"rate_limit\" integer default 60 not null, \"rate_window_seconds\" integer default 60 not null, \"created_at\" text collate \"C\" not null, \"revoked_at\" text collate \"C\")",
        "create index \"api_keys_affiliate_idx\" on \"api_keys\" (\"affiliate_id\")",
        "create table \"products\" (\"seq\" bigint generated always as identity primary key, \"id\" text collate \"C\" not null unique, \"organization_id\" text collate \"C\" not null references \"brands\" (\"id\") on delete cascade, \"integration\" text collate \"C\", \"available\" integer default 1 not null, \"name\" text collate \"C\" not null, \"description\" text collate \"C\" not null, \"url\" text collate \"C\" not null, \"images\" text collate \"C\" not null, \"options\" text collate \"C\" not null, \"metadata\" text collate \"C\" not null, \"price_cents\" bigint, \"search_text\" text collate \"C\" not null, \"created_at\" text collate \"C\" not null, \"updated_at\" text collate \"C\" not null)",
        "create index \"products_order_idx\" on \"products\" (\"created_at\", \"id\")",
        "create index \"products_org_idx\" on \"products\" (\"organization_id\", \"created_at\", \"id\")",
        "create index \"products_available_idx\" on \"products\" (\"available\", \"created_at\", \"id\")",
        "create index \"products_price_idx\" on \"products\" (\"price_cents\")",
        "alter table products add column search tsvector generated always as (to_tsvector('simple', search_text)) stored",
        "create index products_search_idx on products using gin (search)",
        "create table \"campaigns\" (\"id\" text collate \"C\" primary key, \"organization_id\" text collate \"C\" not null references \"brands\" (\"id\") on delete cascade, \"name\" text collate \"C\" not null, \"name_key\" text collate \"C\" not null, \"type\" text collate \"C\" not null, \"offer_type\" text collate \"C\", \"description\" text collate \"C\" not null, \"code\" text collate \"C\", \"url\" text collate \"C\" not null, \"is_highlight\" integer default 0 not null, \"start_at\" text collate \"C\" not null, \"end_at\" text collate \"C\" not null, \"banners\" text collate \"C\" not null, \"email_marketing\" text collate \"C\", \"created_at\" text collate \"C\" not null, \"updated_at\" text collate \"C\" not null)",
        "create index \"campaigns_order_idx\" on \"campaigns\" (\"created_at\", \"id\")",
        "create index \"campaigns_org_idx\" on \"campaigns\" (\"organization_id\", \"created_at\", \"id\")",
        "create index \"campaigns_period_idx\" on \"campaigns\" (\"end_at\", \"start_at\")",
        "create index \"campaigns_type_idx\" on \"campaigns\" (\"type\", \"offer_type\")",
        "create table \"campaign_categories\" (\"campaign_id\" text collate \"C\" not null references \"campaigns\" (\"id\") on delete cascade, \"category\" text collate \"C\" not null, \"category_key\" text collate \"C\" not null, constraint \"campaign_categories_pk\" primary key (\"campaign_id\", \"category_key\"))",
        "create index \"campaign_categories_key_idx\" on \"campaign_categories\" (\"category_key\", \"campaign_id\")",
        "create table \"short_links\" (\"id\" text collate \"C\" primary key, \"code\" text collate \"C\" not null unique, \"affiliate_id\" text collate \"C\" not null references \"affiliates\" (\"id\") on delete cascade, \"channel_id\" text collate \"C\" not null references \"affiliate_channels\" (\"id\") on delete cascade, \"organization_id\" text collate \"C\" not null references \"brands\" (\"id\") on delete cascade, \"link_type\" text collate \"C\" not null, \"feature_id\" text collate \"C\", \"request_key\" text collate \"C\" not null, \"original_url\" text collate \"C\" not null, \"mdasc\" text collate \"C\", \"active\" integer default 1 not null, \"click_count\" bigint default 0 not null, \"created_at\" text collate \"C\" not null, \"updated_at\" text collate \"C\" not null, constraint \"short_links_request_unique\" unique (\"channel_id\", \"request_key\"))",
        "create index \"short_links_listing_idx\" on \"short_links\" (\"affiliate_id\", \"link_type\", \"organization_id\", \"created_at\", \"id\")",
        "create index \"short_links_feature_idx\" on \"short_links\" (\"affiliate_id\", \"feature_id\")",
        "create table \"orders\" (\"id\" text collate \"C\" primary key, \"order_id\" text collate \"C\" not null, \"organization_id\" text collate \"C\" not null references \"brands\" (\"id\"), \"affiliate_id\" text collate \"C\" not null references \"affiliates\" (\"id\"), \"link_id\" text collate \"C\", \"click_id\" text collate \"C\", \"channel_id\" text collate \"C\", \"mdasc\" text collate \"C\", \"status\" text collate \"C\" not null, \"commission_status\" text collate \"C\" not null, \"value\" bigint not null, \"commission\" bigint not null, \"items\" text collate \"C\" not null, \"created_at\" text collate \"C\" not null, \"updated_at\" text collate \"C\" not null, constraint \"orders_brand_order_unique\" unique (\"organization_id\", \"order_id\"))",
        "create index \"orders_affiliate_idx\" on \"orders\" (\"affiliate_id\", \"created_at\", \"id\")",
        "create index \"orders_affiliate_org_idx\" on \"orders\" (\"affiliate_id\", \"organization_id\", \"created_at\", \"id\")"
      ]
    },
    {
      "name": "0002-tracking",
      "statements": [
        "create table \"clicks\" (\"id\" text collate \"C\" primary key, \"link_id\" text collate \"C\" not null, \"affiliate_id\" text collate \"C\" not null, \"channel_id\" text collate \"C\" not null, \"organization_id\" text collate \"C\" not null, \"mdasc\" text collate \"C\", \"created_at\" text collate \"C\" not null, \"is_bot\" integer not null, \"is_head\" integer not null, \"is_repeat\" integer not null, \"counted\" integer not null, \"visitor_hash\" text collate \"C\" not null, \"user_agent\" text collate \"C\")",
        "create index \"clicks_link_idx\" on \"clicks\" (\"link_id\", \"created_at\")",
        "create table \"order_events\" (\"id\" bigint generated always as identity primary key, \"order_id\" text collate \"C\" not null, \"field\" text collate \"C\" not null, \"from_value\" text collate \"C\", \"to_value\" text collate \"C\" not null, \"actor\" text collate \"C\" not null, \"created_at\" text collate \"C\" not null)",
        "create index \"order_events_order_idx\" on \"order_events\" (\"order_id\", \"id\")"
      ]
    },
    {
      "name": "0003-plain-links-index",
      "statements": [
        "create index \"short_links_plain_idx\" on \"short_links\" (\"affiliate_id\", \"organization_id\", \"link_type\", \"feature_id\") where \"mdasc\" is null"
      ]
    },
    {
      "name": "0004-products-in-added-order",
      "statements": [
        "drop index \"products_order_idx\"",
        "drop index \"products_org_idx\"",
        "drop index \"products_available_idx\"",
        "create index \"products_org_seq_idx\" on \"products\" (\"organization_id\", \"seq\")",
        "create index \"products_available_seq_idx\" on \"products\" (\"available\", \"seq\")"
      ]
    },
    {
      "name": "0005-clicks-append-only",
      "statements": [
        "drop index \"clicks_link_idx\""
      ]
    },
    {
      "name": "0006-products-brand-availability-index",
      "statements": [
        "create index \"products_org_available_seq_idx\" on \"products\" (\"organization_id\", \"available\", \"seq\")"
      ]
    },
    {
      "name": "0007-products-price-covering-index",
      "statements": [
        "drop index \"products_price_idx\"",
        "create index \"products_price_org_idx\" on \"products\" (\"price_cents\", \"organization_id\")"
      ]
    },
    {
      "name": "0008-click-count-progress",
      "statements": [
        "create table \"click_count_progress\" (\"id\" integer primary key, \"last_counted_rowid\" bigint not null)",
        "insert into click_count_progress (id, last_counted_rowid) values (1, 0)"
      ]
    },
    {
      "name": "0009-brands-visibility-index",
      "statements": [
        "create index \"brands_public_idx\" on \"brands\" (\"is_public\", \"id\")"
      ]
    },
    {
      "name": "0010-campaigns-type-order-index",
      "statements": [
        "drop index \"campaigns_type_idx\"",
        "create index \"campaigns_type_order_idx\" on \"campaigns\" (\"type\", \"created_at\", \"id\")"
      ]
    },
    {
      "name": "0011-changed-links-index",
      "statements": [
        "create index \"short_links_updated_idx\" on \"short_links\" (\"updated_at\")",
        "create index \"brands_updated_idx\" on \"brands\" (\"updated_at\")"
      ]
    },
    {
      "name": "0012-search-prefix-indexes",
      "statements": []
    },
    {
      "name": "0013-brand-key-limits",
      "statements": []
    },
    {
      "name": "0013-postback-tokens",
      "statements": [
        "create table \"postback_tokens\" (\"id\" text collate \"C\" primary key, \"brand_id\" text collate \"C\" not null references \"brands\" (\"id\") on delete cascade, \"token_hash\" text collate \"C\" not null unique, \"token_prefix\" text collate \"C\" not null, \"created_at\" text collate \"C\" not null, \"revoked_at\" text collate \"C\", \"replaced_by\" text collate \"C\")",
        "create unique index \"postback_tokens_active_brand_idx\" on \"postback_tokens\" (\"brand_id\") where \"revoked_at\" is null"
      ]
    },
    {
      "name": "0014-click-velocity-and-commission-reason",
      "statements": [
        "alter table \"clicks\" add column \"is_suspicious\" integer default 0 not null",
        "alter table \"orders\" add column \"commission_reason\" text collate \"C\""
      ]
    },
    {
      "name": "0015-currencies-payouts-order-facts",
      "statements": [
        "alter table \"brands\" add column \"currency\" text collate \"C\" default 'BRL' not null",
        "alter table \"orders\" add column \"currency\" text collate \"C\" default 'BRL' not null",
        "alter table \"orders\" add column \"click_created_at\" text collate \"C\"",
        "alter table \"orders\" add column \"paid_at\" text collate \"C\"",
        "alter table \"orders\" add column \"payout_id\" text collate \"C\"",
        "create table \"payouts\" (\"id\" text collate \"C\" primary key, \"affiliate_id\" text collate \"C\" not null references \"affiliates\" (\"id\"), \"currency\" text collate \"C\" not null, \"period_start\" text collate \"C\" not null, \"period_end\" text collate \"C\" not null, \"total\" bigint not null, \"order_count\" integer not null, \"created_at\" text collate \"C\" not null)",
        "create index \"payouts_affiliate_idx\" on \"payouts\" (\"affiliate_id\", \"created_at\", \"id\")",
        "create index \"orders_payout_idx\" on \"orders\" (\"payout_id\", \"created_at\", \"id\")",
        "create index \"orders_affiliate_commission_idx\" on \"orders\" (\"affiliate_id\", \"commission_status\", \"currency\", \"created_at\")"
      ]
    },
    {
      "name": "0016-order-link-code",
      "statements": [
        "alter table \"orders\" add column \"link_code\" text collate \"C\""
      ]
    },
    {
      "name": "0017-channels-read-scope",
      "statements": []
    },
    {
      "name": "0018-order-commission-rule",
      "statements": [
        "alter table \"orders\" add column \"commission_transfer\" text collate \"C\" default 'cps' not null",
        "alter table \"orders\" add column \"commission_value\" bigint default 0 not null",
        "create index \"orders_brand_created_idx\" on \"orders\" (\"organization_id\", \"created_at\", \"id\")",
        "alter table \"order_events\" add column \"actor_key_id\" text collate \"C\""
      ]
    },
    {
      "name": "0019-webhooks",
      "statements": [
        "create table \"webhook_endpoints\" (\"id\" text collate \"C\" primary key, \"owner_kind\" text collate \"C\" not null, \"owner_id\" text collate \"C\" not null, \"url\" text collate \"C\" not null, \"description\" text collate \"C\" not null, \"events\" text collate \"C\" not null, \"enabled\" integer not null, \"disabled_reason\" text collate \"C\", \"secret\" text collate \"C\" not null, \"previous_secret\" text collate \"C\", \"previous_secret_expires_at\" text collate \"C\", \"failing_since\" text collate \"C\", \"created_at\" text collate \"C\" not null, \"updated_at\" text collate \"C\" not null)",
        "create index \"webhook_endpoints_owner_idx\" on \"webhook_endpoints\" (\"owner_kind\", \"owner_id\", \"created_at\", \"id\")",
        "create table \"webhook_events\" (\"id\" text collate \"C\" primary key, \"owner_kind\" text collate \"C\" not null, \"owner_id\" text collate \"C\" not null, \"type\" text collate \"C\" not null, \"payload\" text collate \"C\" not null, \"created_at\" text collate \"C\" not null)",
        "create table \"webhook_deliveries\" (\"id\" text collate \"C\" primary key, \"event_id\" text collate \"C\" not null references \"webhook_events\" (\"id\") on delete cascade, \"endpoint_id\" text collate \"C\" not null references \"webhook_endpoints\" (\"id\") on delete cascade, \"status\" text collate \"C\" not null, \"attempts\" integer not null, \"next_attempt_at\" text collate \"C\" not null, \"lease_owner\" text collate \"C\", \"lease_until\" text collate \"C\", \"created_at\" text collate \"C\" not null, \"updated_at\" text collate \"C\" not null)",
        "create index \"webhook_deliveries_due_idx\" on \"webhook_deliveries\" (\"status\", \"next_attempt_at\")",
        "create index \"webhook_deliveries_endpoint_idx\" on \"webhook_deliveries\" (\"endpoint_id\", \"created_at\")",
        "create table \"webhook_attempts\" (\"id\" bigserial primary key, \"delivery_id\" text collate \"C\" not null, \"endpoint_id\" text collate \"C\" not null references \"webhook_endpoints\" (\"id\") on delete cascade, \"event_id\" text collate \"C\" not null, \"event_type\" text collate \"C\" not null, \"attempt\" integer not null, \"outcome\" text collate \"C\" not null, \"response_status\" integer, \"error\" text collate \"C\", \"duration_ms\" bigint not null, \"created_at\" text collate \"C\" not null)",
        "create index \"webhook_attempts_endpoint_idx\" on \"webhook_attempts\" (\"endpoint_id\", \"created_at\", \"id\")"
      ]
    },
    {
      "name": "0020-approval-requests",
      "statements": [
        "create table \"approval_requests\" (\"affiliate_id\" text collate \"C\" not null references \"affiliates\" (\"id\") on delete cascade, \"brand_id\" text collate \"C\" not null references \"brands\" (\"id\") on delete cascade, \"status\" text collate \"C\" not null, \"message\" text collate \"C\" not null, \"created_at\" text collate \"C\" not null, \"updated_at\" text collate \"C\" not null, constraint \"approval_requests_pk\" primary key (\"affiliate_id\", \"brand_id\"))",
        "create index \"approval_requests_brand_idx\" on \"approval_requests\" (\"brand_id\", \"status\", \"created_at\")",
        "create index \"brand_approvals_brand_idx\" on \"brand_approvals\" (\"brand_id\", \"affiliate_id\")"
      ]
    },
    {
      "name": "0021-catalogue-per-brand",
      "statements": [
        "alter table products drop constraint if exists products_id_key",
        "create unique index products_brand_id_unique on products (organization_id, id)"
      ]
    },
    {
      "name": "0022-campaigns-per-brand",
      "statements": [
        "alter table campaign_categories add column organization_id text collate \"C\"",
        "alter table campaign_categories alter column organization_id set not null",
        "alter table campaign_categories drop constraint campaign_categories_campaign_id_fkey",
        "alter table campaign_categories drop constraint campaign_categories_pk",
        "alter table campaigns drop constraint campaigns_pkey",
        "alter table campaigns add primary key (organization_id, id)",
        "alter table campaign_categories add primary key (organization_id, campaign_id, category_key)",
        "alter table campaign_categories add foreign key (organization_id, campaign_id) references campaigns (organization_id, id) on delete cascade",
        "drop index if exists campaign_categories_key_idx",
        "create index campaign_categories_key_idx on campaign_categories (category_key, organization_id, campaign_id)"
      ]
    },
    {
      "name": "0023-brand-profile",
      "statements": [
        "alter table \"brands\" add column \"home_url\" text collate \"C\"",
        "alter table \"brands\" add column \"domains\" text collate \"C\" default '[]' not null"
      ]
    },
    {
      "name": "0024-analytics",
      "statements": [
        "alter table \"clicks\" add column \"country\" text collate \"C\"",
        "alter table \"clicks\" add column \"device\" text collate \"C\"",
        "alter table \"clicks\" add column \"browser\" text collate \"C\"",
        "alter table \"clicks\" add column \"os\" text collate \"C\"",
        "alter table \"clicks\" add column \"referer_host\" text collate \"C\"",
        "alter table \"orders\" add column \"click_country\" text collate \"C\"",
        "create table \"click_rollups\" (\"affiliate_id\" text collate \"C\" not null, \"organization_id\" text collate \"C\" not null, \"link_id\" text collate \"C\" not null, \"dimension\" text collate \"C\" not null, \"hour\" text collate \"C\" not null, \"value\" text collate \"C\" not null, \"counted\" bigint not null, \"bots\" bigint not null, \"heads\" bigint not null, \"repeats\" bigint not null, \"suspicious\" bigint not null, constraint \"click_rollups_pk\" primary key (\"affiliate_id\", \"organization_id\", \"link_id\", \"dimension\", \"hour\", \"value\"))",
        "create table \"order_rollups\" (\"affiliate_id\" text collate \"C\" not null, \"organization_id\" text collate \"C\" not null, \"link_id\" text collate \"C\" not null, \"dimension\" text collate \"C\" not null, \"hour\" text collate \"C\" not null, \"value\" text collate \"C\" not null, \"currency\" text collate \"C\" not null, \"orders\" bigint not null, \"sales\" bigint not null, \"commission\" bigint not null, constraint \"order_rollups_pk\" primary key (\"affiliate_id\", \"organization_id\", \"link_id\", \"dimension\", \"hour\", \"value\", \"currency\"))",
        "create table \"rollup_progress\" (\"id\" integer primary key, \"last_rolled_rowid\" bigint not null)",
        "insert into rollup_progress (id, last_rolled_rowid) values (1, 0)"
      ]
    },
    {
      "name": "0025-installation-settings",
      "statements": [
        "create table \"settings\" (\"name\" text collate \"C\" primary key, \"value\" text collate \"C\" not null, \"updated_at\" text collate \"C\" not null)"
      ]
    },
    {
      "name": "0026-partitioned-clicks",
      "statements": [
        "alter table clicks rename to clicks_unpartitioned",
        "alter table clicks_unpartitioned rename constraint clicks_pkey to clicks_unpartitioned_pkey",
        "create table clicks (like clicks_unpartitioned including defaults) partition by range (id)",
        "alter table clicks add constraint clicks_pkey primary key (id)",
        "create table clicks_default partition of clicks default",
        "drop table clicks_unpartitioned"
      ]
    },
    {
      "name": "0027-users-and-sessions",
      "statements": [
        "create table \"users\" (\"id\" text collate \"C\" primary key, \"email\" text collate \"C\" not null unique, \"affiliate_id\" text collate \"C\", \"brand_id\" text collate \"C\", \"role\" text collate \"C\" not null, \"password_hash\" text collate \"C\", \"created_at\" text collate \"C\" not null, \"updated_at\" text collate \"C\" not null)",
        "create index \"users_affiliate_idx\" on \"users\" (\"affiliate_id\", \"email\")",
        "create index \"users_brand_idx\" on \"users\" (\"brand_id\", \"email\")",
        "create table \"user_links\" (\"token_hash\" text collate \"C\" primary key, \"user_id\" text collate \"C\" not null references \"users\" (\"id\") on delete cascade, \"purpose\" text collate \"C\" not null, \"expires_at\" text collate \"C\" not null, \"used_at\" text collate \"C\", \"created_at\" text collate \"C\" not null)",
        "create index \"user_links_user_idx\" on \"user_links\" (\"user_id\")",
        "create table \"sessions\" (\"token_hash\" text collate \"C\" primary key, \"user_id\" text collate \"C\" not null references \"users\" (\"id\") on delete cascade, \"csrf_token\" text collate \"C\" not null, \"created_at\" text collate \"C\" not null, \"last_seen_at\" text collate \"C\" not null, \"revoked_at\" text collate \"C\")",
        "create index \"sessions_user_idx\" on \"sessions\" (\"user_id\")"
      ]
    },
    {
      "name": "0028-partitioned-webhook-outbox",
      "statements": [
        "alter table webhook_deliveries drop constraint if exists webhook_deliveries_event_id_fkey",
        "alter table \"webhook_attempts\" rename to \"webhook_attempts_unpartitioned\"",
        "alter table \"webhook_attempts_unpartitioned\" rename constraint \"webhook_attempts_pkey\" to \"webhook_attempts_unpartitioned_pkey\"",
        "create table \"webhook_attempts\" (like \"webhook_attempts_unpartitioned\" including defaults) partition by range (\"created_at\")",
        "alter table \"webhook_attempts\" add constraint \"webhook_attempts_pkey\" primary key (id, \"created_at\")",
        "create table \"webhook_attempts_default\" partition of \"webhook_attempts\" default",
        "alter sequence public.webhook_attempts_id_seq owned by none",
        "drop table \"webhook_attempts_unpartitioned\"",
        "alter table \"webhook_deliveries\" rename to \"webhook_deliveries_unpartitioned\"",
        "alter table \"webhook_deliveries_unpartitioned\" rename constraint \"webhook_deliveries_pkey\" to \"webhook_deliveries_unpartitioned_pkey\"",
        "create table \"webhook_deliveries\" (like \"webhook_deliveries_unpartitioned\" including defaults) partition by range (\"created_at\")",
        "alter table \"webhook_deliveries\" add constraint \"webhook_deliveries_pkey\" primary key (id, \"created_at\")",
        "create table \"webhook_deliveries_default\" partition of \"webhook_deliveries\" default",
        "drop table \"webhook_deliveries_unpartitioned\"",
        "alter table \"webhook_events\" rename to \"webhook_events_unpartitioned\"",
        "alter table \"webhook_events_unpartitioned\" rename constraint \"webhook_events_pkey\" to \"webhook_events_unpartitioned_pkey\"",
        "create table \"webhook_events\" (like \"webhook_events_unpartitioned\" including defaults) partition by range (\"created_at\")",
        "alter table \"webhook_events\" add constraint \"webhook_events_pkey\" primary key (id, \"created_at\")",
        "create table \"webhook_events_default\" partition of \"webhook_events\" default",
        "drop table \"webhook_events_unpartitioned\"",
        "alter table webhook_deliveries add foreign key (endpoint_id) references webhook_endpoints (id) on delete cascade",
        "alter table webhook_attempts add foreign key (endpoint_id) references webhook_endpoints (id) on delete cascade",
        "create index \"webhook_deliveries_due_idx\" on \"webhook_deliveries\" (\"status\", \"next_attempt_at\")",
        "create index \"webhook_deliveries_endpoint_idx\" on \"webhook_deliveries\" (\"endpoint_id\", \"created_at\")",
        "create index \"webhook_attempts_endpoint_idx\" on \"webhook_attempts\" (\"endpoint_id\", \"created_at\", \"id\")"
      ]
    },
    {
      "name": "0029-channel-management",
      "statements": [
        "alter table \"affiliate_channels\" add column \"removed_at\" text"
      ]
    },
    {
      "name": "0030-channel-name-unique",
      "statements": [
        "create unique index affiliate_channels_live_name_idx on affiliate_channels (affiliate_id, lower(name)) where removed_at is null"
      ]
    },
    {
      "name": "0031-daily-rollups",
      "statements": [
        "create table \"click_rollups_daily\" (\"affiliate_id\" text collate \"C\" not null, \"organization_id\" text collate \"C\" not null, \"link_id\" text collate \"C\" not null, \"dimension\" text collate \"C\" not null, \"hour\" text collate \"C\" not null, \"value\" text collate \"C\" not null, \"counted\" bigint not null, \"bots\" bigint not null, \"heads\" bigint not null, \"repeats\" bigint not null, \"suspicious\" bigint not null, constraint \"click_rollups_daily_pk\" primary key (\"affiliate_id\", \"organization_id\", \"link_id\", \"dimension\", \"hour\", \"value\"))",
        "create table \"order_rollups_daily\" (\"affiliate_id\" text collate \"C\" not null, \"organization_id\" text collate \"C\" not null, \"link_id\" text collate \"C\" not null, \"dimension\" text collate \"C\" not null, \"hour\" text collate \"C\" not null, \"value\" text collate \"C\" not null, \"currency\" text collate \"C\" not null, \"orders\" bigint not null, \"sales\" bigint not null, \"commission\" bigint not null, constraint \"order_rollups_daily_pk\" primary key (\"affiliate_id\", \"organization_id\", \"link_id\", \"dimension\", \"hour\", \"value\", \"currency\"))",
        "create index \"click_rollups_top_link\" on \"click_rollups\" (affiliate_id, organization_id, link_id, hour, counted desc, value, bots, heads, repeats, suspicious) where dimension = 'link'",
        "create index \"click_rollups_top_brand\" on \"click_rollups\" (affiliate_id, organization_id, link_id, hour, counted desc, value, bots, heads, repeats, suspicious) where dimension = 'brand'",
        "create index \"click_rollups_top_affiliate\" on \"click_rollups\" (affiliate_id, organization_id, link_id, hour, counted desc, value, bots, heads, repeats, suspicious) where dimension = 'affiliate'",
        "create index \"click_rollups_top_referer\" on \"click_rollups\" (affiliate_id, organization_id, link_id, hour, counted desc, value, bots, heads, repeats, suspicious) where dimension = 'referer'",
        "create index \"click_rollups_daily_top_link\" on \"click_rollups_daily\" (affiliate_id, organization_id, link_id, hour, counted desc, value, bots, heads, repeats, suspicious) where dimension = 'link'",
        "create index \"click_rollups_daily_top_brand\" on \"click_rollups_daily\" (affiliate_id, organization_id, link_id, hour, counted desc, value, bots, heads, repeats, suspicious) where dimension = 'brand'",
        "create index \"click_rollups_daily_top_affiliate\" on \"click_rollups_daily\" (affiliate_id, organization_id, link_id, hour, counted desc, value, bots, heads, repeats, suspicious) where dimension = 'affiliate'",
        "create index \"click_rollups_daily_top_referer\" on \"click_rollups_daily\" (affiliate_id, organization_id, link_id, hour, counted desc, value, bots, heads, repeats, suspicious) where dimension = 'referer'"
      ]
    },
    {
      "name": "0032-click-facts-rollups",
      "statements": []
    },
    {
      "name": "0033-unrolled-clicks",
      "statements": [
        "create table \"unrolled_clicks\" (\"id\" text primary key)"
      ]
    },
    {
      "name": "0034-campaigns-list-covering-index",
      "statements": [
        "drop index \"campaigns_order_idx\"",
        "create index \"campaigns_list_idx\" on \"campaigns\" (\"created_at\", \"id\", \"type\", \"organization_id\", \"start_at\", \"end_at\")"
      ]
    },
    {
      "name": "0035-campaigns-type-covering-index",
      "statements": [
        "drop index \"campaigns_type_order_idx\"",
        "create index \"campaigns_type_list_idx\" on \"campaigns\" (\"type\", \"created_at\", \"id\", \"organization_id\", \"start_at\", \"end_at\")"
      ]
    },
    {
      "name": "0036-scheduled-tasks",
      "statements": [
        "create table \"scheduled_tasks\" (\"name\" text collate \"C\" primary key, \"next_run_at\" text collate \"C\" not null, \"failures\" integer default 0 not null, \"lease_owner\" text collate \"C\", \"lease_until\" text collate \"C\", \"last_run_at\" text collate \"C\", \"last_error\" text collate \"C\", \"updated_at\" text collate \"C\" not null)"
      ]
    },
    {
      "name": "0037-mail-messages",
      "statements": [
        "create table \"mail_messages\" (\"id\" text collate \"C\" primary key, \"to_address\" text collate \"C\" not null, \"template\" text collate \"C\" not null, \"locale\" text collate \"C\" not null, \"params\" text collate \"C\", \"link_user_id\" text collate \"C\", \"with_link\" integer default 0 not null, \"status\" text collate \"C\" not null, \"attempts\" integer default 0 not null, \"next_attempt_at\" text collate \"C\" not null, \"lease_owner\" text collate \"C\", \"lease_until\" text collate \"C\", \"last_error\" text collate \"C\", \"created_at\" text collate \"C\" not null, \"sent_at\" text collate \"C\", \"updated_at\" text collate \"C\" not null)",
        "create index \"mail_messages_due\" on \"mail_messages\" (\"status\", \"next_attempt_at\")"
      ]
    },
    {
      "name": "0038-user-language",
      "statements": [
        "alter table \"users\" add column \"language\" text collate \"C\""
      ]
    },
    {
      "name": "0039-applications",
      "statements": [
        "create table \"applications\" (\"id\" text collate \"C\" primary key, \"kind\" text collate \"C\" not null, \"status\" text collate \"C\" not null, \"email\" text collate \"C\" not null, \"name\" text collate \"C\" not null, \"language\" text collate \"C\" not null, \"country\" text collate \"C\", \"website\" text collate \"C\" not null, \"company\" text collate \"C\", \"tax_id\" text collate \"C\", \"currency\" text collate \"C\", \"expected_monthly_orders\" integer, \"password_hash\" text collate \"C\", \"terms_version\" text collate \"C\" not null, \"terms_accepted_at\" text collate \"C\" not null, \"terms_address\" text collate \"C\" not null, \"verify_token_hash\" text collate \"C\", \"verify_expires_at\" text collate \"C\", \"verified_at\" text collate \"C\", \"decided_at\" text collate \"C\", \"decided_by\" text collate \"C\", \"decline_reason\" text collate \"C\", \"affiliate_id\" text collate \"C\", \"brand_id\" text collate \"C\", \"created_at\" text collate \"C\" not null, \"updated_at\" text collate \"C\" not null)",
        "create index \"applications_status_idx\" on \"applications\" (\"status\", \"created_at\")",
        "create index \"applications_email_idx\" on \"applications\" (\"email\", \"kind\")",
        "create index \"applications_verify_idx\" on \"applications\" (\"verify_token_hash\")",
        "alter table \"mail_messages\" add column \"link_application_id\" text collate \"C\"",
        "alter table \"brands\" add column \"setup_pending\" integer default 0 not null"
      ]
    },
    {
      "name": "0040-session-devices",
      "statements": [
        "alter table \"sessions\" add column \"id\" text collate \"C\"",
        "alter table \"sessions\" add column \"device\" text collate \"C\"",
        "alter table \"sessions\" add column \"country\" text collate \"C\"",
        "alter table \"sessions\" add column \"address\" text collate \"C\"",
        "alter table \"sessions\" add column \"device_hash\" text collate \"C\"",
        "create unique index \"sessions_id_idx\" on \"sessions\" (\"id\")",
        "create index \"sessions_address_idx\" on \"sessions\" (\"created_at\") where \"address\" is not null"
      ]
    },
    {
      "name": "0041-second-factors",
      "statements": [
        "create table \"user_totp\" (\"user_id\" text collate \"C\" primary key references \"users\" (\"id\") on delete cascade, \"secret\" text collate \"C\" not null, \"confirmed_at\" text collate \"C\", \"last_step\" integer, \"created_at\" text collate \"C\" not null)",
        "create table \"user_recovery_codes\" (\"user_id\" text collate \"C\" not null references \"users\" (\"id\") on delete cascade, \"code_hash\" text collate \"C\" not null, \"used_at\" text collate \"C\", \"created_at\" text collate \"C\" not null, constraint \"user_recovery_codes_pk\" primary key (\"user_id\", \"code_hash\"))",
        "create table \"user_passkeys\" (\"id\" text collate \"C\" primary key, \"user_id\" text collate \"C\" not null references \"users\" (\"id\") on delete cascade, \"name\" text collate \"C\" not null, \"public_key\" text collate \"C\" not null, \"counter\" bigint default 0 not null, \"transports\" text collate \"C\" not null, \"created_at\" text collate \"C\" not null, \"last_used_at\" text collate \"C\")",
        "create index \"user_passkeys_user_idx\" on \"user_passkeys\" (\"user_id\")",
        "create table \"second_factor_tickets\" (\"token_hash\" text collate \"C\" primary key, \"user_id\" text collate \"C\" not null references \"users\" (\"id\") on delete cascade, \"failures\" integer default 0 not null, \"expires_at\" text collate \"C\" not null, \"used_at\" text collate \"C\", \"created_at\" text collate \"C\" not null)",
        "create index \"second_factor_tickets_user_idx\" on \"second_factor_tickets\" (\"user_id\")",
        "create table \"webauthn_challenges\" (\"challenge\" text collate \"C\" primary key, \"purpose\" text collate \"C\" not null, \"user_id\" text collate \"C\" references \"users\" (\"id\") on delete cascade, \"ticket_hash\" text collate \"C\", \"expires_at\" text collate \"C\" not null, \"created_at\" text collate \"C\" not null)",
        "create index \"webauthn_challenges_expiry_idx\" on \"webauthn_challenges\" (\"expires_at\")",
        "create table \"session_second_factors\" (\"token_hash\" text collate \"C\" primary key references \"sessions\" (\"token_hash\") on delete cascade, \"verified_at\" text collate \"C\" not null)",
        "create table \"second_factor_requirements\" (\"account\" text collate \"C\" primary key, \"required_by\" text collate \"C\" not null, \"created_at\" text collate \"C\" not null)"
      ]
    },
    {
      "name": "0042-lock-dates",
      "statements": [
        "alter table \"brands\" add column \"validation_days\" integer default 30 not null",
        "alter table \"orders\" add column \"lock_at\" text collate \"C\"",
        "alter table \"orders\" add column \"auto_approved\" integer default 0 not null",
        "create index \"orders_lock_idx\" on \"orders\" (\"status\", \"lock_at\")"
      ]
    },
    {
      "name": "0043-claims",
      "statements": [
        "alter table \"orders\" add column \"source\" text collate \"C\" default 'api' not null",
        "alter table \"orders\" add column \"attribution\" text collate \"C\" default 'click' not null",
        "alter table \"brands\" add column \"claim_auto_accept_days\" integer default 60 not null",
        "create table \"claims\" (\"id\" text collate \"C\" primary key, \"affiliate_id\" text collate \"C\" not null, \"organization_id\" text collate \"C\" not null, \"order_id\" text collate \"C\" not null, \"ordered_at\" text collate \"C\" not null, \"value\" bigint not null, \"currency\" text collate \"C\" not null, \"link_code\" text collate \"C\", \"click_id\" text collate \"C\", \"note\" text collate \"C\" not null, \"status\" text collate \"C\" not null, \"accepted_value\" bigint, \"reason\" text collate \"C\", \"resolved_by\" text collate \"C\", \"resolved_at\" text collate \"C\", \"network_order_id\" text collate \"C\", \"auto_accept_at\" text collate \"C\" not null, \"created_at\" text collate \"C\" not null, \"updated_at\" text collate \"C\" not null)",
        "create unique index claims_one_open_idx on claims (organization_id, order_id) where status = 'open'",
        "create index \"claims_affiliate_idx\" on \"claims\" (\"affiliate_id\", \"created_at\")",
        "create index \"claims_brand_idx\" on \"claims\" (\"organization_id\", \"created_at\")",
        "create index \"claims_due_idx\" on \"claims\" (\"status\", \"auto_accept_at\")"
      ]
    },
    {
      "name": "0044-payee-details",
      "statements": [
        "create table \"payee_details\" (\"affiliate_id\" text collate \"C\" primary key references \"affiliates\" (\"id\") on delete cascade, \"details\" text collate \"C\" not null, \"key_id\" text collate \"C\" not null, \"updated_by\" text collate \"C\", \"updated_at\" text collate \"C\" not null, \"held_until\" text collate \"C\" not null, \"created_at\" text collate \"C\" not null)",
        "create index \"payee_details_key_idx\" on \"payee_details\" (\"key_id\")"
      ]
    },
    {
      "name": "0045-money",
      "statements": [
        "alter table \"brands\" add column \"fee_basis_points\" integer default 3000 not null",
        "alter table \"brands\" add column \"statement_due_days\" integer default 15 not null",
        "create table \"statements\" (\"id\" text collate \"C\" primary key, \"brand_id\" text collate \"C\" not null, \"currency\" text collate \"C\" not null, \"month\" text collate \"C\" not null, \"line_count\" integer not null, \"commission\" bigint not null, \"fee\" bigint not null, \"total\" bigint not null, \"paid_amount\" bigint default 0 not null, \"fee_basis_points\" integer not null, \"issued_at\" text collate \"C\" not null, \"due_at\" text collate \"C\" not null, \"paid_at\" text collate \"C\", \"overdue_notified_at\" text collate \"C\", constraint \"statements_brand_month_uq\" unique (\"brand_id\", \"currency\", \"month\"))",
        "create table \"statement_lines\" (\"statement_id\" text collate \"C\" not null, \"order_id\" text collate \"C\" primary key, \"commission\" bigint not null, \"fee\" bigint not null)",
        "create index \"statement_lines_statement_idx\" on \"statement_lines\" (\"statement_id\", \"order_id\")",
        "create table \"statement_payments\" (\"id\" text collate \"C\" primary key, \"statement_id\" text collate \"C\" not null, \"amount\" bigint not null, \"reference\" text collate \"C\" not null, \"recorded_by\" text collate \"C\" not null, \"created_at\" text collate \"C\" not null)",
        "create index \"statement_payments_statement_idx\" on \"statement_payments\" (\"statement_id\")",
        "alter table \"orders\" add column \"statement_id\" text collate \"C\"",
        "alter table \"orders\" add column \"payable_at\" text collate \"C\"",
        "create index \"orders_statement_idx\" on \"orders\" (\"statement_id\")",
        "create index \"orders_commission_lock_idx\" on \"orders\" (\"commission_status\", \"lock_at\")",
        "create table \"payout_batches\" (\"id\" text collate \"C\" primary key, \"payout_count\" integer not null, \"created_by\" text collate \"C\" not null, \"created_at\" text collate \"C\" not null)",
        "alter table \"payouts\" add column \"batch_id\" text collate \"C\"",
        "alter table \"payouts\" add column \"status\" text collate \"C\" default 'settled' not null",
        "alter table \"payouts\" add column \"method\" text collate \"C\"",
        "alter table \"payouts\" add column \"adjustment_total\" bigint default 0 not null",
        "alter table \"payouts\" add column \"sent_at\" text collate \"C\"",
        "alter table \"payouts\" add column \"settled_at\" text collate \"C\"",
        "alter table \"payouts\" add column \"failed_at\" text collate \"C\"",
        "alter table \"payouts\" add column \"failure_reason\" text collate \"C\"",
        "create index \"payouts_batch_idx\" on \"payouts\" (\"batch_id\")",
        "create table \"adjustments\" (\"id\" text collate \"C\" primary key, \"affiliate_id\" text collate \"C\" not null, \"currency\" text collate \"C\" not null, \"amount\" bigint not null, \"reason\" text collate \"C\" not null, \"created_by\" text collate \"C\" not null, \"created_at\" text collate \"C\" not null, \"payout_id\" text collate \"C\")",
        "create index \"adjustments_affiliate_idx\" on \"adjustments\" (\"affiliate_id\", \"payout_id\")",
        "create function adjustments_append_only() returns trigger language plpgsql as $$\n      begin\n        if tg_op = 'DELETE' or new.amount <> old.amount or new.reason <> old.reason or new.affiliate_id <> old.affiliate_id or new.currency <> old.currency then\n          raise exception 'adjustments are append-only';\n        end if;\n        return new;\n      end $$",
        "create trigger adjustments_append_only before update or delete on adjustments for each row execute function adjustments_append_only()",
        "create table \"ledger_lines\" (\"id\" bigserial primary key, \"entry_id\" text collate \"C\" not null, \"kind\" text collate \"C\" not null, \"currency\" text collate \"C\" not null, \"account\" text collate \"C\" not null, \"amount\" bigint not null, \"order_id\" text collate \"C\", \"statement_id\" text collate \"C\", \"payout_id\" text collate \"C\", \"adjustment_id\" text collate \"C\", \"created_at\" text collate \"C\" not null)",
        "create index \"ledger_lines_account_idx\" on \"ledger_lines\" (\"currency\", \"account\")",
        "create index \"ledger_lines_created_idx\" on \"ledger_lines\" (\"created_at\")"
      ]
    },
    {
      "name": "0046-operators-and-audit",
      "statements": [
        "alter table users add constraint users_one_owner check (\n      (role = 'operator' and affiliate_id is null and brand_id is null)\n      or (role in ('owner', 'member') and (affiliate_id is null) <> (brand_id is null)))",
        "create table \"audit_entries\" (\"id\" bigserial primary key, \"created_at\" text collate \"C\" not null, \"actor_kind\" text collate \"C\" not null, \"actor_id\" text collate \"C\", \"acting_as\" text collate \"C\", \"address\" text collate \"C\", \"action\" text collate \"C\" not null, \"subject_kind\" text collate \"C\" not null, \"subject_id\" text collate \"C\" not null, \"affiliate_id\" text collate \"C\", \"brand_id\" text collate \"C\", \"before\" text collate \"C\", \"after\" text collate \"C\", \"reason\" text collate \"C\")",
        "create index \"audit_entries_time_idx\" on \"audit_entries\" (\"created_at\", \"id\")",
        "create index \"audit_entries_affiliate_idx\" on \"audit_entries\" (\"affiliate_id\", \"id\")",
        "create index \"audit_entries_brand_idx\" on \"audit_entries\" (\"brand_id\", \"id\")",
        "create index \"audit_entries_actor_idx\" on \"audit_entries\" (\"actor_id\", \"id\")",
        "create function audit_entries_append_only() returns trigger language plpgsql as $$\n      begin\n        if tg_op = 'DELETE' or new.address is not null\n          or (to_jsonb(new) - 'address') <> (to_jsonb(old) - 'address') then\n          raise exception 'audit entries are append-only';\n        end if;\n        return new;\n      end $$",
        "create trigger audit_entries_append_only before update or delete on audit_entries for each row execute function audit_entries_append_only()"
      ]
    },
    {
      "name": "0047-fraud-holds",
      "statements": [
        "alter table \"orders\" add column \"hold_reasons\" text collate \"C\"",
        "alter table \"orders\" add column \"hold_facts\" text collate \"C\"",
        "alter table \"orders\" add column \"customer_hash\" text collate \"C\"",
        "alter table \"orders\" add column \"customer_is_new\" integer",
        "create index \"orders_click_idx\" on \"orders\" (\"click_id\")",
        "alter table \"clicks\" add column \"asn\" integer"
      ]
    },
    {
      "name": "0048-suspensions",
      "statements": [
        "alter table \"affiliates\" add column \"suspended_at\" text collate \"C\"",
        "alter table \"affiliates\" add column \"suspension_reason\" text collate \"C\"",
        "alter table \"brands\" add column \"suspended_at\" text collate \"C\"",
        "alter table \"brands\" add column \"suspension_reason\" text collate \"C\"",
        "alter table \"affiliates\" add column \"updated_at\" text collate \"C\"",
        "create index \"affiliates_updated_idx\" on \"affiliates\" (\"updated_at\")",
        "create index \"affiliates_suspended_idx\" on \"affiliates\" (\"id\") where \"suspended_at\" is not null",
        "create index \"brands_suspended_idx\" on \"brands\" (\"id\") where \"suspended_at\" is not null",
        "alter table \"clicks\" add column \"is_suspended\" integer default 0 not null",
        "alter table \"click_rollups\" add column \"suspended\" bigint default 0 not null",
        "drop index \"click_rollups_top_link\"",
        "create index \"click_rollups_top_link\" on \"click_rollups\" (affiliate_id, organization_id, link_id, hour, counted desc, value, bots, heads, repeats, suspicious, suspended) where dimension = 'link'",
        "drop index \"click_rollups_top_brand\"",
        "create index \"click_rollups_top_brand\" on \"click_rollups\" (affiliate_id, organization_id, link_id, hour, counted desc, value, bots, heads, repeats, suspicious, suspended) where dimension = 'brand'",
        "drop index \"click_rollups_top_affiliate\"",
        "create index \"click_rollups_top_affiliate\" on \"click_rollups\" (affiliate_id, organization_id, link_id, hour, counted desc, value, bots, heads, repeats, suspicious, suspended) where dimension = 'affiliate'",
        "drop index \"click_rollups_top_referer\"",
        "create index \"click_rollups_top_referer\" on \"click_rollups\" (affiliate_id, organization_id, link_id, hour, counted desc, value, bots, heads, repeats, suspicious, suspended) where dimension = 'referer'",
        "alter table \"click_rollups_daily\" add column \"suspended\" bigint default 0 not null",
        "drop index \"click_rollups_daily_top_link\"",
        "create index \"click_rollups_daily_top_link\" on \"click_rollups_daily\" (affiliate_id, organization_id, link_id, hour, counted desc, value, bots, heads, repeats, suspicious, suspended) where dimension = 'link'",
        "drop index \"click_rollups_daily_top_brand\"",
        "create index \"click_rollups_daily_top_brand\" on \"click_rollups_daily\" (affiliate_id, organization_id, link_id, hour, counted desc, value, bots, heads, repeats, suspicious, suspended) where dimension = 'brand'",
        "drop index \"click_rollups_daily_top_affiliate\"",
        "create index \"click_rollups_daily_top_affiliate\" on \"click_rollups_daily\" (affiliate_id, organization_id, link_id, hour, counted desc, value, bots, heads, repeats, suspicious, suspended) where dimension = 'affiliate'",
        "drop index \"click_rollups_daily_top_referer\"",
        "create index \"click_rollups_daily_top_referer\" on \"click_rollups_daily\" (affiliate_id, organization_id, link_id, hour, counted desc, value, bots, heads, repeats, suspicious, suspended) where dimension = 'referer'"
      ]
    },
    {
      "name": "0049-view-as-sessions",
      "statements": [
        "create table \"view_sessions\" (\"token_hash\" text collate \"C\" primary key, \"id\" text collate \"C\" not null unique, \"operator_id\" text collate \"C\" not null references \"users\" (\"id\") on delete cascade, \"operator_session_id\" text collate \"C\" not null, \"affiliate_id\" text collate \"C\", \"brand_id\" text collate \"C\", \"reason\" text collate \"C\" not null, \"created_at\" text collate \"C\" not null, \"last_seen_at\" text collate \"C\" not null, \"expires_at\" text collate \"C\" not null, \"ended_at\" text collate \"C\", \"ended_by\" text collate \"C\")",
        "create index \"view_sessions_affiliate_idx\" on \"view_sessions\" (\"affiliate_id\", \"expires_at\") where \"ended_at\" is null",
        "create index \"view_sessions_brand_idx\" on \"view_sessions\" (\"brand_id\", \"expires_at\") where \"ended_at\" is null",
        "create index \"view_sessions_operator_session_idx\" on \"view_sessions\" (\"operator_session_id\") where \"ended_at\" is null"
      ]
    },
    {
      "name": "0050-orders-by-report-time",
      "statements": [
        "create index \"orders_created_idx\" on \"orders\" (\"created_at\")"
      ]
    },
    {
      "name": "0051-coupon-codes",
      "statements": [
        "create table \"coupons\" (\"organization_id\" text collate \"C\" not null, \"code_key\" text collate \"C\" not null, \"code\" text collate \"C\" not null, \"affiliate_id\" text collate \"C\" not null, \"campaign_id\" text collate \"C\", \"created_at\" text collate \"C\" not null, \"updated_at\" text collate \"C\" not null, constraint \"coupons_pk\" primary key (\"organization_id\", \"code_key\"))",
        "create index \"coupons_affiliate_idx\" on \"coupons\" (\"affiliate_id\", \"organization_id\", \"code_key\")",
        "alter table \"orders\" add column \"coupon\" text collate \"C\"",
        "alter table \"orders\" add column \"coupon_key\" text collate \"C\"",
        "alter table \"orders\" add column \"coupon_affiliate_id\" text collate \"C\"",
        "alter table \"brands\" add column \"attribution_priority\" text collate \"C\" default 'coupon' not null"
      ]
    },
    {
      "name": "0052-product-feeds",
      "statements": [
        "create table \"product_feeds\" (\"organization_id\" text collate \"C\" not null, \"id\" text collate \"C\" not null, \"url\" text collate \"C\" not null, \"format\" text collate \"C\" not null, \"schedule\" text collate \"C\" not null, \"next_run_at\" text collate \"C\" not null, \"lease_owner\" text collate \"C\", \"lease_until\" text collate \"C\", \"failures\" integer default 0 not null, \"last_run_id\" text collate \"C\", \"last_complete_items\" integer, \"created_at\" text collate \"C\" not null, \"updated_at\" text collate \"C\" not null, constraint \"product_feeds_pk\" primary key (\"organization_id\", \"id\"))",
        "create index \"product_feeds_due_idx\" on \"product_feeds\" (\"next_run_at\")",
        "create table \"feed_runs\" (\"id\" text collate \"C\" primary key, \"organization_id\" text collate \"C\" not null, \"feed_id\" text collate \"C\" not null, \"source\" text collate \"C\" not null, \"status\" text collate \"C\" not null, \"reason\" text collate \"C\", \"bytes\" integer default 0 not null, \"items\" integer default 0 not null, \"added\" integer default 0 not null, \"updated\" integer default 0 not null, \"unchanged\" integer default 0 not null, \"made_unavailable\" integer default 0 not null, \"refused\" integer default 0 not null, \"refusals\" text collate \"C\" default '[]' not null, \"started_at\" text collate \"C\" not null, \"finished_at\" text collate \"C\")",
        "create index \"feed_runs_feed_idx\" on \"feed_runs\" (\"organization_id\", \"feed_id\", \"started_at\")",
        "alter table \"products\" add column \"feed_id\" text collate \"C\"",
        "alter table \"products\" add column \"feed_run_id\" text collate \"C\"",
        "create index \"products_feed_idx\" on \"products\" (\"organization_id\", \"feed_id\")"
      ]
    },
    {
      "name": "0054-first-party-tag",
      "statements": [
        "create table \"publishable_keys\" (\"id\" text collate \"C\" primary key, \"brand_id\" text collate \"C\" not null references \"brands\" (\"id\") on delete cascade, \"key\" text collate \"C\" not null unique, \"created_at\" text collate \"C\" not null, \"revoked_at\" text collate \"C\", \"replaced_by\" text collate \"C\")",
        "create unique index \"publishable_keys_active_brand_idx\" on \"publishable_keys\" (\"brand_id\") where \"revoked_at\" is null",
        "alter table \"brands\" add column \"trust_tag_conversions\" integer default 0 not null",
        "create table \"tag_reports\" (\"id\" text collate \"C\" primary key, \"brand_id\" text collate \"C\" not null references \"brands\" (\"id\") on delete cascade, \"source\" text collate \"C\" not null, \"order_id\" text collate \"C\", \"outcome\" text collate \"C\" not null, \"reason\" text collate \"C\", \"origin\" text collate \"C\", \"created_at\" text collate \"C\" not null)",
        "create index \"tag_reports_brand_idx\" on \"tag_reports\" (\"brand_id\", \"created_at\")"
      ]
    },
    {
      "name": "0055-commission-rules",
      "statements": [
        "create table \"commission_rule_versions\" (\"brand_id\" text collate \"C\" not null references \"brands\" (\"id\") on delete cascade, \"version\" integer not null, \"rules\" text collate \"C\" not null, \"created_at\" text collate \"C\" not null, \"created_by\" text collate \"C\", constraint \"commission_rule_versions_pk\" primary key (\"brand_id\", \"version\"))",
        "alter table \"orders\" add column \"commission_rules_version\" integer default 0 not null",
        "alter table \"orders\" add column \"commission_lines\" text collate \"C\""
      ]
    },
    {
      "name": "0056-affiliate-groups",
      "statements": [
        "create table \"affiliate_groups\" (\"brand_id\" text collate \"C\" not null references \"brands\" (\"id\") on delete cascade, \"id\" text collate \"C\" not null, \"name\" text collate \"C\" not null, \"tier_min_approved_orders\" integer, \"tier_month\" text collate \"C\", \"created_at\" text collate \"C\" not null, \"updated_at\" text collate \"C\" not null, constraint \"affiliate_groups_pk\" primary key (\"brand_id\", \"id\"))",
        "create table \"affiliate_group_members\" (\"brand_id\" text collate \"C\" not null, \"group_id\" text collate \"C\" not null, \"affiliate_id\" text collate \"C\" not null, \"source\" text collate \"C\" not null, constraint \"affiliate_group_members_pk\" primary key (\"brand_id\", \"group_id\", \"source\", \"affiliate_id\"), constraint \"affiliate_group_members_group_fk\" foreign key (\"brand_id\", \"group_id\") references \"affiliate_groups\" (\"brand_id\", \"id\") on delete cascade)",
        "create index \"affiliate_group_members_affiliate_idx\" on \"affiliate_group_members\" (\"brand_id\", \"affiliate_id\")"
      ]
    },
    {
      "name": "0057-terms-notice",
      "statements": [
        "alter table \"commission_rule_versions\" add column \"effective_at\" text collate \"C\"",
        "alter table \"commission_rule_versions\" add column \"default_transfer\" text collate \"C\"",
        "alter table \"commission_rule_versions\" add column \"default_value\" integer",
        "alter table \"brands\" add column \"terms_notice_days\" integer default 7 not null"
      ]
    },
    {
      "name": "0058-brand-scores",
      "statements": [
        "alter table \"brands\" add column \"ratings_absent\" integer default 0 not null",
        "alter table \"brands\" add column \"epc_cents\" integer",
        "alter table \"brands\" add column \"median_decision_seconds\" integer",
        "alter table \"brands\" add column \"scores_computed_at\" text collate \"C\""
      ]
    },
    {
      "name": "0059-session-factor-method",
      "statements": [
        "alter table \"session_second_factors\" add column \"method\" text collate \"C\""
      ]
    },
    {
      "name": "0060-server-reporting",
      "statements": [
        "alter table \"brands\" add column \"reports_orders_from_server\" integer default 0 not null"
      ]
    },
    {
      "name": "0061-reconciliations",
      "statements": [
        "create table \"reconciliations\" (\"id\" text collate \"C\" primary key, \"organization_id\" text collate \"C\" not null, \"platform\" text collate \"C\" not null, \"currency\" text collate \"C\" not null, \"range_from\" text collate \"C\", \"range_to\" text collate \"C\", \"rows\" integer default 0 not null, \"counts\" text collate \"C\" not null, \"created_by\" text collate \"C\", \"created_at\" text collate \"C\" not null, \"applied_at\" text collate \"C\", \"applied_by\" text collate \"C\", \"outcome\" text collate \"C\")",
        "create index \"reconciliations_brand_idx\" on \"reconciliations\" (\"organization_id\", \"created_at\")",
        "create table \"reconciliation_lines\" (\"reconciliation_id\" text collate \"C\" not null, \"seq\" integer not null, \"kind\" text collate \"C\" not null, \"line\" integer, \"order_id\" text collate \"C\", \"network_id\" text collate \"C\", \"detail\" text collate \"C\" not null, constraint \"reconciliation_lines_pk\" primary key (\"reconciliation_id\", \"seq\"))",
        "create index \"reconciliation_lines_kind_idx\" on \"reconciliation_lines\" (\"reconciliation_id\", \"kind\", \"seq\")",
        "create index \"reconciliation_lines_order_idx\" on \"reconciliation_lines\" (\"reconciliation_id\", \"order_id\")",
        "alter table \"order_events\" add column \"reconciliation_id\" text collate \"C\""
      ]
    },
    {
      "name": "0062-tag-tests",
      "statements": [
        "create table \"tag_tests\" (\"id\" text collate \"C\" primary key, \"brand_id\" text collate \"C\" not null references \"brands\" (\"id\") on delete cascade, \"created_at\" text collate \"C\" not null, \"visited_at\" text collate \"C\", \"visit_origin\" text collate \"C\")",
        "create index \"tag_tests_brand_idx\" on \"tag_tests\" (\"brand_id\", \"created_at\")",
        "alter table \"tag_reports\" add column \"test_id\" text collate \"C\"",
        "alter table \"tag_reports\" add column \"detail\" text collate \"C\"",
        "create index \"tag_reports_test_idx\" on \"tag_reports\" (\"test_id\", \"created_at\")"
      ]
    },
    {
      "name": "0063-link-script",
      "statements": [
        "alter table \"affiliate_channels\" add column \"site\" text collate \"C\"",
        "create table \"link_keys\" (\"id\" text collate \"C\" primary key, \"affiliate_id\" text collate \"C\" not null references \"affiliates\" (\"id\") on delete cascade, \"channel_id\" text collate \"C\" not null references \"affiliate_channels\" (\"id\") on delete cascade, \"key\" text collate \"C\" not null unique, \"created_at\" text collate \"C\" not null, \"revoked_at\" text collate \"C\", \"replaced_by\" text collate \"C\")",
        "create unique index \"link_keys_active_channel_idx\" on \"link_keys\" (\"channel_id\") where \"revoked_at\" is null",
        "create table \"link_script_sites\" (\"channel_id\" text collate \"C\" not null references \"affiliate_channels\" (\"id\") on delete cascade, \"origin\" text collate \"C\" not null, \"created_at\" text collate \"C\" not null, constraint \"link_script_sites_pk\" primary key (\"channel_id\", \"origin\"))",
        "create table \"auto_links\" (\"link_id\" text collate \"C\" primary key references \"short_links\" (\"id\") on delete cascade, \"affiliate_id\" text collate \"C\" not null, \"channel_id\" text collate \"C\" not null, \"page_url\" text collate \"C\" not null, \"created_at\" text collate \"C\" not null)",
        "create index \"auto_links_channel_idx\" on \"auto_links\" (\"channel_id\", \"created_at\")"
      ]
    },
    {
      "name": "0064-sub-ids",
      "statements": [
        "alter table \"clicks\" add column \"sub_ids\" text collate \"C\"",
        "create index \"clicks_sub_ids_idx\" on \"clicks\" (\"affiliate_id\", \"id\") where \"sub_ids\" is not null",
        "alter table \"orders\" add column \"sub1\" text collate \"C\"",
        "alter table \"orders\" add column \"sub2\" text collate \"C\"",
        "alter table \"orders\" add column \"sub3\" text collate \"C\"",
        "alter table \"orders\" add column \"sub4\" text collate \"C\"",
        "alter table \"orders\" add column \"sub5\" text collate \"C\""
      ]
    },
    {
      "name": "0065-affiliate-postbacks",
      "statements": [
        "create table \"affiliate_postbacks\" (\"affiliate_id\" text collate \"C\" not null references \"affiliates\" (\"id\") on delete cascade, \"id\" text collate \"C\" not null, \"url\" text collate \"C\" not null, \"events\" text collate \"C\" not null, \"brand_ids\" text collate \"C\", \"active\" integer not null, \"created_at\" text collate \"C\" not null, \"updated_at\" text collate \"C\" not null, constraint \"affiliate_postbacks_pk\" primary key (\"affiliate_id\", \"id\"))",
        "create table \"postback_deliveries\" (\"id\" text collate \"C\" primary key, \"affiliate_id\" text collate \"C\" not null, \"postback_id\" text collate \"C\" not null, \"event\" text collate \"C\" not null, \"event_key\" text collate \"C\" not null, \"payload\" text collate \"C\" not null, \"test\" integer not null, \"status\" text collate \"C\" not null, \"attempts\" integer not null, \"url\" text collate \"C\", \"response_status\" integer, \"error\" text collate \"C\", \"failure\" text collate \"C\", \"duration_ms\" integer, \"next_attempt_at\" text collate \"C\" not null, \"lease_owner\" text collate \"C\", \"lease_until\" text collate \"C\", \"last_attempt_at\" text collate \"C\", \"created_at\" text collate \"C\" not null, \"updated_at\" text collate \"C\" not null)",
        "create unique index \"postback_deliveries_once_idx\" on \"postback_deliveries\" (\"affiliate_id\", \"postback_id\", \"event_key\")",
        "create index \"postback_deliveries_log_idx\" on \"postback_deliveries\" (\"affiliate_id\", \"postback_id\", \"created_at\", \"id\")",
        "create index \"postback_deliveries_due_idx\" on \"postback_deliveries\" (\"status\", \"next_attempt_at\")",
        "create index \"postback_deliveries_created_idx\" on \"postback_deliveries\" (\"created_at\")"
      ]
    },
    {
      "name": "0066-webhook-attempt-failures",
      "statements": [
        "alter table \"webhook_attempts\" add column \"failure\" text collate \"C\""
      ]
    },
    {
      "name": "0067-links-listed-newest-first",
      "statements": [
        "create index \"short_links_type_newest_idx\" on \"short_links\" (\"affiliate_id\", \"link_type\", \"created_at\", \"id\")"
      ]
    }
  ]
};
