// The service's metrics in Prometheus' terms (prom-client): what a request, a redirect, a click
// write and a webhook delivery came to, and the state of the caches, database, Redis and outbox.
// Counts kept by the parts themselves as plain integers (the redirect cache, the click recorder,
// the job runner) are read when Prometheus scrapes, so the redirect path only adds to an integer;
// durations are observed as they happen. docs/operations.md lists each metric.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ClickOutcome } from '../domain/links/click-recorder.js';
import type { DatabaseStats } from '../storage/database.js';

/** Where the figures read at scrape time come from. */
export interface MetricSources {
  clicks: { readonly written: Readonly<Record<ClickOutcome, number>>; readonly failedWrites: number; readonly backlog: number; readonly overflowed: number };
  /** Stored clicks not yet in their links' counts and the rollups (all instances). */
  unsummedClicks: () => Promise<number>;
  redirectCache: { readonly lookups: { readonly hits: number; readonly misses: number }; readonly held: { entries: number; bytes: number } };
  database: () => DatabaseStats;
  /** Undefined without Redis. */
  redisReady?: () => boolean;
  webhooks: {
    /** The job runner's outcomes of the webhook queue: done, retrying, failed. */
    readonly attempts: Readonly<Record<string, number>>;
    backlog(): Promise<{ pending: number; earliestDueAt: string | null }>;
  };
  retention: { clicks: { readonly deleted: number }; webhooks: { readonly deleted: number } };
  /** The job runner's tries by queue and outcome (done, retrying, failed). */
  jobs: Readonly<Record<string, Readonly<Record<string, number>>>>;
  now: () => number;
}

/** Why a request was refused 429. */
export type Refusal = 'key_rate_limit' | 'invalid_keys';

/** Request durations in seconds: a redirect takes well under a millisecond, a list page a few. */
const REQUEST_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];

export class ServiceMetrics {
  readonly registry = new Registry();
  private readonly requests: Histogram<'method' | 'route' | 'status'>;
  private readonly redirectsNotFound: { count: number } = { count: 0 };
  private readonly refusals: Counter<'rule'>;
  private readonly clickWrites: Histogram;
  private readonly pageReports: Counter<'source' | 'outcome'>;
  /** The redirect front's answers, bound once: observing them then costs no label lookup. */
  readonly redirectAnswers: Record<'GET' | 'HEAD', Record<'found' | 'notFound', Histogram.Internal<'method' | 'route' | 'status'>>>;

  constructor(sources: MetricSources) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP requests by method, route template and status, with how long they took (count: requests)',
      labelNames: ['method', 'route', 'status'],
      buckets: REQUEST_BUCKETS,
      registers,
    });
    const answers = (method: 'GET' | 'HEAD') => ({ found: this.requests.labels(method, '/:code', '302'), notFound: this.requests.labels(method, '/:code', '404') });
    this.redirectAnswers = { GET: answers('GET'), HEAD: answers('HEAD') };
    this.refusals = new Counter({ name: 'affnet_rate_limit_refusals_total', help: 'Requests refused 429, by rule: a key past its limit, or an address sending invalid keys', labelNames: ['rule'], registers });
    this.pageReports = new Counter({
      name: 'affnet_page_reports_total',
      help: 'Conversions the shop pages reported (the tag, the pixel), by source and outcome: recorded, known (reported before) or the refusal’s code',
      labelNames: ['source', 'outcome'],
      registers,
    });
    this.clickWrites = new Histogram({ name: 'affnet_click_write_duration_seconds', help: 'How long each write of a batch of clicks took', buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5], registers });

    const notFound = this.redirectsNotFound;
    new Counter({
      name: 'affnet_redirects_total',
      help: 'Redirects by outcome: counted, bot, head, repeat, suspicious, suspended (once the click is written), not_found (no active link)',
      labelNames: ['outcome'],
      registers,
      collect() {
        this.reset();
        for (const [outcome, count] of Object.entries(sources.clicks.written)) this.inc({ outcome }, count);
        this.inc({ outcome: 'not_found' }, notFound.count);
      },
    });
    new Gauge({ name: 'affnet_clicks_buffered', help: 'Clicks answered and not yet written', registers, collect() { this.set(sources.clicks.backlog); } });
    new Gauge({
      name: 'affnet_clicks_unsummed',
      help: "Clicks stored and not yet added to their links' counts and the analytics rollups (all instances)",
      registers,
      async collect() {
        this.set(await sources.unsummedClicks());
      },
    });
    new Counter({
      name: 'affnet_clicks_written_total',
      help: 'Clicks written to the database',
      registers,
      collect() {
        this.reset();
        this.inc(Object.values(sources.clicks.written).reduce((a, b) => a + b, 0));
      },
    });
    new Counter({ name: 'affnet_clicks_pruned_total', help: 'Clicks this instance deleted past CLICK_RETENTION_DAYS', registers, collect() { this.reset(); this.inc(sources.retention.clicks.deleted); } });
    new Counter({ name: 'affnet_webhook_outbox_pruned_total', help: 'Webhook events, deliveries and log entries this instance deleted past WEBHOOK_RETENTION_DAYS', registers, collect() { this.reset(); this.inc(sources.retention.webhooks.deleted); } });
    new Counter({ name: 'affnet_clicks_spooled_total', help: 'Clicks moved from memory to spool files (CLICK_SPOOL_DIR) because more than CLICK_BUFFER_MB waited to be written (the database refusing writes, or the writer behind a burst)', registers, collect() { this.reset(); this.inc(sources.clicks.overflowed); } });
    new Counter({ name: 'affnet_click_write_failures_total', help: 'Clicks in writes that failed (kept and retried; one click counts once per failed attempt)', registers, collect() { this.reset(); this.inc(sources.clicks.failedWrites); } });
    new Counter({
      name: 'affnet_redirect_cache_lookups_total',
      help: 'Short-link codes answered from the cache (hit) or looked up in the database (miss)',
      labelNames: ['result'],
      registers,
      collect() {
        this.reset();
        this.inc({ result: 'hit' }, sources.redirectCache.lookups.hits);
        this.inc({ result: 'miss' }, sources.redirectCache.lookups.misses);
      },
    });
    new Gauge({
      name: 'affnet_redirect_cache_held',
      help: 'What the cache of short-link codes holds: codes (entries) and their estimated size (bytes), bounded by REDIRECT_CACHE_MB',
      labelNames: ['measure'],
      registers,
      collect() {
        const { entries, bytes } = sources.redirectCache.held;
        this.set({ measure: 'entries' }, entries);
        this.set({ measure: 'bytes' }, bytes);
      },
    });
    new Counter({ name: 'affnet_db_query_errors_total', help: 'Database queries that failed', registers, collect() { this.reset(); this.inc(sources.database().queryErrors); } });
    new Gauge({
      name: 'affnet_db_pool_connections',
      help: 'PostgreSQL pool connections by state: open, idle, max; and queries waiting for one (waiting)',
      labelNames: ['state'],
      registers,
      collect() {
        const pool = sources.database().pool;
        if (!pool) return;
        this.set({ state: 'open' }, pool.size);
        this.set({ state: 'idle' }, pool.idle);
        this.set({ state: 'max' }, pool.max);
        this.set({ state: 'waiting' }, pool.waiting);
      },
    });
    if (sources.redisReady) {
      const ready = sources.redisReady;
      new Gauge({ name: 'affnet_redis_up', help: '1 while the Redis connection is ready, 0 while it is away', registers, collect() { this.set(ready() ? 1 : 0); } });
    }
    new Counter({
      name: 'affnet_jobs_total',
      help: 'Background work tried by this instance, by queue (webhooks, mail, scheduled) and outcome: done, retrying (will be tried again), failed (given up)',
      labelNames: ['queue', 'outcome'],
      registers,
      collect() {
        this.reset();
        for (const [queue, outcomes] of Object.entries(sources.jobs)) for (const [outcome, count] of Object.entries(outcomes)) this.inc({ queue, outcome }, count);
      },
    });
    new Counter({
      name: 'affnet_webhook_attempts_total',
      help: 'Webhook delivery attempts made by this instance, by outcome: delivered, retrying (will be retried), failed (retries exhausted)',
      labelNames: ['outcome'],
      registers,
      collect() {
        this.reset();
        for (const [outcome, count] of Object.entries(sources.webhooks.attempts)) this.inc({ outcome: outcome === 'done' ? 'delivered' : outcome }, count);
      },
    });
    // One query per scrape answers both outbox figures.
    let backlog: Promise<{ pending: number; earliestDueAt: string | null }> | undefined;
    const readBacklog = () => (backlog ??= sources.webhooks.backlog().finally(() => setImmediate(() => (backlog = undefined))));
    new Gauge({ name: 'affnet_webhook_outbox_pending', help: 'Webhook deliveries still to be sent (all instances)', registers, async collect() { this.set((await readBacklog()).pending); } });
    new Gauge({
      name: 'affnet_webhook_outbox_overdue_seconds',
      help: 'How long the most overdue pending webhook delivery has been due (0: none is overdue)',
      registers,
      async collect() {
        const { earliestDueAt } = await readBacklog();
        this.set(earliestDueAt ? Math.max(0, (sources.now() - Date.parse(earliestDueAt)) / 1000) : 0);
      },
    });
  }

  /** A request answered through the framework (the route template, or 'unmatched'). */
  request(method: string, route: string, status: number, seconds: number): void {
    this.requests.labels(method, route, String(status)).observe(seconds);
  }

  redirectNotFound(): void {
    this.redirectsNotFound.count++;
  }

  refused(rule: Refusal): void {
    this.refusals.inc({ rule });
  }

  /** A report of the tag or the pixel: recorded, known, or the code it was refused with. */
  pageReport(source: 'tag' | 'pixel', outcome: string): void {
    this.pageReports.inc({ source, outcome });
  }

  clickWrite(seconds: number): void {
    this.clickWrites.observe(seconds);
  }

  /** The text Prometheus scrapes. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
