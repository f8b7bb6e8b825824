// Builds the services over one database: what the server (src/server.ts) and each command of the
// CLI call, and nothing else does. Every service gets its repositories and settings explicitly.
import type { Retention } from './domain/retention.js';
import { AuditService } from './domain/audit/audit-service.js';
import { MembersConsole } from './domain/console/members.js';
import { FiguresConsole } from './domain/console/figures.js';
import type { Database } from './storage/database.js';
import { openRepositories, type Repositories } from './storage/repositories/index.js';
import type { Clock } from './lib/clock.js';
import type { InvalidationPublisher } from './domain/invalidation.js';
import { AccessService } from './domain/access/access-service.js';
import { UsersService } from './domain/access/users-service.js';
import { ViewAsService } from './domain/access/view-as.js';
import { SecondFactorsService } from './domain/access/second-factors-service.js';
import { CodeGuesses } from './domain/access/code-guesses.js';
import { SignInDelays } from './domain/access/sign-in-delays.js';
import { memoryWindowCounter, type FailedKeyThrottle, type WindowCounter } from './domain/access/failed-key-throttle.js';
import { ChannelsService } from './domain/access/channels-service.js';
import { ApprovalsService } from './domain/access/approvals-service.js';
import { ApplicationsService } from './domain/access/applications-service.js';
import { CatalogService } from './domain/catalog/catalog-service.js';
import { CatalogWriter } from './domain/catalog/catalog-writer.js';
import { BrandLaunch } from './domain/catalog/brand-launch.js';
import { BrandScores } from './domain/catalog/brand-scores.js';
import { LinksService } from './domain/links/links-service.js';
import { LinkScripts } from './domain/links/link-keys.js';
import { AutoLinks } from './domain/links/auto-links.js';
import { OrdersService } from './domain/orders/orders.js';
import { PayoutsService } from './domain/orders/payouts.js';
import { OrderLocks } from './domain/orders/order-locks.js';
import { StatementsService } from './domain/ledger/statements-service.js';
import { LedgerService } from './domain/ledger/ledger-service.js';
import { PayoutRuns } from './domain/ledger/payout-runs.js';
import { ClaimsService } from './domain/orders/claims.js';
import { CouponsService } from './domain/orders/coupons-service.js';
import { CommissionRulesService } from './domain/orders/commission-rules-service.js';
import { AffiliateGroupsService } from './domain/orders/affiliate-groups.js';
import { WebhooksService } from './domain/webhooks/webhooks-service.js';
import { AnalyticsService } from './domain/analytics/analytics-service.js';
import { InstallationService } from './domain/installation.js';
import { PayeeService } from './domain/payees/payee-service.js';
import { SuspensionsService } from './domain/access/suspensions.js';
import { createKeyFileIfMissing, keyRingOf, type KeyRing } from './lib/key-ring.js';
import { newKeyText } from './lib/sealed-box.js';
import type { Config } from './config.js';
import { dialectOf, sqlitePath } from './storage/database.js';
import type { JobRunner } from './domain/jobs/job-runner.js';
import type { FeedsService } from './domain/feeds/feeds-service.js';
import { ProductFeeds } from './domain/catalog/product-feeds.js';
import type { TrackingService } from './domain/links/tracking-service.js';
import type { ConversionsService } from './domain/orders/conversions.js';
import type { TagConversions } from './domain/tag/tag-conversions.js';
import type { ReconciliationsService } from './domain/reconciliation/reconciliations.js';
import { TagInstallService } from './domain/tag/tag-install.js';
import { TagTestsService } from './domain/tag/tag-tests.js';
import type { HealthService } from './domain/health.js';
import type { PostbacksService } from './domain/postbacks/postbacks-service.js';
import { HoldsService } from './domain/orders/holds.js';
import type { FraudSettings } from './domain/orders/fraud-rules.js';
import { readAsnList } from './lib/ip-asn.js';

export interface Services {
  access: AccessService;
  analytics: AnalyticsService;
  /** Affiliates' sign-ups and brands' applications, and the operator's decisions on them. */
  applications: ApplicationsService;
  approvals: ApprovalsService;
  /** The audit trail: operators search it, members read their own account's entries. */
  audit: AuditService;
  /** Affiliates and brands as operators look them up, with their figures. */
  members: MembersConsole;
  /** The network's figures over time, by brand and by affiliate. */
  figures: FiguresConsole;
  catalog: CatalogService;
  /** The network's scores of each brand (network.rating), computed by the hourly brand-scores task. */
  brandScores: BrandScores;
  affiliateFeeds: ProductFeeds;
  /** Affiliates' channels. */
  channels: ChannelsService;
  /** Affiliates' claims of sales the tracking missed, and brands' answers. */
  claims: ClaimsService;
  /** Coupon codes brands give affiliates, which attribute conversions to them. */
  coupons: CouponsService;
  /** Brands' commission rules, and the explanation of each order's commission. */
  commissionRules: CommissionRulesService;
  affiliateGroups: AffiliateGroupsService;
  /** Catalogue writes: NDJSON imports and demo data. */
  imports: CatalogWriter;
  installation: InstallationService;
  /** Brands that joined through an application: their setup and launch. */
  launch: BrandLaunch;
  /** The ledger's check and report, operators' adjustments, affiliates' monthly statements. */
  ledger: LedgerService;
  links: LinksService;
  /** Affiliates' link scripts: each site channel's link key, its sites, the links it made. */
  linkScripts: LinkScripts;
  /** What the link script asks with a link key: the brands' domains, a link to a page of one. */
  autoLinks: AutoLinks;
  /** Fraud holds: the operator's review queue, and releasing or declining held commissions. */
  holds: HoldsService;
  /** Approves orders still pending at their lock date (scheduled, and before statements are issued). */
  locks: OrderLocks;
  orders: OrdersService;
  /** Where affiliates are paid: their payee details (encrypted), and where a payout goes. */
  payees: PayeeService;
  payouts: PayoutsService;
  /** Payout runs: what each affiliate has payable, paid in batches; the file for the bank; its results. */
  payoutRuns: PayoutRuns;
  /** Portal users' second factors: authenticator app, recovery codes, passkeys. */
  secondFactors: SecondFactorsService;
  /** Holds back the next sign-in after failures, longer each time, per account and per client address (apart for known devices); wrong passwords confirming a change count here too. */
  signInDelays: SignInDelays;
  /** Brands' monthly statements and the payments recorded against them. */
  statements: StatementsService;
  /** The network suspends and reactivates affiliates and brands. */
  suspensions: SuspensionsService;
  users: UsersService;
  /** The brands' tag installs: publishable keys, snippets, the tag's latest reports. */
  tagInstall: TagInstallService;
  tagTests: TagTestsService;
  /** Operators' read-only views of members (support). */
  viewAs: ViewAsService;
  webhooks: WebhooksService;
}

/** Every service, plus those only a running server has: the redirect loop, conversions, readiness. */
export interface ServingServices extends Services {
  tracking: TrackingService;
  conversions: ConversionsService;
  /** Conversions from the shop's pages (the tag, the pixel). */
  tag: TagConversions;
  /** Counts the tag's and the pixel's reports per client address (TRACK_LIMIT_PER_MINUTE). */
  trackReports: FailedKeyThrottle;
  /** Counts the link script's requests per client address (AUTO_LINK_LIMIT_PER_ADDRESS) and the links asked per key (AUTO_LINK_LIMIT_PER_KEY). */
  autoLinkRequests: { address: FailedKeyThrottle; key: FailedKeyThrottle };
  health: HealthService;
  /** Background work: the webhook outbox (queue `webhooks`), affiliates' postbacks (`postbacks`) and the scheduled tasks (`scheduled`); started with the server, tests run its rounds themselves. */
  jobs: JobRunner;
  /** Affiliates' postbacks: their trackers' URL templates, delivery logs and tests (sent through the webhooks' transport). */
  postbacks: PostbacksService;
  /** Brands' product feeds and their runs (fetched on the job runner's queue `feeds`). */
  feeds: FeedsService;
  /** Orders confirmed from the shop's own order export: previews and their application. */
  reconciliations: ReconciliationsService;
  /** Counts requests with invalid keys per client address, and says when one must wait. */
  failedKeys: FailedKeyThrottle;
  /** Counts sign-ups and brand applications per address given and per client address. */
  joinAttempts: { account: FailedKeyThrottle; address: FailedKeyThrottle };
  /** Counts tries of password links per client address. */
  passwordLinkAttempts: FailedKeyThrottle;
  /** Counts passwordless passkey sign-ins begun per client address (they name no account to count against). */
  passkeySignIns: FailedKeyThrottle;
  /** Counts requests for a password link per address asked for and per client address. */
  passwordResets: { account: FailedKeyThrottle; address: FailedKeyThrottle };
  /** Deletes raw clicks past CLICK_RETENTION_DAYS, the webhook outbox and log and postbacks' deliveries past WEBHOOK_RETENTION_DAYS, mail sent past MAIL_RETENTION_DAYS, unconfirmed sign-ups past APPLICATION_RETENTION_DAYS (hourly scheduled tasks). */
  retention: { clicks: Retention; webhooks: Retention; postbacks: Retention; mail: Retention; applications: Retention };
}

export interface ServiceSettings {
  clock: Clock;
  /** Base of short links (PUBLIC_URL). */
  publicUrl: string;
  /** Tells every instance's caches about revoked keys and (de)activated links. */
  publisher: InvalidationPublisher;
  /** Whether webhook endpoints may be http or local addresses (WEBHOOK_ALLOW_LOCAL_TARGETS). */
  webhookAllowLocalTargets?: boolean;
  /** How long a portal session lasts without use (SESSION_IDLE_MINUTES). */
  sessionIdleMs?: number;
  /** Whether affiliates are approved as soon as their address is confirmed (SIGNUP_AUTO_APPROVE). */
  signupAutoApprove?: boolean;
  /** The version of the terms people accept when they join (TERMS_VERSION). */
  termsVersion?: string;
  /** The least notice, in days, of a change of a brand's commission that could lower earnings (TERMS_NOTICE_MIN_DAYS). */
  termsNoticeMinDays?: number;
  /** Orders a brand needs in the scores' window before it is scored (SCORES_MIN_ORDERS). */
  scoresMinOrders?: number;
  /** How long a session's client address is kept (SESSION_ADDRESS_DAYS). */
  sessionAddressDays?: number;
  /** How long an audit entry's client address is kept (AUDIT_ADDRESS_DAYS). */
  auditAddressDays?: number;
  /** How long an operator's view as a member lasts (VIEW_AS_MINUTES). */
  viewAsMs?: number;
  /** The country of a client address (ISO 3166 alpha-2, ZZ when unknown). */
  countryOf?: (address: string) => string;
  /** scrypt's cost for the passwords set from now on (PASSWORD_HASH_COST). */
  passwordHashCost?: number;
  /** The network's name (NETWORK_NAME): what authenticator apps and passkeys show. */
  networkName?: string;
  /** The least a payout may be, in cents per currency (PAYOUT_MINIMUM). */
  payoutMinimums?: ReadonlyMap<string, number>;
  /** The keys of the payee details (payeeKeysFor); none: payee details cannot be saved. */
  payeeKeys?: () => KeyRing;
  /** How long payouts are held after payee details change (PAYEE_CHANGE_HOLD_HOURS). */
  payeeChangeHoldHours?: number;
  /** The data-centre networks (DATACENTER_ASNS_FILE, with ASN_DATABASE), for the review queue; null: none. */
  datacenterAsns?: ReadonlySet<number> | null;
  /** The counters of guesses (sign-ins, codes): shared through Redis by the server; this process's own otherwise. */
  windowCounter?: WindowCounter;
}

/** The fraud rules' thresholds of a configuration, the data-centre list read from its file (both files needed). */
export function fraudSettingsOf(
  config: Pick<Config, 'fraudMinClickToOrderSeconds' | 'fraudMaxConversionRateBp' | 'fraudMinClicks' | 'fraudMaxConversionsPerClick' | 'fraudMaxDatacenterShareBp' | 'asnDatabase' | 'datacenterAsnsFile'>,
): FraudSettings {
  return {
    minClickToOrderSeconds: config.fraudMinClickToOrderSeconds,
    maxConversionRateBp: config.fraudMaxConversionRateBp,
    minClicks: config.fraudMinClicks,
    maxConversionsPerClick: config.fraudMaxConversionsPerClick,
    maxDatacenterShareBp: config.fraudMaxDatacenterShareBp,
    datacenterAsns: config.asnDatabase !== null && config.datacenterAsnsFile !== null ? readAsnList(config.datacenterAsnsFile) : null,
  };
}

const NO_KEYS = keyRingOf({ currentKey: undefined, oldKeys: [], keyFile: null });

/**
 * The payee keys a configuration gives, and what the start should tell the operator. The embedded
 * database makes its key file at the first start when no key is configured (an in-memory one a key
 * for the process); PostgreSQL never makes one: instances must share a key the operator gives.
 */
export function payeeKeysFor(config: Pick<Config, 'databaseUrl' | 'payeeEncryptionKey' | 'payeeEncryptionOldKeys' | 'payeeKeyFile'>): {
  keys: () => KeyRing;
  notice?: { level: 'info' | 'warn'; message: string };
} {
  const embedded = dialectOf(config.databaseUrl) === 'sqlite';
  const inMemory = embedded && sqlitePath(config.databaseUrl) === ':memory:';
  const created = config.payeeEncryptionKey === undefined && embedded && config.payeeKeyFile !== null && createKeyFileIfMissing(config.payeeKeyFile);
  const keys = keyRingOf({ currentKey: config.payeeEncryptionKey ?? (inMemory && !config.payeeKeyFile ? newKeyText() : undefined), oldKeys: config.payeeEncryptionOldKeys, keyFile: config.payeeKeyFile });
  if (created) return { keys, notice: { level: 'info', message: `Made the key of payee details in ${config.payeeKeyFile} (first start): keep it with every backup of the database (affnet backup copies it); without it, payee details cannot be read` } };
  if (!keys().current) {
    const where = config.payeeKeyFile ? `PAYEE_ENCRYPTION_KEY is not set and ${config.payeeKeyFile} holds no key` : 'PAYEE_ENCRYPTION_KEY is not set';
    return { keys, notice: { level: 'warn', message: `No payee encryption key (${where}): affiliates cannot save payee details (answered 503) and payouts cannot read them. Set PAYEE_ENCRYPTION_KEY (openssl rand -base64 32), the same on every instance` } };
  }
  return { keys };
}

export function createServices(repositories: Repositories, settings: ServiceSettings): Services {
  const { clock, publicUrl, publisher } = settings;
  const links = new LinksService(repositories, clock, publisher, publicUrl);
  const users = new UsersService(repositories, clock, {
    publicUrl,
    sessionIdleMs: settings.sessionIdleMs ?? 60 * 60_000,
    ...(settings.sessionAddressDays !== undefined && { sessionAddressDays: settings.sessionAddressDays }),
    ...(settings.countryOf && { countryOf: settings.countryOf }),
    ...(settings.passwordHashCost !== undefined && { passwordHashCost: settings.passwordHashCost }),
  });
  const locks = new OrderLocks(repositories, clock);
  const windowCounter = settings.windowCounter ?? memoryWindowCounter(() => clock.now());
  const signInDelays = new SignInDelays(windowCounter);
  const secondFactors = new SecondFactorsService(repositories, users, clock, { publicUrl, networkName: settings.networkName ?? 'affnet' }, { codes: new CodeGuesses(windowCounter), passwords: signInDelays });
  const payees = new PayeeService(repositories, secondFactors, clock, { keys: settings.payeeKeys ?? NO_KEYS, holdHours: settings.payeeChangeHoldHours ?? 48, publicUrl });
  const access = new AccessService(repositories, clock, publisher);
  return {
    access,
    members: new MembersConsole(repositories, users, access, clock),
    figures: new FiguresConsole(repositories, clock),
    analytics: new AnalyticsService(repositories, clock),
    applications: new ApplicationsService(repositories, clock, { publicUrl, autoApprove: settings.signupAutoApprove ?? false, termsVersion: settings.termsVersion ?? '1', ...(settings.passwordHashCost !== undefined && { passwordHashCost: settings.passwordHashCost }) }),
    approvals: new ApprovalsService(repositories, clock, publisher, publicUrl),
    audit: new AuditService(repositories.audit, clock, { addressDays: settings.auditAddressDays ?? 90 }),
    catalog: new CatalogService(repositories, links, clock),
    brandScores: new BrandScores(repositories, clock, settings.scoresMinOrders ?? 20),
    affiliateFeeds: new ProductFeeds(repositories, links, clock),
    channels: new ChannelsService(repositories, clock),
    claims: new ClaimsService(repositories, clock, publicUrl),
    coupons: new CouponsService(repositories, clock),
    affiliateGroups: new AffiliateGroupsService(repositories, clock),
    commissionRules: new CommissionRulesService(repositories, clock, { publicUrl, noticeMinDays: settings.termsNoticeMinDays ?? 3 }),
    imports: new CatalogWriter(repositories, clock),
    installation: new InstallationService(repositories.settings, clock),
    launch: new BrandLaunch(repositories, clock),
    ledger: new LedgerService(repositories, clock),
    holds: new HoldsService(repositories, clock, { publicUrl, datacenterAsns: settings.datacenterAsns ?? null }),
    links,
    linkScripts: new LinkScripts(repositories, clock, publicUrl),
    autoLinks: new AutoLinks(repositories, links, clock, { allowHttp: settings.webhookAllowLocalTargets ?? false }),
    locks,
    orders: new OrdersService(repositories),
    payouts: new PayoutsService(repositories),
    payoutRuns: new PayoutRuns(repositories, payees, clock, {
      minimums: settings.payoutMinimums ?? new Map([['BRL', 5000]]),
      publicUrl,
    }),
    statements: new StatementsService(repositories, clock, { publicUrl, approveLocked: () => locks.approveLocked() }),
    suspensions: new SuspensionsService(repositories, clock, publisher),
    tagInstall: new TagInstallService(repositories, clock, publicUrl),
    tagTests: new TagTestsService(repositories, clock),
    users,
    viewAs: new ViewAsService(repositories, clock, { lifetimeMs: settings.viewAsMs ?? 30 * 60_000, sessionIdleMs: settings.sessionIdleMs ?? 60 * 60_000 }),
    secondFactors,
    signInDelays,
    payees,
    webhooks: new WebhooksService(repositories.webhooks, clock, settings.webhookAllowLocalTargets ?? false),
  };
}

/** The services over a database, for work that needs no running server (commands, tests). */
export function servicesOver(database: Database, settings: ServiceSettings): Services {
  return createServices(openRepositories(database), settings);
}
