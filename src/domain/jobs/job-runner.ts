// The one runner of background work: webhook deliveries, scheduled tasks and every other kind of
// queued work. Every instance runs one; each round it asks each queue for the items due now under
// a lease (one instance works an item; a dead instance's lease runs out and another takes over),
// works them, and records what became of each: done; or retried with exponential backoff and
// jitter until the queue's retry window has passed, then failed for good. What an item is and
// where it is kept belongs to its queue; when and how often to try belongs here.
import type { Clock } from '../../lib/clock.js';

const SECOND = 1000;
const HOUR = 3_600_000;
const FIRST_RETRY_MS = 5 * SECOND;
const LONGEST_RETRY_MS = HOUR;

/**
 * The wait before retry `attempt` (1 after the first failure): 5 s doubling up to an hour, of
 * which a random half or more ("equal jitter"), so a receiver coming back is not hit all at once.
 */
export function retryDelayMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.min(attempt - 1, 20));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** How one try of an item went. */
export type TryResult<Detail> = { ok: true; detail: Detail } | { ok: false; detail: Detail; error: string };

/** What the runner made of a try: the item's outcome, its attempt number, and when it is due next. */
export interface Decision {
  outcome: 'done' | 'retrying' | 'failed';
  attempt: number;
  /** Epoch ms of the decision. */
  now: number;
  /** Epoch ms the item is due again (now, when it is over). */
  nextAt: number;
  error?: string;
}

/** A kind of work, kept by its own storage. */
export interface JobQueue<Item, Detail = unknown> {
  readonly name: string;
  /** Claims up to `limit` items due at `now` for `owner` until `leaseUntil` (epoch ms). */
  claim(owner: string, now: number, leaseUntil: number, limit: number): Promise<Item[]>;
  /** Does the work of one item. A throw counts as a failed try. */
  work(item: Item): Promise<TryResult<Detail>>;
  /** Tries made before this one, and when the item's retry window opened (epoch ms). */
  history(item: Item): { attempts: number; since: number };
  /** Retries stop this long after `since`; Infinity: an item is never given up (a scheduled task). */
  readonly retryForMs: number;
  /** Records the decision with the try's detail; false when the lease was lost meanwhile (another instance owns the item now). */
  record(item: Item, decision: Decision, detail: Detail | undefined): Promise<boolean>;
  /** How long a claim holds: longer than one try can take. */
  readonly leaseMs: number;
  /** Items claimed, and worked concurrently, per round. */
  readonly batch: number;
}

export interface JobRunnerOptions {
  /** Names this instance in leases. */
  instanceId: string;
  /** A round that failed as a whole (claiming, recording). */
  onError: (queue: string, error: unknown) => void;
  /** One try that failed (it is retried or given up as the queue says): what went wrong, never what the item holds. */
  onTryFailed?: (queue: string, error: string) => void;
}

export class JobRunner {
  /** Tries this instance recorded, by queue and outcome (for the metrics). */
  readonly outcomes: Record<string, Record<Decision['outcome'], number>> = {};
  private readonly queues = new Map<string, { queue: JobQueue<unknown, unknown>; pollMs: number }>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly running = new Map<string, Promise<number>>();
  private stopped = false;

  constructor(
    private readonly clock: Clock,
    private readonly options: JobRunnerOptions,
  ) {}

  /** Serves `queue`, looking for due items every `pollMs` once started (0: only when runOnce is called). */
  add<Item, Detail>(queue: JobQueue<Item, Detail>, pollMs: number): this {
    if (this.queues.has(queue.name)) throw new Error(`a job queue named ${queue.name} is served already`);
    this.queues.set(queue.name, { queue: queue, pollMs });
    this.outcomes[queue.name] = { done: 0, retrying: 0, failed: 0 };
    return this;
  }

  /** Looks for due work in each queue at once, then every its poll interval. */
  start(): void {
    for (const [name, { pollMs }] of this.queues) {
      if (pollMs <= 0) continue;
      const tick = (timer?: NodeJS.Timeout) => {
        if (timer) this.timers.delete(timer);
        if (this.stopped) return;
        void this.runOnce(name)
          .catch((error: unknown) => this.options.onError(name, error))
          .finally(() => {
            if (this.stopped) return;
            const next: NodeJS.Timeout = setTimeout(() => tick(next), pollMs).unref();
            this.timers.add(next);
          });
      };
      tick();
    }
  }

  /** Stops looking for work and waits for the rounds in flight, so nothing is cut off mid-record. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    await Promise.all([...this.running.values()].map((round) => round.catch(() => undefined)));
  }

  /** One round of one queue: claims what is due, works it, records it; how many items were tried. */
  runOnce(name: string): Promise<number> {
    const queue = this.queues.get(name)?.queue;
    if (!queue) return Promise.reject(new Error(`no job queue named ${name}`));
    // A queue's rounds never overlap within an instance; a caller arriving mid-round waits for it.
    const round = (this.running.get(name) ?? Promise.resolve(0)).catch(() => 0).then(() => this.round(queue));
    this.running.set(name, round);
    return round;
  }

  private async round(queue: JobQueue<unknown, unknown>): Promise<number> {
    const now = this.clock.now();
    const claimed = await queue.claim(this.options.instanceId, now, now + queue.leaseMs, queue.batch);
    // Every try of the round ends before the round does (stop() waits for it), even when one's record fails.
    const failures = (await Promise.allSettled(claimed.map((item) => this.try(queue, item)))).flatMap((result) => (result.status === 'rejected' ? [result.reason as unknown] : []));
    if (failures.length > 0) throw new AggregateError(failures, `${failures.length} of ${claimed.length} tries could not be recorded`);
    return claimed.length;
  }

  private async try(queue: JobQueue<unknown, unknown>, item: unknown): Promise<void> {
    let result: TryResult<unknown>;
    try {
      result = await queue.work(item);
    } catch (error) {
      result = { ok: false, detail: undefined, error: error instanceof Error ? error.message : String(error) };
    }
    if (!result.ok) this.options.onTryFailed?.(queue.name, result.error);
    const decision = decide(queue, item, result, this.clock.now());
    if (await queue.record(item, decision, result.detail)) this.outcomes[queue.name]![decision.outcome]++;
  }
}

/** Done on success; else retried after a growing wait, or failed once the retry window is over. */
export function decide<Item>(queue: Pick<JobQueue<Item>, 'history' | 'retryForMs'>, item: Item, result: TryResult<unknown>, now: number): Decision {
  const { attempts, since } = queue.history(item);
  const attempt = attempts + 1;
  if (result.ok) return { outcome: 'done', attempt, now, nextAt: now };
  if (now - since >= queue.retryForMs) return { outcome: 'failed', attempt, now, nextAt: now, error: result.error };
  return { outcome: 'retrying', attempt, now, nextAt: now + retryDelayMs(attempt), error: result.error };
}
