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
 * affiliate, link), or 'device_country' (both, value `device|country`).
 */
export type Dimension = 'all' | 'country' | 'device' | 'browser' | 'os' | 'referer' | 'channel' | 'brand' | 'affiliate' | 'link' | 'device_country';

export const CLICK_DIMENSIONS: Readonly<Record<RollupScope, readonly Dimension[]>> = {
  affiliate: ['all', 'country', 'device', 'browser', 'os', 'referer', 'channel', 'brand', 'link', 'device_country'],
  affiliate_brand: ['all', 'country', 'device', 'browser', 'os', 'referer', 'channel', 'link', 'device_country'],
  link: ['all', 'country', 'device', 'browser', 'os', 'referer', 'device_country'],
  brand: ['all', 'country', 'device', 'browser', 'os', 'referer', 'affiliate', 'link', 'device_country'],
};

/** Orders keep the country of their click, not its device, browser, OS or referrer. */
export const ORDER_DIMENSIONS: Readonly<Record<RollupScope, readonly Dimension[]>> = {
  affiliate: ['all', 'country', 'channel', 'brand', 'link'],
  affiliate_brand: ['all', 'country', 'channel', 'link'],
  link: ['all', 'country'],
  brand: ['all', 'country', 'affiliate', 'link'],
};

/** What an unknown fact is summed under. */
export const UNKNOWN_FACT = { country: 'ZZ', device: 'other', browser: 'Other', os: 'Other', referer: '(direct)' } as const;

/** The separator of a device_country value (`mobile|US`). */
export const PAIR_SEPARATOR = '|';

/** The UTC hour an ISO 8601 time (YYYY-MM-DDTHH:…Z) falls in, as it keys rollup rows. */
export function hourOf(iso: string): string {
  return `${iso.slice(0, 13)}:00:00.000Z`;
}

/** The first hour of the UTC day an ISO 8601 time falls in, as it keys daily rollup rows. */
export function dayOf(iso: string): string {
  return `${iso.slice(0, 10)}T00:00:00.000Z`;
}

/** Rollups are kept per UTC hour and, summed again, per UTC day. */
export type Period = 'hour' | 'day';
