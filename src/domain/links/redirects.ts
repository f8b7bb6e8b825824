// The redirect hot path: a code resolves from an in-process cache, the 302 is answered at once,
// and the click is only buffered; ClickRecorder writes buffered clicks in one transaction per
// interval, so no request ever waits for a disk.
import { randomBytes } from 'node:crypto';
import type { Database } from '../../storage/database.js';
import type { NewClickRow } from '../../storage/schema.js';
import { findRedirectTarget, redirectChangesSince, type RedirectTarget } from '../../storage/repositories/links.js';
import { PartialWriteError, type ClickSink } from '../../storage/click-sink.js';
import { addressHash, isBotAgent, visitorHash } from './click-filter.js';
import type { RepeatFilter } from './repeat-filter.js';
import type { VelocityFilter } from './velocity-filter.js';
import { RecentMap } from '../../lib/recent-map.js';
import { locationFor } from './visitor-query.js';

const CODE_PATTERN = /^[0-9A-Za-z]{7,32}$/;

/** Whether a string has the shape of a short-link code (whether or not such a link exists). */
export const isCodeShaped = (code: string): boolean => CODE_PATTERN.test(code);

/** A resolved link with its Location prepared, so a redirect only concatenates the click id. */
export interface CachedTarget extends RedirectTarget {
  locationBefore: string;
  locationAfter: string;
  /** Where the destination's query starts in locationBefore (after its '?'): a visitor's parameters go there. */
  queryStart: number;
  /** Parameter names a visitor's query may not set; worked out on the first redirect with a query (visitor-query.ts). */
  ownNames: readonly string[] | undefined;
}

function prepare(target: RedirectTarget): CachedTarget {
  const hash = target.destination.indexOf('#');
  const base = hash === -1 ? target.destination : target.destination.slice(0, hash);
  const fragment = hash === -1 ? '' : target.destination.slice(hash);
  const query = base.indexOf('?');
  return {
    ...target,
    locationBefore: `${base}${query === -1 ? '?' : '&'}${encodeURIComponent(target.clickIdParam)}=`,
    locationAfter: fragment,
    queryStart: query === -1 ? base.length + 1 : query + 1,
    ownNames: undefined,
  };
}

/**
 * Bounded cache of code → target (or "no such code"); the codes used least recently are forgotten
 * first. Entries do not expire: changes made in this process (or announced through Redis) remove
 * their entry at once, and the cache asks the database every `pollMs` which links and brands
 * changed since it last asked, so a change made by any other process is seen within about a
 * second. One indexed query per second replaces a lookup per hot code per expiry.
 */
export class RedirectCache {
  private readonly entries: RecentMap<string, CachedTarget | null>;
  /** Changes are asked for from this time on (ISO); see poll(). */
  private since: string;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly database: Database,
    private readonly options: { pollMs?: number; maxEntries?: number } = {},
  ) {
    this.entries = new RecentMap(options.maxEntries ?? 50_000);
    this.since = sinceFor(Date.now());
  }

  /**
   * Without waiting: the active target (or null: unknown or inactive) when the cache knows the
   * code, undefined when it must be looked up with resolve().
   */
  cached(code: string): CachedTarget | null | undefined {
    const hit = this.entries.get(code);
    if (hit === undefined) return undefined;
    return hit && hit.active ? hit : null;
  }

  /** The active target of a code, or undefined when unknown or inactive. */
  async resolve(code: string): Promise<CachedTarget | undefined> {
    let target = this.entries.get(code);
    if (target === undefined) {
      if (!CODE_PATTERN.test(code)) return undefined;
      const found = await findRedirectTarget(this.database, code);
      target = found ? prepare(found) : null;
      this.entries.set(code, target);
    }
    return target && target.active ? target : undefined;
  }

  invalidate(code: string): void {
    this.entries.delete(code);
  }

  /** Starts asking for changes made elsewhere; failures are reported and the cache starts afresh. */
  watch(onError: (error: unknown) => void): void {
    this.timer = setInterval(() => void this.poll().catch(onError), this.options.pollMs ?? 1000);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** Forgets every code changed since the last poll (or everything, when a brand changed). */
  async poll(): Promise<void> {
    const startedAt = Date.now();
    let changed: string[] | 'everything';
    try {
      changed = await redirectChangesSince(this.database, this.since);
    } catch (error) {
      // Without knowing what changed, nothing cached can be trusted.
      this.entries.clear();
      throw error;
    }
    if (changed === 'everything') this.entries.clear();
    else for (const code of changed) this.entries.delete(code);
    this.since = sinceFor(startedAt);
  }
}

/**
 * Polls overlap by CHANGE_SLACK_MS: a change is reported by several polls in a row, so neither a
 * lookup that raced a poll, nor a transaction committed a moment after its updated_at, nor a small
 * clock difference between processes can leave a stale entry behind for long.
 */
const CHANGE_SLACK_MS = 2000;
const sinceFor = (time: number) => new Date(time - CHANGE_SLACK_MS).toISOString();

let entropy = Buffer.alloc(0);
let entropyOffset = 0;

/**
 * 32 hex characters: the time in milliseconds (12) then 80 random bits (20), from the system
 * CSPRNG in pooled reads. Unguessable, and increasing over time, so stored click ids are appended
 * at the end of their index instead of scattered through it.
 */
export function newClickId(): string {
  if (entropyOffset + 10 > entropy.length) {
    entropy = randomBytes(4096);
    entropyOffset = 0;
  }
  const random = entropy.toString('hex', entropyOffset, entropyOffset + 10);
  entropyOffset += 10;
  return Date.now().toString(16).padStart(12, '0') + random;
}

/** The request facts a click is flagged by (bot, HEAD, repeat visitor, address velocity). */
export interface Visit {
  method: string;
  ip: string;
  userAgent: string | undefined;
}

interface ClickRequest extends Visit {
  clickId: string;
}

/**
 * Whether a buffered click's flags are set: the visitor hash is empty until its batch is decided,
 * and decide() sets it last.
 */
const isDecided = (row: NewClickRow): boolean => row.visitor_hash !== '';

/** A click as answered: the request facts needed to flag it, decided when the batch is written. */
interface PendingClick {
  row: NewClickRow;
  ip: string;
  userAgent: string | undefined;
  method: string;
}

/**
 * Buffers clicks and writes them once per interval. Answering a redirect only appends to the
 * buffer; the flags (bot, HEAD, repeat, suspicious) and the visitor hash are computed per batch
 * when it is written, off the request path.
 */
export class ClickRecorder {
  private undecided: PendingClick[] = [];
  /** Flagged clicks of a batch that failed to write, retried first. */
  private unwritten: NewClickRow[] = [];
  /** Clicks not yet written, by id, so a conversion can find a click before it is written. */
  private readonly pendingById = new Map<string, NewClickRow>();
  private readonly botAgents = new Map<string, boolean>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly sink: ClickSink,
    private readonly repeats: RepeatFilter,
    private readonly velocity: VelocityFilter,
    private readonly options: { flushMs: number; visitorSalt: string },
    private readonly onError: (error: unknown) => void,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.flush(), this.options.flushMs);
    this.timer.unref();
  }

  /**
   * A visitor follows the link: a new click id is recorded, and the Location to answer with
   * carries it to the brand's site, with the visitor's `query` string (after '?', if any) merged
   * in. Every redirect, whichever path answers it, goes through here.
   */
  clickThrough(target: CachedTarget, visit: Visit, query?: string): string {
    const clickId = newClickId();
    this.record(target, { clickId, ...visit });
    return locationFor(target, clickId, query);
  }

  private record(target: RedirectTarget, request: ClickRequest): void {
    const row: NewClickRow = {
      id: request.clickId,
      link_id: target.linkId,
      affiliate_id: target.affiliateId,
      channel_id: target.channelId,
      organization_id: target.brandId,
      mdasc: target.mdasc,
      created_at: new Date().toISOString(),
      is_bot: 0,
      is_head: 0,
      is_repeat: 0,
      is_suspicious: 0,
      counted: 0,
      visitor_hash: '',
      user_agent: null,
    };
    this.undecided.push({ row, ip: request.ip, userAgent: request.userAgent, method: request.method });
    this.pendingById.set(row.id, row);
  }

  /**
   * A click not yet written, with its flags. A click whose batch has not been decided yet (its
   * flags are only set when the batch is written) is decided now: the buffer is flushed first, so
   * whoever asks (a conversion) sees the same flags the stored click will have.
   */
  async buffered(clickId: string): Promise<NewClickRow | undefined> {
    const row = this.pendingById.get(clickId);
    if (row === undefined || isDecided(row)) return row;
    await this.flush();
    // The flush decides every buffered click unless deciding failed (it then keeps them for the
    // next attempt); say so rather than answer for a click whose flags are not known.
    if (!isDecided(row)) throw new Error(`click ${clickId} is not decided yet`);
    return row;
  }

  /** Writes everything buffered so far; concurrent calls run one after another. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (this.undecided.length === 0 && this.unwritten.length === 0) return;
      const fresh = this.undecided;
      this.undecided = [];
      let decided: NewClickRow[];
      try {
        decided = await this.decide(fresh);
      } catch (error) {
        this.undecided = fresh.concat(this.undecided);
        this.onError(error);
        return;
      }
      const batch = this.unwritten.concat(decided);
      this.unwritten = [];
      try {
        await this.sink.write(batch);
        this.forget(batch);
      } catch (error) {
        // Keep what was not written for the next attempt: nothing answered is ever lost.
        const written = error instanceof PartialWriteError ? error.written : 0;
        this.forget(batch.slice(0, written));
        this.unwritten = batch.slice(written);
        this.onError(error);
      }
    });
    return this.flushing;
  }

  private forget(clicks: NewClickRow[]): void {
    for (const click of clicks) this.pendingById.delete(click.id);
  }

  /**
   * Sets each click's flags: bot and HEAD first; only a click that would count claims a repeat
   * slot, and only a click that is not a repeat uses up its address's velocity budget. The rows
   * are changed only once every flag is known, the visitor hash last (see isDecided).
   */
  private async decide(clicks: PendingClick[]): Promise<NewClickRow[]> {
    const { visitorSalt } = this.options;
    const judged = clicks.map(({ row, ip, userAgent, method }) => ({
      row,
      ip,
      userAgent,
      isBot: this.isBot(userAgent),
      isHead: method === 'HEAD',
      isRepeat: false,
      isSuspicious: false,
      visitor: visitorHash(visitorSalt, ip, userAgent ?? ''),
    }));
    const candidates = judged.filter((c) => !c.isBot && !c.isHead);
    const repeats = await this.repeats.repeats(candidates.map((c) => ({ linkId: c.row.link_id, visitor: c.visitor, at: Date.parse(c.row.created_at) })));
    candidates.forEach((c, i) => (c.isRepeat = repeats[i] === true));
    const firsts = candidates.filter((c) => !c.isRepeat);
    const exceeded = await this.velocity.exceeded(firsts.map((c) => ({ linkId: c.row.link_id, address: addressHash(visitorSalt, c.ip), at: Date.parse(c.row.created_at) })));
    firsts.forEach((c, i) => (c.isSuspicious = exceeded[i] === true));
    for (const c of judged) {
      const { row } = c;
      row.is_bot = c.isBot ? 1 : 0;
      row.is_head = c.isHead ? 1 : 0;
      row.is_repeat = c.isRepeat ? 1 : 0;
      row.is_suspicious = c.isSuspicious ? 1 : 0;
      row.counted = c.isBot || c.isHead || c.isRepeat || c.isSuspicious ? 0 : 1;
      row.user_agent = c.userAgent ? c.userAgent.slice(0, 512) : null;
      row.visitor_hash = c.visitor;
    }
    return clicks.map((c) => c.row);
  }

  /** The bot list is a large regular expression; most traffic repeats a few user agents. */
  private isBot(userAgent: string | undefined): boolean {
    if (!userAgent) return true;
    let bot = this.botAgents.get(userAgent);
    if (bot === undefined) {
      bot = isBotAgent(userAgent);
      if (this.botAgents.size >= 10_000) this.botAgents.clear();
      this.botAgents.set(userAgent, bot);
    }
    return bot;
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
    const deadline = Date.now() + patienceMs;
    await this.flush();
    while (this.backlog > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      await this.flush();
    }
    await this.sink.close();
    if (this.backlog > 0) throw new Error(`${this.backlog} click(s) could not be written before stopping`);
  }
}
