// Rows that only pile up (raw clicks, the webhook outbox and its log) are kept for a configured
// number of days, then deleted in the background: whole months at once where the database keeps
// them apart (PostgreSQL partitions), the rest in small batches with pauses between them, so the
// writers never wait long for the table. What the rows add up to outlives them: links keep their
// counts, the analytics rollups their hours, and orders the facts of their click (copied onto the
// order when it is reported), so attribution and every figure stay as they were. The prune is a
// scheduled task of the job runner: hourly, once across instances.
import type { Clock } from '../lib/clock.js';

const DAY_MS = 86_400_000;

/** Where aged rows are deleted: a store that may keep them in months. */
export interface AgedRows {
  /** Makes sure the coming months have room (partitions) before rows arrive in them. */
  prepareMonths(now: number): Promise<void>;
  /** Deletes the months that ended by `cutoff` whole, where rows are kept by month; how many rows went. */
  dropMonthsEndedBy(cutoff: number): Promise<number>;
  /** Deletes at most `limit` rows older than `cutoff`, oldest first; how many went. */
  pruneOlderThan(cutoff: number, limit: number): Promise<number>;
}

export interface RetentionOptions {
  /** Rows older than this many days are deleted; 0 keeps them all. */
  retentionDays: number;
  /** Rows deleted per statement. */
  batch?: number;
  /** Pause between two batches, so other writers get the table in between. */
  pauseMs?: number;
}

export class Retention {
  private running: Promise<number> | undefined;
  private stopped = false;
  /** Rows this instance deleted so far (for the metrics). */
  deleted = 0;

  constructor(
    private readonly rows: AgedRows,
    private readonly clock: Clock,
    private readonly options: RetentionOptions,
  ) {}

  /** The instant before which rows go. */
  cutoff(): number {
    return this.clock.now() - this.options.retentionDays * DAY_MS;
  }

  /**
   * Deletes every row past the retention (whole months at once where the database keeps them
   * apart, then batch by batch), after making sure the coming months have room; how many went.
   */
  prune(): Promise<number> {
    this.running ??= this.pruneAll().finally(() => (this.running = undefined));
    return this.running;
  }

  private async pruneAll(): Promise<number> {
    await this.rows.prepareMonths(this.clock.now());
    if (this.options.retentionDays === 0) return 0;
    const batch = this.options.batch ?? 1000;
    const cutoff = this.cutoff();
    let total = await this.rows.dropMonthsEndedBy(cutoff);
    while (!this.stopped) {
      const deleted = await this.rows.pruneOlderThan(cutoff, batch);
      total += deleted;
      if (deleted < batch) break;
      await new Promise((resolve) => setTimeout(resolve, this.options.pauseMs ?? 50));
    }
    this.deleted += total;
    return total;
  }

  /** Ends a prune in progress after its current batch. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running?.catch(() => {});
  }
}
