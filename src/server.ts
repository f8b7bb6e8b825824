// Builds the running service from a configuration: database, optional Redis, repositories and
// services, the HTTP app, and a shutdown that stops accepting requests, then writes every
// buffered click.
import type { RequestListener } from 'node:http';
import type { Config } from './config.js';
import { openDatabase, type Database } from './storage/database.js';
import { migrateToLatest } from './storage/migrate.js';
import { openRedis, type RedisConnection } from './storage/redis.js';
import { openClickSink } from './storage/click-sink.js';
import { InstallationService, deepLinkKey } from './domain/installation.js';
import { openRepositories } from './storage/repositories/index.js';
import { countInWindow, countUp, markSeen } from './storage/redis-windows.js';
import { failedKeyThrottle, failoverWindowCounter, memoryWindowCounter } from './domain/access/failed-key-throttle.js';
import { noCountryLookup, openCountryLookup, type CountryLookup } from './lib/ip-country.js';
import { redisChannel } from './storage/redis-messages.js';
import { systemClock, type Clock } from './lib/clock.js';
import { previousMonth } from './domain/time.js';
import type { StatementsService } from './domain/ledger/statements-service.js';
import { ClickSpool } from './storage/click-spool.js';
import { ClickRecorder } from './domain/links/click-recorder.js';
import { RedirectCache } from './domain/links/redirect-cache.js';
import { TrackingService } from './domain/links/tracking-service.js';
import { DeepLinks } from './domain/links/deep-links.js';
import { memoryRepeatFilter, sharedRepeatFilter, type RepeatFilter } from './domain/links/repeat-filter.js';
import { memoryVelocityFilter, sharedVelocityFilter, type VelocityFilter } from './domain/links/velocity-filter.js';
import { TagConversions } from './domain/tag/tag-conversions.js';
import { ConversionsService } from './domain/orders/conversions.js';
import { ReconciliationsService } from './domain/reconciliation/reconciliations.js';
import { Retention } from './domain/retention.js';
import { HealthService } from './domain/health.js';
import { WebhookQueue } from './domain/webhooks/webhook-queue.js';
import { JobRunner } from './domain/jobs/job-runner.js';
import { ScheduledTasks } from './domain/jobs/scheduled-tasks.js';
import { InstanceTasks } from './domain/jobs/instance-tasks.js';
import { MailQueue } from './domain/mail/mail-queue.js';
import { FeedsService } from './domain/feeds/feeds-service.js';
import { FeedQueue } from './domain/feeds/feed-queue.js';
import { PostbackQueue } from './domain/postbacks/postback-queue.js';
import { PostbacksService } from './domain/postbacks/postbacks-service.js';
import type { MailTransport } from './domain/mail/transport.js';
import { outboxMailTransport, smtpMailTransport } from './outbound/mail-transport.js';
import { webhookTransport } from './outbound/webhook-transport.js';
import type { Resolver } from './outbound/outbound-target.js';
import { feedFetcher } from './outbound/feed-fetch.js';
import { randomUUID } from 'node:crypto';
import { INVALIDATION_CHANNEL, localBus, type Invalidation, type InvalidationBus, type InvalidationPublisher } from './domain/invalidation.js';
import { createServices, fraudSettingsOf, payeeKeysFor, type ServingServices } from './services.js';
import { FraudRules } from './domain/orders/fraud-rules.js';
import { holdNotices } from './domain/orders/holds.js';
import { ServiceMetrics } from './metrics/service-metrics.js';
import { buildApp, type RegisteredRoute } from './http/app.js';
import type { App, AppContext } from './http/context.js';

export interface Service {
  app: App;
  /** Every registered route, with its options (schema, scope). */
  routes: RegisteredRoute[];
  /** The HTTP request listener (redirect front, then Fastify); tests inject requests through it. */
  handler: RequestListener;
  services: ServingServices;
  /** What GET /metrics answers (on METRICS_PORT). */
  metrics: ServiceMetrics;
  /** The database the service runs on (tests read and arrange rows through it). */
  database: Database;
  /**
   * Stops serving the way SIGTERM asks: the listening server stops accepting and lets requests in
   * flight finish (for SHUTDOWN_TIMEOUT_MS at most), then close() writes buffered clicks.
   */
  stop(): Promise<void>;
  close(): Promise<void>;
}

export interface ServiceOptions {
  /** A database opened by the caller, who then also closes it. */
  database?: Database;
  logger?: boolean | object;
  /** What time it is; tests move it by hours or days. */
  clock?: Clock;
  /** How webhook destinations' host names are resolved (tests point names where they want). */
  resolveHost?: Resolver;
}

/** Repeat and velocity decisions shared through Redis when it is configured, this instance's own otherwise. */
function clickFilters(config: Config, redis: RedisConnection | undefined, logError: (message: string) => (error: unknown) => void): { repeats: RepeatFilter; velocity: VelocityFilter } {
  if (!redis) return { repeats: memoryRepeatFilter(config.repeatClickWindowMs), velocity: memoryVelocityFilter(config.clickVelocityLimit) };
  return {
    repeats: sharedRepeatFilter((keys, windowMs) => markSeen(redis, keys, windowMs), config.repeatClickWindowMs, logError('Redis unavailable for repeat detection; using the local window')),
    velocity: sharedVelocityFilter(
      (keys, windowMs) => countUp(redis, keys, windowMs),
      config.clickVelocityLimit,
      logError('Redis unavailable for the click velocity limit; using the local window'),
    ),
  };
}

/** Tries of password links allowed from one address in a quarter of an hour. */
const PASSWORD_LINK_LIMITS = { perAddress: 30, windowMs: 15 * 60_000 };
/** A mailbox gets a few links an hour at most, however many people ask for it. */
const PASSWORD_RESET_LIMITS = { perAccount: 3, perAddress: 10, windowMs: 60 * 60_000 };
/** Sign-ups and brand applications: per address given and per client address, in an hour. */
const JOIN_LIMITS = { perAccount: 3, perAddress: 10, windowMs: 60 * 60_000 };

/** How long a stopping server leaves idle keep-alive connections open: a busy client sends within it. */
const IDLE_GRACE_MS = 1000;
/** Beyond its flush interval, how long another instance may take to write a click a conversion names (a busy instance's write takes seconds). */
const CLICK_WRITE_ALLOWANCE_MS = 2000;
const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;
/** What a failed claim or record of each job queue means for the operator reading the log. */
const JOB_FAILURES: Record<string, string> = {
  webhooks: 'delivering webhooks failed; will retry',
  scheduled: 'running scheduled tasks (retention) failed; will retry',
  mail: 'sending mail failed; will retry',
  feeds: 'running product feeds failed; will retry',
  instance: 'updating the database statistics the query planner uses failed; will retry (queries keep running, perhaps slower)',
};

/** SMTP when configured; else the outbox folder; nothing where there is no folder (an in-memory database). */
function mailTransportFor(config: Config, written: (path: string) => void): MailTransport | undefined {
  if (config.smtpUrl) return smtpMailTransport(config.smtpUrl);
  return config.mailOutboxDir === null ? undefined : outboxMailTransport(config.mailOutboxDir, written);
}

/** The statements' scheduled work: the previous month's statements (when STATEMENTS_AUTO), and reminders of overdue ones. */
async function statementWork(statements: StatementsService, clock: Clock, issue: boolean): Promise<void> {
  if (issue) await statements.issue(previousMonth(clock.iso()));
  await statements.remindOverdue();
}

export async function createService(config: Config, options: ServiceOptions = {}): Promise<Service> {
  const database = options.database ?? openDatabase(config.databaseUrl, { sqliteCacheMb: config.sqliteCacheMb });
  const clock = options.clock ?? systemClock;
  await migrateToLatest(database);
  const redis = config.redisUrl ? openRedis(config.redisUrl, config.redisPrefix) : undefined;
  let app: App | undefined;
  const logError = (message: string) => (error: unknown) => app?.log.error({ err: error }, message);
  // A member's URL that leads inside: the member is told it is not public; the log says where it led.
  const logRefused = (kind: 'feed' | 'webhook' | 'postback') => (detail: string, url: string) => app?.log.warn({ kind, url, detail }, `a ${kind} URL was refused: it does not lead to a public address`);

  const repositories = openRepositories(database);
  const bus: InvalidationBus = redis ? redisChannel<Invalidation>(redis, INVALIDATION_CHANNEL) : localBus();
  const { repeats, velocity } = clickFilters(config, redis, logError);
  // Small, frequent click batches keep each flush's pause on the serving thread short; link counts
  // (a random-page update per link) are added up less often.
  const visitorSalt = await new InstallationService(repositories.settings, clock).visitorSalt(config.visitorSalt);
  const clicks = new ClickRecorder(
    openClickSink(database, { countEveryMs: 25 * config.clickFlushMs, ipDatabase: config.ipDatabase, asnDatabase: config.asnDatabase }),
    repeats,
    velocity,
    {
      flushMs: config.clickFlushMs,
      visitorSalt,
      onWrite: (seconds) => metrics.clickWrite(seconds),
      ...(config.clickSpoolDir === null ? {} : { overflow: { to: new ClickSpool(config.clickSpoolDir), maxBytes: config.clickBufferMb * 1024 * 1024 } }),
    },
    clock,
    logError('writing clicks failed; will retry'),
  );
  const redirectCache = new RedirectCache(repositories.links, clock, { maxMb: config.redirectCacheMb });
  const tracking = new TrackingService(redirectCache, clicks, new DeepLinks(await deepLinkKey(repositories.settings, clock)));
  /** What a change announced by any instance (this one included) makes this instance forget. */
  const forget = (message: Invalidation) => {
    if (message.kind === 'link') tracking.forgetLink(message.code);
    else if (message.kind === 'brand') tracking.forgetAllLinks();
    else if (message.kind === 'suspension') {
      tracking.forgetAllLinks();
      services.access.forgetKeys();
    } else services.access.forgetKeys();
  };
  // Alone, the local bus tells this instance at once. With Redis, a change made here is forgotten
  // here at once (not after the round trip), then announced to the other instances; if the
  // announcement fails (Redis away), they see the change when their caches poll or expire.
  const publisher: InvalidationPublisher = redis
    ? {
        async publish(message) {
          forget(message);
          await bus.publish(message).catch(logError('announcing a change to the other instances failed; they will see it within seconds'));
        },
      }
    : bus;
  // Counters of failed keys and sign-in attempts: shared through Redis, this instance's own while it is away.
  const now = () => clock.now();
  const windowCounter = redis
    ? failoverWindowCounter((key, windowMs, by) => countInWindow(redis, key, windowMs, by, now()), logError('Redis unavailable for counting invalid keys and sign-ins; counting here alone'), now)
    : memoryWindowCounter(now);
  // The IP database is read on the first sign-in, not at start (the click writer has its own).
  let countries: CountryLookup | undefined;
  const countryOf = (address: string) => (countries ??= config.ipDatabase === null ? noCountryLookup : openCountryLookup(config.ipDatabase)).countryOf(address);
  const retention = {
    clicks: new Retention(repositories.clicks, clock, { retentionDays: config.clickRetentionDays }),
    webhooks: new Retention(repositories.webhooks, clock, { retentionDays: config.webhookRetentionDays }),
    postbacks: new Retention(repositories.postbacks, clock, { retentionDays: config.webhookRetentionDays }),
    mail: new Retention(repositories.mail, clock, { retentionDays: config.mailRetentionDays }),
    applications: new Retention(repositories.applications, clock, { retentionDays: config.applicationRetentionDays }),
  };
  const payeeKeys = payeeKeysFor(config);
  // Postbacks go out as webhooks do: the same rules of where, the same deadline.
  const postbackTransport = webhookTransport({ allowLocal: config.webhookAllowLocalTargets, timeoutMs: config.webhookTimeoutMs, resolve: options.resolveHost, onRefused: logRefused('postback') });
  const fraud = fraudSettingsOf(config);
  const conversions = new ConversionsService(repositories, tracking, clock, redis ? config.clickFlushMs + CLICK_WRITE_ALLOWANCE_MS : 0, {
    rules: new FraudRules(repositories, fraud, async () => visitorSalt),
    notices: (order) => holdNotices(repositories, clock, config.publicUrl, order),
  });
  const services: ServingServices = {
    ...createServices(repositories, {
      clock,
      publicUrl: config.publicUrl,
      publisher,
      webhookAllowLocalTargets: config.webhookAllowLocalTargets,
      sessionIdleMs: config.sessionIdleMs,
      signupAutoApprove: config.signupAutoApprove,
      termsNoticeMinDays: config.termsNoticeMinDays,
      termsVersion: config.termsVersion,
      scoresMinOrders: config.scoresMinOrders,
      sessionAddressDays: config.sessionAddressDays,
      auditAddressDays: config.auditAddressDays,
      viewAsMs: config.viewAsMs,
      countryOf,
      networkName: config.networkName,
      passwordHashCost: config.passwordHashCost,
      payeeKeys: payeeKeys.keys,
      payeeChangeHoldHours: config.payeeChangeHoldHours,
      payoutMinimums: config.payoutMinimums,
      datacenterAsns: fraud.datacenterAsns,
      windowCounter,
    }),
    tracking,
    // With several instances (Redis set), a click may still sit in another instance's buffer, so
    // an unknown click id gets one more look after a flush interval; alone, this instance's buffer
    // is all there is.
    conversions,
    tag: new TagConversions(repositories, conversions, clock),
    reconciliations: new ReconciliationsService(repositories, conversions, clock, { maxBytes: config.reconciliationMaxMb * 1024 * 1024, workerHeapMb: config.reconciliationWorkerHeapMb }),
    trackReports: failedKeyThrottle(config.trackLimitPerMinute, 60_000, windowCounter, 'track-address'),
    autoLinkRequests: {
      address: failedKeyThrottle(config.autoLinkLimitPerAddress, 60_000, windowCounter, 'auto-link-address'),
      key: failedKeyThrottle(config.autoLinkLimitPerKey, 60_000, windowCounter, 'auto-link-key'),
    },
    health: new HealthService({ database: () => database.ping(), ...(redis && { redis: () => redis.ping() }) }),
    jobs: new JobRunner(clock, {
      instanceId: randomUUID(),
      onError: (queue, error) => logError(JOB_FAILURES[queue] ?? `running ${queue} jobs failed; will retry`)(error),
      // A webhook receiver or tracker that fails is its owner's to see (the delivery log); mail and scheduled work that fail are the operator's.
      onTryFailed: (queue, error) => {
        if (queue !== 'webhooks' && queue !== 'postbacks') app?.log.warn({ queue, error }, JOB_FAILURES[queue] ?? `a ${queue} job failed; will retry`);
      },
    }),
    postbacks: new PostbacksService(repositories, postbackTransport, clock, config.webhookAllowLocalTargets),
    feeds: new FeedsService(repositories, clock, {
      fetch: feedFetcher({ allowLocal: config.webhookAllowLocalTargets, deadlineMs: config.feedFetchTimeoutMs, onRefused: logRefused('feed'), ...(options.resolveHost && { resolve: options.resolveHost }) }),
      allowLocal: config.webhookAllowLocalTargets,
      maxBytes: config.feedMaxMb * 1024 * 1024,
      minSharePercent: config.feedMinSharePercent,
      workerHeapMb: config.feedWorkerHeapMb,
    }),
    retention,
    failedKeys: failedKeyThrottle(config.failedKeyLimit, config.failedKeyWindowMs, windowCounter),
    joinAttempts: {
      account: failedKeyThrottle(JOIN_LIMITS.perAccount, JOIN_LIMITS.windowMs, windowCounter, 'join-account'),
      address: failedKeyThrottle(JOIN_LIMITS.perAddress, JOIN_LIMITS.windowMs, windowCounter, 'join-address'),
    },
    passwordResets: {
      account: failedKeyThrottle(PASSWORD_RESET_LIMITS.perAccount, PASSWORD_RESET_LIMITS.windowMs, windowCounter, 'password-reset-account'),
      address: failedKeyThrottle(PASSWORD_RESET_LIMITS.perAddress, PASSWORD_RESET_LIMITS.windowMs, windowCounter, 'password-reset-address'),
    },
    passwordLinkAttempts: failedKeyThrottle(PASSWORD_LINK_LIMITS.perAddress, PASSWORD_LINK_LIMITS.windowMs, windowCounter, 'password-link-address'),
    passkeySignIns: failedKeyThrottle(PASSWORD_LINK_LIMITS.perAddress, PASSWORD_LINK_LIMITS.windowMs, windowCounter, 'passkey-sign-in-address'),
  };
  services.jobs
    .add(new WebhookQueue(repositories.webhooks, webhookTransport({ allowLocal: config.webhookAllowLocalTargets, timeoutMs: config.webhookTimeoutMs, resolve: options.resolveHost, onRefused: logRefused('webhook') }), clock), config.webhookPollMs)
    .add(new PostbackQueue(repositories.postbacks, postbackTransport, config.webhookAllowLocalTargets), config.webhookPollMs)
    .add(
      new ScheduledTasks(repositories.scheduledTasks, [
        { name: 'clicks-retention', everyMs: HOUR_MS, run: () => retention.clicks.prune() },
        { name: 'webhooks-retention', everyMs: HOUR_MS, run: () => retention.webhooks.prune() },
        { name: 'postbacks-retention', everyMs: HOUR_MS, run: () => retention.postbacks.prune() },
        { name: 'mail-retention', everyMs: HOUR_MS, run: () => retention.mail.prune() },
        { name: 'applications-retention', everyMs: HOUR_MS, run: () => retention.applications.prune() },
        { name: 'order-locks', everyMs: config.lockPollMs, run: () => services.locks.approveLocked() },
        // Claims wait days, like lock dates: looked for as often.
        { name: 'claim-auto-accept', everyMs: config.lockPollMs, run: () => services.claims.autoAccept() },
        // Idempotent: the hourly run recomputes each tier once a month, after the 1st.
        { name: 'group-tiers', everyMs: HOUR_MS, run: () => services.affiliateGroups.recomputeTiers() },
        { name: 'terms-in-force', everyMs: config.lockPollMs, run: () => services.commissionRules.showTermsInForce() },
        { name: 'session-addresses', everyMs: HOUR_MS, run: () => services.users.forgetOldAddresses() },
        { name: 'audit-addresses', everyMs: HOUR_MS, run: () => services.audit.forgetOldAddresses() },
        { name: 'tag-reports', everyMs: HOUR_MS, run: () => services.tagInstall.forgetOldReports() },
        // Issuing is idempotent: the hourly run on the 1st issues the month before, later ones find it done.
        { name: 'statements', everyMs: HOUR_MS, run: () => statementWork(services.statements, clock, config.statementsAuto) },
        { name: 'brand-scores', everyMs: HOUR_MS, run: () => services.brandScores.run() },
      ]),
      config.schedulePollMs,
    )
    // Feeds are due by the hour or the day: looked for as often as scheduled tasks.
    .add(new FeedQueue(repositories.feeds, services.feeds), config.schedulePollMs);
  if (database.refreshStatistics) {
    services.jobs.add(
      new InstanceTasks([
        // Each instance's own connection reads the statistics, so every instance runs it; the
        // first a minute after the start, past the start and its first requests.
        { name: 'planner-statistics', firstAfterMs: MINUTE_MS, everyMs: HOUR_MS, run: () => database.refreshStatistics!() },
      ]),
      config.schedulePollMs,
    );
  }
  const mailTransport = mailTransportFor(config, (path) => app?.log.info({ path }, 'mail written to the outbox folder (SMTP_URL is not set)'));
  if (mailTransport) services.jobs.add(new MailQueue(repositories.mail, mailTransport, (target) => (target.applicationId ? services.applications.issueVerifyLink(target.applicationId) : services.users.issueLink(target)), { from: config.mailFrom, network: config.networkName, publicUrl: config.publicUrl }), config.mailPollMs);
  const subscribed = bus.subscribe(forget);
  const metrics = new ServiceMetrics({
    clicks,
    unsummedClicks: () => repositories.clicks.notYetSummed(),
    redirectCache,
    database: () => database.stats(),
    ...(redis && { redisReady: () => redis.client.status === 'ready' }),
    webhooks: { attempts: services.jobs.outcomes.webhooks!, backlog: () => repositories.webhooks.backlog() },
    retention: services.retention,
    jobs: services.jobs.outcomes,
    now: () => clock.now(),
  });
  const context: AppContext = { config, services, redis, metrics };
  const built = await buildApp(context, { logger: options.logger ?? false });
  app = built.app;
  if (payeeKeys.notice) app.log[payeeKeys.notice.level](payeeKeys.notice.message);
  if (redis) {
    // Redis may be away at start: serve anyway (caches poll the database for changes, the limiter
    // and repeat window do without it) and take other instances' messages once it is back; the
    // subscription is replayed by the client on every reconnect.
    subscribed.catch(logError('subscribing to other instances’ changes failed'));
    await redis.ping().catch(() => app?.log.warn('Redis is not reachable: serving without it until it comes back (see /readyz)'));
  } else {
    await subscribed;
  }
  tracking.start(logError('asking the database for changed links failed; cached links keep redirecting (for at most a minute without an answer)'));
  services.jobs.start();
  let closed: Promise<void> | undefined;
  const close = () => {
    closed ??= (async () => {
      await app.close();
      await Promise.all([...Object.values(services.retention).map((retention) => retention.stop()), services.jobs.stop()]);
      mailTransport?.close();
      await tracking.stop();
      await redis?.close();
      if (!options.database) await database.close();
    })();
    return closed;
  };
  return {
    app,
    routes: built.routes,
    handler: built.handler,
    services,
    metrics,
    database,
    async stop() {
      const { forced } = await built.drain({ idleGraceMs: IDLE_GRACE_MS, timeoutMs: config.shutdownTimeoutMs });
      if (forced > 0) app.log.warn({ connections: forced }, `requests still unfinished after SHUTDOWN_TIMEOUT_MS (${config.shutdownTimeoutMs} ms): their connections were closed`);
      await close();
    },
    close,
  };
}
