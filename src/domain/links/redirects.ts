// The redirect hot path: a code resolves from an in-process cache, the 302 is answered at once,
// and the click is only buffered; ClickRecorder writes buffered clicks in one transaction per
// interval, so no request ever waits for a disk.
import type { Database } from '../../storage/database.js';
import { addClickCounts, findRedirectTarget, type RedirectTarget } from '../../storage/repositories/links.js';

const CODE_PATTERN = /^[0-9A-Za-z]{7,32}$/;

/** Bounded cache of code → target (or "no such code"), refreshed after a TTL. */
export class RedirectCache {
  private readonly entries = new Map<string, { target: RedirectTarget | null; expires: number }>();

  constructor(
    private readonly database: Database,
    private readonly ttlMs = 60_000,
    private readonly maxEntries = 200_000,
  ) {}

  /** The active target of a code, or undefined when unknown or inactive. */
  async resolve(code: string): Promise<RedirectTarget | undefined> {
    if (!CODE_PATTERN.test(code)) return undefined;
    const now = Date.now();
    const hit = this.entries.get(code);
    let target: RedirectTarget | null;
    if (hit && hit.expires > now) {
      target = hit.target;
    } else {
      target = (await findRedirectTarget(this.database, code)) ?? null;
      if (this.entries.size >= this.maxEntries) {
        // Drop the oldest entry (Map keeps insertion order).
        const oldest = this.entries.keys().next().value;
        if (oldest !== undefined) this.entries.delete(oldest);
      }
      // Unknown codes are remembered briefly so a flood of bad codes does not reach the database.
      this.entries.set(code, { target, expires: now + (target ? this.ttlMs : 1000) });
    }
    return target && target.active ? target : undefined;
  }

  invalidate(code: string): void {
    this.entries.delete(code);
  }
}

/** Buffers counted clicks per link and adds them to the links' totals periodically. */
export class ClickRecorder {
  private pending = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly database: Database,
    private readonly flushMs: number,
    private readonly onError: (error: unknown) => void,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.flush(), this.flushMs);
    this.timer.unref();
  }

  record(linkId: string): void {
    this.pending.set(linkId, (this.pending.get(linkId) ?? 0) + 1);
  }

  /** Writes everything buffered so far; concurrent calls run one after another. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (this.pending.size === 0) return;
      const batch = this.pending;
      this.pending = new Map();
      try {
        await addClickCounts(this.database, batch);
      } catch (error) {
        // Keep the clicks for the next attempt rather than losing them.
        for (const [id, n] of batch) this.pending.set(id, (this.pending.get(id) ?? 0) + n);
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
