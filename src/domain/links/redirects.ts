// The redirect hot path: a code resolves from an in-process cache, the 302 is answered at once,
// and the click is only buffered; ClickRecorder writes buffered clicks in one transaction per
// interval, so no request ever waits for a disk.
import { randomUUID } from 'node:crypto';
import type { Database } from '../../storage/database.js';
import type { NewClickRow } from '../../storage/schema.js';
import { findRedirectTarget, type RedirectTarget } from '../../storage/repositories/links.js';
import { writeClicks } from '../../storage/repositories/clicks.js';
import { isBotAgent, visitorHash } from './click-filter.js';
import type { RepeatFilter } from './repeat-filter.js';

const CODE_PATTERN = /^[0-9A-Za-z]{7,32}$/;

/** A resolved link with its Location prepared, so a redirect only concatenates the click id. */
export interface CachedTarget extends RedirectTarget {
  locationBefore: string;
  locationAfter: string;
}

function prepare(target: RedirectTarget): CachedTarget {
  const hash = target.destination.indexOf('#');
  const base = hash === -1 ? target.destination : target.destination.slice(0, hash);
  const fragment = hash === -1 ? '' : target.destination.slice(hash);
  const separator = base.includes('?') ? '&' : '?';
  return { ...target, locationBefore: `${base}${separator}${encodeURIComponent(target.clickIdParam)}=`, locationAfter: fragment };
}

/** Bounded cache of code → target (or "no such code"), refreshed after a short TTL. */
export class RedirectCache {
  private readonly entries = new Map<string, { target: CachedTarget | null; expires: number }>();

  constructor(
    private readonly database: Database,
    /** A change made elsewhere (another process) is seen within this time. */
    private readonly ttlMs = 2000,
    private readonly maxEntries = 200_000,
  ) {}

  /** The active target of a code, or undefined when unknown or inactive. */
  async resolve(code: string): Promise<CachedTarget | undefined> {
    const now = Date.now();
    const hit = this.entries.get(code);
    let target: CachedTarget | null;
    if (hit && hit.expires > now) {
      target = hit.target;
    } else {
      if (!CODE_PATTERN.test(code)) return undefined;
      const found = await findRedirectTarget(this.database, code);
      target = found ? prepare(found) : null;
      if (!hit && this.entries.size >= this.maxEntries) {
        // Drop the oldest entry (Map keeps insertion order).
        const oldest = this.entries.keys().next().value;
        if (oldest !== undefined) this.entries.delete(oldest);
      }
      this.entries.set(code, { target, expires: now + this.ttlMs });
    }
    return target && target.active ? target : undefined;
  }

  invalidate(code: string): void {
    this.entries.delete(code);
  }
}

export const newClickId = (): string => randomUUID().replaceAll('-', '');

export interface ClickRequest {
  clickId: string;
  method: string;
  ip: string;
  userAgent: string | undefined;
}

/**
 * Buffers clicks and writes them in one transaction per interval. Bot and HEAD flags are set
 * when the click arrives; repeats are decided per batch when it is written (one round trip to
 * Redis for the whole batch when instances share the window).
 */
export class ClickRecorder {
  private pending: NewClickRow[] = [];
  /** Buffered clicks by id, so a conversion can find a click before it is written. */
  private pendingById = new Map<string, NewClickRow>();
  /** Clicks of a failed write whose repeat flag was already decided (and claimed in the window). */
  private readonly decided = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly database: Database,
    private readonly repeats: RepeatFilter,
    private readonly options: { flushMs: number; visitorSalt: string },
    private readonly onError: (error: unknown) => void,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.flush(), this.options.flushMs);
    this.timer.unref();
  }

  record(target: RedirectTarget, request: ClickRequest): void {
    const isBot = isBotAgent(request.userAgent);
    const isHead = request.method === 'HEAD';
    const click: NewClickRow = {
      id: request.clickId,
      link_id: target.linkId,
      affiliate_id: target.affiliateId,
      channel_id: target.channelId,
      organization_id: target.brandId,
      mdasc: target.mdasc,
      created_at: new Date().toISOString(),
      is_bot: isBot ? 1 : 0,
      is_head: isHead ? 1 : 0,
      is_repeat: 0,
      counted: isBot || isHead ? 0 : 1,
      visitor_hash: visitorHash(this.options.visitorSalt, request.ip, request.userAgent ?? ''),
      user_agent: request.userAgent ? request.userAgent.slice(0, 512) : null,
    };
    this.pending.push(click);
    this.pendingById.set(click.id, click);
  }

  /** A click still waiting in the buffer. */
  buffered(clickId: string): NewClickRow | undefined {
    return this.pendingById.get(clickId);
  }

  /** Writes everything buffered so far; concurrent calls run one after another. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (this.pending.length === 0) return;
      const batch = this.pending;
      this.pending = [];
      try {
        await this.markRepeats(batch);
        await writeClicks(this.database, batch);
        for (const click of batch) {
          this.pendingById.delete(click.id);
          this.decided.delete(click.id);
        }
      } catch (error) {
        // Keep the clicks for the next attempt rather than losing them.
        this.pending = batch.concat(this.pending);
        this.onError(error);
      }
    });
    return this.flushing;
  }

  /** Only a click that would count takes part in repeat detection; a bot never claims a visitor. */
  private async markRepeats(batch: NewClickRow[]): Promise<void> {
    // A batch that failed to write comes back already decided.
    const undecided = batch.filter((c) => c.counted === 1 && c.is_repeat === 0 && !this.decided.has(c.id));
    const repeats = await this.repeats.repeats(undecided.map((c) => ({ linkId: c.link_id, visitor: c.visitor_hash, at: Date.parse(c.created_at) })));
    undecided.forEach((click, i) => {
      this.decided.add(click.id);
      if (repeats[i]) {
        click.is_repeat = 1;
        click.counted = 0;
      }
    });
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flush();
  }
}
