// The redirect hot path's other half: the 302 is answered at once and the click is only
// buffered; ClickRecorder writes buffered clicks in one transaction per interval, deciding their
// flags (bot, HEAD, repeat, velocity) per batch, so no request ever waits for a disk. A click on
// a suspended affiliate's or brand's link is flagged as it is answered and never counts.
import type { NewClickRow } from '../../storage/tables.js';
import type { ClickSink, ClickWrite } from '../../storage/click-sink.js';
import { PartialWriteError } from '../../lib/partial-write.js';
import { rememberPerAgent } from '../../lib/agent-memo.js';
import { addressHash, isBotAgent, visitorHash } from './click-filter.js';
import type { RepeatFilter } from './repeat-filter.js';
import type { VelocityFilter } from './velocity-filter.js';
import { locationFor } from './visitor-query.js';
import { storedSubIdsOfQuery } from '../../lib/sub-ids.js';
import { newClickId } from './click-ids.js';
import type { CachedTarget } from './redirect-cache.js';
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

interface ClickRequest extends Visit {
  clickId: string;
}

/**
 * Whether a buffered click's flags are set: the visitor hash is empty until its batch is decided,
 * and decide() sets it last.
 */
const isDecided = (row: NewClickRow): boolean => row.visitor_hash !== '';

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
 * Estimated bytes of a buffered click: its row's fixed fields and what answering it kept (the
 * pending entry, its ids and visitor hash), plus the agent and referrer it carries. A heap
 * snapshot of 35,000 clicks waiting under load held about 1.2 KB of the serving thread's heap for
 * each, with agents of some 130 characters.
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

/** A click as answered: the request facts needed to flag it, decided when the batch is written. */
interface PendingClick {
  row: NewClickRow;
  /** When it was answered, in ms (the row's created_at, unparsed). */
  at: number;
  ip: string;
  userAgent: string | undefined;
  method: string;
  referer: string | undefined;
}

/** Estimated bytes of answered clicks not yet decided. */
function pendingBytes(clicks: readonly PendingClick[]): number {
  let bytes = 0;
  for (const c of clicks) bytes += bytesOf(c.userAgent, c.referer, c.row.sub_ids);
  return bytes;
}

/**
 * Buffers clicks and writes them once per interval. Answering a redirect only appends to the
 * buffer; the flags (bot, HEAD, repeat, suspicious) and the visitor hash are computed per batch
 * when it is written, off the request path.
 */
export class ClickRecorder {
  private undecided: PendingClick[] = [];
  /** Estimated bytes of the undecided clicks, kept as they come and go: a flush reads it, never walks them. */
  private undecidedBytes = 0;
  /** Flagged clicks of a batch that failed to write, retried first. */
  private unwritten: ClickWrite[] = [];
  /** Clicks not yet written, by id, so a conversion can find a click before it is written. */
  private readonly pendingById = new Map<string, NewClickRow>();
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
    this.record(target, { clickId, ...visit }, now, query === undefined ? undefined : storedSubIdsOfQuery(query));
    // A suspended brand's links lead to its home page, with no click id to report an order with.
    return target.fixedLocation ?? locationFor(target, clickId, query);
  }

  private record(target: Pick<CachedTarget, 'linkId' | 'affiliateId' | 'channelId' | 'brandId' | 'mdasc' | 'suspended'>, request: ClickRequest, now: number, subIds: string | undefined): void {
    const row: NewClickRow = {
      id: request.clickId,
      link_id: target.linkId,
      affiliate_id: target.affiliateId,
      channel_id: target.channelId,
      organization_id: target.brandId,
      mdasc: target.mdasc,
      created_at: new Date(now).toISOString(),
      is_bot: 0,
      is_head: 0,
      is_repeat: 0,
      is_suspicious: 0,
      is_suspended: target.suspended ? 1 : 0,
      counted: 0,
      visitor_hash: '',
      user_agent: null,
      // In every row, null without any: one shape for all buffered clicks (a field added to some
      // afterwards gave them another, and every function reading rows paid for the two).
      sub_ids: subIds ?? null,
    };
    this.undecided.push({ row, at: now, ip: request.ip, userAgent: request.userAgent, method: request.method, referer: request.referer });
    this.undecidedBytes += bytesOf(request.userAgent, request.referer, row.sub_ids);
    this.pendingById.set(row.id, row);
  }

  /**
   * A click this instance answered and has not written, with its flags: undefined when it is not
   * buffered here, or once it is written (read it from storage then: the writer added its
   * country, device and referrer). A buffered click is written first, so whoever asks (a
   * conversion) sees what the stored click will be; only if that write fails is the buffered row
   * (flags decided, not yet enriched) returned.
   */
  async buffered(clickId: string): Promise<NewClickRow | undefined> {
    if (!this.pendingById.has(clickId)) return undefined;
    await this.flush();
    const row = this.pendingById.get(clickId);
    // The flush decides every buffered click unless deciding failed (it then keeps them for the
    // next attempt); say so rather than answer for a click whose flags are not known.
    if (row !== undefined && !isDecided(row)) throw new Error(`click ${clickId} is not decided yet`);
    return row;
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
      let left = this.undecided.length;
      do {
        const slice = Math.min(left, FLUSH_SLICE);
        left -= slice;
        if (!(await this.writeSlice(slice))) return;
      } while (left > 0);
    });
    return this.flushing;
  }

  /**
   * Decides the first `count` undecided clicks and writes them after any unwritten ones; whether
   * the write succeeded (if not, what was not written is kept for the next attempt).
   */
  private async writeSlice(count: number): Promise<boolean> {
    this.takeBackOverflow();
    if (count === 0 && this.unwritten.length === 0) return true;
    const decided = await this.decideFirst(count);
    if (!decided) return false;
    const batch = this.unwritten.concat(decided);
    this.unwritten = [];
    const startedAt = performance.now();
    try {
      await this.sink.write(batch);
      this.forget(batch);
      this.writing = true;
      return true;
    } catch (error) {
      // Keep what was not written for the next attempt: nothing answered is ever lost.
      const written = error instanceof PartialWriteError ? error.written : 0;
      this.forget(batch.slice(0, written));
      this.unwritten = batch.slice(written);
      this.failedWrites += batch.length - written;
      this.writing = false;
      if (this.waitingBytes() > (this.options.overflow?.maxBytes ?? Infinity)) this.moveToOverflow();
      this.onError(error);
      return false;
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
    let left = this.undecided.length;
    while (left > 0) {
      const slice = Math.min(left, FLUSH_SLICE);
      left -= slice;
      const decided = await this.decideFirst(slice);
      if (!decided) return false;
      this.unwritten.push(...decided);
      this.moveToOverflow();
      // Requests that came meanwhile are answered before the next slice, as between written slices.
      await new Promise((resolve) => setImmediate(resolve));
    }
    this.moveToOverflow();
    return true;
  }

  /** Decides the first `count` undecided clicks; if deciding fails, they stay undecided and the error is reported. */
  private async decideFirst(count: number): Promise<ClickWrite[] | undefined> {
    const fresh = this.undecided.splice(0, count);
    const bytes = pendingBytes(fresh);
    this.undecidedBytes -= bytes;
    try {
      return await this.decide(fresh);
    } catch (error) {
      this.undecided = fresh.concat(this.undecided);
      this.undecidedBytes += bytes;
      this.onError(error);
      return undefined;
    }
  }

  /** Estimated bytes of the clicks waiting in memory. */
  private waitingBytes(): number {
    // Clicks wait unwritten only while writes fail or on their way to the overflow: few, summed here.
    let bytes = this.undecidedBytes;
    for (const w of this.unwritten) bytes += bytesOf(w.click.user_agent, w.referer, w.click.sub_ids);
    return bytes;
  }

  /**
   * Moves the decided, unwritten clicks to the overflow (the undecided stay: they have no flags
   * yet), a slice per put: each is taken back alone, so taking back never holds more than a slice.
   */
  private moveToOverflow(): void {
    const overflow = this.options.overflow?.to;
    if (!overflow || this.unwritten.length === 0) return;
    let moved = 0;
    try {
      while (moved < this.unwritten.length) {
        const slice = this.unwritten.slice(moved, moved + FLUSH_SLICE);
        overflow.put(slice);
        moved += slice.length;
      }
    } catch (error) {
      // A full or read-only disk: the clicks not moved stay in memory, as they would without an overflow.
      this.onError(error);
    }
    for (const { click } of this.unwritten.slice(0, moved)) this.pendingById.delete(click.id);
    this.overflowed += moved;
    this.unwritten = this.unwritten.slice(moved);
  }

  /**
   * Takes the oldest kept clicks back into memory to be written first, when nothing else waits
   * unwritten: after a successful write, or (to find out whether the database is back when no new
   * click arrives to try it) at most every OVERFLOW_PROBE_MS.
   */
  private takeBackOverflow(force = false): void {
    const overflow = this.options.overflow?.to;
    if (!overflow?.holds || this.unwritten.length > 0) return;
    if (!this.writing && !force) {
      const now = performance.now();
      if (this.undecided.length > 0 || now - this.probedAt < OVERFLOW_PROBE_MS) return;
      this.probedAt = now;
    }
    let taken: ClickWrite[] | undefined;
    try {
      taken = overflow.take();
    } catch (error) {
      this.onError(error);
      return;
    }
    if (!taken) return;
    for (const { click } of taken) this.pendingById.set(click.id, click);
    this.unwritten = taken;
  }

  private forget(writes: ClickWrite[]): void {
    for (const { click } of writes) {
      this.pendingById.delete(click.id);
      this.written[outcomeOf(click)]++;
    }
  }

  /**
   * Sets each click's flags: bot and HEAD first; only a click that would count claims a repeat
   * slot, and only a click that is not a repeat uses up its address's velocity budget. A click on a
   * suspended account's link (flagged as it was answered) claims neither and never counts. The rows
   * are changed only once every flag is known, the visitor hash last (see isDecided). The address
   * and referrer go on to the writer, which enriches the click with them and keeps neither.
   */
  private async decide(clicks: PendingClick[]): Promise<ClickWrite[]> {
    const { visitorSalt } = this.options;
    const judged = clicks.map(({ row, at, ip, userAgent, method }) => ({
      row,
      at,
      ip,
      userAgent,
      isSuspended: row.is_suspended === 1,
      isBot: this.isBot(userAgent),
      isHead: method === 'HEAD',
      isRepeat: false,
      isSuspicious: false,
      visitor: visitorHash(visitorSalt, ip, userAgent ?? ''),
    }));
    const candidates = judged.filter((c) => !c.isBot && !c.isHead && !c.isSuspended);
    const repeats = await this.repeats.repeats(candidates.map((c) => ({ linkId: c.row.link_id, visitor: c.visitor, at: c.at })));
    candidates.forEach((c, i) => (c.isRepeat = repeats[i] === true));
    const firsts = candidates.filter((c) => !c.isRepeat);
    const exceeded = await this.velocity.exceeded(firsts.map((c) => ({ linkId: c.row.link_id, address: addressHash(visitorSalt, c.ip), at: c.at })));
    firsts.forEach((c, i) => (c.isSuspicious = exceeded[i] === true));
    for (const c of judged) {
      const { row } = c;
      row.is_bot = c.isBot ? 1 : 0;
      row.is_head = c.isHead ? 1 : 0;
      row.is_repeat = c.isRepeat ? 1 : 0;
      row.is_suspicious = c.isSuspicious ? 1 : 0;
      row.counted = c.isSuspended || c.isBot || c.isHead || c.isRepeat || c.isSuspicious ? 0 : 1;
      row.user_agent = c.userAgent ? c.userAgent.slice(0, 512) : null;
      row.visitor_hash = c.visitor;
    }
    return clicks.map((c) => ({ click: c.row, address: c.ip, referer: c.referer ?? null }));
  }

  /** No user agent at all is a bot's mark. */
  private isBot(userAgent: string | undefined): boolean {
    return !userAgent || this.botVerdict(userAgent);
  }

  /** Clicks answered but not yet written. */
  get backlog(): number {
    return this.undecided.length + this.unwritten.length;
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

/** What became of a click: counted, or the first reason it does not count. */
export type ClickOutcome = 'counted' | 'bot' | 'head' | 'repeat' | 'suspicious' | 'suspended';

function outcomeOf(click: NewClickRow): ClickOutcome {
  if (click.is_suspended) return 'suspended';
  if (click.is_bot) return 'bot';
  if (click.is_head) return 'head';
  if (click.is_repeat) return 'repeat';
  if (click.is_suspicious) return 'suspicious';
  return 'counted';
}
