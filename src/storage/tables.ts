// Row types of every table, as Kysely sees them. Conventions shared by both dialects, so that
// SQLite and PostgreSQL give byte-identical answers:
// - flags are integers 0/1 (SQLite has no boolean and better-sqlite3 cannot bind one);
// - times are fixed-width UTC ISO 8601 text (`2026-01-31T12:00:00.000Z`), which sorts correctly;
// - money is integer cents; percentages are integer basis points;
// - nested documents (images, options, items…) are JSON text.
import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

export interface ChannelKindsTable {
  id: string;
  name: string;
}

export interface BrandsTable {
  id: string;
  name: string;
  /** Case- and accent-folded name (foldText), what the search filter compares. */
  name_key: string;
  slug: string;
  logo: string;
  site: string;
  segment: string;
  active: number;
  is_public: number;
  is_exclusive: number;
  is_highlight: number;
  is_favorite: number;
  rating_approval: number;
  rating_commission: number;
  rating_conversion: number;
  rating_popularity: number;
  rating_validation: number;
  /** Ratings with no score, as bits (approval 1, commission 2, conversion 4, popularity 8, validation 16): left out of the API. */
  ratings_absent: Generated<number>;
  /** Commission per 100 counted clicks in the last 90 days, in cents of the brand's currency; null: not computed. */
  epc_cents: Generated<number | null>;
  /** Median time from an order's report to its decision in the last 90 days; null: not computed. */
  median_decision_seconds: Generated<number | null>;
  /** When the brand-scores task last judged the brand; from then on imports' ratings are ignored. */
  scores_computed_at: Generated<string | null>;
  /** 'cps' (percentage of the order value) or 'cpa' (fixed amount per order). */
  commission_transfer: string;
  /** Basis points for cps, cents for cpa. */
  commission_value: number;
  /** JSON array of channel kind ids the brand accepts links from; null accepts every kind. */
  allowed_channel_kinds: string | null;
  click_id_param: string;
  attribution_window_days: number;
  /** ISO 4217 code of every amount of the brand (prices, order values, cpa commissions). */
  currency: string;
  /** Where Home links go; null: the site's origin. */
  home_url: string | null;
  /** JSON array of further domains (beside the site's) campaign and Custom link URLs may use. */
  domains: Generated<string>;
  /** 1 from an approved application until its owner launches it: hidden from affiliates, refusing links. */
  setup_pending: Generated<number>;
  /** Days the brand has to approve, cancel or correct an order after it is reported (0-180). */
  validation_days: Generated<number>;
  /** The network's fee on each statement line, in basis points of the commission (3000: 30 %). */
  fee_basis_points: Generated<number>;
  /** Days a brand has to pay a statement after it is issued. */
  statement_due_days: Generated<number>;
  /** Days after which a claim the brand has not answered is accepted by the network (30-120). */
  claim_auto_accept_days: Generated<number>;
  /** Days of notice before a change that could lower affiliates' earnings takes effect. */
  terms_notice_days: Generated<number>;
  /** When the network suspended the brand; null while it is active. */
  suspended_at: Generated<string | null>;
  suspension_reason: Generated<string | null>;
  /** 1: conversions from the tag and the pixel lock without the brand's confirmation. */
  trust_tag_conversions: Generated<number>;
  /** When a conversion brings a click and a registered coupon of different affiliates: 'coupon' or 'click' wins. */
  attribution_priority: Generated<string>;
  /** 1: the brand said its own server reports its orders (the API or the postback). */
  reports_orders_from_server: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface BrandCategoriesTable {
  brand_id: string;
  category: string;
  /** Lower-cased category, what filters compare. */
  category_key: string;
}

export interface AffiliatesTable {
  id: string;
  name: string;
  created_at: string;
  /** When the network suspended the affiliate; null while it is active. */
  suspended_at: Generated<string | null>;
  suspension_reason: Generated<string | null>;
  /** The last change that redirects depend on (a suspension); what redirect caches poll. */
  updated_at: Generated<string | null>;
}

export interface AffiliateChannelsTable {
  id: string;
  affiliate_id: string;
  kind_id: string;
  name: string;
  created_at: string;
  /** Set when the affiliate removed the channel: its links keep working, it takes no new ones. */
  removed_at: string | null;
  /** The channel's address (its site, or its profile on a network); null until given. See migration 0063. */
  site: Generated<string | null>;
}

export interface BrandApprovalsTable {
  affiliate_id: string;
  brand_id: string;
  created_at: string;
}

export interface ApiKeysTable {
  id: string;
  key_hash: string;
  /** First characters of the key, shown in listings so an operator can tell keys apart. */
  key_prefix: string;
  affiliate_id: string | null;
  brand_id: string | null;
  name: string;
  /** Space-separated scope names. */
  scopes: string;
  rate_limit: number;
  rate_window_seconds: number;
  created_at: string;
  revoked_at: string | null;
}

/** A brand's secret for GET /postback; at most one per brand is active (revoked_at null). */
export interface PostbackTokensTable {
  id: string;
  brand_id: string;
  token_hash: string;
  /** First characters of the token, so an operator can tell tokens apart. */
  token_prefix: string;
  created_at: string;
  /** When the token stopped working (rotated or revoked); null while it works. */
  revoked_at: string | null;
  /** The id of the token that replaced this one when it was rotated. */
  replaced_by: string | null;
}

/** A brand's publishable key: public by design, good for the tag's and the pixel's reports only. */
export interface PublishableKeysTable {
  id: string;
  brand_id: string;
  key: string;
  created_at: string;
  /** When it stopped working (replaced); null while it works. */
  revoked_at: string | null;
  replaced_by: string | null;
}

/** A site channel's public link key: good for the link script only (GET /links/domains, POST /links/auto). */
export interface LinkKeysTable {
  id: string;
  affiliate_id: string;
  channel_id: string;
  key: string;
  created_at: string;
  /** When it stopped working (replaced); null while it works. */
  revoked_at: string | null;
  replaced_by: string | null;
}

/** A site (an origin) a channel's link script is allowed on. */
export interface LinkScriptSitesTable {
  channel_id: string;
  origin: string;
  created_at: string;
}

/** A short link the link script made, and the page it was first asked from. */
export interface AutoLinksTable {
  link_id: string;
  affiliate_id: string;
  channel_id: string;
  page_url: string;
  created_at: string;
}

/** What the tag or the pixel sent with a known key, and what became of it (the brand's install check). */
export interface TagReportsTable {
  id: string;
  brand_id: string;
  source: string;
  order_id: string | null;
  /** 'accepted' (a new or known order) or 'refused'. */
  outcome: string;
  /** Why it was refused (an error code and message); null when accepted. */
  reason: string | null;
  origin: string | null;
  created_at: string;
  /** The test order it belongs to (its click id was the test's): never an order; see migration 0062. */
  test_id: string | null;
  /** JSON: what it read (value, currency, coupon, lines) and, when refused, the code and its details. */
  detail: string | null;
}

/** A brand's test of its install: the test link's click id and the visit the tag announced; see migration 0062. */
export interface TagTestsTable {
  id: string;
  brand_id: string;
  created_at: string;
  visited_at: string | null;
  visit_origin: string | null;
}

export interface ProductsTable {
  /** Surrogate integer key: the full-text index refers to rows by it. */
  seq: Generated<number>;
  id: string;
  organization_id: string;
  integration: string | null;
  available: number;
  name: string;
  description: string;
  url: string;
  images: string;
  options: string;
  metadata: string;
  /** Lowest option price in cents, what the price filter compares; null when no option has a price. */
  price_cents: number | null;
  /** Folded name and visible description text: what full-text search indexes. */
  search_text: string;
  created_at: string;
  updated_at: string;
  /** The brand's feed that brought the product; null: written through the API or an import. */
  feed_id: string | null;
  /** The last run of that feed whose file held the product. */
  feed_run_id: string | null;
}

/** SQLite only: the FTS5 index of products.search_text, rowid = products.seq. */
export interface ProductsFtsTable {
  rowid: number;
  search_text: string;
}

export interface CampaignsTable {
  id: string;
  organization_id: string;
  name: string;
  name_key: string;
  type: string;
  offer_type: string | null;
  description: string;
  code: string | null;
  url: string;
  is_highlight: number;
  start_at: string;
  end_at: string;
  banners: string;
  email_marketing: string | null;
  created_at: string;
  updated_at: string;
}

export interface CampaignCategoriesTable {
  organization_id: string;
  campaign_id: string;
  category: string;
  category_key: string;
}

export interface ShortLinksTable {
  id: string;
  code: string;
  affiliate_id: string;
  channel_id: string;
  organization_id: string;
  link_type: string;
  feature_id: string | null;
  /** What the link was asked for (type, feature or url, mdasc): one link per channel and request. */
  request_key: string;
  original_url: string;
  mdasc: string | null;
  active: number;
  click_count: number;
  created_at: string;
  updated_at: string;
}

export interface OrdersTable {
  id: string;
  /** The brand's own order id. */
  order_id: string;
  organization_id: string;
  affiliate_id: string;
  link_id: string | null;
  click_id: string | null;
  channel_id: string | null;
  mdasc: string | null;
  status: string;
  commission_status: string;
  value: number;
  commission: number;
  /**
   * Why the commission was canceled from the start: 'bot_click', 'head_click' or
   * 'suspicious_click' (the click did not count as a person's); null otherwise.
   */
  commission_reason: string | null;
  /** ISO 4217: the brand's currency when the order was reported. */
  currency: string;
  items: string;
  /** When the click that earned the order happened (kept here: clicks may be deleted). */
  click_created_at: string | null;
  /** Country of that click (ZZ: unknown), for the analytics by country. */
  click_country: string | null;
  /** Code of the short link that earned the order (kept here: one read per page, no lookups). */
  link_code: string | null;
  /** The commission rule the order was created under ('cps' or 'cpa'), kept for corrections. */
  commission_transfer: string;
  /** Basis points for cps, cents for cpa: the brand's value when the order was created. */
  commission_value: number;
  /** From then on the brand can no longer change the order; a pending one is approved by the network. */
  lock_at: string;
  /** 1 when the network approved the order at its lock date. */
  auto_approved: Generated<number>;
  /** How the order arrived: api, postback, tag, pixel or claim. */
  source: Generated<string>;
  /** Why its affiliate gets it: click, coupon or claim. */
  attribution: Generated<string>;
  /** Set when the commission was paid, with the payout it was paid in. */
  paid_at: string | null;
  payout_id: string | null;
  /** The statement that billed the commission to the brand. */
  statement_id: Generated<string | null>;
  /** When that statement was paid and the commission became payable. */
  payable_at: Generated<string | null>;
  /** The fraud rules the order tripped (JSON array of names), from its hold on; null if never held. */
  hold_reasons: Generated<string | null>;
  /** The rules' numbers and the operator's decision (JSON, HoldFacts): for the network alone. */
  hold_facts: Generated<string | null>;
  /** HMAC (the installation's salt) of the customer's emailHash as the brand sent it; never returned. */
  customer_hash: Generated<string | null>;
  /** The brand's word on whether the customer is new: 1, 0, or null when not said. */
  customer_is_new: Generated<number | null>;
  /** The coupon code the customer used, as the brand reported it; null without one. */
  coupon: Generated<string | null>;
  /** That code lowercased (what the affiliate's coupon filter compares). */
  coupon_key: Generated<string | null>;
  /** Whose code it was when the order was reported; null for a code no affiliate had. */
  coupon_affiliate_id: Generated<string | null>;
  /** The brand's commission rules version the commission was computed with; 0: none, the default rule alone on the value. */
  commission_rules_version: Generated<number>;
  /** The computation's lines and caps (JSON, explainCommission's); null for orders reported before it was kept. */
  commission_lines: Generated<string | null>;
  /** The sub-ids of the affiliate's click that earned the order (copied from it, src/lib/sub-ids.ts); null where absent. Migration 0064. */
  sub1: Generated<string | null>;
  sub2: Generated<string | null>;
  sub3: Generated<string | null>;
  sub4: Generated<string | null>;
  sub5: Generated<string | null>;
  created_at: string;
  updated_at: string;
}

/** One of a brand's affiliate groups (named by its commission rules). */
export interface AffiliateGroupsTable {
  brand_id: string;
  /** The brand's own id for the group (^[a-z0-9][a-z0-9_-]{0,39}$). */
  id: string;
  name: string;
  /** The volume tier: affiliates with at least this many approved orders last calendar month; null without a tier. */
  tier_min_approved_orders: number | null;
  /** The month ('YYYY-MM', UTC) the tier members were last computed in; null before. */
  tier_month: string | null;
  created_at: string;
  updated_at: string;
}

/** An affiliate in a brand's group: named by the brand ('member') or placed by the group's tier ('tier'). */
export interface AffiliateGroupMembersTable {
  brand_id: string;
  group_id: string;
  affiliate_id: string;
  source: 'member' | 'tier';
}

/** One saved list of a brand's commission rules; never changed once written. */
export interface CommissionRuleVersionsTable {
  brand_id: string;
  version: number;
  /** JSON array of the rules, in the brand's order. */
  rules: string;
  created_at: string;
  /** Who saved it: 'brand:<id>' with the key, for the record. */
  created_by: string | null;
  /** When it comes into force: created_at, or after the brand's notice for a change that could lower earnings. */
  effective_at: string;
  /** The default rule (the profile's commission) it goes with: cps (basis points) or cpa (cents). */
  default_transfer: string;
  default_value: number;
}

/** A coupon code a brand gave one affiliate: conversions reported with it are that affiliate's. */
export interface CouponsTable {
  organization_id: string;
  /** The code lowercased: codes are unique per brand without case. */
  code_key: string;
  /** The code as the brand wrote it. */
  code: string;
  affiliate_id: string;
  /** The brand's PersonalCoupon campaign whose code this is, if any. */
  campaign_id: string | null;
  created_at: string;
  updated_at: string;
}

/** An affiliate's claim of a sale of a brand that the tracking missed. */
export interface ClaimsTable {
  id: string;
  affiliate_id: string;
  organization_id: string;
  /** The brand's own order id, as the affiliate gave it. */
  order_id: string;
  ordered_at: string;
  /** Claimed value in integer cents of currency (the brand's). */
  value: number;
  currency: string;
  link_code: string | null;
  click_id: string | null;
  note: string;
  /** open → accepted | declined */
  status: string;
  /** The value it was accepted at: the brand's correction, or the claimed value. */
  accepted_value: number | null;
  /** Why the brand declined it. */
  reason: string | null;
  /** brand or network. */
  resolved_by: string | null;
  resolved_at: string | null;
  /** The network id of the order an accepted claim made (or found). */
  network_order_id: string | null;
  /** When the network accepts it if the brand has not answered. */
  auto_accept_at: string;
  created_at: string;
  updated_at: string;
}

/** A payment to an affiliate: one per currency per payment run. */
export interface PayoutsTable {
  id: string;
  affiliate_id: string;
  currency: string;
  /** Creation times of the earliest and latest order paid. */
  period_start: string;
  period_end: string;
  /** Commissions and adjustments paid, in cents. */
  total: number;
  order_count: number;
  created_at: string;
  /** The run that made it; null for payouts made before payout runs. */
  batch_id: Generated<string | null>;
  status: Generated<PayoutStatus>;
  /** The destination, masked, when the payout was made. */
  method: Generated<string | null>;
  /** The part of total that pays operator adjustments. */
  adjustment_total: Generated<number>;
  sent_at: Generated<string | null>;
  settled_at: Generated<string | null>;
  failed_at: Generated<string | null>;
  failure_reason: Generated<string | null>;
}

export type PayoutStatus = 'pending' | 'sent' | 'settled' | 'failed';

export interface PayoutBatchesTable {
  id: string;
  payout_count: number;
  created_by: string;
  created_at: string;
}

/** What a brand is billed for one month's locked commissions in one currency. */
export interface StatementsTable {
  id: string;
  brand_id: string;
  currency: string;
  /** YYYY-MM */
  month: string;
  line_count: number;
  commission: number;
  fee: number;
  total: number;
  paid_amount: Generated<number>;
  fee_basis_points: number;
  issued_at: string;
  due_at: string;
  paid_at: Generated<string | null>;
  overdue_notified_at: Generated<string | null>;
}

export interface StatementLinesTable {
  statement_id: string;
  order_id: string;
  commission: number;
  fee: number;
}

export interface StatementPaymentsTable {
  id: string;
  statement_id: string;
  amount: number;
  reference: string;
  recorded_by: string;
  created_at: string;
}

/** An operator's correction of what an affiliate is owed; append-only. */
export interface AdjustmentsTable {
  id: string;
  affiliate_id: string;
  currency: string;
  amount: number;
  reason: string;
  created_by: string;
  created_at: string;
  payout_id: Generated<string | null>;
}

/** One entry of the audit trail: append-only (the address alone is dropped, after AUDIT_ADDRESS_DAYS). */
export interface AuditEntriesTable {
  id: Generated<number>;
  created_at: string;
  actor_kind: 'operator' | 'brand' | 'affiliate' | 'network' | 'cli';
  actor_id: string | null;
  acting_as: string | null;
  address: string | null;
  action: string;
  subject_kind: string;
  subject_id: string;
  affiliate_id: string | null;
  brand_id: string | null;
  before: string | null;
  after: string | null;
  reason: string | null;
}

/** One side of a double-entry money event: debits positive, credits negative. */
export interface LedgerLinesTable {
  id: Generated<number>;
  entry_id: string;
  kind: string;
  currency: string;
  account: string;
  amount: number;
  order_id: string | null;
  statement_id: string | null;
  payout_id: string | null;
  adjustment_id: string | null;
  created_at: string;
}

export interface ClicksTable {
  id: string;
  link_id: string;
  affiliate_id: string;
  channel_id: string;
  organization_id: string;
  mdasc: string | null;
  created_at: string;
  is_bot: number;
  is_head: number;
  is_repeat: number;
  /** Past the per-address velocity limit of the link (CLICK_VELOCITY_LIMIT clicks an hour). */
  is_suspicious: number;
  /** On a link of a suspended affiliate or brand: the click is answered and counts nothing. */
  is_suspended: number;
  /** 1 when the click counts: not a bot, not HEAD, not a repeat of the same visitor, not suspicious, not suspended. */
  counted: number;
  /** Hash of IP and user agent; the raw IP is never stored. */
  visitor_hash: string;
  user_agent: string | null;
  /** ISO 3166 alpha-2 of the client address (ZZ: unknown), found by the click writer. */
  country: string | null;
  /** desktop, mobile, tablet or other, from the user agent. */
  device: string | null;
  /** Browser family from the user agent (Chrome, Safari, …; Other when unknown). */
  browser: string | null;
  /** Operating system family from the user agent (iOS, Android, Windows, …; Other when unknown). */
  os: string | null;
  /** Host of the Referer, lowercased; (direct) without one. */
  referer_host: string | null;
  /** Autonomous system number of the client address (ASN_DATABASE); null without an ASN database or when unknown. */
  asn: number | null;
  /**
   * The affiliate's sub-ids the visitor's query carried (sub1 … sub5, src/lib/sub-ids.ts), as a
   * JSON object of the present ones; null (most clicks) without any. Migration 0064.
   */
  sub_ids: string | null;
}

export interface OrderEventsTable {
  id: Generated<number>;
  order_id: string;
  field: string;
  from_value: string | null;
  to_value: string;
  /** Who changed it: 'brand:<id>', 'operator'. */
  actor: string;
  /** The API key (or postback token) the change was made with, when it came through the API. */
  actor_key_id: string | null;
  /** The reconciliation (the shop's export) the change came from; see migration 0061. */
  reconciliation_id: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: string;
}

/** A brand's upload of its shop's order export and its preview's counts; see migration 0061. */
export interface ReconciliationsTable {
  id: string;
  organization_id: string;
  platform: string;
  currency: string;
  range_from: string | null;
  range_to: string | null;
  rows: number;
  counts: string;
  created_by: string | null;
  created_at: string;
  applied_at: string | null;
  applied_by: string | null;
  outcome: string | null;
}
export type ReconciliationRow = Selectable<ReconciliationsTable>;

/** One line of a reconciliation's preview; see migration 0061. */
export interface ReconciliationLinesTable {
  reconciliation_id: string;
  seq: number;
  kind: string;
  line: number | null;
  order_id: string | null;
  network_id: string | null;
  detail: string;
}
export type ReconciliationLineRow = Selectable<ReconciliationLinesTable>;

/** An affiliate's request to promote a (private) brand. */
export interface ApprovalRequestsTable {
  affiliate_id: string;
  brand_id: string;
  /** pending or declined; an approved request is deleted, the approval kept in brand_approvals. */
  status: string;
  message: string;
  created_at: string;
  updated_at: string;
}

export interface WebhookEndpointsTable {
  id: string;
  /** 'affiliate' or 'brand' */
  owner_kind: string;
  owner_id: string;
  url: string;
  description: string;
  /** Event types, space-separated with a space at each end, so ' type ' matches one exactly. */
  events: string;
  enabled: number;
  /** Why the network switched it off (failing for days); null when enabled or switched off by its owner. */
  disabled_reason: string | null;
  /** whsec_ + base64 of the HMAC key; kept as it is, since signing needs it. */
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
  failing_since: string | null;
  created_at: string;
  updated_at: string;
}

/** The outbox: an event, written in the transaction of the change that caused it. */
export interface WebhookEventsTable {
  id: string;
  owner_kind: string;
  owner_id: string;
  type: string;
  /** The JSON body every endpoint receives, exactly as signed. */
  payload: string;
  created_at: string;
}

export interface WebhookDeliveriesTable {
  id: string;
  event_id: string;
  endpoint_id: string;
  /** pending, delivered or failed */
  status: string;
  attempts: number;
  next_attempt_at: string;
  /** The instance delivering it now, and until when; another takes over after that. */
  lease_owner: string | null;
  lease_until: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookAttemptsTable {
  id: Generated<number>;
  delivery_id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  attempt: number;
  /** delivered, retrying, failed (given up after 24 hours) or disabled (the endpoint was switched off) */
  outcome: string;
  response_status: number | null;
  error: string | null;
  /** Why no whole answer came (refused, timeout, unreachable); null when one came. Migration 0066. */
  failure: string | null;
  duration_ms: number;
  created_at: string;
}

/** An affiliate's postback: a tracker's URL template, fired as a GET on the events it names. */
export interface AffiliatePostbacksTable {
  affiliate_id: string;
  /** Chosen by the affiliate; unique among its own templates. */
  id: string;
  /** The template as the affiliate wrote it, macros included. */
  url: string;
  /** Postback events, space-separated with a space at each end, so ' event ' matches one exactly. */
  events: string;
  /** The brands it fires for, in the same form; null: every brand. */
  brand_ids: string | null;
  active: number;
  created_at: string;
  updated_at: string;
}

/** One event to one postback template, with its lease and how its last attempt went: the delivery log. */
export interface PostbackDeliveriesTable {
  id: string;
  affiliate_id: string;
  postback_id: string;
  /** conversion.created, conversion.approved, conversion.canceled or commission.paid */
  event: string;
  /** What the delivery is of, unique per template: the outbox event's id, a payout and order, or a test's own id. */
  event_key: string;
  /** The event's JSON (`{ type, version, timestamp, data }`, data the affiliate's view of the order), whose values fill the macros. */
  payload: string;
  /** 1 for a test the affiliate sent. */
  test: number;
  /** pending, delivered or failed */
  status: string;
  attempts: number;
  /** The URL of the last attempt, as sent. */
  url: string | null;
  response_status: number | null;
  error: string | null;
  /** Why no whole answer came: refused, timeout or unreachable (see WebhookResponse). */
  failure: string | null;
  duration_ms: number | null;
  next_attempt_at: string;
  lease_owner: string | null;
  lease_until: string | null;
  last_attempt_at: string | null;
  created_at: string;
  updated_at: string;
}

/** One row: how far (SQLite rowid) stored clicks have been added to their links' counts. */
export interface ClickCountProgressTable {
  id: number;
  last_counted_rowid: number;
}

/**
 * The key of a rollup row: what it is about (an affiliate: organization_id and link_id ''; an
 * affiliate at one brand: link_id ''; one link of an affiliate: organization_id ''; a brand:
 * affiliate_id ''), a dimension ('all' with value '', 'country', 'device', …) and the period's
 * first UTC hour (the hour itself in the hourly tables, the day's 00:00 in the daily ones).
 */
interface RollupKey {
  affiliate_id: string;
  organization_id: string;
  link_id: string;
  dimension: string;
  hour: string;
  value: string;
}

/** Per-hour sums of clicks; uncounted clicks are summed by their first reason. */
export interface ClickRollupsTable extends RollupKey {
  counted: number;
  bots: number;
  heads: number;
  repeats: number;
  suspicious: number;
  /** Clicks on a suspended affiliate's or brand's link (migration 0048; 0 before). */
  suspended: Generated<number>;
}

/** Per-hour sums of orders, keyed like click_rollups and by currency (money is never summed across currencies). */
export interface OrderRollupsTable extends RollupKey {
  currency: string;
  /** Orders not canceled. */
  orders: number;
  /** Their value, in minor units. */
  sales: number;
  /** Commission of orders whose commission is not canceled, in minor units. */
  commission: number;
}

/** SQLite: the rowid of the last click added to click_rollups by the click writer. */
export interface RollupProgressTable {
  id: number;
  last_rolled_rowid: number;
}

/**
 * PostgreSQL: a stored click not yet added to its link's count and the rollups (the click writer
 * adds it, then deletes this row, in one transaction).
 */
export interface UnrolledClicksTable {
  id: string;
}

/** A setting of this installation, by name (visitor_salt). */
export interface SettingsTable {
  name: string;
  value: string;
  updated_at: string;
}

/** A task run on a schedule, once across instances: when it is due next, and who runs it now. */
export interface ScheduledTasksTable {
  name: string;
  next_run_at: string;
  /** Failed runs in a row (0 after a success): the retry wait grows with them. */
  failures: Generated<number>;
  lease_owner: string | null;
  lease_until: string | null;
  last_run_at: string | null;
  last_error: string | null;
  updated_at: string;
}
export type ScheduledTaskRow = Selectable<ScheduledTasksTable>;

/** A brand's product feed, fetched on its schedule by one instance at a time. */
export interface ProductFeedsTable {
  organization_id: string;
  id: string;
  url: string;
  format: string;
  schedule: string;
  next_run_at: string;
  lease_owner: string | null;
  lease_until: string | null;
  failures: Generated<number>;
  last_run_id: string | null;
  last_complete_items: number | null;
  created_at: string;
  updated_at: string;
}
export type ProductFeedRow = Selectable<ProductFeedsTable>;

/** One run of a feed, fetched or uploaded, and its report. */
export interface FeedRunsTable {
  id: string;
  organization_id: string;
  feed_id: string;
  source: string;
  status: string;
  reason: string | null;
  bytes: number;
  items: number;
  added: number;
  updated: number;
  unchanged: number;
  made_unavailable: number;
  refused: number;
  refusals: string;
  started_at: string;
  finished_at: string | null;
}
export type FeedRunRow = Selectable<FeedRunsTable>;

/** A message waiting to be sent, sent, or given up; see migration 0037. */
export interface MailMessagesTable {
  id: string;
  to_address: string;
  template: string;
  locale: string;
  /** The template's values as JSON; null once sent. */
  params: string | null;
  /** The user a one-time link is made for at sending (null: whoever then has the address). */
  link_user_id: string | null;
  /** The application a verification link is made for at sending. */
  link_application_id: string | null;
  /** 1 when the message carries a one-time link; its kind follows the person at sending. */
  with_link: number;
  /** pending → sent | failed (retries over) | canceled (its user is gone). */
  status: string;
  attempts: Generated<number>;
  next_attempt_at: string;
  lease_owner: string | null;
  lease_until: string | null;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
  updated_at: string;
}
export type MailMessageRow = Selectable<MailMessagesTable>;
export type NewMailMessage = Pick<MailMessageRow, 'to_address' | 'template' | 'locale' | 'params' | 'link_user_id' | 'link_application_id' | 'with_link'>;

/** Someone asking to join: an affiliate's sign-up or a brand's application. */
export interface ApplicationsTable {
  id: string;
  kind: 'affiliate' | 'brand';
  status: 'unverified' | 'pending' | 'approved' | 'declined';
  email: string;
  name: string;
  language: string;
  country: string | null;
  website: string;
  company: string | null;
  tax_id: string | null;
  currency: string | null;
  expected_monthly_orders: number | null;
  password_hash: string | null;
  terms_version: string;
  terms_accepted_at: string;
  terms_address: string;
  verify_token_hash: string | null;
  verify_expires_at: string | null;
  verified_at: string | null;
  decided_at: string | null;
  decided_by: string | null;
  decline_reason: string | null;
  affiliate_id: string | null;
  brand_id: string | null;
  created_at: string;
  updated_at: string;
}
export type ApplicationRow = Selectable<ApplicationsTable>;

/** A person who signs in to the portal, on behalf of one affiliate or one brand. */
export interface UsersTable {
  id: string;
  email: string;
  affiliate_id: string | null;
  brand_id: string | null;
  /** owner or member of its affiliate or brand; operator: one of the people who run the network (no affiliate, no brand). */
  role: 'owner' | 'member' | 'operator';
  password_hash: string | null;
  /** en or pt-BR; null until known (mail goes in English). */
  language: string | null;
  created_at: string;
  updated_at: string;
}
export type UserRow = Selectable<UsersTable>;

/** A one-time link (sign-up or password reset), by the hash of its token. */
export interface UserLinksTable {
  token_hash: string;
  user_id: string;
  purpose: 'sign_up' | 'reset';
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

/** A signed-in browser, by the hash of its cookie. */
export interface SessionsTable {
  token_hash: string;
  user_id: string;
  csrf_token: string;
  created_at: string;
  last_seen_at: string;
  revoked_at: string | null;
  /** What the person names the session by (ses_…); see migration 0040. Null only for sessions older than it, which got one there. */
  id: string | null;
  /** A short description of the browser and system it was opened from. */
  device: string | null;
  /** ISO 3166 alpha-2 of the address it was opened from (ZZ: unknown). */
  country: string | null;
  /** The client address it was opened from, blanked after SESSION_ADDRESS_DAYS. */
  address: string | null;
  /** SHA-256 of the browser's known-device token; null once the person signed the session out from elsewhere. */
  device_hash: string | null;
}
export type SessionRow = Selectable<SessionsTable>;

/** An operator's read-only view of a member, apart from their own session; see migration 0049. */
export interface ViewSessionsTable {
  token_hash: string;
  id: string;
  operator_id: string;
  operator_session_id: string;
  affiliate_id: string | null;
  brand_id: string | null;
  reason: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  ended_at: string | null;
  ended_by: 'operator' | 'member' | null;
}
export type ViewSessionRow = Selectable<ViewSessionsTable>;

/** A person's authenticator app (TOTP); see migration 0041. */
export interface UserTotpTable {
  user_id: string;
  secret: string;
  confirmed_at: string | null;
  last_step: number | null;
  created_at: string;
}
export type UserTotpRow = Selectable<UserTotpTable>;

export interface UserRecoveryCodesTable {
  user_id: string;
  code_hash: string;
  used_at: string | null;
  created_at: string;
}

export interface UserPasskeysTable {
  id: string;
  user_id: string;
  name: string;
  public_key: string;
  counter: number;
  transports: string;
  created_at: string;
  last_used_at: string | null;
}
export type UserPasskeyRow = Selectable<UserPasskeysTable>;

export interface SecondFactorTicketsTable {
  token_hash: string;
  user_id: string;
  failures: number;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

export interface WebauthnChallengesTable {
  challenge: string;
  purpose: 'register' | 'second_factor' | 'sign_in' | 'confirm';
  user_id: string | null;
  ticket_hash: string | null;
  expires_at: string;
  created_at: string;
}
export type WebauthnChallengeRow = Selectable<WebauthnChallengesTable>;

export interface SessionSecondFactorsTable {
  token_hash: string;
  verified_at: string;
  /** totp, passkey or recovery_code; null for rows written before it was kept. */
  method: string | null;
}

export interface PayeeDetailsTable {
  affiliate_id: string;
  details: string;
  key_id: string;
  updated_by: string | null;
  updated_at: string;
  held_until: string;
  created_at: string;
}
export type PayeeDetailsRow = Selectable<PayeeDetailsTable>;

export interface SecondFactorRequirementsTable {
  account: string;
  required_by: string;
  created_at: string;
}

export interface DB {
  users: UsersTable;
  user_links: UserLinksTable;
  sessions: SessionsTable;
  view_sessions: ViewSessionsTable;
  user_totp: UserTotpTable;
  user_recovery_codes: UserRecoveryCodesTable;
  user_passkeys: UserPasskeysTable;
  second_factor_tickets: SecondFactorTicketsTable;
  webauthn_challenges: WebauthnChallengesTable;
  session_second_factors: SessionSecondFactorsTable;
  second_factor_requirements: SecondFactorRequirementsTable;
  payee_details: PayeeDetailsTable;
  settings: SettingsTable;
  scheduled_tasks: ScheduledTasksTable;
  mail_messages: MailMessagesTable;
  click_rollups: ClickRollupsTable;
  order_rollups: OrderRollupsTable;
  /** The same sums per UTC day: a read of whole days takes one row per day instead of 24. */
  click_rollups_daily: ClickRollupsTable;
  order_rollups_daily: OrderRollupsTable;
  rollup_progress: RollupProgressTable;
  click_count_progress: ClickCountProgressTable;
  unrolled_clicks: UnrolledClicksTable;
  channel_kinds: ChannelKindsTable;
  brands: BrandsTable;
  applications: ApplicationsTable;
  brand_categories: BrandCategoriesTable;
  affiliates: AffiliatesTable;
  affiliate_channels: AffiliateChannelsTable;
  brand_approvals: BrandApprovalsTable;
  api_keys: ApiKeysTable;
  postback_tokens: PostbackTokensTable;
  publishable_keys: PublishableKeysTable;
  link_keys: LinkKeysTable;
  link_script_sites: LinkScriptSitesTable;
  auto_links: AutoLinksTable;
  tag_reports: TagReportsTable;
  tag_tests: TagTestsTable;
  products: ProductsTable;
  product_feeds: ProductFeedsTable;
  feed_runs: FeedRunsTable;
  products_fts: ProductsFtsTable;
  campaigns: CampaignsTable;
  campaign_categories: CampaignCategoriesTable;
  short_links: ShortLinksTable;
  orders: OrdersTable;
  commission_rule_versions: CommissionRuleVersionsTable;
  affiliate_groups: AffiliateGroupsTable;
  affiliate_group_members: AffiliateGroupMembersTable;
  clicks: ClicksTable;
  order_events: OrderEventsTable;
  reconciliations: ReconciliationsTable;
  reconciliation_lines: ReconciliationLinesTable;
  approval_requests: ApprovalRequestsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  affiliate_postbacks: AffiliatePostbacksTable;
  postback_deliveries: PostbackDeliveriesTable;
  payouts: PayoutsTable;
  payout_batches: PayoutBatchesTable;
  statements: StatementsTable;
  statement_lines: StatementLinesTable;
  statement_payments: StatementPaymentsTable;
  adjustments: AdjustmentsTable;
  ledger_lines: LedgerLinesTable;
  claims: ClaimsTable;
  coupons: CouponsTable;
  audit_entries: AuditEntriesTable;
}

export type ClickRow = Selectable<ClicksTable>;
export type ClickRollupRow = Selectable<ClickRollupsTable>;
export type OrderRollupRow = Selectable<OrderRollupsTable>;
export type NewClickRow = Insertable<ClicksTable>;

export type BrandRow = Selectable<BrandsTable>;
export type ProductRow = Selectable<ProductsTable>;
export type CampaignRow = Selectable<CampaignsTable>;
export type ShortLinkRow = Selectable<ShortLinksTable>;
export type OrderRow = Selectable<OrdersTable>;
export type CommissionRuleVersionRow = Selectable<CommissionRuleVersionsTable>;
export type AffiliateGroupRow = Selectable<AffiliateGroupsTable>;
export type NewOrderRow = Insertable<OrdersTable>;
export type OrderEventRow = Selectable<OrderEventsTable>;
export type ClaimRow = Selectable<ClaimsTable>;
export type CouponRow = Selectable<CouponsTable>;
export type ApprovalRequestRow = Selectable<ApprovalRequestsTable>;
export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>;
export type WebhookEventRow = Selectable<WebhookEventsTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;
export type WebhookAttemptRow = Selectable<WebhookAttemptsTable>;
export type NewWebhookEvent = Omit<WebhookEventRow, 'created_at'>;
export type AffiliatePostbackRow = Selectable<AffiliatePostbacksTable>;
export type PostbackDeliveryRow = Selectable<PostbackDeliveriesTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type PayoutRow = Selectable<PayoutsTable>;
export type StatementRow = Selectable<StatementsTable>;
export type AdjustmentRow = Selectable<AdjustmentsTable>;
export type AuditEntryRow = Selectable<AuditEntriesTable>;
export type NewLedgerLine = Insertable<LedgerLinesTable>;
export type PostbackTokenRow = Selectable<PostbackTokensTable>;
export type PublishableKeyRow = Selectable<PublishableKeysTable>;
export type LinkKeyRow = Selectable<LinkKeysTable>;
export type AutoLinkRow = Selectable<AutoLinksTable>;
export type TagReportRow = Selectable<TagReportsTable>;
export type TagTestRow = Selectable<TagTestsTable>;
export type NewPostbackTokenRow = Insertable<PostbackTokensTable>;
