// Raw clicks are kept for CLICK_RETENTION_DAYS, then deleted in the background: in small batches
// with pauses between them, so the click writer never waits long for the table. What clicks add
// up to outlives them: links keep their counts, the analytics rollups their hours, and orders the
// facts of their click (copied onto the order when it is reported), so attribution and every
// figure stay as they were. The batches go oldest first (click ids begin with their time).
import type { ClicksRepository } from '../../storage/repositories/clicks.js';
import type { Clock } from '../../lib/clock.js';

const DAY_MS = 86_400_000;

export interface RetentionOptions {
  /** Clicks older than this many days are deleted; 0 keeps them all. */
  retentionDays: number;
  /** Clicks deleted per statement. */
  batch?: number;
  /** Pause between two batches, so other writers get the table in between. */
  pauseMs?: number;
  /** How often the background prune runs. */
  everyMs?: number;
}

export class ClickRetention {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;
  private stopped = false;
  /** Clicks this instance deleted so far (for the metrics). */
  deleted = 0;

  constructor(
    private readonly clicks: Pick<ClicksRepository, 'pruneOlderThan' | 'dropMonthsEndedBy' | 'prepareMonths'>,
    private readonly clock: Clock,
    private readonly options: RetentionOptions,
  ) {}

  /** The instant before which clicks go. */
  cutoff(): number {
    return this.clock.now() - this.options.retentionDays * DAY_MS;
  }

  /**
   * Deletes every click past the retention (whole months at once where the database keeps them
   * apart, then batch by batch), after making sure the coming months have room; how many went.
   */
  prune(): Promise<number> {
    this.running ??= this.pruneAll().finally(() => (this.running = undefined));
    return this.running;
  }

  private async pruneAll(): Promise<number> {
    await this.clicks.prepareMonths(this.clock.now());
    if (this.options.retentionDays === 0) return 0;
    const batch = this.options.batch ?? 1000;
    const cutoff = this.cutoff();
    let total = await this.clicks.dropMonthsEndedBy(cutoff);
    while (!this.stopped) {
      const deleted = await this.clicks.pruneOlderThan(cutoff, batch);
      total += deleted;
      if (deleted < batch) break;
      await new Promise((resolve) => setTimeout(resolve, this.options.pauseMs ?? 50));
    }
    this.deleted += total;
    return total;
  }

  /** Prunes (and prepares months) now and then every `everyMs` (an hour by default); failures are reported and retried next time. */
  start(onError: (error: unknown) => void): void {
    const run = () => void this.prune().catch(onError);
    this.timer = setInterval(run, this.options.everyMs ?? 3_600_000);
    this.timer.unref();
    setImmediate(run);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running?.catch(() => {});
  }
}
