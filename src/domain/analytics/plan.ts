// Which rollup rows answer an analytics request, or why none do. The rule: the scope comes from
// the caller and its key filters (a link, a brand for an affiliate, an affiliate for a brand);
// the dimensions are what the request breaks down by plus what it filters by (country, device,
// channel). A request is answered when the rollups keep a row for them in that scope
// (src/lib/rollup-layout.ts): one of them, device with country, or, where the scope keeps its
// click facts as combinations, any of those facts together. Anything else is refused: nothing is
// ever computed from raw clicks or orders.
import { CLICK_DIMENSIONS, FACTS, NETWORK_DIMENSION, ORDER_DIMENSIONS, PAIR_SEPARATOR, type Dimension, type Fact, type RollupScope } from '../../lib/rollup-layout.js';
import { invalid } from '../errors.js';
import { SUB_ID_NAMES, type SubIdName } from '../../lib/sub-ids.js';

export const EVENTS = ['clicks', 'orders', 'sales', 'commission'] as const;
export type AnalyticsEvent = (typeof EVENTS)[number];

/** An affiliate also breaks down by its sub-ids (answered from its clicks and orders, not the rollups: analytics-service.ts). */
export const AFFILIATE_GROUPINGS = ['timeseries', 'countries', 'devices', 'browsers', 'os', 'referers', 'links', 'channels', 'brands', ...SUB_ID_NAMES] as const;
export const BRAND_GROUPINGS = ['timeseries', 'countries', 'devices', 'browsers', 'os', 'referers', 'links', 'affiliates'] as const;
export type Grouping = (typeof AFFILIATE_GROUPINGS)[number] | (typeof BRAND_GROUPINGS)[number];

/** The dimension each grouping of the rollups breaks down by (a timeseries breaks down by hour, no dimension). */
export const GROUPING_DIMENSION: Record<Exclude<Grouping, 'timeseries' | SubIdName>, Dimension> = {
  countries: 'country',
  devices: 'device',
  browsers: 'browser',
  os: 'os',
  referers: 'referer',
  links: 'link',
  channels: 'channel',
  brands: 'brand',
  affiliates: 'affiliate',
};

/** The key of the rows read ('' where the scope has none), with the values its scope fixes. */
export interface ScopeKey {
  scope: RollupScope;
  affiliateId: string;
  organizationId: string;
  linkId: string;
  /** Dimensions whose value the scope fixes (a link's channel, brand and affiliate). */
  fixed: Partial<Record<Dimension, string>>;
}

export interface Filters {
  country?: string;
  device?: string;
  channelId?: string;
}

export interface ReadPlan {
  dimension: Dimension;
  match?: { equals: string } | { prefix: string } | { suffix: string };
  /** Rows are grouped by value (or by hour, for a timeseries); `part` picks from a pair value. */
  part?: 'device' | 'country';
  /** The grouping is answered by one row fixed by the scope (groupBy=links for one link). */
  fixedValue?: string;
  /** Rows kept under another key: a link's totals are its affiliate's row of dimension link. */
  key?: Pick<ScopeKey, 'affiliateId' | 'organizationId' | 'linkId'>;
  /**
   * Dimension facts: each value is the scope's facts in `order`; rows whose facts equal `where`
   * are kept and summed by `group` (all together without one).
   */
  facts?: { order: readonly Fact[]; where: Partial<Record<Fact, string>>; group?: Fact };
}

const FILTER_DIMENSIONS: Array<[keyof Filters, Dimension]> = [
  ['country', 'country'],
  ['device', 'device'],
  ['channelId', 'channel'],
];

const kept = (event: AnalyticsEvent, scope: RollupScope) => (event === 'clicks' ? CLICK_DIMENSIONS : ORDER_DIMENSIONS)[scope].filter((d): boolean => d !== NETWORK_DIMENSION);
const factsKept = (event: AnalyticsEvent, scope: RollupScope) => (event === 'clicks' ? FACTS[scope] : undefined);

/**
 * What the rollups keep, for the OpenAPI description and the refusal messages; `unasked`: what
 * the caller's side cannot ask for (a brand has no channels to break down by).
 */
export function keptDescription(event: AnalyticsEvent, scope: RollupScope, unasked: readonly Dimension[] = []): string {
  const keeps = kept(event, scope).filter((d) => !unasked.includes(d));
  const single = keeps.filter((d) => d !== 'all' && d !== 'facts' && d !== 'device_country');
  const facts = factsKept(event, scope)?.filter((d) => !unasked.includes(d));
  const list = (names: readonly string[], last: string) => (names.length > 1 ? `${names.slice(0, -1).join(', ')} ${last} ${names.at(-1)}` : (names[0] ?? ''));
  return [
    ...(single.length > 0 ? [`${list(single, 'or')} alone`] : []),
    ...(keeps.includes('device_country') ? ['device with country'] : []),
    ...(facts ? [`${list(facts, 'and')} in any combination`] : []),
  ].join('; or ');
}

/**
 * The row of a key's click totals: its own 'all' row, or, for a link (which keeps none), its
 * affiliate's row for the link.
 */
export function clickTotalsRow(key: ScopeKey): Pick<ScopeKey, 'affiliateId' | 'organizationId' | 'linkId'> & { dimension: Dimension; value: string } {
  if (CLICK_DIMENSIONS[key.scope].includes('all')) return { affiliateId: key.affiliateId, organizationId: key.organizationId, linkId: key.linkId, dimension: 'all', value: '' };
  return { affiliateId: key.affiliateId, organizationId: '', linkId: '', dimension: 'link', value: key.linkId };
}

const SCOPE_NAMES: Record<RollupScope, string> = {
  affiliate: 'all your links',
  affiliate_brand: 'one brand or one affiliate',
  link: 'one link (linkCode)',
  brand: 'all your affiliates',
};

export function planRead(event: AnalyticsEvent, grouping: Exclude<Grouping, SubIdName>, key: ScopeKey, filters: Filters): ReadPlan {
  const groupDimension = grouping === 'timeseries' ? undefined : GROUPING_DIMENSION[grouping];
  const fixed = groupDimension === undefined ? undefined : key.fixed[groupDimension];
  const wanted = new Map<Dimension, string | undefined>();
  if (groupDimension !== undefined && fixed === undefined) wanted.set(groupDimension, undefined);
  for (const [name, dimension] of FILTER_DIMENSIONS) {
    const value = filters[name];
    if (value === undefined) continue;
    // A filter on what the scope fixes either keeps everything or nothing.
    const scopeValue = key.fixed[dimension];
    if (scopeValue !== undefined) {
      if (scopeValue !== value) throw invalid('invalid_query', `${name} ${value} does not match the link (its ${dimension} is ${scopeValue}): leave ${name} out`);
      continue;
    }
    wanted.set(dimension, value);
  }
  const dimensions = [...wanted.keys()];
  const keeps = kept(event, key.scope);
  const facts = factsKept(event, key.scope);
  // Click totals of a key without an 'all' row of its own (a link).
  if (dimensions.length === 0 && !keeps.includes('all')) {
    const { dimension, value, ...rowsKey } = clickTotalsRow(key);
    return { dimension, key: rowsKey, match: { equals: value }, ...(fixed !== undefined && { fixedValue: fixed }) };
  }
  let dimension: Dimension | undefined;
  if (dimensions.length === 0) dimension = 'all';
  else if (dimensions.length === 1 && keeps.includes(dimensions[0]!)) dimension = dimensions[0];
  else if (dimensions.length === 2 && wanted.has('country') && wanted.has('device') && keeps.includes('device_country')) dimension = 'device_country';
  else if (facts && dimensions.every((d) => (facts as readonly string[]).includes(d))) {
    const where: Partial<Record<Fact, string>> = {};
    for (const [d, value] of wanted) if (value !== undefined) where[d as Fact] = value;
    const group = groupDimension !== undefined && fixed === undefined ? (groupDimension as Fact) : undefined;
    return { dimension: 'facts', facts: { order: facts, where, ...(group && { group }) }, ...(fixed !== undefined && { fixedValue: fixed }) };
  }
  if (dimension === undefined || !keeps.includes(dimension)) {
    const asked = [groupDimension !== undefined && fixed === undefined ? `groupBy=${grouping}` : undefined, ...FILTER_DIMENSIONS.filter(([n]) => filters[n] !== undefined).map(([n]) => n)].filter(Boolean);
    throw invalid('unsupported_combination', `${event} by ${asked.join(' with ')} is not kept for ${SCOPE_NAMES[key.scope]}: the analytics keep ${event} by ${keptDescription(event, key.scope)}, and filter by what they break down by`);
  }
  const plan: ReadPlan = { dimension };
  if (fixed !== undefined) plan.fixedValue = fixed;
  if (dimension === 'device_country') {
    const device = wanted.get('device');
    const country = wanted.get('country');
    if (device !== undefined && country !== undefined) plan.match = { equals: `${device}${PAIR_SEPARATOR}${country}` };
    else if (device !== undefined) plan.match = { prefix: `${device}${PAIR_SEPARATOR}` };
    else if (country !== undefined) plan.match = { suffix: `${PAIR_SEPARATOR}${country}` };
    if (groupDimension === 'country' || groupDimension === 'device') plan.part = groupDimension;
  } else {
    const value = wanted.get(dimension);
    if (value !== undefined) plan.match = { equals: value };
  }
  return plan;
}
