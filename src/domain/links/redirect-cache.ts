// Resolving short-link codes on the redirect hot path: an in-process cache of code → target
// (Location prepared), kept fresh by asking the database once a second what changed. Which
// affiliates and brands are suspended is held beside it, read again after any change to either.
import type { LinksRepository, RedirectBrand, RedirectTarget, SuspendedMembers } from '../../storage/repositories/links.js';
import { RecentMap } from '../../lib/recent-map.js';
import type { Clock } from '../../lib/clock.js';
import { brandDomains, brandHome } from './link-rules.js';
import type { FeedFacts } from './deep-links.js';

const CODE_PATTERN = /^[0-9A-Za-z]{7,32}$/;

/** Whether a string has the shape of a short-link code (whether or not such a link exists). */
export const isCodeShaped = (code: string): boolean => CODE_PATTERN.test(code);

/**
 * A resolved link with its Location prepared, so a redirect only concatenates the click id. Kept
 * small: the destination and the click id parameter live only inside locationBefore, and the ids
 * many links share (affiliate, channel, brand) are one string each, not one per link.
 */
export interface CachedTarget {
  linkId: string;
  active: boolean;
  affiliateId: string;
  channelId: string;
  brandId: string;
  mdasc: string | null;
  locationBefore: string;
  locationAfter: string;
  /** Where the destination's query starts in locationBefore (after its '?'): a visitor's parameters go there. */
  queryStart: number;
  /** Parameter names a visitor's query may not set; worked out on the first redirect with a query (visitor-query.ts). */
  ownNames: readonly string[] | undefined;
  /** The link's affiliate or brand is suspended: the visitor is redirected, the click counts nothing. */
  suspended: boolean;
  /** Set while the brand is suspended: where every visitor goes instead (its home page, no click id). */
  fixedLocation: string | undefined;
  /** Set on a product feed's link only: what its deep links are checked against (deep-links.ts). */
  feed: FeedFacts | undefined;
}

/** One copy of each id shared by many links; started afresh when it holds too many. */
class SharedStrings {
  private readonly strings = new Map<string, string>();
  constructor(private readonly max = 10_000) {}
  of(value: string): string {
    const known = this.strings.get(value);
    if (known !== undefined) return known;
    if (this.strings.size >= this.max) this.strings.clear();
    this.strings.set(value, value);
    return value;
  }
}

/** A suspended brand's home page; its site as stored should that not be a URL (checked when written, so never). */
/** The suspended affiliates, and the suspended brands with the home page their links lead to. */
interface Suspensions {
  affiliates: ReadonlySet<string>;
  brands: ReadonlyMap<string, string>;
}

/** A suspended brand's home page; its site as stored should that not be a URL (checked when written, so never). */
function homeOf(brand: SuspendedMembers['brands'][number]): string {
  try {
    return brandHome(brand);
  } catch {
    return brand.site;
  }
}

/** A destination's Location around the click id: before it (the click id parameter last), after it (the #fragment). */
export function locationParts(destination: string, clickIdParam: string): Pick<CachedTarget, 'locationBefore' | 'locationAfter' | 'queryStart'> {
  const hash = destination.indexOf('#');
  const base = hash === -1 ? destination : destination.slice(0, hash);
  const query = base.indexOf('?');
  return {
    locationBefore: `${base}${query === -1 ? '?' : '&'}${encodeURIComponent(clickIdParam)}=`,
    locationAfter: hash === -1 ? '' : destination.slice(hash),
    queryStart: query === -1 ? base.length + 1 : query + 1,
  };
}

/** A feed link's checks: the brand's domains (none, so no deep link passes, should its site not be a URL: checked when written, so never). */
function feedFactsOf(code: string, feed: NonNullable<RedirectTarget['feed']>, clickIdParam: string): FeedFacts {
  let domains: string[];
  try {
    domains = brandDomains(feed);
  } catch {
    domains = [];
  }
  return { code, domains, clickIdParam };
}

function prepare(code: string, target: RedirectTarget, shared: SharedStrings, suspensions: Suspensions): CachedTarget {
  const home = suspensions.brands.get(target.brandId);
  return {
    linkId: target.linkId,
    active: target.active,
    affiliateId: shared.of(target.affiliateId),
    channelId: shared.of(target.channelId),
    brandId: shared.of(target.brandId),
    mdasc: target.mdasc,
    ...locationParts(target.destination, target.clickIdParam),
    ownNames: undefined,
    suspended: home !== undefined || suspensions.affiliates.has(target.affiliateId),
    fixedLocation: home,
    feed: target.feed && feedFactsOf(code, target.feed, target.clickIdParam),
  };
}

/**
 * What an entry costs in bytes, about: the map's slots and the object (about 300 bytes, fitted to
 * the heap a full cache was measured to hold; see the unit test), and its own strings, the code
 * among them, at a byte a character (codes and URLs are ASCII) plus a header each. Shared ids are
 * not counted; ownNames, filled later, is left out.
 */
function entryBytes(code: string, target: CachedTarget | null): number {
  if (target === null) return 100 + code.length;
  return (
    300 +
    code.length +
    target.linkId.length +
    target.locationBefore.length +
    target.locationAfter.length +
    (target.mdasc?.length ?? 0) +
    (target.fixedLocation?.length ?? 0) +
    5 * 16 +
    (target.feed ? 100 + target.feed.domains.reduce((bytes, d) => bytes + d.length + 16, 0) : 0)
  );
}

/** Brands whose part of the lookup is held at most (about 200 bytes each); past it they are read afresh. */
const MAX_BRANDS_HELD = 20_000;

/** The cache's budget unless configured. */
export const DEFAULT_REDIRECT_CACHE_MB = 8;

/**
 * Cache of code → target (or "no such code"), bounded in bytes; the codes used least recently are
 * forgotten first. Entries do not expire: changes made in this process (or announced through Redis) remove
 * their entry at once, and the cache asks the database every `pollMs` which links and brands
 * changed since it last asked, so a change made by any other process is seen within about a
 * second. One indexed query per second replaces a lookup per hot code per expiry.
 */
export class RedirectCache {
  private readonly entries: RecentMap<string, CachedTarget | null>;
  private readonly shared = new SharedStrings();
  /** Changes are asked for from this time on (ISO); see poll(). */
  private since: string;
  /** When the last poll that succeeded started (the cache is vouched for up to then). */
  private checkedAt: number;
  private timer: NodeJS.Timeout | undefined;
  /** Who is suspended, once read; undefined until read again after a change (see suspensionsNow). */
  private suspensions: Suspensions | undefined;
  private reading: Promise<Suspensions> | undefined;
  /** Moves on whenever the cache starts afresh, so a lookup begun before is not stored after. */
  private generation = 0;
  /** The brands' part of lookups made at once (lookUpNow), forgotten with every code. */
  private readonly brands = new Map<string, RedirectBrand | null>();
  /** Codes answered from the cache, and codes that had to be looked up (for the metrics). */
  readonly lookups = { hits: 0, misses: 0 };

  constructor(
    private readonly links: Pick<LinksRepository, 'findRedirectTarget' | 'changesSince' | 'suspendedMembers'> &
      Partial<Pick<LinksRepository, 'findRedirectTargetNow' | 'redirectBrandNow'>>,
    /** Stored change times come from the same clock, so "changed since" compares like with like. */
    private readonly clock: Clock,
    private readonly options: { pollMs?: number; maxMb?: number } = {},
  ) {
    this.entries = new RecentMap((options.maxMb ?? DEFAULT_REDIRECT_CACHE_MB) * 1024 * 1024, entryBytes);
    this.since = sinceFor(clock.now());
    this.checkedAt = clock.now();
  }

  /**
   * Without waiting: the active target (or null: unknown or inactive) when the cache knows the
   * code, undefined when it must be looked up with resolve().
   */
  cached(code: string): CachedTarget | null | undefined {
    let hit = this.entries.get(code);
    if (hit !== undefined) this.lookups.hits++;
    else if ((hit = this.lookUpNow(code)) === undefined) return undefined; // resolve() follows, and counts the miss
    return hit && hit.active ? hit : null;
  }

  /**
   * A code not held, read at once where the database allows it (SQLite) and who is suspended is
   * known, its brand's part from memory (read once per brand until the cache starts afresh, as
   * every brand change makes it). Undefined where it cannot be read now: resolve() then does the
   * whole lookup.
   */
  private lookUpNow(code: string): CachedTarget | null | undefined {
    const { links, suspensions } = this;
    if (!suspensions || !links.findRedirectTargetNow || !CODE_PATTERN.test(code)) return undefined;
    const found = links.findRedirectTargetNow(code, this.brandNow);
    if (found === undefined) return undefined;
    this.lookups.misses++;
    const target = found ? prepare(code, found, this.shared, suspensions) : null;
    this.entries.set(code, target);
    return target;
  }

  /** A brand's part of the lookup, from memory or read at once (see lookUpNow); a property, so a lookup passes it without making a closure. */
  private readonly brandNow = (brandId: string): RedirectBrand | null | undefined => {
    let brand = this.brands.get(brandId);
    if (brand === undefined) {
      brand = this.links.redirectBrandNow!(brandId);
      if (brand === undefined) return undefined;
      if (this.brands.size >= MAX_BRANDS_HELD) this.brands.clear();
      this.brands.set(brandId, brand);
    }
    return brand;
  };

  /** The active target of a code, or undefined when unknown or inactive. */
  async resolve(code: string): Promise<CachedTarget | undefined> {
    let target = this.entries.get(code);
    if (target !== undefined) this.lookups.hits++;
    else {
      this.lookups.misses++;
      if (!CODE_PATTERN.test(code)) return undefined;
      const generation = this.generation;
      const found = await this.links.findRedirectTarget(code);
      const suspensions = this.suspensions ?? (await this.suspensionsNow());
      target = found ? prepare(code, found, this.shared, suspensions) : null;
      // Started afresh meanwhile (a suspension, say): answer this once, keep nothing read before it.
      if (generation === this.generation) this.entries.set(code, target);
    }
    return target && target.active ? target : undefined;
  }

  /** Codes held, and what they cost in bytes (estimated by entryBytes). */
  get held(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.entries.weight };
  }

  invalidate(code: string): void {
    this.entries.delete(code);
  }

  /** Forgets every code, and who is suspended (many links changed at once, or a suspension). */
  clear(): void {
    this.entries.clear();
    this.brands.clear();
    this.suspensions = undefined;
    this.reading = undefined;
    this.generation++;
  }

  /**
   * Who is suspended: read once, then kept until the cache starts afresh (every change to an
   * affiliate or brand does that, here through the poll or an announcement). Suspended members
   * are few, so this costs one small query per change rather than a join on every lookup.
   */
  private suspensionsNow(): Promise<Suspensions> {
    if (this.suspensions) return Promise.resolve(this.suspensions);
    if (this.reading) return this.reading;
    const generation = this.generation;
    const reading = this.links.suspendedMembers().then(
      (members) => {
        const suspensions: Suspensions = { affiliates: new Set(members.affiliates), brands: new Map(members.brands.map((b) => [b.id, homeOf(b)])) };
        if (generation === this.generation) this.suspensions = suspensions;
        return suspensions;
      },
      (error: unknown) => {
        if (this.reading === reading) this.reading = undefined;
        throw error;
      },
    );
    this.reading = reading;
    return reading;
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
    const startedAt = this.clock.now();
    let changed: string[] | 'everything';
    try {
      changed = await this.links.changesSince(this.since);
    } catch (error) {
      // The database is away: cached links keep redirecting (their clicks wait in the buffer), and
      // `since` stays where it was, so the first poll that succeeds reports every change made
      // meanwhile. Past MAX_UNCHECKED_MS without a successful poll, nothing cached is vouched for.
      if (startedAt - this.checkedAt > MAX_UNCHECKED_MS) this.entries.clear();
      throw error;
    }
    if (changed === 'everything') this.clear();
    else for (const code of changed) this.entries.delete(code);
    this.since = sinceFor(startedAt);
    this.checkedAt = startedAt;
  }
}

/**
 * Polls overlap by CHANGE_SLACK_MS: a change is reported by several polls in a row, so neither a
 * lookup that raced a poll, nor a transaction committed a moment after its updated_at, nor a small
 * clock difference between processes can leave a stale entry behind for long.
 */
const CHANGE_SLACK_MS = 2000;
/**
 * How long cached links are served while the database cannot be asked what changed: a link
 * changed meanwhile (only possible through an instance that still reaches the database) redirects
 * as before for at most this long.
 */
const MAX_UNCHECKED_MS = 60_000;
const sinceFor = (time: number) => new Date(time - CHANGE_SLACK_MS).toISOString();
