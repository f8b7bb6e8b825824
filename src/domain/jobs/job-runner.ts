// The one runner of background work: webhook deliveries, scheduled tasks and every other kind of
// queued work. Every instance runs one; it keeps a pool of workers per queue (the queue's batch)
// and asks the queue for as many items due now as it has free workers, under a lease (one instance
// works an item; a dead instance's lease runs out and another takes over), works each as soon as
// it is claimed, and records what became of it: done; or retried with exponential backoff and
// jitter until the queue's retry window has passed, then failed for good. A worker that finishes
// claims again at once, so one slow item holds one worker, never the queue. What an item is and
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
  /** Claims up to `limit` items due at `now` for `owner` until `leaseUntil` (epoch ms); each is worked at once. */
  claim(owner: string, now: number, leaseUntil: number, limit: number): Promise<Item[]>;
  /** Does the work of one item. A throw counts as a failed try. */
  work(item: Item): Promise<TryResult<Detail>>;
  /** Tries made before this one, and when the item's retry window opened (epoch ms). */
  history(item: Item): { attempts: number; since: number };
  /** Retries stop this long after `since`; Infinity: an item is never given up (a scheduled task). */
  readonly retryForMs: number;
  /** Records the decision with the try's detail; false when the lease was lost meanwhile (another instance owns the item now). */
  record(item: Item, decision: Decision, detail: Detail | undefined): Promise<boolean>;
  /** How long a claim holds: longer than one try can take (a try starts when its item is claimed). */
  readonly leaseMs: number;
  /** Items an instance works at once: its workers for the queue. */
  readonly batch: number;
}

export interface JobRunnerOptions {
  /** Names this instance in leases. */
  instanceId: string;
  /** A claim that failed, or a try that could not be recorded. */
  onError: (queue: string, error: unknown) => void;
  /** One try that failed (it is retried or given up as the queue says): what went wrong, never what the item holds. */
  onTryFailed?: (queue: string, error: string) => void;
}

/** A queue as this instance serves it. */
interface Served {
  queue: JobQueue<unknown, unknown>;
  pollMs: number;
  /** Tries under way here, each holding its item's lease: the busy workers. */
  tries: Set<Promise<void>>;
  /** The last claim asked for: claims of a queue never overlap within an instance, so free workers are counted right. */
  claims: Promise<void>;
  /** A background claim waiting for its turn: it serves any other asked for meanwhile. */
  waiting: Promise<void> | undefined;
}

export class JobRunner {
  /** Tries this instance recorded, by queue and outcome (for the metrics). */
  readonly outcomes: Record<string, Record<Decision['outcome'], number>> = {};
  private readonly queues = new Map<string, Served>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private started = false;
  private stopped = false;

  constructor(
    private readonly clock: Clock,
    private readonly options: JobRunnerOptions,
  ) {}

  /** Serves `queue`, looking for due items every `pollMs` once started (0: only when runOnce is called). */
  add<Item, Detail>(queue: JobQueue<Item, Detail>, pollMs: number): this {
    if (this.queues.has(queue.name)) throw new Error(`a job queue named ${queue.name} is served already`);
    this.queues.set(queue.name, { queue, pollMs, tries: new Set(), claims: Promise.resolve(), waiting: undefined });
    this.outcomes[queue.name] = { done: 0, retrying: 0, failed: 0 };
    return this;
  }

  /** Looks for due work in each queue at once, then every its poll interval and whenever a worker is freed. */
  start(): void {
    this.started = true;
    for (const served of this.queues.values()) {
      if (served.pollMs <= 0) continue;
      const tick = () => {
        if (this.stopped) return;
        void this.refill(served).finally(() => {
          if (this.stopped) return;
          const next: NodeJS.Timeout = setTimeout(() => {
            this.timers.delete(next);
            tick();
          }, served.pollMs).unref();
          this.timers.add(next);
        });
      };
      tick();
    }
  }

  /** Stops looking for work and waits for every try under way, so nothing is cut off mid-record. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    const served = [...this.queues.values()];
    // A claim under way still starts what it claimed (its leases are taken): wait for it, then for the tries.
    for (;;) {
      await Promise.all(served.map((s) => s.claims));
      const tries = served.flatMap((s) => [...s.tries]);
      if (tries.length === 0) return;
      await Promise.allSettled(tries);
    }
  }

  /**
   * Works the queue's due items with its free workers, claiming again as each of these tries ends,
   * until a claim finds nothing more; resolves once they are all recorded, with how many were
   * tried. Items another caller or the background is working meanwhile are theirs, not waited for.
   */
  async runOnce(name: string): Promise<number> {
    const served = this.queues.get(name);
    if (!served) throw new Error(`no job queue named ${name}`);
    const mine = new Set<Promise<void>>();
    const failures: unknown[] = [];
    let tried = 0;
    let claimFailure: { error: unknown } | undefined;
    for (;;) {
      if (!claimFailure) {
        try {
          const started = await this.turn(served, () => this.claimFree(served));
          tried += started.length;
          for (const one of started) {
            const settled: Promise<void> = one.catch((error: unknown) => void failures.push(error)).then(() => void mine.delete(settled));
            mine.add(settled);
          }
        } catch (error) {
          claimFailure = { error };
        }
      }
      // Every try of the call ends before the call does (stop() waits for them anyway), even when a claim or a record fails.
      if (mine.size === 0) break;
      await Promise.race(mine);
    }
    if (claimFailure) throw claimFailure.error;
    if (failures.length > 0) throw new AggregateError(failures, `${failures.length} of ${tried} tries could not be recorded`);
    return tried;
  }

  /** Runs `claim` after the queue's claims asked for before it. */
  private turn<T>(served: Served, claim: () => Promise<T>): Promise<T> {
    const turn = served.claims.then(claim);
    served.claims = turn.then(
      () => undefined,
      () => undefined,
    );
    return turn;
  }

  /** A background claim for the queue's free workers, its failures (and its tries' unrecorded ones) told to onError. */
  private refill(served: Served): Promise<void> {
    const { name } = served.queue;
    served.waiting ??= this.turn(served, () => {
      served.waiting = undefined;
      return this.claimFree(served);
    }).then(
      (started) => {
        for (const one of started) one.catch((error: unknown) => this.options.onError(name, error));
      },
      (error: unknown) => this.options.onError(name, error),
    );
    return served.waiting;
  }

  /** Claims as many due items as the queue has free workers and starts working each. */
  private async claimFree(served: Served): Promise<Array<Promise<void>>> {
    const { queue } = served;
    const free = queue.batch - served.tries.size;
    if (free <= 0 || this.stopped) return [];
    const now = this.clock.now();
    const claimed = await queue.claim(this.options.instanceId, now, now + queue.leaseMs, free);
    return claimed.map((item) => {
      const trying = this.try(queue, item);
      served.tries.add(trying);
      const freed = () => {
        served.tries.delete(trying);
        // A freed worker claims again at once in the background; runOnce claims for itself.
        if (this.started && !this.stopped && served.pollMs > 0) void this.refill(served);
      };
      trying.then(freed, freed);
      return trying;
    });
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
