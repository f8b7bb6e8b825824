// What the analytics rollups keep: for each kind of key (scope), the dimensions summed per hour.
// Storage writes exactly these rows; the analytics answer exactly what they can read from them
// (anything else is refused, never computed from raw clicks or orders).

/**
 * What a rollup row is about: an affiliate, an affiliate at one brand, one link (of an
 * affiliate), or a brand (over all its affiliates).
 */
export type RollupScope = 'affiliate' | 'affiliate_brand' | 'link' | 'brand';

/**
 * A dimension of a rollup row: 'all' (no breakdown), a fact of the click, a key (channel, brand,
 * affiliate, link), 'device_country' (both, value `device|country`), or 'facts' (every fact the
 * scope keeps, value `country|device|…` in FACTS order).
 */
export type Dimension = 'all' | 'country' | 'device' | 'browser' | 'os' | 'referer' | 'channel' | 'brand' | 'affiliate' | 'link' | 'device_country' | 'facts' | 'network';

/** What a 'facts' value is made of. */
export type Fact = 'country' | 'device' | 'browser' | 'os' | 'referer' | 'channel';

/**
 * Keys with few clicks each (an affiliate at one brand, a link, a brand) keep their click facts as
 * one row per combination: for most of them that is one row per click, where a row per fact was
 * five or six. A breakdown or filter by any of these facts, together in any combination, is
 * summed from those rows. The affiliate, whose keys are few and busy, keeps a row per fact.
 */
export const FACTS: Readonly<Partial<Record<RollupScope, readonly Fact[]>>> = {
  affiliate_brand: ['country', 'device', 'browser', 'os', 'referer', 'channel'],
  link: ['country', 'device', 'browser', 'os', 'referer'],
  brand: ['country', 'device', 'browser', 'os', 'referer'],
};

/**
 * A link's own totals are not kept twice: they are its affiliate's row of dimension 'link' (see
 * the analytics plan). Brands keep countries apart too, their most asked breakdown. An
 * affiliate's clicks per network (autonomous system number, '0' when unknown) are for the fraud
 * rules' data-centre share, not for the analytics (NETWORK_DIMENSION).
 */
export const CLICK_DIMENSIONS: Readonly<Record<RollupScope, readonly Dimension[]>> = {
  affiliate: ['all', 'country', 'device', 'browser', 'os', 'referer', 'channel', 'brand', 'link', 'device_country', 'network'],
  affiliate_brand: ['all', 'link', 'facts'],
  link: ['facts'],
  brand: ['all', 'country', 'affiliate', 'link', 'facts'],
};

/** Orders keep the country of their click, not its device, browser, OS or referrer. */
export const ORDER_DIMENSIONS: Readonly<Record<RollupScope, readonly Dimension[]>> = {
  affiliate: ['all', 'country', 'channel', 'brand', 'link'],
  affiliate_brand: ['all', 'country', 'channel', 'link'],
  link: ['all', 'country'],
  brand: ['all', 'country', 'affiliate', 'link'],
};

/** The dimension of an affiliate's clicks per network: the fraud rules read it; the analytics neither offer nor describe it. */
export const NETWORK_DIMENSION = 'network' satisfies Dimension;

/** What an unknown fact is summed under. */
export const UNKNOWN_FACT = { country: 'ZZ', device: 'other', browser: 'Other', os: 'Other', referer: '(direct)' } as const;

/** The separator of a device_country value (`mobile|US`) and of a facts value (no fact holds it: hosts, codes, ids and names do not). */
export const PAIR_SEPARATOR = '|';

/** The UTC hour an ISO 8601 time (YYYY-MM-DDTHH:…Z) falls in, as it keys rollup rows. */
export function hourOf(iso: string): string {
  return `${iso.slice(0, 13)}:00:00.000Z`;
}

/** The first hour of the UTC day an ISO 8601 time falls in, as it keys daily rollup rows. */
export function dayOf(iso: string): string {
  return `${iso.slice(0, 10)}T00:00:00.000Z`;
}

/** The order of a top list, as the rollups' SQL sorts one: most counted first, then by value (code unit order). */
export function mostCountedFirst(a: { counted: number; value: string }, b: { counted: number; value: string }): number {
  return b.counted - a.counted || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0);
}

/** Rollups are kept per UTC hour and, summed again, per UTC day. */
export type Period = 'hour' | 'day';
