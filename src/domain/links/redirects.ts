// The redirect hot path: a code resolves from an in-process cache, the 302 is answered at once,
// and the click is only buffered; ClickRecorder writes buffered clicks in one transaction per
// interval, so no request ever waits for a disk.
import { randomUUID } from 'node:crypto';
import type { Database } from '../../storage/database.js';
import type { NewClickRow } from '../../storage/schema.js';
import { findRedirectTarget, type RedirectTarget } from '../../storage/repositories/links.js';
import { writeClicks } from '../../storage/repositories/clicks.js';
import { isBotAgent, RepeatWindow, visitorHash } from './click-filter.js';

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

/** Buffers clicks and writes them in one transaction per interval; flags decide what counts. */
export class ClickRecorder {
  private pending: NewClickRow[] = [];
  /** Buffered clicks by id, so a conversion can find a click before it is written. */
  private pendingById = new Map<string, NewClickRow>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private readonly repeats: RepeatWindow;

  constructor(
    private readonly database: Database,
    private readonly options: { flushMs: number; repeatWindowMs: number; visitorSalt: string },
    private readonly onError: (error: unknown) => void,
  ) {
    this.repeats = new RepeatWindow(options.repeatWindowMs);
  }

  start(): void {
    this.timer = setInterval(() => void this.flush(), this.options.flushMs);
    this.timer.unref();
  }

  record(target: RedirectTarget, request: ClickRequest): void {
    const now = Date.now();
    const visitor = visitorHash(this.options.visitorSalt, request.ip, request.userAgent ?? '');
    const isBot = isBotAgent(request.userAgent);
    const isHead = request.method === 'HEAD';
    // Only a click that would count claims the visitor's slot in the repeat window.
    const isRepeat = !isBot && !isHead && this.repeats.seen(target.linkId, visitor, now);
    const click: NewClickRow = {
      id: request.clickId,
      link_id: target.linkId,
      affiliate_id: target.affiliateId,
      channel_id: target.channelId,
      organization_id: target.brandId,
      mdasc: target.mdasc,
      created_at: new Date(now).toISOString(),
      is_bot: isBot ? 1 : 0,
      is_head: isHead ? 1 : 0,
      is_repeat: isRepeat ? 1 : 0,
      counted: isBot || isHead || isRepeat ? 0 : 1,
      visitor_hash: visitor,
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
        await writeClicks(this.database, batch);
        for (const click of batch) this.pendingById.delete(click.id);
      } catch (error) {
        // Keep the clicks for the next attempt rather than losing them.
        this.pending = batch.concat(this.pending);
        this.onError(error);
      }
    });
    return this.flushing;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flush();
  }
}
