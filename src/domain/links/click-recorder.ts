// The redirect hot path's other half: the 302 is answered at once and the click is only
// buffered; ClickRecorder writes buffered clicks in one transaction per interval, deciding their
// flags (bot, HEAD, repeat, velocity) per batch, so no request ever waits for a disk. A click on
// a suspended affiliate's or brand's link is flagged as it is answered and never counts.
import type { NewClickRow } from '../../storage/tables.js';
import type { ClickSink, ClickWrite } from '../../storage/click-sink.js';
import type { ClickBatch } from '../../storage/click-enrichment.js';
import { PartialWriteError } from '../../lib/partial-write.js';
import { rememberPerAgent } from '../../lib/agent-memo.js';
import { addressHash, isBotAgent, visitorHash } from './click-filter.js';
import type { RepeatFilter } from './repeat-filter.js';
import type { VelocityFilter } from './velocity-filter.js';
import { locationFor } from './visitor-query.js';
import { storedSubIdsOfQuery } from '../../lib/sub-ids.js';
import { newClickId } from './click-ids.js';
import type { CachedTarget } from './redirect-cache.js';
import { PendingClicks, clickOutcome, type ClickFacts, type ClickOutcome, type ClickTarget, type ClickVerdict } from './pending-clicks.js';
import type { Clock } from '../../lib/clock.js';

/**
 * The request facts a click is flagged by (bot, HEAD, repeat visitor, address velocity) and
 * enriched with (country of the address, device, browser and OS, referrer).
 */
export interface Visit {
  method: string;
  ip: string;
  userAgent: string | undefined;
  referer?: string | undefined;
}

/**
 * Where clicks go when too many wait in memory for the database (files, in production): put keeps
 * them, take gives back the oldest put, `holds` says whether any are kept.
 */
export interface ClickOverflow {
  readonly holds: boolean;
  put(writes: readonly ClickWrite[]): void;
  take(): ClickWrite[] | undefined;
}

/**
 * Estimated bytes of a click taken back from the overflow, an object until it is written: its
 * row's fields and ids, plus the agent and referrer it carries. A heap snapshot of 35,000 clicks
 * waiting as objects under load held about 1.2 KB of the serving thread's heap for each, with
 * agents of some 130 characters. (The clicks answered here are counted by PendingClicks, as the
 * bytes they take.)
 */
const CLICK_BYTES = 1_050;
const bytesOf = (userAgent: string | null | undefined, referer: string | null | undefined, subIds: string | null | undefined) =>
  CLICK_BYTES + (userAgent?.length ?? 0) + (referer?.length ?? 0) + (subIds?.length ?? 0);

/**
 * Clicks decided and handed to the writer at a time: a few milliseconds of the serving thread,
 * after which requests waiting meanwhile are served while the writer stores the slice.
 */
const FLUSH_SLICE = 1_000;

/** While writes fail and nothing waits in memory, kept clicks are tried again at most this often. */
const OVERFLOW_PROBE_MS = 5_000;

/**
 * Buffers clicks and writes them once per interval. Answering a redirect only appends to the
 * buffer; the flags (bot, HEAD, repeat, suspicious) and the visitor hash are computed per batch
 * when it is written, off the request path.
 */
export class ClickRecorder {
  /** Clicks answered and not yet written: the decided first, then those waiting for their batch. */
  private readonly pending = new PendingClicks();
  /** Clicks taken back from the overflow (decided), written before the pending ones. */
  private takenBack: ClickWrite[] = [];
  /** The bot list is a large regular expression: verdicts are remembered per agent. */
  private readonly botVerdict = rememberPerAgent(isBotAgent);
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  /** Whether the last write succeeded (kept clicks are taken back only then, or to probe). */
  private writing = true;
  private probedAt = 0;
  /** Clicks written, by what became of them, and clicks whose write failed (each attempt), for the metrics. */
  readonly written: Record<ClickOutcome, number> = { counted: 0, bot: 0, head: 0, repeat: 0, suspicious: 0, suspended: 0 };
  failedWrites = 0;
  /** Clicks moved to the overflow because too many waited in memory (each move), for the metrics. */
  overflowed = 0;

  constructor(
    private readonly sink: ClickSink,
    private readonly repeats: RepeatFilter,
    private readonly velocity: VelocityFilter,
    private readonly options: {
      flushMs: number;
      visitorSalt: string;
      /** Told how long each write of a batch took, in seconds. */
      onWrite?: (seconds: number) => void;
      /**
       * Past `maxBytes` of clicks waiting in memory (a failed write, a writer behind a burst), they move
       * to `to`; without it they all wait in memory.
       */
      overflow?: { to: ClickOverflow; maxBytes: number };
    },
    private readonly clock: Clock,
    private readonly onError: (error: unknown) => void,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.flush(), this.options.flushMs);
    this.timer.unref();
  }

  /**
   * A visitor follows the link: a new click id is recorded, and the Location to answer with
   * carries it to the brand's site, with the visitor's `query` string (after '?', if any) merged
   * in. Every redirect, whichever path answers it, goes through here. The sub-ids the query
   * carries are kept with the click (src/lib/sub-ids.ts): a redirect without a query does no work
   * for them, one with a query a single test unless it holds "sub".
   */
  clickThrough(target: CachedTarget, visit: Visit, query?: string): string {
    const now = this.clock.now();
    const clickId = newClickId(now);
    this.pending.push(target satisfies ClickTarget, clickId, now, visit.method, visit.ip, visit.userAgent, visit.referer, query === undefined ? undefined : storedSubIdsOfQuery(query));
    // A suspended brand's links lead to its home page, with no click id to report an order with.
    return target.fixedLocation ?? locationFor(target, clickId, query);
  }

  /**
   * A click this instance answered and has not written, with its flags: undefined when it is not
   * buffered here, or once it is written (read it from storage then: the writer added its
   * country, device and referrer). A buffered click is written first, so whoever asks (a
   * conversion) sees what the stored click will be; only if that write fails is the buffered row
   * (flags decided, not yet enriched) returned.
   */
  async buffered(clickId: string): Promise<NewClickRow | undefined> {
    if (this.pending.positionOf(clickId) === -1 && !this.takenBack.some((w) => w.click.id === clickId)) return undefined;
    await this.flush();
    const position = this.pending.positionOf(clickId);
    if (position === -1) return this.takenBack.find((w) => w.click.id === clickId)?.click;
    // The flush decides every buffered click unless deciding failed (it then keeps them for the
    // next attempt); say so rather than answer for a click whose flags are not known.
    if (!this.pending.isDecided(position)) throw new Error(`click ${clickId} is not decided yet`);
    return this.pending.writeAt(position).click;
  }

  /**
   * Writes everything buffered so far (clicks answered meanwhile wait for the next flush);
   * concurrent calls run one after another.
   */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (!(await this.spillBacklog())) return;
      // A batch is decided and handed over in slices, each written before the next is taken: a
      // whole batch at once held the serving thread for 4-7 µs a click, hundreds of milliseconds
      // when the writer fell behind and batches grew, while every request waited.
      let left = this.pending.undecided;
      do {
        const slice = Math.min(left, FLUSH_SLICE);
        left -= slice;
        if (!(await this.writeSlice(slice))) return;
      } while (left > 0);
    });
    return this.flushing;
  }

  /**
   * Writes the clicks taken back from the overflow, then decides the first `count` undecided clicks
   * and writes every decided one; whether the writes succeeded (if not, what was not written is
   * kept for the next attempt).
   */
  private async writeSlice(count: number): Promise<boolean> {
    this.takeBackOverflow();
    if (this.takenBack.length > 0) {
      const taken = this.takenBack;
      const written = await this.stored(this.send(() => taken), taken.length);
      for (const { click } of this.takenBack.slice(0, written)) this.written[clickOutcome(click.is_suspended, click.is_bot, click.is_head, click.is_repeat, click.is_suspicious)]++;
      this.takenBack = this.takenBack.slice(written);
      if (this.takenBack.length > 0) return this.failed();
    }
    if (!(await this.decideFirst(count))) return false;
    const decided = this.pending.decided;
    if (decided === 0) return true;
    const written = await this.stored(this.send(() => this.pending.batch(decided)), decided);
    for (let i = 0; i < written; i++) this.written[this.pending.outcomeAt(i)]++;
    this.pending.drop(written);
    return written === decided || this.failed();
  }

  /** After a failed write: past the budget, what waits moves to the overflow. Returns false. */
  private failed(): false {
    if (this.waitingBytes() > (this.options.overflow?.maxBytes ?? Infinity)) this.moveToOverflow();
    return false;
  }

  /**
   * Hands the batch to the sink from a plain function, so no suspended frame holds it while the
   * write is under way: the sink sends it to the writer thread at once, and it is garbage before
   * the serving thread's next collection.
   */
  private send(batch: () => ClickBatch | ClickWrite[]): Promise<void> {
    return this.sink.write(batch());
  }

  /** How many of the `count` clicks `sending` writes were stored. */
  private async stored(sending: Promise<void>, count: number): Promise<number> {
    const startedAt = performance.now();
    try {
      await sending;
      this.writing = true;
      return count;
    } catch (error) {
      // What was not written stays for the next attempt: nothing answered is ever lost.
      const written = error instanceof PartialWriteError ? error.written : 0;
      this.failedWrites += count - written;
      this.writing = false;
      this.onError(error);
      return written;
    } finally {
      this.options.onWrite?.((performance.now() - startedAt) / 1000);
    }
  }

  /**
   * Past the overflow's budget of clicks waiting in memory, whether writes fail or the writer
   * falls behind a burst (it yields to the serving thread), the waiting clicks are decided in the
   * order they came and moved to the overflow; the writer takes them back, oldest first, a slice
   * at a time, as it catches up. Memory stays bounded however long the burst lasts; a conversion
   * for a click in the overflow is answered "not stored yet" until it is written. Whether
   * deciding succeeded.
   */
  private async spillBacklog(): Promise<boolean> {
    const budget = this.options.overflow?.maxBytes;
    if (budget === undefined || this.waitingBytes() <= budget) return true;
    // The clicks waiting now: those answered meanwhile wait for the next flush.
    let left = this.pending.undecided;
    while (left > 0) {
      const slice = Math.min(left, FLUSH_SLICE);
      left -= slice;
      if (!(await this.decideFirst(slice))) return false;
      this.moveToOverflow();
      // Requests that came meanwhile are answered before the next slice, as between written slices.
      await new Promise((resolve) => setImmediate(resolve));
    }
    this.moveToOverflow();
    return true;
  }

  /** Decides the first `count` undecided clicks; if deciding fails, they stay undecided and the error is reported. */
  private async decideFirst(count: number): Promise<boolean> {
    if (count === 0) return true;
    try {
      this.pending.decide(await this.decide(this.pending.factsToDecide(count)));
      return true;
    } catch (error) {
      this.onError(error);
      return false;
    }
  }

  /** Estimated bytes of the clicks waiting in memory. */
  private waitingBytes(): number {
    // Clicks wait taken back from the overflow only while they are written: few, summed here.
    let bytes = this.pending.bytes;
    for (const w of this.takenBack) bytes += bytesOf(w.click.user_agent, w.referer, w.click.sub_ids);
    return bytes;
  }

  /**
   * Moves the decided, unwritten clicks to the overflow (the undecided stay: they have no flags
   * yet), a slice per put: each is taken back alone, so taking back never holds more than a slice.
   */
  private moveToOverflow(): void {
    const overflow = this.options.overflow?.to;
    if (!overflow) return;
    try {
      while (this.takenBack.length > 0) {
        const slice = this.takenBack.slice(0, FLUSH_SLICE);
        overflow.put(slice);
        this.takenBack = this.takenBack.slice(slice.length);
        this.overflowed += slice.length;
      }
      while (this.pending.decided > 0) {
        const slice = this.pending.writes(FLUSH_SLICE);
        overflow.put(slice);
        this.pending.drop(slice.length);
        this.overflowed += slice.length;
      }
    } catch (error) {
      // A full or read-only disk: the clicks not moved stay in memory, as they would without an overflow.
      this.onError(error);
    }
  }

  /**
   * Takes the oldest kept clicks back into memory to be written first, when nothing else waits
   * unwritten: after a successful write, or (to find out whether the database is back when no new
   * click arrives to try it) at most every OVERFLOW_PROBE_MS.
   */
  private takeBackOverflow(force = false): void {
    const overflow = this.options.overflow?.to;
    if (!overflow?.holds || this.takenBack.length > 0 || this.pending.decided > 0) return;
    if (!this.writing && !force) {
      const now = performance.now();
      if (this.pending.undecided > 0 || now - this.probedAt < OVERFLOW_PROBE_MS) return;
      this.probedAt = now;
    }
    try {
      this.takenBack = overflow.take() ?? [];
    } catch (error) {
      this.onError(error);
    }
  }

  /**
   * The flags of each click: bot and HEAD first; only a click that would count claims a repeat
   * slot, and only a click that is not a repeat uses up its address's velocity budget. A click on a
   * suspended account's link (flagged as it was answered) claims neither and never counts.
   */
  private async decide(clicks: ClickFacts[]): Promise<ClickVerdict[]> {
    const { visitorSalt } = this.options;
    const verdicts: ClickVerdict[] = clicks.map(({ ip, userAgent }) => ({ isBot: this.isBot(userAgent), isRepeat: false, isSuspicious: false, visitor: visitorHash(visitorSalt, ip, userAgent ?? '') }));
    const candidates = clicks.map((_, i) => i).filter((i) => !verdicts[i]!.isBot && !clicks[i]!.isHead && !clicks[i]!.isSuspended);
    const repeats = await this.repeats.repeats(candidates.map((i) => ({ linkId: clicks[i]!.linkId, visitor: verdicts[i]!.visitor, at: clicks[i]!.at })));
    candidates.forEach((i, n) => (verdicts[i]!.isRepeat = repeats[n] === true));
    const firsts = candidates.filter((i) => !verdicts[i]!.isRepeat);
    const exceeded = await this.velocity.exceeded(firsts.map((i) => ({ linkId: clicks[i]!.linkId, address: addressHash(visitorSalt, clicks[i]!.ip), at: clicks[i]!.at })));
    firsts.forEach((i, n) => (verdicts[i]!.isSuspicious = exceeded[n] === true));
    return verdicts;
  }

  /** No user agent at all is a bot's mark. */
  private isBot(userAgent: string | undefined): boolean {
    return !userAgent || this.botVerdict(userAgent);
  }

  /** Clicks answered but not yet written. */
  get backlog(): number {
    return this.pending.length + this.takenBack.length;
  }

  /**
   * Writes every buffered click before returning, retrying while the database refuses (a lock,
   * a restart) for up to `patienceMs`; throws if clicks remain, so the process can say so.
   */
  async stop(patienceMs = 30_000): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    const deadline = performance.now() + patienceMs;
    await this.flush();
    while (performance.now() < deadline) {
      if (this.backlog > 0) await new Promise((resolve) => setTimeout(resolve, 250));
      else {
        this.takeBackOverflow(true); // the last chance to write kept clicks: no waiting for a probe
        if (this.backlog === 0) break; // none kept, or none could be taken
      }
      await this.flush();
    }
    // What could not be written waits in the overflow for the next start, if there is one.
    this.moveToOverflow();
    await this.sink.close();
    if (this.backlog > 0) throw new Error(`${this.backlog} click(s) could not be written before stopping`);
  }
}

export type { ClickOutcome } from './pending-clicks.js';
