// The feeds due, as a queue of the one job runner: a feed is claimed under a lease (one instance
// runs it), fetched and read, and due again a schedule's length after. A run that fails (the
// site is down, the file is not a feed) is recorded in its report and waits for its next regular
// time; only a run that could not be recorded at all (the database away) is retried sooner, after
// the runner's growing wait.
import type { FeedsRepository } from '../../storage/repositories/feeds.js';
import type { ProductFeedRow } from '../../storage/tables.js';
import type { Decision, JobQueue, TryResult } from '../jobs/job-runner.js';
import { isoOf } from '../time.js';
import { FEED_LEASE_MS, SCHEDULE_MS, type FeedsService, type RunResult } from './feeds-service.js';

export class FeedQueue implements JobQueue<ProductFeedRow, RunResult['feedChanges']> {
  readonly name = 'feeds';
  readonly retryForMs = Infinity;
  readonly leaseMs = FEED_LEASE_MS;
  /** Feeds read at once by an instance: each has a worker thread of its own. */
  readonly batch = 2;

  constructor(
    private readonly feeds: FeedsRepository,
    private readonly service: FeedsService,
  ) {}

  claim(owner: string, now: number, leaseUntil: number, limit: number): Promise<ProductFeedRow[]> {
    return this.feeds.claimDue(owner, isoOf(now), isoOf(leaseUntil), limit);
  }

  history(feed: ProductFeedRow): { attempts: number; since: number } {
    return { attempts: feed.failures, since: Date.parse(feed.next_run_at) };
  }

  async work(feed: ProductFeedRow): Promise<TryResult<RunResult['feedChanges']>> {
    const { feedChanges } = await this.service.runFetched(feed);
    return { ok: true, detail: feedChanges };
  }

  record(feed: ProductFeedRow, decision: Decision, changes: RunResult['feedChanges'] | undefined): Promise<boolean> {
    const regular = decision.now + (SCHEDULE_MS[feed.schedule] ?? SCHEDULE_MS.daily!);
    const done = decision.outcome === 'done';
    return this.feeds.release(feed, { ...changes, next_run_at: isoOf(done ? regular : Math.min(decision.nextAt, regular)), failures: done ? 0 : feed.failures + 1 });
  }
}
