// Writes the SQL of every repository query, compiled for SQLite and for PostgreSQL, to
// src/storage/queries/{sqlite,postgres}/<repository>.sql, so a change to a query shows up in
// review as SQL. `--check` writes nothing and fails when the committed files differ from what
// the code compiles to (npm test runs it).
//
// Each repository method runs once per dialect against a driver that executes nothing (Kysely's
// DummyDriver: every query answers no rows) and the statements it sends are recorded. A method
// whose later statements depend on rows shows the statements up to that point.
//
//   npx tsx scripts/sync-sql.ts           # write the files
//   npx tsx scripts/sync-sql.ts --check   # compare only
import { mkdirSync, readFileSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type CompiledQuery,
  type Dialect as KyselyDialect,
} from 'kysely';
import { format } from 'sql-formatter';
import type { Database, Dialect } from '../src/storage/database.js';
import type { AffiliatePostbackRow, ClaimRow, DB, NewClickRow, OrderRow, PostbackDeliveryRow, WebhookDeliveryRow, WebhookEndpointRow } from '../src/storage/tables.js';
import { openRepositories, type Repositories } from '../src/storage/repositories/index.js';

const OUT = 'src/storage/queries';
const AFF = 'aff-1';
const BRAND = '11111111-1111-4111-8111-111111111111';
const NOW = '2026-01-01T00:00:00.000Z';
const PAGE = { limit: 20, offset: 40 };

const click: NewClickRow = {
  id: '0190f1c2a3b4c5d6e7f8091a2b3c4d5e',
  link_id: 'link-1',
  affiliate_id: AFF,
  channel_id: 'ch-1',
  organization_id: BRAND,
  mdasc: null,
  created_at: NOW,
  is_bot: 0,
  is_head: 0,
  is_repeat: 0,
  is_suspicious: 0,
  is_suspended: 0,
  counted: 1,
  visitor_hash: 'v',
  user_agent: 'Mozilla/5.0',
};

const endpoint: WebhookEndpointRow = {
  id: 'whe_1',
  owner_kind: 'affiliate',
  owner_id: AFF,
  url: 'https://hooks.example/affnet',
  description: '',
  events: ' order.created ',
  enabled: 1,
  disabled_reason: null,
  secret: 'whsec_c2VjcmV0',
  previous_secret: null,
  previous_secret_expires_at: null,
  failing_since: null,
  created_at: NOW,
  updated_at: NOW,
};

const delivery: WebhookDeliveryRow = {
  id: 'delivery-1',
  event_id: 'msg_1',
  endpoint_id: 'whe_1',
  status: 'pending',
  attempts: 0,
  next_attempt_at: NOW,
  lease_owner: 'instance-1',
  lease_until: NOW,
  created_at: NOW,
  updated_at: NOW,
};

const postback: AffiliatePostbackRow = {
  affiliate_id: AFF,
  id: 'voluum',
  url: 'https://tracker.example/postback?cid={click_id}&payout={commission}',
  events: ' conversion.created conversion.approved ',
  brand_ids: null,
  active: 1,
  created_at: NOW,
  updated_at: NOW,
};

const postbackDelivery: PostbackDeliveryRow = {
  id: 'postback-delivery-1',
  affiliate_id: AFF,
  postback_id: 'voluum',
  event: 'conversion.created',
  event_key: 'msg_1',
  payload: '{"type":"order.created","version":1,"timestamp":"2026-01-01T00:00:00.000Z","data":{}}',
  test: 0,
  status: 'pending',
  attempts: 0,
  url: null,
  response_status: null,
  error: null,
  failure: null,
  duration_ms: null,
  next_attempt_at: NOW,
  lease_owner: 'instance-1',
  lease_until: NOW,
  last_attempt_at: null,
  created_at: NOW,
  updated_at: NOW,
};

const order: OrderRow = {
  id: 'order-1',
  order_id: 'A-1001',
  organization_id: BRAND,
  affiliate_id: AFF,
  link_id: 'link-1',
  click_id: click.id,
  channel_id: 'ch-1',
  mdasc: null,
  status: 'pending',
  commission_status: 'pending',
  commission_reason: null,
  value: 19990,
  commission: 1499,
  commission_transfer: 'cps',
  commission_value: 750,
  commission_rules_version: 0,
  commission_lines: null,
  currency: 'BRL',
  items: '[]',
  click_created_at: NOW,
  click_country: null,
  link_code: 'Abc1234',
  paid_at: null,
  payout_id: null,
  statement_id: null,
  payable_at: null,
  lock_at: NOW,
  auto_approved: 0,
  source: 'api',
  attribution: 'click',
  hold_reasons: null,
  hold_facts: null,
  customer_hash: null,
  customer_is_new: null,
  coupon: null,
  coupon_key: null,
  coupon_affiliate_id: null,
  sub1: 'adset-7',
  sub2: null,
  sub3: null,
  sub4: null,
  sub5: null,
  created_at: NOW,
  updated_at: NOW,
};

const claim: ClaimRow = {
  id: 'claim-1',
  affiliate_id: AFF,
  organization_id: BRAND,
  order_id: 'A-1001',
  ordered_at: NOW,
  value: 19990,
  currency: 'BRL',
  link_code: null,
  click_id: null,
  note: '',
  status: 'open',
  accepted_value: null,
  reason: null,
  resolved_by: null,
  resolved_at: null,
  network_order_id: null,
  auto_accept_at: NOW,
  created_at: NOW,
  updated_at: NOW,
};
const NO_EFFECTS = { events: [], mail: [] };

const ROLLUP_RANGE = { affiliateId: AFF, organizationId: '', linkId: '', dimension: 'country', from: NOW, to: '2026-01-31T00:00:00.000Z' };

const APPLICATION = {
  id: 'apl_1',
  kind: 'affiliate',
  status: 'unverified',
  email: 'ana@example.com',
  name: 'Ana',
  language: 'en',
  country: 'BR',
  website: 'https://ana.example.com/',
  company: null,
  tax_id: null,
  currency: null,
  expected_monthly_orders: null,
  password_hash: null,
  terms_version: '1',
  terms_accepted_at: NOW,
  terms_address: '192.0.2.1',
  verify_token_hash: null,
  verify_expires_at: null,
  verified_at: null,
  decided_at: null,
  decided_by: null,
  decline_reason: null,
  affiliate_id: null,
  brand_id: null,
  created_at: NOW,
  updated_at: NOW,
} as const;

const payout = {
  id: 'payout-1',
  affiliate_id: AFF,
  currency: 'BRL',
  period_start: NOW,
  period_end: NOW,
  total: 5000,
  order_count: 1,
  adjustment_total: 0,
  created_at: NOW,
  batch_id: 'batch-1',
  status: 'pending',
  method: 'PIX',
  sent_at: null,
  settled_at: null,
  failed_at: null,
  failure_reason: null,
} as const;

const statement = {
  id: 'statement-1',
  brand_id: BRAND,
  currency: 'BRL',
  month: '2026-01',
  line_count: 1,
  commission: 1350,
  fee: 405,
  total: 1755,
  paid_amount: 0,
  fee_basis_points: 3000,
  issued_at: NOW,
  due_at: NOW,
  paid_at: null,
  overdue_notified_at: null,
} as const;

type Example = [label: string, run: (r: Repositories) => Promise<unknown>];

/** Every repository method, with arguments that exercise its optional parts. */
const EXAMPLES: Record<keyof Repositories, Example[]> = {
  affiliates: [
    ['exists', (r) => r.affiliates.exists(AFF)],
    ['anyExists', (r) => r.affiliates.anyExists()],
    ['save', (r) => r.affiliates.save({ id: AFF, name: 'Deals', created_at: NOW })],
    ['channelsOf', (r) => r.affiliates.channelsOf(AFF)],
    ['nameOf', (r) => r.affiliates.nameOf(AFF)],
    ['namesOf', (r) => r.affiliates.namesOf([AFF, 'aff-2'])],
    ['saveChannel', (r) => r.affiliates.saveChannel({ id: 'ch-1', affiliate_id: AFF, kind_id: 'site', name: 'Blog', created_at: NOW })],
    ['setChannelSite', (r) => r.affiliates.setChannelSite(AFF, 'ch-1', 'https://blog.example')],
    ['saveChannelKinds', (r) => r.affiliates.saveChannelKinds([{ id: 'site', name: 'Site' }])],
    ['channelKindExists', (r) => r.affiliates.channelKindExists('site')],
    ['standingOf', (r) => r.affiliates.standingOf(AFF)],
    ['suspendedAmong', (r) => r.affiliates.suspendedAmong([AFF, 'aff-2'])],
    ['setSuspension', (r) => r.affiliates.setSuspension(AFF, { suspended_at: NOW, suspension_reason: 'Fake traffic' }, NOW, {})],
  ],
  apiKeys: [
    [
      'insert',
      (r) =>
        r.apiKeys.insert({
          id: 'key_1',
          key_hash: 'h',
          key_prefix: 'afn_abcd',
          affiliate_id: AFF,
          brand_id: null,
          name: '',
          scopes: 'brands:read',
          rate_limit: 60,
          rate_window_seconds: 60,
          created_at: NOW,
          revoked_at: null,
        }),
    ],
    ['list', (r) => r.apiKeys.list({ affiliateId: AFF })],
    ['revoke', (r) => r.apiKeys.revoke('key_1', NOW)],
    ['findActive', (r) => r.apiKeys.findActive('h')],
  ],
  approvals: [
    ['programmeOf', (r) => r.approvals.programmeOf(BRAND)],
    ['findRequest', (r) => r.approvals.findRequest(AFF, BRAND)],
    ['request', (r) => r.approvals.request({ affiliate_id: AFF, brand_id: BRAND, status: 'pending', message: '', created_at: NOW, updated_at: NOW }, [])],
    ['approve', (r) => r.approvals.approve(AFF, BRAND, NOW)],
    ['revoke', (r) => r.approvals.revoke(AFF, BRAND, NOW)],
    ['promoters (approved, range)', (r) => r.approvals.promoters(BRAND, { from: NOW, to: NOW }, { status: 'approved' }, PAGE)],
    ['promoters (all)', (r) => r.approvals.promoters(BRAND, {}, {}, PAGE)],
    ['promoters (search, network)', (r) => r.approvals.promoters(BRAND, {}, { search: 'maria', network: true }, PAGE)],
  ],
  brands: [
    [
      'list (every filter)',
      (r) =>
        r.brands.list(
          AFF,
          { search: 'acme', categories: ['Shoes'], isExclusive: true, isFavorite: false, isHighlight: true, isPublic: true, createdFrom: NOW, createdTo: NOW },
          PAGE,
        ),
    ],
    ['list (no filter)', (r) => r.brands.list(AFF, {}, PAGE)],
    ['findVisible', (r) => r.brands.findVisible(AFF, BRAND)],
    ['promotableBy', (r) => r.brands.promotableBy(AFF)],
    ['find', (r) => r.brands.find(BRAND)],
    ['standingOf', (r) => r.brands.standingOf(BRAND)],
    ['setSuspension', (r) => r.brands.setSuspension(BRAND, { suspended_at: null, suspension_reason: null }, NOW, {})],
    ['setNetworkTerms', (r) => r.brands.setNetworkTerms(BRAND, { fee_basis_points: 3000, statement_due_days: 30 }, { fee_basis_points: 250, statement_due_days: 30 }, NOW, {})],
    ['exists', (r) => r.brands.exists(BRAND)],
    ['slugExists', (r) => r.brands.slugExists('shop')],
    ['setupOf', (r) => r.brands.setupOf(BRAND)],
    ['launch', (r) => r.brands.launch(BRAND, NOW)],
    ['trackingSeen', (r) => r.brands.trackingSeen(BRAND)],
    ['byIds', (r) => r.brands.byIds([BRAND])],
    ['namesOf', (r) => r.brands.namesOf([BRAND])],
    ['currenciesOf', (r) => r.brands.currenciesOf([BRAND])],
    ['isApproved', (r) => r.brands.isApproved(AFF, BRAND)],
    ['updateProfile', (r) => r.brands.updateProfile(BRAND, { home_url: 'https://acme.example/', domains: '["acme-shop.example"]', updated_at: NOW })],
    ['approve', (r) => r.brands.approve({ affiliate_id: AFF, brand_id: BRAND, created_at: NOW })],
    ['save', (r) => r.brands.save(BRAND, { name: 'Acme', slug: 'acme', updated_at: NOW }, { created_at: NOW, currency: 'BRL' }, [{ category: 'Shoes', category_key: 'shoes' }])],
  ],
  campaigns: [
    [
      'list (every filter)',
      (r) =>
        r.campaigns.list(
          AFF,
          {
            types: ['Offer'],
            offerType: 'Url',
            organizationIds: [BRAND],
            name: 'sale',
            isHighlight: true,
            categories: ['Shoes'],
            statuses: ['onTime', 'expired', 'scheduled'],
            periodFrom: NOW,
            periodTo: NOW,
          },
          PAGE,
          NOW,
        ),
    ],
    ['listOfBrand', (r) => r.campaigns.listOfBrand(BRAND, PAGE)],
    ['find', (r) => r.campaigns.find(BRAND, 'c-1')],
    ['withCode', (r) => r.campaigns.withCode(BRAND, 'maria10')],
    ['delete', (r) => r.campaigns.delete(BRAND, 'c-1')],
  ],
  affiliateGroups: [
    ['list', (r) => r.affiliateGroups.list(BRAND)],
    ['members', (r) => r.affiliateGroups.members(BRAND)],
    ['find', (r) => r.affiliateGroups.find(BRAND, 'vip')],
    ['put', (r) => r.affiliateGroups.put({ brand_id: BRAND, id: 'vip', name: 'VIP', tier_min_approved_orders: 5, tier_month: null, created_at: NOW, updated_at: NOW }, ['aff-1'])],
    ['replaceTier', (r) => r.affiliateGroups.replaceTier(BRAND, 'vip', ['aff-1'], '2026-11')],
    ['delete', (r) => r.affiliateGroups.delete(BRAND, 'vip')],
    ['groupsOf', (r) => r.affiliateGroups.groupsOf(BRAND, 'aff-1')],
    ['staleTiers', (r) => r.affiliateGroups.staleTiers('2026-11')],
    ['approvedAtLeast', (r) => r.affiliateGroups.approvedAtLeast(BRAND, '2026-10-01T00:00:00.000Z', '2026-11-01T00:00:00.000Z', 5)],
  ],
  commissionRules: [
    ['latest', (r) => r.commissionRules.latest(BRAND)],
    ['find', (r) => r.commissionRules.find(BRAND, 3)],
    ['inForce', (r) => r.commissionRules.inForce(BRAND, NOW)],
    ['dueDefaults', (r) => r.commissionRules.dueDefaults(NOW)],
    ['append', (r) => r.commissionRules.append({ brand_id: BRAND, rules: '[]', created_at: NOW, created_by: `brand:${BRAND}`, effective_at: NOW, default_transfer: 'cps', default_value: 750 }, () => ({}), { commission_transfer: 'cps', commission_value: 750 })],
    ['productOptions', (r) => r.commissionRules.productOptions(BRAND, ['p-1', 'p-2'])],
    ['productPrices', (r) => r.commissionRules.productPrices(BRAND, ['p-1', 'p-2'])],
    ['channelKind', (r) => r.commissionRules.channelKind('ch-1')],
  ],
  coupons: [
    ['put', (r) => r.coupons.put({ organization_id: BRAND, code_key: 'maria10', code: 'MARIA10', affiliate_id: AFF, campaign_id: null, created_at: NOW, updated_at: NOW })],
    ['find', (r) => r.coupons.find(BRAND, 'maria10')],
    ['keysOf', (r) => r.coupons.keysOf(BRAND, AFF)],
    ['list (brand, affiliate)', (r) => r.coupons.list({ brandId: BRAND, affiliateId: AFF }, PAGE)],
    ['list (affiliate)', (r) => r.coupons.list({ affiliateId: AFF }, PAGE)],
    ['remove', (r) => r.coupons.remove(BRAND, 'maria10')],
  ],
  categories: [
    ['ofBrands', (r) => r.categories.ofBrands([BRAND])],
    ['ofCampaigns', (r) => r.categories.ofCampaigns([{ organization_id: BRAND, id: 'c-1' }])],
  ],
  clicks: [
    ['write', (r) => r.clicks.write([click])],
    ['find', (r) => r.clicks.find(click.id)],
    ['pruneOlderThan', (r) => r.clicks.pruneOlderThan(Date.parse('2026-01-01T00:00:00.000Z'), 1000)],
  ],
  rollups: [
    ['clicksByHour', (r) => r.rollups.clicksByHour({ ...ROLLUP_RANGE, match: { equals: 'US' } })],
    ['clicksByHour (whole days per day)', (r) => r.rollups.clicksByHour({ ...ROLLUP_RANGE, dimension: 'all', days: true })],
    ['clicksByHourAndValue (facts of a brand)', (r) => r.rollups.clicksByHourAndValue({ ...ROLLUP_RANGE, affiliateId: '', organizationId: 'b-1', dimension: 'facts' })],
    ['clicksByHour (device of a pair)', (r) => r.rollups.clicksByHour({ ...ROLLUP_RANGE, dimension: 'device_country', match: { prefix: 'mobile|' } })],
    ['clicksByValue', (r) => r.rollups.clicksByValue(ROLLUP_RANGE, 100)],
    ['clicksByValue (top links, largest counts of each period first)', (r) => r.rollups.clicksByValue({ ...ROLLUP_RANGE, dimension: 'link' }, 10)],
    ['clicksByValue (every combination of facts)', (r) => r.rollups.clicksByValue({ ...ROLLUP_RANGE, affiliateId: '', organizationId: 'b-1', dimension: 'facts' }, undefined, true)],
    ['clicksByValue (uncounted, country of a pair)', (r) => r.rollups.clicksByValue({ ...ROLLUP_RANGE, dimension: 'device_country', match: { suffix: '|US' } }, 100, true)],
    ['ordersByHour', (r) => r.rollups.ordersByHour({ ...ROLLUP_RANGE, currency: 'BRL' })],
    ['ordersByValue', (r) => r.rollups.ordersByValue(ROLLUP_RANGE, 'sales', 100)],
    ['clicksOfMembers (every brand, per day)', (r) => r.rollups.clicksOfMembers('brand', NOW, NOW, { period: 'day' })],
    ['clicksOfMembers (per affiliate and month)', (r) => r.rollups.clicksOfMembers('affiliate', NOW, NOW, { period: 'month', perMember: true })],
    ['clicksOfMembers (per brand, whole range)', (r) => r.rollups.clicksOfMembers('brand', NOW, NOW, { perMember: true })],
    ['firstHour', (r) => r.rollups.firstHour({ ...ROLLUP_RANGE, dimension: 'all', value: '' }, ROLLUP_RANGE)],
    ['rebuild', (r) => r.rollups.rebuild(NOW)],
    ['everything', (r) => r.rollups.everything()],
  ],
  subIdFigures: [
    ['clicks (by sub-id, filtered by another)', (r) => r.subIdFigures.clicks({ affiliateId: AFF, from: NOW, to: NOW, by: 'sub1', subIds: { sub2: 'creative-3' }, limit: 100 })],
    ['clicks (per hour, every filter, uncounted)', (r) => r.subIdFigures.clicks({ affiliateId: AFF, from: NOW, to: NOW, by: 'hour', subIds: { sub1: 'adset-7' }, organizationId: BRAND, linkId: 'link-1', channelId: 'ch-1', country: 'BR', device: 'mobile' }, true)],
    ['orders (by sub-id)', (r) => r.subIdFigures.orders({ affiliateId: AFF, from: NOW, to: NOW, by: 'sub1', limit: 100 }, 'commission')],
    ['orders (per hour, filtered)', (r) => r.subIdFigures.orders({ affiliateId: AFF, from: NOW, to: NOW, by: 'hour', subIds: { sub1: 'adset-7' }, country: 'BR', currency: 'BRL' }, 'orders')],
  ],
  settings: [
    ['get', (r) => r.settings.get('visitor_salt')],
    ['getOrCreate', (r) => r.settings.getOrCreate('visitor_salt', 'salt', NOW)],
    ['set', (r) => r.settings.set('visitor_salt', 'salt', NOW)],
  ],
  mail: [
    ['queue', (r) => r.mail.queue([{ to_address: 'ana@example.com', template: 'invitation', locale: 'en', params: '{}', link_user_id: 'usr_1', link_application_id: null, with_link: 1 }], NOW)],
    ['claimDue', (r) => r.mail.claimDue('instance-1', NOW, NOW, 10)],
    ['recordAttempt', (r) => r.mail.recordAttempt({ id: 'm-1', to_address: 'ana@example.com', template: 'invitation', locale: 'en', params: '{}', link_user_id: 'usr_1', link_application_id: null, with_link: 1, status: 'pending', attempts: 0, next_attempt_at: NOW, lease_owner: 'instance-1', lease_until: NOW, last_error: null, created_at: NOW, sent_at: null, updated_at: NOW }, { status: 'sent', next_attempt_at: NOW, last_error: null, params: null, sent_at: NOW }, NOW)],
    ['find', (r) => r.mail.find('m-1')],
    ['pruneOlderThan', (r) => r.mail.pruneOlderThan(Date.parse(NOW), 1000)],
  ],
  brandScores: [
    ['brands', (r) => r.brandScores.brands()],
    ['orderFacts', (r) => r.brandScores.orderFacts(NOW)],
    ['decisionTimes', (r) => r.brandScores.decisionTimes(NOW)],
    ['clickFacts', (r) => r.brandScores.clickFacts(NOW)],
    ['save', (r) => r.brandScores.save(BRAND, { rating_approval: 4.5, rating_commission: 2.5, rating_conversion: 1.2, rating_popularity: 5, rating_validation: 3.1, ratings_absent: 0, epc_cents: 120, median_decision_seconds: 86_400, scores_computed_at: NOW })],
    ['computed', (r) => r.brandScores.computed(BRAND)],
  ],
  scheduledTasks: [
    ['ensure', (r) => r.scheduledTasks.ensure(['clicks-retention', 'webhooks-retention'], NOW)],
    ['claimDue', (r) => r.scheduledTasks.claimDue(['clicks-retention', 'webhooks-retention'], 'instance-1', NOW, NOW)],
    ['recordRun', (r) => r.scheduledTasks.recordRun({ name: 'clicks-retention', next_run_at: NOW, failures: 0, lease_owner: 'instance-1', lease_until: NOW, last_run_at: null, last_error: null, updated_at: NOW }, { next_run_at: NOW, failures: 0, last_error: null }, NOW)],
    ['find', (r) => r.scheduledTasks.find('clicks-retention')],
  ],
  applications: [
    ['submit', (r) => r.applications.submit(APPLICATION, [])],
    ['findOpen', (r) => r.applications.findOpen('ana@example.com', 'affiliate')],
    ['find', (r) => r.applications.find('apl_1')],
    ['list', (r) => r.applications.list({ status: 'pending', kind: 'brand' }, 100)],
    ['page (pending)', (r) => r.applications.page({ status: 'pending' }, PAGE)],
    ['page (decided)', (r) => r.applications.page({ status: 'approved', kind: 'affiliate' }, PAGE)],
    ['queueMail', (r) => r.applications.queueMail([], NOW)],
    ['setVerifyToken', (r) => r.applications.setVerifyToken('apl_1', 'h', NOW, NOW)],
    ['verify', (r) => r.applications.verify('h', NOW, () => [])],
    ['approve', (r) => r.applications.approve('apl_1', { affiliate: { id: 'aff-2', name: 'Ana', created_at: NOW }, owner: { id: 'usr_2', email: 'ana@example.com', affiliate_id: 'aff-2', brand_id: null, role: 'owner', password_hash: null, language: 'en', created_at: NOW, updated_at: NOW } }, 'cli', {}, NOW)],
    ['decline', (r) => r.applications.decline('apl_1', 'no site', 'cli', {}, NOW)],
    ['pruneOlderThan', (r) => r.applications.pruneOlderThan(Date.parse(NOW), 1000)],
  ],
  users: [
    ['findById', (r) => r.users.findById('usr_1')],
    ['setLanguage', (r) => r.users.setLanguage('usr_1', 'pt-BR', NOW)],
    ['insert', (r) => r.users.insert({ id: 'usr_1', email: 'ana@example.com', affiliate_id: AFF, brand_id: null, role: 'owner', password_hash: null, language: null, created_at: NOW, updated_at: NOW })],
    ['findByEmail', (r) => r.users.findByEmail('ana@example.com')],
    ['findOf', (r) => r.users.findOf({ affiliateId: AFF }, 'usr_1')],
    ['listOf', (r) => r.users.listOf({ brandId: BRAND })],
    ['setPassword', (r) => r.users.setPassword('usr_1', 'scrypt$…', NOW)],
    ['remove', (r) => r.users.remove('usr_1')],
    ['insertLink', (r) => r.users.insertLink({ token_hash: 'h', user_id: 'usr_1', purpose: 'sign_up', expires_at: NOW, created_at: NOW })],
    ['takeLink', (r) => r.users.takeLink('h', NOW)],
    [
      'insertSession',
      (r) =>
        r.users.insertSession({ token_hash: 's', id: 'ses_1', user_id: 'usr_1', csrf_token: 'c', created_at: NOW, last_seen_at: NOW, device: 'Firefox on Linux', country: 'BR', address: '192.0.2.1', device_hash: 'd' }),
    ],
    ['hasSessions', (r) => r.users.hasSessions('usr_1')],
    ['knowsDevice', (r) => r.users.knowsDevice('usr_1', 'd')],
    ['knowsDeviceOf', (r) => r.users.knowsDeviceOf('ana@example.com', 'd')],
    ['listSessions', (r) => r.users.listSessions('usr_1', NOW)],
    ['revokeSessionById', (r) => r.users.revokeSessionById('usr_1', 'ses_1', 'd', NOW)],
    ['revokeOtherSessions', (r) => r.users.revokeOtherSessions('usr_1', 's', 'd', NOW)],
    ['forgetAddresses', (r) => r.users.forgetAddresses(NOW)],
    ['findSession', (r) => r.users.findSession('s')],
    ['touchSession', (r) => r.users.touchSession('s', NOW)],
    ['revokeSession', (r) => r.users.revokeSession('s', NOW)],
    ['revokeSessionsOf', (r) => r.users.revokeSessionsOf('usr_1', NOW)],
  ],
  secondFactors: [
    ['findTotp', (r) => r.secondFactors.findTotp('usr_1')],
    ['startTotp', (r) => r.secondFactors.startTotp('usr_1', 'v1.iv.tag.data', NOW)],
    ['acceptStep', (r) => r.secondFactors.acceptStep('usr_1', 59_000_000, NOW)],
    ['removeTotp', (r) => r.secondFactors.removeTotp('usr_1')],
    ['replaceRecoveryCodes', (r) => r.secondFactors.replaceRecoveryCodes('usr_1', ['h1', 'h2'], NOW)],
    ['useRecoveryCode', (r) => r.secondFactors.useRecoveryCode('usr_1', 'h1', NOW)],
    ['recoveryCodesLeft', (r) => r.secondFactors.recoveryCodesLeft('usr_1')],
    ['listPasskeys', (r) => r.secondFactors.listPasskeys('usr_1')],
    ['findPasskey', (r) => r.secondFactors.findPasskey('cred-1')],
    ['insertPasskey', (r) => r.secondFactors.insertPasskey({ id: 'cred-1', user_id: 'usr_1', name: 'Laptop', public_key: 'pk', counter: 0, transports: '["internal"]', created_at: NOW, last_used_at: null })],
    ['usePasskey', (r) => r.secondFactors.usePasskey('cred-1', 1, NOW)],
    ['renamePasskey', (r) => r.secondFactors.renamePasskey('usr_1', 'cred-1', 'Phone')],
    ['removePasskey', (r) => r.secondFactors.removePasskey('usr_1', 'cred-1')],
    ['insertTicket', (r) => r.secondFactors.insertTicket({ token_hash: 't', user_id: 'usr_1', expires_at: NOW, created_at: NOW })],
    ['ticketUser', (r) => r.secondFactors.ticketUser('t', NOW, 5)],
    ['ticketFailed', (r) => r.secondFactors.ticketFailed('t')],
    ['takeTicket', (r) => r.secondFactors.takeTicket('t', NOW)],
    ['insertChallenge', (r) => r.secondFactors.insertChallenge({ challenge: 'ch', purpose: 'register', user_id: 'usr_1', ticket_hash: null, expires_at: NOW, created_at: NOW })],
    ['takeChallenge', (r) => r.secondFactors.takeChallenge('ch', NOW)],
    ['pruneExpired', (r) => r.secondFactors.pruneExpired(NOW)],
    ['markSessionVerified', (r) => r.secondFactors.markSessionVerified('s', NOW, 'totp')],
    ['sessionVerifiedAt', (r) => r.secondFactors.sessionVerifiedAt('s')],
    ['isRequired', (r) => r.secondFactors.isRequired(`affiliate:${AFF}`)],
    ['setRequired', (r) => r.secondFactors.setRequired(`affiliate:${AFF}`, true, 'usr_1', NOW)],
    ['setRequired (off)', (r) => r.secondFactors.setRequired(`affiliate:${AFF}`, false, 'usr_1', NOW)],
    ['hasFactor', (r) => r.secondFactors.hasFactor('usr_1')],
    ['removeAll', (r) => r.secondFactors.removeAll('usr_1', NOW, [], [])],
  ],
  links: [
    ['findByCode', (r) => r.links.findByCode('Abc1234')],
    ['codesOf', (r) => r.links.codesOf(['link-1', 'link-2'])],
    [
      'insertOrGet',
      (r) =>
        r.links.insertOrGet(
          {
            id: 'link-1',
            code: 'Abc1234',
            affiliate_id: AFF,
            channel_id: 'ch-1',
            organization_id: BRAND,
            link_type: 'BrandPage',
            feature_id: null,
            request_key: '["BrandPage","https://acme.example/",null]',
            original_url: 'https://acme.example/',
            mdasc: null,
          },
          NOW,
        ),
    ],
    ['forResources (brands)', (r) => r.links.forResources(AFF, { brandIds: [BRAND], linkTypes: ['BrandPage'] })],
    ['forResources (campaigns)', (r) => r.links.forResources(AFF, { featureIds: ['c-1'], linkTypes: ['Coupon', 'Offer'] })],
    ['list', (r) => r.links.list(AFF, { linkType: 'Coupon', featureId: 'c-1', organizationId: BRAND }, PAGE)],
    ['findRedirectTarget', (r) => r.links.findRedirectTarget('Abc1234')],
    ['suspendedMembers', (r) => r.links.suspendedMembers()],
    ['changesSince', (r) => r.links.changesSince(NOW)],
    ['setActive', (r) => r.links.setActive('Abc1234', false, NOW)],
    ['codeOf', (r) => r.links.codeOf('link-1')],
  ],
  orders: [
    ['commissionTotals', (r) => r.orders.commissionTotals(AFF, { organizationIds: [BRAND], from: NOW, to: NOW })],
    [
      'list (every filter)',
      (r) =>
        r.orders.list(
          AFF,
          { organizationIds: [BRAND], withMdasc: true, from: NOW, to: NOW, statuses: ['pending'], commissionStatuses: ['approved'], payoutId: 'payout-1', couponKey: 'maria10', subIds: { sub1: 'adset-7', sub2: 'creative-3' } },
          PAGE,
        ),
    ],
    ['findForAffiliate', (r) => r.orders.findForAffiliate(AFF, 'A-1001')],
    ['insert', (r) => r.orders.insert(order)],
    ['createOnce', (r) => r.orders.createOnce(order, { actor: `brand:${BRAND}`, keyId: 'key_1' }, NOW)],
    ['pendingLockedBy', (r) => r.orders.pendingLockedBy(NOW, 500)],
    ['findBrandOrder', (r) => r.orders.findBrandOrder(BRAND, 'A-1001')],
    ['change', (r) => r.orders.change(order, { value: 18000, commission: 1350 }, { actor: `brand:${BRAND}`, keyId: 'key_1' }, NOW)],
    [
      'change (a hold released)',
      (r) => r.orders.change({ ...order, commission_status: 'held' }, { commission_status: 'pending', lock_at: NOW, hold_facts: '{}' }, { actor: 'operator:cli' }, NOW, [], [], { audit: [{ actor_kind: 'cli', actor_id: null, acting_as: null, address: null, action: 'order.hold_released', subject_kind: 'order', subject_id: 'order-1', affiliate_id: AFF, brand_id: BRAND, before: null, after: null, reason: null }] }),
    ],
    ['historyOf', (r) => r.orders.historyOf('order-1')],
    [
      'listForBrand (every filter)',
      (r) => r.orders.listForBrand(BRAND, { statuses: ['pending'], commissionStatuses: ['pending'], affiliateId: AFF, orderId: 'A-1001', from: NOW, to: NOW }, PAGE),
    ],
    ['existingIds', (r) => r.orders.existingIds(['order-1'])],
    ['numbersOf', (r) => r.orders.numbersOf(['order-1'])],
  ],
  claims: [
    ['file', (r) => r.claims.file(claim, NO_EFFECTS, NOW)],
    ['find', (r) => r.claims.find('claim-1')],
    ['openFor', (r) => r.claims.openFor(BRAND, 'A-1001')],
    ['list (affiliate, status)', (r) => r.claims.list({ affiliateId: AFF }, { statuses: ['open'] }, PAGE)],
    ['list (brand)', (r) => r.claims.list({ brandId: BRAND }, {}, PAGE)],
    ['accept', (r) => r.claims.accept(claim, { value: 19990, by: 'brand', orderNetworkId: 'order-2', order: { ...order, id: 'order-2', order_id: 'A-1002' } }, { actor: `brand:${BRAND}` }, NOW, NO_EFFECTS)],
    ['decline', (r) => r.claims.decline(claim, { reason: 'No such order', by: 'brand' }, NOW, NO_EFFECTS)],
    ['openDueBy', (r) => r.claims.openDueBy(NOW, 200)],
  ],
  payees: [
    ['find', (r) => r.payees.find(AFF)],
    ['save', (r) => r.payees.save({ affiliate_id: AFF, details: 'pk1.0a1b2c3d.iv.tag.data', key_id: '0a1b2c3d', updated_by: 'usr_1', updated_at: NOW, held_until: NOW }, [], NOW)],
    ['notUnderKey', (r) => r.payees.notUnderKey('0a1b2c3d', 'aff-0', 100)],
    ['reencrypt', (r) => r.payees.reencrypt(AFF, 'pk1.0a1b2c3d.iv.tag.data', { details: 'pk1.4e5f6a7b.iv.tag.data', key_id: '4e5f6a7b' })],
    ['countByKey', (r) => r.payees.countByKey()],
  ],
  payouts: [
    ['payable', (r) => r.payouts.payable(AFF)],
    ['payable (everyone)', (r) => r.payouts.payable()],
    ['createRun', (r) => r.payouts.createRun({ id: 'batch-1', created_by: 'cli', created_at: NOW }, [{ id: 'payout-1', affiliate_id: AFF, currency: 'BRL', minimum: 5000, method: 'PIX' }], () => ({}))],
    ['send', (r) => r.payouts.send(payout, NOW, {})],
    ['settle', (r) => r.payouts.settle({ ...payout, status: 'sent' }, NOW, {})],
    ['fail', (r) => r.payouts.fail({ ...payout, status: 'sent' }, 'account closed', NOW, {})],
    ['recordPast', (r) => r.payouts.recordPast(AFF, NOW, 'payout-2', NOW, () => ({}))],
    ['list', (r) => r.payouts.list(AFF, PAGE)],
    ['find', (r) => r.payouts.find(AFF, 'payout-1')],
    ['ofBatch', (r) => r.payouts.ofBatch('batch-1')],
    ['batchExists', (r) => r.payouts.batchExists('batch-1')],
    ['batches', (r) => r.payouts.batches()],
    ['batchPage', (r) => r.payouts.batchPage(PAGE)],
    ['batchTotals', (r) => r.payouts.batchTotals(['batch-1'])],
  ],
  statements: [
    ['billable', (r) => r.statements.billable(NOW)],
    ['unbilled', (r) => r.statements.unbilled(BRAND, 'BRL', NOW)],
    ['issue', (r) => r.statements.issue(statement, [{ order_id: 'order-1', commission: 1350, fee: 405 }], {})],
    ['find', (r) => r.statements.find('statement-1')],
    ['findForBrand', (r) => r.statements.findForBrand(BRAND, 'statement-1')],
    ['list', (r) => r.statements.list(BRAND, PAGE)],
    ['listAll', (r) => r.statements.listAll(true)],
    ['search (overdue)', (r) => r.statements.search({ status: 'overdue', now: NOW }, PAGE)],
    ['search (brand, month)', (r) => r.statements.search({ brandId: BRAND, month: '2026-02', now: NOW }, PAGE)],
    ['lines', (r) => r.statements.lines('statement-1', PAGE)],
    ['approvedOrdersOf', (r) => r.statements.approvedOrdersOf('statement-1')],
    ['recordPayment', (r) => r.statements.recordPayment(statement, { id: 'payment-1', amount: 1755, reference: 'TX-1', recorded_by: 'cli', created_at: NOW }, {}, {})],
    ['payments', (r) => r.statements.payments('statement-1')],
    ['overdue', (r) => r.statements.overdue(NOW)],
    ['markOverdue', (r) => r.statements.markOverdue('statement-1', NOW, {})],
  ],
  adjustments: [
    ['create', (r) => r.adjustments.create({ id: 'adj-1', affiliate_id: AFF, currency: 'BRL', amount: -500, reason: 'refund', created_by: 'cli', created_at: NOW, payout_id: null }, {})],
    ['listOf', (r) => r.adjustments.listOf(AFF)],
    ['list', (r) => r.adjustments.list(undefined, PAGE)],
    ['list (affiliate)', (r) => r.adjustments.list(AFF, PAGE)],
  ],
  members: [
    ['affiliates', (r) => r.members.affiliates(undefined, { limit: 20, offset: 0 })],
    ['affiliates (search)', (r) => r.members.affiliates('deal', { limit: 20, offset: 0 })],
    ['affiliate', (r) => r.members.affiliate(AFF)],
    ['brands', (r) => r.members.brands(undefined, { limit: 20, offset: 0 })],
    ['brands (search)', (r) => r.members.brands('acme', { limit: 20, offset: 0 })],
    ['orders (affiliate)', (r) => r.members.orders({ affiliateId: AFF }, NOW, NOW)],
    ['orders (brand)', (r) => r.members.orders({ brandId: 'b1' }, NOW, NOW)],
  ],
  figures: [
    ['orders (per day)', (r) => r.figures.orders(NOW, NOW, { period: 'day' })],
    ['orders (per brand)', (r) => r.figures.orders(NOW, NOW, { member: 'brand' })],
    ['orders (per month and affiliate)', (r) => r.figures.orders(NOW, NOW, { period: 'month', member: 'affiliate' })],
    ['names', (r) => r.figures.names('affiliate', [AFF, 'aff-2'])],
  ],
  holds: [
    ['countedClicksOfDay', (r) => r.holds.countedClicksOfDay(AFF, BRAND, NOW)],
    ['countedClicksOfDay (all brands)', (r) => r.holds.countedClicksOfDay(AFF, undefined, NOW)],
    ['countedClicksByNetwork', (r) => r.holds.countedClicksByNetwork(AFF, NOW)],
    ['clickConversionsBetween', (r) => r.holds.clickConversionsBetween(AFF, BRAND, NOW, NOW, 'order-1')],
    ['conversionsOfClick', (r) => r.holds.conversionsOfClick(click.id, 'order-1')],
    ['held', (r) => r.holds.held({}, PAGE)],
    ['held (filtered)', (r) => r.holds.held({ affiliateId: AFF, brandId: BRAND }, PAGE)],
    ['byIds', (r) => r.holds.byIds(['order-1', 'order-2'])],
    ['recordOf', (r) => r.holds.recordOf(AFF)],
  ],
  audit: [
    ['record', (r) => r.audit.record([{ actor_kind: 'operator', actor_id: 'usr-1', acting_as: null, address: '203.0.113.9', action: 'affiliate.suspended', subject_kind: 'affiliate', subject_id: AFF, affiliate_id: AFF, brand_id: null, before: null, after: null, reason: 'fraud' }], NOW)],
    ['list', (r) => r.audit.list({}, { limit: 50, offset: 0 })],
    ['list (filtered)', (r) => r.audit.list({ affiliateId: AFF, actorId: 'usr-1', actorKind: 'operator', action: 'affiliate.', from: NOW, to: NOW }, { limit: 50, offset: 0 })],
    ['list (brand, one action)', (r) => r.audit.list({ brandId: 'b1', action: 'claim.resolved' }, { limit: 50, offset: 0 })],
    ['dropAddressesBefore', (r) => r.audit.dropAddressesBefore(NOW)],
    ['namesOf', (r) => r.audit.namesOf({ users: ['usr-1'], keys: ['key-1'], orders: ['order-1'], applications: ['app-1'], claims: ['claim-1'], statements: ['st-1'], affiliates: [AFF], brands: ['b1'] })],
  ],
  viewSessions: [
    [
      'open',
      (r) =>
        r.viewSessions.open(
          { token_hash: 'h', id: 'vas_1', operator_id: 'usr-1', operator_session_id: 'ses_1', affiliate_id: AFF, brand_id: null, reason: 'support', created_at: NOW, last_seen_at: NOW, expires_at: NOW },
          [{ actor_kind: 'operator', actor_id: 'usr-1', acting_as: AFF, address: '203.0.113.9', action: 'member.viewed_as', subject_kind: 'affiliate', subject_id: AFF, affiliate_id: AFF, brand_id: null, before: null, after: null, reason: 'support' }],
        ),
    ],
    ['find', (r) => r.viewSessions.find('h')],
    ['touch', (r) => r.viewSessions.touch('h', NOW)],
    ['listOpen (affiliate)', (r) => r.viewSessions.listOpen({ affiliateId: AFF }, NOW, NOW)],
    ['listOpen (brand)', (r) => r.viewSessions.listOpen({ brandId: BRAND }, NOW, NOW)],
    ['endOfMember', (r) => r.viewSessions.endOfMember({ affiliateId: AFF }, ['vas_1', 'vas_2'], NOW)],
    ['endOfOperator', (r) => r.viewSessions.endOfOperator('h', 'ses_1', NOW)],
  ],
  ledger: [
    ['balances', (r) => r.ledger.balances()],
    ['balances (until)', (r) => r.ledger.balances(NOW)],
    ['movements', (r) => r.ledger.movements(NOW, NOW)],
    ['unbalancedEntries', (r) => r.ledger.unbalancedEntries()],
    ['expectedBalances', (r) => r.ledger.expectedBalances()],
  ],
  affiliateLedger: [
    ['balancesBefore', (r) => r.affiliateLedger.balancesBefore(AFF, NOW)],
    ['lines', (r) => r.affiliateLedger.lines(AFF, NOW, NOW)],
  ],
  postbackTokens: [
    ['replace', (r) => r.postbackTokens.replace({ id: 'pbt_1', brand_id: BRAND, token_hash: 'h', token_prefix: 'afp_abcd', created_at: NOW })],
    ['findActive', (r) => r.postbackTokens.findActive('h')],
  ],
  linkKeys: [
    ['replaceKey', (r) => r.linkKeys.replaceKey({ id: 'lk_1', affiliate_id: AFF, channel_id: 'ch-1', key: 'aflnk_abcd', created_at: NOW })],
    ['activeKeyOf', (r) => r.linkKeys.activeKeyOf('ch-1')],
    ['ownerOf', (r) => r.linkKeys.ownerOf('aflnk_abcd')],
    ['sitesOf', (r) => r.linkKeys.sitesOf('ch-1')],
    ['setSites', (r) => r.linkKeys.setSites('ch-1', ['https://blog.example', 'https://www.blog.example'], NOW)],
    ['setSites (none)', (r) => r.linkKeys.setSites('ch-1', [], NOW)],
    ['noteMade', (r) => r.linkKeys.noteMade({ link_id: 'link-1', affiliate_id: AFF, channel_id: 'ch-1', page_url: 'https://blog.example/post', created_at: NOW })],
    ['latestMade', (r) => r.linkKeys.latestMade('ch-1', 20)],
  ],
  tagInstall: [
    ['replaceKey', (r) => r.tagInstall.replaceKey({ id: 'pk_1', brand_id: BRAND, key: 'afk_abcd', created_at: NOW })],
    ['activeKeyOf', (r) => r.tagInstall.activeKeyOf(BRAND)],
    ['ownerOf', (r) => r.tagInstall.ownerOf('afk_abcd')],
    ['addReport', (r) => r.tagInstall.addReport({ id: 'tr_1', brand_id: BRAND, source: 'tag', order_id: 'A-1', outcome: 'accepted', reason: null, origin: 'https://shop.example', created_at: NOW, test_id: null, detail: null })],
    ['addTest', (r) => r.tagInstall.addTest({ id: '0123456789abcdef0123456789abcdef', brand_id: BRAND, created_at: NOW, visited_at: null, visit_origin: null })],
    ['testOf', (r) => r.tagInstall.testOf(BRAND, '0123456789abcdef0123456789abcdef')],
    ['testsSince', (r) => r.tagInstall.testsSince(BRAND, NOW)],
    ['markVisit', (r) => r.tagInstall.markVisit(BRAND, '0123456789abcdef0123456789abcdef', NOW, 'https://shop.example')],
    ['reportsOfTest', (r) => r.tagInstall.reportsOfTest('0123456789abcdef0123456789abcdef', 20)],
    ['refusedSince', (r) => r.tagInstall.refusedSince(BRAND, NOW, 20)],
    ['latestReports', (r) => r.tagInstall.latestReports(BRAND, 20)],
    ['awaitingConfirmation', (r) => r.tagInstall.awaitingConfirmation(BRAND, NOW)],
    ['deleteReportsBefore', (r) => r.tagInstall.deleteReportsBefore(NOW)],
  ],
  webhooks: [
    ['createEndpoint', (r) => r.webhooks.createEndpoint(endpoint)],
    ['listEndpoints', (r) => r.webhooks.listEndpoints('affiliate', AFF)],
    ['findEndpoint', (r) => r.webhooks.findEndpoint('affiliate', AFF, 'whe_1')],
    ['updateEndpoint', (r) => r.webhooks.updateEndpoint('affiliate', AFF, 'whe_1', { enabled: 1, disabled_reason: null, updated_at: NOW })],
    ['deleteEndpoint', (r) => r.webhooks.deleteEndpoint('affiliate', AFF, 'whe_1')],
    ['listAttempts', (r) => r.webhooks.listAttempts('whe_1', PAGE)],
    ['findDelivery', (r) => r.webhooks.findDelivery('whe_1', 'delivery-1')],
    ['redeliver', (r) => r.webhooks.redeliver(delivery, NOW)],
    ['claimDue', (r) => r.webhooks.claimDue('instance-1', NOW, NOW, 20, 4)],
    [
      'recordAttempt',
      (r) =>
        r.webhooks.recordAttempt(
          delivery,
          {
            delivery: { status: 'delivered', next_attempt_at: NOW },
            log: { delivery_id: 'delivery-1', endpoint_id: 'whe_1', event_id: 'msg_1', event_type: 'order.created', attempt: 1, outcome: 'delivered', response_status: 200, error: null, failure: null, duration_ms: 12, created_at: NOW },
            endpoint: { failing_since: null, enabled: 1, disabled_reason: null },
          },
          NOW,
        ),
    ],
    ['findEvent', (r) => r.webhooks.findEvent('msg_1')],
    ['backlog', (r) => r.webhooks.backlog()],
  ],
  postbacks: [
    ['list', (r) => r.postbacks.list(AFF)],
    ['find', (r) => r.postbacks.find(AFF, 'voluum')],
    ['save', (r) => r.postbacks.save(postback)],
    ['delete', (r) => r.postbacks.delete(AFF, 'voluum')],
    ['subscribed', (r) => r.postbacks.subscribed(AFF, 'commission.paid')],
    ['brandsOf', (r) => r.postbacks.brandsOf(AFF, [BRAND])],
    ['listDeliveries', (r) => r.postbacks.listDeliveries(AFF, 'voluum', PAGE)],
    ['insertDelivery', (r) => r.postbacks.insertDelivery({ ...postbackDelivery, test: 1, status: 'delivered', attempts: 1, lease_owner: null, lease_until: null })],
    ['claimDue', (r) => r.postbacks.claimDue('instance-1', NOW, NOW, 20, 4)],
    [
      'recordAttempt',
      (r) =>
        r.postbacks.recordAttempt(postbackDelivery, { status: 'delivered', next_attempt_at: NOW, url: 'https://tracker.example/postback?cid=c-1&payout=14.99', response_status: 200, error: null, failure: null, duration_ms: 12 }, NOW),
    ],
    ['prepareMonths', (r) => r.postbacks.prepareMonths()],
    ['dropMonthsEndedBy', (r) => r.postbacks.dropMonthsEndedBy()],
    ['pruneOlderThan', (r) => r.postbacks.pruneOlderThan(Date.parse(NOW), 1000)],
  ],
  feeds: [
    ['find', (r) => r.feeds.find(BRAND, 'main')],
    ['listOfBrand', (r) => r.feeds.listOfBrand(BRAND)],
    ['countOfBrand', (r) => r.feeds.countOfBrand(BRAND)],
    ['save', (r) => r.feeds.save(BRAND, 'main', { url: 'https://shop.example.com/feed.xml', format: 'google-xml', schedule: 'daily' }, NOW, true)],
    ['delete', (r) => r.feeds.delete(BRAND, 'main')],
    ['claimDue', (r) => r.feeds.claimDue('instance-1', NOW, NOW, 5)],
    ['claimNow', (r) => r.feeds.claimNow(BRAND, 'main', 'instance-1', NOW, NOW)],
    [
      'release',
      (r) =>
        r.feeds.release(
          { organization_id: BRAND, id: 'main', url: 'https://shop.example.com/feed.xml', format: 'google-xml', schedule: 'daily', next_run_at: NOW, lease_owner: 'instance-1', lease_until: NOW, failures: 0, last_run_id: null, last_complete_items: null, created_at: NOW, updated_at: NOW },
          { next_run_at: NOW, failures: 0, last_run_id: 'run-1', last_complete_items: 10 },
        ),
    ],
    ['startRun', (r) => r.feeds.startRun({ id: 'run-1', organization_id: BRAND, feed_id: 'main', source: 'fetch', started_at: NOW })],
    ['forgetRunsBeyond', (r) => r.feeds.forgetRunsBeyond(BRAND, 'main', 1000)],
    ['finishRun', (r) => r.feeds.finishRun('run-1', { status: 'complete', items: 10, added: 10, finished_at: NOW })],
    ['recordProgress', (r) => r.feeds.recordProgress('run-1', { items: 500, bytes: 250_000, refused: 0, added: 480, updated: 0, unchanged: 0 })],
    ['findRun', (r) => r.feeds.findRun(BRAND, 'main', 'run-1')],
    ['listRuns', (r) => r.feeds.listRuns(BRAND, 'main', PAGE)],
    ['storedProducts', (r) => r.feeds.storedProducts(BRAND, ['p-1', 'p-2'])],
    [
      'writeBatch',
      (r) =>
        r.feeds.writeBatch(
          BRAND,
          'main',
          'run-1',
          {
            inserts: [{ id: 'p-9', columns: { organization_id: BRAND, integration: 'feed:main', available: 1, name: 'Shoe', description: '', url: 'https://shop.example.com/p/9', images: '[]', options: '[]', metadata: '[]', price_cents: 100, search_text: 'shoe', updated_at: NOW } }],
            updates: [{ seq: 1, columns: { name: 'Shoe', updated_at: NOW } }],
            seen: [2, 3],
          },
          NOW,
        ),
    ],
    ['missingFromRun', (r) => r.feeds.missingFromRun(BRAND, 'main', 'run-1', 500)],
    ['makeUnavailable', (r) => r.feeds.makeUnavailable(BRAND, [{ seq: 1, options: '[]' }], NOW)],
  ],
  reconciliations: [
    [
      'create',
      (r) =>
        r.reconciliations.create({
          id: 'rec_1',
          organization_id: BRAND,
          platform: 'shopify',
          currency: 'BRL',
          range_from: null,
          range_to: null,
          rows: 0,
          counts: '{}',
          created_by: 'key_1',
          created_at: NOW,
          applied_at: null,
          applied_by: null,
          outcome: null,
        }),
    ],
    ['addLines', (r) => r.reconciliations.addLines([{ reconciliation_id: 'rec_1', seq: 0, kind: 'confirm', line: 2, order_id: 'A-1', network_id: order.id, detail: '{}' }])],
    ['finish', (r) => r.reconciliations.finish('rec_1', { range_from: NOW, range_to: NOW, rows: 1, counts: '{}' })],
    ['discard', (r) => r.reconciliations.discard('rec_1')],
    ['find', (r) => r.reconciliations.find(BRAND, 'rec_1')],
    ['linesOf', (r) => r.reconciliations.linesOf('rec_1', ['confirm', 'cancel', 'correct'], 500, 10)],
    ['ordersNotInFile', (r) => r.reconciliations.ordersNotInFile(BRAND, 'rec_1', NOW, NOW, { created_at: NOW, id: order.id }, 500)],
    ['ordersByIds', (r) => r.reconciliations.ordersByIds(BRAND, ['A-1', '#A-1'])],
    ['namedIn', (r) => r.reconciliations.namedIn('rec_1', ['A-1', 'A-2'])],
    ['apply', (r) => r.reconciliations.apply(BRAND, 'rec_1', [], { at: NOW, by: 'key_1' }, () => ({ outcome: '{}', audit: {} as never }))],
  ],
  products: [
    ['list (filters)', (r) => r.products.list(AFF, { organizationIds: [BRAND], isAvailable: true }, PAGE)],
    // On SQLite the page of a price range waits for the range's total (it chooses the plan).
    ['list (price range)', (r) => r.products.list(AFF, { priceFrom: 1000, priceTo: 5000 }, PAGE)],
    ['list (search)', (r) => r.products.list(AFF, { search: 'running shoes', isAvailable: true }, PAGE)],
    ['feedBatch (first)', (r) => r.products.feedBatch(AFF, { organizationIds: [BRAND], isAvailable: true }, undefined, 500)],
    ['feedBatch (search, next)', (r) => r.products.feedBatch(AFF, { search: 'running shoes', priceFrom: 1000, priceTo: 5000 }, 1234, 500)],
    ['find', (r) => r.products.find(BRAND, 'p-1')],
    ['delete', (r) => r.products.delete(BRAND, 'p-1')],
    ['listOfBrand', (r) => r.products.listOfBrand(BRAND, { isAvailable: true }, PAGE)],
    ['listOfBrand (search, by change)', (r) => r.products.listOfBrand(BRAND, { search: 'Trail shoe' }, PAGE, 'changed')],
    ['categoriesOfBrand', (r) => r.products.categoriesOfBrand(BRAND, 1000)],
    ['isNamed', (r) => r.products.isNamed(BRAND, ['p-1', 'p-1-41'], 'https://www.example.com/p/1')],
    ['makeUnavailable', (r) => r.products.makeUnavailable(BRAND, 'p-1', '[]', NOW)],
    [
      'save',
      (r) =>
        r.products.save(
          'p-1',
          {
            organization_id: BRAND,
            integration: null,
            available: 1,
            name: 'Shoe',
            description: '',
            url: 'https://acme.example/p-1',
            images: '[]',
            options: '[]',
            metadata: '[]',
            price_cents: 1000,
            search_text: 'shoe',
            updated_at: NOW,
          },
          NOW,
        ),
    ],
  ],
};

const KYSELY_DIALECTS: Record<Dialect, KyselyDialect> = {
  sqlite: {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  },
  postgres: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
};

/** The statement's parameters as JSON; ids drawn at random (UUIDs) as <uuid>, so the file is stable. */
const parametersOf = (q: CompiledQuery): string =>
  JSON.stringify(q.parameters).replace(/"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"/g, '"<uuid>"');

/** The SQL each example sends, per repository file, for one dialect. */
async function compileAll(dialect: Dialect): Promise<Map<string, string>> {
  let recorded: CompiledQuery[] = [];
  const db = new Kysely<DB>({
    dialect: KYSELY_DIALECTS[dialect],
    log: (event) => {
      if (event.level === 'query') recorded.push(event.query);
    },
  });
  const database: Database = { db, dialect, ping: async () => {}, stats: () => ({ queryErrors: 0 }), close: () => db.destroy() };
  const repositories = openRepositories(database);
  const files = new Map<string, string>();
  for (const [name, examples] of Object.entries(EXAMPLES)) {
    const sections: string[] = [];
    for (const [label, run] of examples) {
      recorded = [];
      // No row ever comes back, so a method that needs one stops with an error after its first statements.
      await run(repositories).catch(() => undefined);
      const statements = recorded.map(
        (q) => `${format(q.sql, { language: dialect === 'sqlite' ? 'sqlite' : 'postgresql', keywordCase: 'lower' })};\n-- parameters: ${parametersOf(q)}`,
      );
      sections.push(`-- ${name}.${label}\n${statements.join('\n\n') || '-- (no statement)'}`);
    }
    files.set(`${name}.sql`, `-- Generated by scripts/sync-sql.ts from src/storage/repositories: do not edit.\n\n${sections.join('\n\n')}\n`);
  }
  await db.destroy();
  return files;
}

const check = process.argv.includes('--check');
const differing: string[] = [];
for (const dialect of ['sqlite', 'postgres'] as const) {
  const dir = join(OUT, dialect);
  const files = await compileAll(dialect);
  if (!check) mkdirSync(dir, { recursive: true });
  const stale = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.sql') && !files.has(f)) : [];
  differing.push(...stale.map((f) => `${join(dir, f)} (no such repository any more)`));
  for (const [file, text] of files) {
    const path = join(dir, file);
    const committed = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
    if (committed === text) continue;
    if (check) differing.push(path);
    else writeFileSync(path, text);
  }
}
if (check && differing.length > 0) {
  console.error(`The SQL in ${OUT} differs from what the repositories compile to:\n  ${differing.join('\n  ')}\nRun \`npm run sql:sync\` and commit the result.`);
  process.exit(1);
}
console.log(check ? `${OUT}: up to date` : `${OUT}: written`);
