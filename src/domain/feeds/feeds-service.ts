// Brands' product feeds: the feeds themselves (PUT under the brand's own id, a run at once when new
// or when the URL changes, then on the schedule), and their runs. A run reads the file on a worker
// thread (src/domain/feeds/feed-parse.ts) and writes its products in batches as they come, each
// batch in one transaction, so memory stays flat however large the feed. Only a run that read the
// whole file, held items and at least FEED_MIN_SHARE_PERCENT of the last complete run's, makes the
// feed's products it no longer lists unavailable; a run that failed leaves the products it wrote
// written (see docs/decisions.md).
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { BrandsRepository } from '../../storage/repositories/brands.js';
import type { FeedBatch, FeedsRepository, StoredFeedProduct } from '../../storage/repositories/feeds.js';
import type { FeedRunRow, ProductFeedRow } from '../../storage/tables.js';
import type { Clock } from '../../lib/clock.js';
import type { Feed, FeedInput, FeedRun } from '../../schemas/feed.js';
import type { ParseCounts } from './feed-messages.js';
import type { ProductOption } from '../../schemas/product.js';
import { conflict, notFound } from '../errors.js';
import { checkedTargetUrl } from '../urls.js';
import { offsetOf, type PageRequest, type Paged } from '../paging.js';
import { isoOf } from '../time.js';
import { productColumns } from '../catalog/catalog-writer.js';
import { withOptionsOf, type FeedProduct, type Refusal } from './feed-items.js';
import { parseFeed, type ParseOutcome } from './feed-parse.js';
import type { FeedFetcher } from './feed-source.js';

const HOUR_MS = 3_600_000;
export const SCHEDULE_MS: Record<string, number> = { hourly: HOUR_MS, daily: 24 * HOUR_MS };
/** A brand's feeds at most. */
const MAX_FEEDS = 20;
/** Items per batch written. */
const BATCH_SIZE = 500;
/** Run reports kept per feed (a month of hourly runs and more); older ones are deleted as a run starts. */
const KEPT_RUNS = 1000;
/** Refusals kept one by one in a run's report; the rest are counted. */
export const MAX_REFUSALS = 100;
/** Longer than a run of the largest feed takes: another instance may start it again after. */
export const FEED_LEASE_MS = 2 * HOUR_MS;

export interface FeedSettings {
  fetch: FeedFetcher;
  /** Whether feed URLs may be http or local addresses (WEBHOOK_ALLOW_LOCAL_TARGETS). */
  allowLocal: boolean;
  /** FEED_MAX_MB in bytes: the most a feed may hold, decompressed. */
  maxBytes: number;
  /** FEED_MIN_SHARE_PERCENT. */
  minSharePercent: number;
  /** FEED_WORKER_HEAP_MB. */
  workerHeapMb: number;
}

/** What a run leaves on its feed: the run, and the items of a complete one (the next run's measure). */
export interface RunResult {
  run: FeedRun;
  feedChanges: Pick<ProductFeedRow, 'last_run_id'> & Partial<Pick<ProductFeedRow, 'last_complete_items'>>;
}

export function runOf(row: FeedRunRow): FeedRun {
  return {
    id: row.id,
    feedId: row.feed_id,
    source: row.source as FeedRun['source'],
    status: row.status as FeedRun['status'],
    ...(row.reason !== null && { reason: row.reason }),
    bytes: Number(row.bytes),
    items: Number(row.items),
    added: Number(row.added),
    updated: Number(row.updated),
    unchanged: Number(row.unchanged),
    madeUnavailable: Number(row.made_unavailable),
    refused: Number(row.refused),
    refusals: JSON.parse(row.refusals) as Refusal[],
    startedAt: row.started_at,
    ...(row.finished_at !== null && { finishedAt: row.finished_at }),
  };
}

/** The stored product as the feed would give it, to add options read later in the same run. */
function feedProductOf(row: StoredFeedProduct): FeedProduct {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    url: row.url,
    images: JSON.parse(row.images) as FeedProduct['images'],
    options: JSON.parse(row.options) as ProductOption[],
    metadata: JSON.parse(row.metadata) as FeedProduct['metadata'],
  };
}

const COMPARED = ['integration', 'available', 'name', 'description', 'url', 'images', 'options', 'metadata', 'price_cents'] as const;

export class FeedsService {
  /** Names this instance in the lease of an uploaded run. */
  private readonly owner = randomUUID();

  constructor(
    private readonly repositories: { feeds: FeedsRepository; brands: BrandsRepository },
    private readonly clock: Clock,
    private readonly settings: FeedSettings,
  ) {}

  /** The brand's feed under its own id, created (true) or changed; due at once when new or its URL changed. */
  async putFeed(brandId: string, id: string, input: FeedInput): Promise<{ created: boolean; feed: Feed }> {
    checkedTargetUrl(input.url, { example: 'https://shop.example.com/feeds/google.xml', allowLocal: this.settings.allowLocal });
    const existing = await this.repositories.feeds.find(brandId, id);
    if (!existing && (await this.repositories.feeds.countOfBrand(brandId)) >= MAX_FEEDS) throw conflict('too_many_feeds', `you have ${MAX_FEEDS} feeds, the most a brand may have: delete one first`);
    await this.repositories.feeds.save(brandId, id, { url: input.url, format: input.format, schedule: input.schedule }, this.clock.iso(), !existing || existing.url !== input.url);
    return { created: !existing, feed: await this.feed(brandId, id) };
  }

  async feeds(brandId: string): Promise<Feed[]> {
    const rows = await this.repositories.feeds.listOfBrand(brandId);
    return Promise.all(rows.map((row) => this.feedOf(row)));
  }

  async feed(brandId: string, id: string): Promise<Feed> {
    return this.feedOf(await this.feedRow(brandId, id));
  }

  async deleteFeed(brandId: string, id: string): Promise<void> {
    if (!(await this.repositories.feeds.delete(brandId, id))) throw notFound(`feed "${id}" not found among your feeds`, 'feed_not_found');
  }

  async runs(brandId: string, feedId: string, page: PageRequest): Promise<Paged<FeedRun>> {
    await this.feedRow(brandId, feedId);
    const { rows, total } = await this.repositories.feeds.listRuns(brandId, feedId, offsetOf(page));
    return { items: rows.map(runOf), total };
  }

  async run(brandId: string, feedId: string, runId: string): Promise<FeedRun> {
    const row = await this.repositories.feeds.findRun(brandId, feedId, runId);
    if (!row) throw notFound(`run "${runId}" not found among the runs of your feed "${feedId}"`, 'run_not_found');
    return runOf(row);
  }

  /** Runs an uploaded copy of the feed now, as its body streams in; 409 while another run of it is under way. */
  async uploadRun(brandId: string, feedId: string, body: Readable): Promise<FeedRun> {
    await this.feedRow(brandId, feedId);
    const now = this.clock.now();
    const claimed = await this.repositories.feeds.claimNow(brandId, feedId, this.owner, isoOf(now), isoOf(now + FEED_LEASE_MS));
    if (!claimed) throw conflict('run_in_progress', `a run of feed "${feedId}" is under way: send the file again once it has finished`);
    try {
      const { run, feedChanges } = await this.runClaimed(claimed, 'upload', async () => ({ ok: true, body }));
      await this.repositories.feeds.release(claimed, feedChanges);
      return run;
    } catch (error) {
      await this.repositories.feeds.release(claimed, {});
      throw error;
    }
  }

  /** A fetched run of a feed claimed by the job runner. */
  runFetched(feed: ProductFeedRow): Promise<RunResult> {
    return this.runClaimed(feed, 'fetch', () => this.settings.fetch(feed.url));
  }

  private async runClaimed(feed: ProductFeedRow, source: FeedRun['source'], open: () => Promise<{ ok: true; body: Readable } | { ok: false; reason: string }>): Promise<RunResult> {
    const { feeds } = this.repositories;
    const brandId = feed.organization_id;
    const runId = randomUUID();
    const startedAt = this.clock.iso();
    await feeds.startRun({ id: runId, organization_id: brandId, feed_id: feed.id, source, started_at: startedAt });
    await feeds.forgetRunsBeyond(brandId, feed.id, KEPT_RUNS);
    const counts = { added: 0, updated: 0, unchanged: 0, madeUnavailable: 0 };
    const brand = await this.repositories.brands.find(brandId);
    const opened = brand ? await open() : { ok: false as const, reason: 'the brand is gone' };
    let outcome: ParseOutcome;
    if (!opened.ok) outcome = { ok: false, reason: opened.reason, items: 0, bytes: 0, refused: 0, refusals: [] };
    else {
      const settings = { format: feed.format as FeedInput['format'], currency: brand!.currency, maxBytes: this.settings.maxBytes, batchSize: BATCH_SIZE, maxRefusals: MAX_REFUSALS, heapMb: this.settings.workerHeapMb };
      outcome = await parseFeed(opened.body, settings, (products, read) => this.writeBatch(feed, runId, products, counts, read));
      // A fetch the parser stopped early (a failed run) is closed; an upload's rest is left to the
      // HTTP server, which discards it once the report is answered.
      if (source === 'fetch') opened.body.destroy();
    }
    let reason = outcome.ok ? undefined : outcome.reason;
    const previous = feed.last_complete_items;
    if (!reason && outcome.items === 0) reason = 'the file held no items: nothing was made unavailable';
    else if (!reason && previous !== null && outcome.items * 100 < previous * this.settings.minSharePercent) {
      reason = `the file held ${outcome.items} items, fewer than ${this.settings.minSharePercent}% of the last complete run's ${previous} (FEED_MIN_SHARE_PERCENT): nothing was made unavailable`;
    }
    if (!reason) counts.madeUnavailable = await this.makeMissingUnavailable(feed, runId);
    await feeds.finishRun(runId, {
      status: reason ? 'failed' : 'complete',
      reason: reason ?? null,
      bytes: outcome.bytes,
      items: outcome.items,
      added: counts.added,
      updated: counts.updated,
      unchanged: counts.unchanged,
      made_unavailable: counts.madeUnavailable,
      refused: outcome.refused,
      refusals: JSON.stringify(outcome.refusals.slice(0, MAX_REFUSALS)),
      finished_at: this.clock.iso(),
    });
    const run = runOf((await feeds.findRun(brandId, feed.id, runId))!);
    return { run, feedChanges: { last_run_id: runId, ...(!reason && { last_complete_items: outcome.items }) } };
  }

  /**
   * One batch of a run: new products added, changed ones updated, the rest marked as seen by the
   * run; then the run's report says how far it got, so a long run shows its progress.
   */
  private async writeBatch(feed: ProductFeedRow, runId: string, products: FeedProduct[], counts: { added: number; updated: number; unchanged: number }, read: ParseCounts): Promise<void> {
    const brandId = feed.organization_id;
    const now = this.clock.iso();
    const stored = new Map((await this.repositories.feeds.storedProducts(brandId, products.map((p) => p.id))).map((row) => [row.id, row]));
    const batch: FeedBatch = { inserts: [], updates: [], seen: [] };
    for (const read of products) {
      const row = stored.get(read.id);
      // An item of a group read earlier in this run (its items apart in the file) adds its option.
      const earlierInRun = row !== undefined && row.feed_id === feed.id && row.feed_run_id === runId;
      const product = earlierInRun ? withOptionsOf(feedProductOf(row), read) : read;
      const columns = productColumns(
        {
          organizationId: brandId,
          id: product.id,
          integration: `feed:${feed.id}`,
          available: product.options.some((option) => option.available),
          name: product.name,
          description: product.description,
          url: product.url,
          images: product.images,
          options: product.options,
          metadata: product.metadata,
        },
        now,
      );
      if (!row) {
        batch.inserts.push({ id: product.id, columns });
        counts.added++;
      } else if (COMPARED.every((column) => columns[column] === row[column])) {
        batch.seen.push(row.seq);
        if (!earlierInRun) counts.unchanged++;
      } else {
        batch.updates.push({ seq: row.seq, columns });
        if (!earlierInRun) counts.updated++;
      }
    }
    await this.repositories.feeds.writeBatch(brandId, feed.id, runId, batch, now);
    await this.repositories.feeds.recordProgress(runId, { items: read.items, bytes: read.bytes, refused: read.refused, added: counts.added, updated: counts.updated, unchanged: counts.unchanged });
  }

  /** The feed's available products the run did not list, made unavailable (each option too); how many. */
  private async makeMissingUnavailable(feed: ProductFeedRow, runId: string): Promise<number> {
    let made = 0;
    for (;;) {
      const missing = await this.repositories.feeds.missingFromRun(feed.organization_id, feed.id, runId, BATCH_SIZE);
      if (missing.length === 0) return made;
      const unavailable = missing.map(({ seq, options }) => ({ seq, options: JSON.stringify((JSON.parse(options) as ProductOption[]).map((option) => ({ ...option, available: false }))) }));
      await this.repositories.feeds.makeUnavailable(feed.organization_id, unavailable, this.clock.iso());
      made += missing.length;
    }
  }

  private async feedRow(brandId: string, id: string): Promise<ProductFeedRow> {
    const row = await this.repositories.feeds.find(brandId, id);
    if (!row) throw notFound(`feed "${id}" not found among your feeds`, 'feed_not_found');
    return row;
  }

  private async feedOf(row: ProductFeedRow): Promise<Feed> {
    const last = row.last_run_id === null ? undefined : await this.repositories.feeds.findRun(row.organization_id, row.id, row.last_run_id);
    return {
      id: row.id,
      url: row.url,
      format: row.format,
      schedule: row.schedule,
      nextRunAt: row.next_run_at,
      ...(last && { lastRun: runOf(last) }),
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    };
  }
}
