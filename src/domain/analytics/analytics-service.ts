// Click and earnings analytics for affiliates (their links, by channel and brand) and brands
// (their affiliates' links to them, by affiliate), read from the hourly rollups; an affiliate's
// figures by sub-id (a breakdown by sub1 … sub5, or a filter by one) are read from its clicks and
// orders that carry them instead (src/storage/repositories/sub-id-figures.ts), which the rollups
// cannot keep: sub-ids are free text, up to one value per click.
import type { ClickCounts, OrderSums, RebuildResult, RollupsRepository, RollupRange } from '../../storage/repositories/rollups.js';
import type { SubIdFiguresRepository, SubIdRead } from '../../storage/repositories/sub-id-figures.js';
import { isSubIdName, type SubIdName, type SubIds } from '../../lib/sub-ids.js';
import type { LinksRepository } from '../../storage/repositories/links.js';
import type { BrandsRepository } from '../../storage/repositories/brands.js';
import type { AffiliatesRepository } from '../../storage/repositories/affiliates.js';
import type { Clock } from '../../lib/clock.js';
import { PAIR_SEPARATOR, mostCountedFirst, type Fact } from '../../lib/rollup-layout.js';
import { invalid, notFound } from '../errors.js';
import { rangeStart } from '../time.js';
import { resolveRange, type AnalyticsRange, type RangeRequest } from './ranges.js';
import { clickTotalsRow, planRead, type AnalyticsEvent, type Filters, type Grouping, type ReadPlan, type ScopeKey } from './plan.js';

export interface AnalyticsRepositories {
  rollups: RollupsRepository;
  subIdFigures: SubIdFiguresRepository;
  links: LinksRepository;
  brands: BrandsRepository;
  affiliates: AffiliatesRepository;
}

export type AnalyticsCaller = { affiliateId: string } | { brandId: string };

export interface AnalyticsRequest extends RangeRequest, Filters {
  event: AnalyticsEvent;
  groupBy: Grouping;
  /** Affiliates: one brand. */
  organizationId?: string;
  /** Brands: one affiliate. */
  affiliateId?: string;
  linkCode?: string;
  /** Orders, sales and commission: one currency. */
  currency?: string;
  /** Clicks: also the clicks that did not count, by reason. */
  includeUncounted?: boolean;
  /** Groupings other than timeseries: the top this many. */
  limit?: number;
  /** Affiliates: only the clicks and orders whose sub-ids are exactly these. */
  subIds?: SubIds | undefined;
}

export interface Uncounted {
  bot: number;
  head: number;
  repeat: number;
  suspicious: number;
  suspended: number;
}

/** One row of an answer: the group (or bucket), then the figure; money rows carry their currency. */
export type AnalyticsRow = Record<string, string | number | Uncounted>;

export interface AnalyticsAnswer {
  rows: AnalyticsRow[];
  range: AnalyticsRange;
}

/** Counted clicks, then the uncounted ones by their reason. */
const COUNTS: ReadonlyArray<keyof ClickCounts> = ['counted', 'bots', 'heads', 'repeats', 'suspicious', 'suspended'];
const MONEY_COLUMN = { orders: 'orders', sales: 'sales', commission: 'commission' } as const;
const DEFAULT_LIMIT = 100;

/** The fields that name a group of each grouping: its value, then the code or name of an id. */
export const GROUP_FIELDS: Readonly<Record<Exclude<Grouping, 'timeseries'>, readonly [value: string, name?: string]>> = {
  countries: ['country'],
  devices: ['device'],
  browsers: ['browser'],
  os: ['os'],
  referers: ['referer'],
  links: ['linkId', 'code'],
  channels: ['channelId', 'name'],
  brands: ['organizationId', 'name'],
  affiliates: ['affiliateId', 'name'],
  sub1: ['sub1'],
  sub2: ['sub2'],
  sub3: ['sub3'],
  sub4: ['sub4'],
  sub5: ['sub5'],
};

/** Where a timeseries' hourly figures come from: the rollups, or the clicks and orders with sub-ids. */
interface HourlyFigures {
  /** `days`: whole UTC days may come as one row at their 00:00. */
  clicks(days: boolean): Promise<Array<ClickCounts & { hour: string }>>;
  orders(days: boolean): Promise<Array<OrderSums & { hour: string; currency: string }>>;
}

export class AnalyticsService {
  constructor(
    private readonly repositories: AnalyticsRepositories,
    private readonly clock: Clock,
  ) {}

  async query(caller: AnalyticsCaller, request: AnalyticsRequest): Promise<AnalyticsAnswer> {
    const { event } = request;
    if (request.includeUncounted && event !== 'clicks') throw invalid('invalid_query', 'include=uncounted explains clicks: use it with event=clicks');
    if (request.currency !== undefined && event === 'clicks') throw invalid('invalid_query', 'currency applies to orders, sales and commission, not to clicks: leave it out');
    const key = await this.scopeOf(caller, request);
    const grouping = request.groupBy;
    if (isSubIdName(grouping) || request.subIds !== undefined) return this.bySubIds(caller, request, key);
    const plan = planRead(event, grouping, key, request);
    const range = await resolveRange(request, this.clock.now(), () => this.repositories.rollups.firstHour(clickTotalsRow(key), key));
    const rowsKey = plan.key ?? key;
    const read: RollupRange = {
      affiliateId: rowsKey.affiliateId,
      organizationId: rowsKey.organizationId,
      linkId: rowsKey.linkId,
      dimension: plan.dimension,
      from: range.from,
      to: range.to,
      ...(plan.match ? { match: plan.match } : {}),
      ...(request.currency !== undefined ? { currency: request.currency } : {}),
    };
    const { rollups } = this.repositories;
    const hourly: HourlyFigures = {
      clicks: async (days) => {
        const facts = plan.facts && factsFilter(plan.facts);
        return facts ? (await rollups.clicksByHourAndValue({ ...read, days })).filter((row) => facts(row.value) !== undefined) : rollups.clicksByHour({ ...read, days });
      },
      orders: (days) => rollups.ordersByHour({ ...read, days }),
    };
    const rows = grouping === 'timeseries' ? await this.series(request, range, hourly) : await this.groups(caller, request, read, plan);
    return { rows, range };
  }

  /**
   * An affiliate's figures by sub-id: a breakdown by sub1 … sub5, or a timeseries or breakdown
   * by sub-id of the clicks and orders whose sub-ids match the filters, summed from the clicks and
   * orders of the range that carry them. The key filters (organizationId, linkCode) apply, and
   * channelId, country and (clicks) device; any other breakdown with a sub-id filter, and orders
   * by device, are refused as the rollups refuse what they do not keep.
   */
  private async bySubIds(caller: AnalyticsCaller, request: AnalyticsRequest, key: ScopeKey): Promise<AnalyticsAnswer> {
    const { event, groupBy } = request;
    if (!('affiliateId' in caller)) throw invalid('invalid_query', 'sub-ids are the affiliates’ own: a brand cannot break down or filter by them');
    if (groupBy !== 'timeseries' && !isSubIdName(groupBy)) {
      throw invalid('unsupported_combination', `${event} by groupBy=${groupBy} with a sub-id filter is not kept: with sub1 … sub5, the analytics answer groupBy=timeseries or groupBy=sub1 … sub5`);
    }
    if (event !== 'clicks' && request.device !== undefined) {
      throw invalid('unsupported_combination', `${event} by device is not kept: orders keep the country of their click, not its device; leave device out`);
    }
    const range = await resolveRange(request, this.clock.now(), () => this.repositories.rollups.firstHour(clickTotalsRow(key), key));
    const read: SubIdRead = {
      affiliateId: caller.affiliateId,
      from: range.from,
      to: range.to,
      by: isSubIdName(groupBy) ? groupBy : 'hour',
      ...(request.subIds !== undefined && { subIds: request.subIds }),
      ...(key.scope === 'affiliate_brand' && { organizationId: key.organizationId }),
      ...(key.scope === 'link' && { linkId: key.linkId }),
      ...(request.channelId !== undefined && { channelId: request.channelId }),
      ...(request.country !== undefined && { country: request.country }),
      ...(request.device !== undefined && { device: request.device }),
      ...(request.currency !== undefined && { currency: request.currency }),
    };
    const figures = this.repositories.subIdFigures;
    const hour = (row: { value: string }) => ({ hour: row.value });
    if (groupBy === 'timeseries') {
      const hourly: HourlyFigures = {
        clicks: async () => (await figures.clicks(read, true)).map((row) => ({ ...row, ...hour(row) })),
        orders: async () => (await figures.orders(read, 'orders')).map((row) => ({ ...row, ...hour(row) })),
      };
      return { rows: await this.series(request, range, hourly), range };
    }
    const limited = { ...read, limit: request.limit ?? DEFAULT_LIMIT };
    if (event === 'clicks') {
      const rows = await figures.clicks(limited, request.includeUncounted);
      return { rows: rows.map((row) => ({ [groupBy]: row.value, ...clickFigures(row, request.includeUncounted) })), range };
    }
    const column = MONEY_COLUMN[event];
    const rows = await figures.orders(limited, column);
    return { rows: rows.map((row) => ({ [groupBy]: row.value, currency: row.currency, [column]: row[column] })), range };
  }

  /**
   * Recomputes the rollups from the stored clicks and orders, from `since` (a date, UTC, or a
   * date-time; default: everything). Hours before the oldest stored click keep their click
   * figures, so deleting old clicks never erases them.
   */
  async rebuild(since?: string): Promise<RebuildResult> {
    const from = since === undefined ? undefined : rangeStart(since);
    if (since !== undefined && from === undefined) throw invalid('invalid_date', `since must be a date (YYYY-MM-DD) or an ISO 8601 date-time, got "${since}"`);
    return this.repositories.rollups.rebuild(from);
  }

  /** The rows' key: whose data, narrowed to a link or a brand (affiliates) or an affiliate (brands). */
  private async scopeOf(caller: AnalyticsCaller, request: AnalyticsRequest): Promise<ScopeKey> {
    const own = 'affiliateId' in caller ? { affiliate: caller.affiliateId } : { brand: caller.brandId };
    if (request.linkCode !== undefined) {
      const link = await this.repositories.links.findByCode(request.linkCode);
      const mine = link && (own.affiliate !== undefined ? link.affiliate_id === own.affiliate : link.organization_id === own.brand);
      if (!link || !mine) throw notFound(`linkCode "${request.linkCode}" is not one of ${own.affiliate !== undefined ? 'your links' : 'the links to your brand'}`, 'link_not_found');
      if (own.affiliate !== undefined && request.organizationId !== undefined && request.organizationId !== link.organization_id) {
        throw invalid('invalid_query', `organizationId ${request.organizationId} does not match linkCode ${request.linkCode} (a link to ${link.organization_id}): leave organizationId out`);
      }
      if (own.brand !== undefined && request.affiliateId !== undefined && request.affiliateId !== link.affiliate_id) {
        throw invalid('invalid_query', `affiliateId ${request.affiliateId} does not match linkCode ${request.linkCode}: leave affiliateId out`);
      }
      return {
        scope: 'link',
        affiliateId: link.affiliate_id,
        organizationId: '',
        linkId: link.id,
        fixed: { link: link.id, channel: link.channel_id, brand: link.organization_id, affiliate: link.affiliate_id },
      };
    }
    if (own.affiliate !== undefined) {
      if (request.organizationId !== undefined) {
        return { scope: 'affiliate_brand', affiliateId: own.affiliate, organizationId: request.organizationId, linkId: '', fixed: { brand: request.organizationId } };
      }
      return { scope: 'affiliate', affiliateId: own.affiliate, organizationId: '', linkId: '', fixed: {} };
    }
    const brand = own.brand;
    if (request.affiliateId !== undefined) {
      return { scope: 'affiliate_brand', affiliateId: request.affiliateId, organizationId: brand, linkId: '', fixed: { brand, affiliate: request.affiliateId } };
    }
    return { scope: 'brand', affiliateId: '', organizationId: brand, linkId: '', fixed: { brand } };
  }

  /** Every bucket of the range, zeros included; money per currency (each in every bucket). */
  private async series(request: AnalyticsRequest, range: AnalyticsRange, hourly: HourlyFigures): Promise<AnalyticsRow[]> {
    // Whole UTC days come as one row each when every bucket is a UTC day (local days elsewhere
    // start at another hour: they are summed from hours).
    const days = range.granularity === 'day' && range.buckets.every((b) => b.start.endsWith('T00:00:00.000Z'));
    const starts = range.buckets.map((b) => Date.parse(b.start));
    const bucketOf = (hour: string) => {
      const ms = Date.parse(hour);
      let lo = 0;
      let hi = starts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (starts[mid]! <= ms) lo = mid;
        else hi = mid - 1;
      }
      return lo;
    };
    if (request.event === 'clicks') {
      const sums = range.buckets.map(() => ({ counted: 0, bots: 0, heads: 0, repeats: 0, suspicious: 0, suspended: 0 }));
      for (const row of await hourly.clicks(days)) {
        const sum = sums[bucketOf(row.hour)]!;
        sum.counted += row.counted;
        sum.bots += row.bots;
        sum.heads += row.heads;
        sum.repeats += row.repeats;
        sum.suspicious += row.suspicious;
        sum.suspended += row.suspended;
      }
      return range.buckets.map((bucket, i) => ({ ...bucket, ...clickFigures(sums[i]!, request.includeUncounted) }));
    }
    const column = MONEY_COLUMN[request.event];
    const byCurrency = new Map<string, number[]>();
    const seriesOf = (currency: string) => {
      let series = byCurrency.get(currency);
      if (!series) byCurrency.set(currency, (series = range.buckets.map(() => 0)));
      return series;
    };
    if (request.currency !== undefined) seriesOf(request.currency);
    for (const row of await hourly.orders(days)) seriesOf(row.currency)[bucketOf(row.hour)]! += row[column];
    const currencies = [...byCurrency.keys()].sort();
    // No order in any currency: every bucket is zero, in no currency (the field is left out).
    if (currencies.length === 0) return range.buckets.map((bucket) => ({ ...bucket, [column]: 0 }));
    return range.buckets.flatMap((bucket, i) => currencies.map((currency) => ({ ...bucket, currency, [column]: byCurrency.get(currency)![i]! })));
  }

  /** The top groups of the range, largest figure first. */
  private async groups(caller: AnalyticsCaller, request: AnalyticsRequest, read: RollupRange, plan: ReadPlan): Promise<AnalyticsRow[]> {
    const grouping = request.groupBy as Exclude<Grouping, 'timeseries' | SubIdName>;
    const { rollups } = this.repositories;
    const limit = request.limit ?? DEFAULT_LIMIT;
    const valueOf = (value: string) => {
      if (plan.fixedValue !== undefined) return plan.fixedValue;
      if (plan.part === undefined) return value;
      const [device, country] = value.split(PAIR_SEPARATOR);
      return (plan.part === 'device' ? device : country) ?? value;
    };
    let rows: Array<{ value: string; figures: AnalyticsRow }>;
    if (request.event === 'clicks' && plan.facts) {
      rows = (await this.factsByValue(read, plan.facts, limit, request.includeUncounted)).map((r) => ({ value: plan.fixedValue ?? r.value, figures: clickFigures(r, request.includeUncounted) }));
    } else if (request.event === 'clicks') {
      rows = (await rollups.clicksByValue(read, limit, request.includeUncounted)).map((r) => ({ value: valueOf(r.value), figures: clickFigures(r, request.includeUncounted) }));
    } else {
      const column = MONEY_COLUMN[request.event];
      rows = (await rollups.ordersByValue(read, column, limit)).map((r) => ({ value: valueOf(r.value), figures: { currency: r.currency, [column]: r[column] } }));
    }
    const labels = await this.labels(caller, grouping, rows.map((r) => r.value));
    return rows.map(({ value, figures }) => ({ ...labels(value), ...figures }));
  }

  /**
   * Click counts of the range summed from combinations of facts: those matching the plan's
   * filters, by the fact it groups by (one group, '', without one), most counted first.
   */
  private async factsByValue(read: RollupRange, facts: NonNullable<ReadPlan['facts']>, limit: number, uncounted?: boolean): Promise<Array<ClickCounts & { value: string }>> {
    const pick = factsFilter(facts);
    const sums = new Map<string, ClickCounts>();
    for (const row of await this.repositories.rollups.clicksByValue(read, undefined, true)) {
      const group = pick(row.value);
      if (group === undefined) continue;
      const sum = sums.get(group) ?? { counted: 0, bots: 0, heads: 0, repeats: 0, suspicious: 0, suspended: 0 };
      for (const count of COUNTS) sum[count] += row[count];
      sums.set(group, sum);
    }
    return [...sums]
      .map(([value, sum]) => ({ value, ...sum }))
      .filter((group) => uncounted || group.counted > 0)
      .sort(mostCountedFirst)
      .slice(0, limit);
  }

  /** The fields that name a group: its value, and a code or name where the value is an id. */
  private async labels(caller: AnalyticsCaller, grouping: Exclude<Grouping, 'timeseries' | SubIdName>, values: string[]): Promise<(value: string) => AnalyticsRow> {
    const [field, nameField] = GROUP_FIELDS[grouping];
    const ids = values.filter((v) => v !== '');
    const { links, brands, affiliates } = this.repositories;
    let names: Map<string, string> | undefined;
    if (grouping === 'links') {
      names = await links.codesOf(ids);
    } else if (grouping === 'brands') {
      names = new Map((await brands.byIds(ids)).map((b) => [b.id, b.name]));
    } else if (grouping === 'affiliates') {
      names = await affiliates.namesOf(ids);
    } else if (grouping === 'channels' && 'affiliateId' in caller) {
      names = new Map((await affiliates.channelsOf(caller.affiliateId, { includeRemoved: true })).map((c) => [c.id, c.name]));
    }
    if (names === undefined || nameField === undefined) return (value) => ({ [field]: value });
    const known = names;
    // An order without a link or channel is summed under '': its group has no id and no name.
    return (value) => {
      const name = known.get(value);
      return { ...(value === '' ? {} : { [field]: value }), ...(name === undefined ? {} : { [nameField]: name }) };
    };
  }
}

function clickFigures(counts: ClickCounts, includeUncounted?: boolean): AnalyticsRow {
  if (!includeUncounted) return { clicks: counts.counted };
  return { clicks: counts.counted, uncounted: { bot: counts.bots, head: counts.heads, repeat: counts.repeats, suspicious: counts.suspicious, suspended: counts.suspended } };
}

/** For a combination of facts (a facts row's value): the group it adds to ('' without a grouping), or undefined when a filter leaves it out. */
function factsFilter(facts: NonNullable<ReadPlan['facts']>): (value: string) => string | undefined {
  const position = (fact: Fact) => facts.order.indexOf(fact);
  const filters = (Object.entries(facts.where) as Array<[Fact, string]>).map(([fact, value]) => [position(fact), value] as const);
  const grouped = facts.group === undefined ? -1 : position(facts.group);
  return (value) => {
    const parts = value.split(PAIR_SEPARATOR);
    for (const [at, wanted] of filters) if (parts[at] !== wanted) return undefined;
    return grouped === -1 ? '' : parts[grouped];
  };
}
