// The redirect loop: a code resolved from the in-process cache (or the database), the click
// recorded in a buffer that is written off the request path, and the Location answered at once.
import type { ClickRecorder, Visit } from './click-recorder.js';
import type { CachedTarget, RedirectCache } from './redirect-cache.js';
import type { NewClickRow } from '../../storage/tables.js';
import type { DeepLinks } from './deep-links.js';

export class TrackingService {
  constructor(
    private readonly redirects: RedirectCache,
    private readonly clicks: ClickRecorder,
    /** Checks the product pages of feed links' deep links (deep-links.ts). */
    private readonly deepLinks: DeepLinks,
  ) {}

  /**
   * Without waiting: the active target (or null: unknown or inactive) when the cache knows the
   * code or SQLite reads it at once, undefined when it must be looked up with resolve(). The
   * redirect's fast path.
   */
  cached(code: string): CachedTarget | null | undefined {
    return this.redirects.cached(code);
  }

  /** The active target of a code, or undefined when unknown or inactive. */
  resolve(code: string): Promise<CachedTarget | undefined> {
    return this.redirects.resolve(code);
  }

  /**
   * Records a click on the target and answers the Location to redirect to (see ClickRecorder); a
   * feed link's visit with a query goes to the signed product page it names, when it checks out.
   */
  clickThrough(target: CachedTarget, visit: Visit, query?: string): string {
    if (target.feed === undefined || query === undefined) return this.clicks.clickThrough(target, visit, query);
    const deep = this.deepLinks.follow(target as CachedTarget & { feed: NonNullable<CachedTarget['feed']> }, query);
    return this.clicks.clickThrough(deep.target, visit, deep.query);
  }

  /** A click answered but not yet written, with the flags it will be stored with. */
  bufferedClick(clickId: string): Promise<NewClickRow | undefined> {
    return this.clicks.buffered(clickId);
  }

  /** Writes every buffered click now. */
  flushClicks(): Promise<void> {
    return this.clicks.flush();
  }

  /** Forgets a code, so the next redirect reads it afresh (it changed here or on another instance). */
  forgetLink(code: string): void {
    this.redirects.invalidate(code);
  }

  /** Forgets every code (a brand's links changed at once, e.g. an approval was withdrawn). */
  forgetAllLinks(): void {
    this.redirects.clear();
  }

  /** Starts writing clicks on their interval and polling for links changed elsewhere. */
  start(onPollError: (error: unknown) => void): void {
    this.clicks.start();
    this.redirects.watch(onPollError);
  }

  /** Stops polling and writes every buffered click before resolving (see ClickRecorder.stop). */
  async stop(): Promise<void> {
    this.redirects.stop();
    await this.clicks.stop();
  }
}
