// The network's figures as its operators read them: over a range of whole UTC days, per period
// (day or month) and per brand or affiliate, the clicks of every link (from the analytics rollups)
// and, per currency (money is never summed across currencies), the orders reported, their sales
// and commission (canceled ones left out), the network's fee on that commission, and how many
// were declined or held.
import type { Clock } from '../../lib/clock.js';
import type { FiguresRepository, OrderTotals } from '../../storage/repositories/figures.js';
import type { RollupsRepository } from '../../storage/repositories/rollups.js';
import { dayRange, rateBp } from './common.js';

export type Interval = 'day' | 'month';
export type Grouping = 'none' | 'brand' | 'affiliate';

export interface CurrencyFigures {
  currency: string;
  orders: number;
  sales: number;
  commission: number;
  fee: number;
  declined: number;
  held: number;
  declineRateBp: number;
  holdRateBp: number;
}

export interface Figures {
  clicks: number;
  uncountedClicks: number;
  /** Per currency, in code order; none without orders. */
  currencies: CurrencyFigures[];
}

export interface PeriodFigures extends Figures {
  /** YYYY-MM-DD (day) or YYYY-MM (month). */
  period: string;
  /** The days of the range it covers (a month is cut at the range's ends). */
  from: string;
  to: string;
}

export interface GroupFigures extends Figures {
  id: string;
  name: string;
}

export interface NetworkFigures {
  from: string;
  to: string;
  interval: Interval;
  groupBy: Grouping;
  totals: Figures;
  /** Every period of the range, oldest first, empty ones too. */
  periods: PeriodFigures[];
  /** Grouped: the brands or affiliates with clicks or orders, most orders first, at most `limit`. */
  groups?: GroupFigures[];
  /** Grouped: how many brands or affiliates had clicks or orders. */
  groupCount?: number;
}

export interface FiguresQuery {
  from?: string | undefined;
  to?: string | undefined;
  interval?: Interval | undefined;
  groupBy?: Grouping | undefined;
  limit?: number | undefined;
}

/** One line of the CSV: a period, a brand or affiliate when grouped, a currency when it had orders. */
export interface FiguresLine {
  period: string;
  memberId?: string;
  name?: string;
  /** Given on the first line of each period (and member) only, so that a column sum counts each click once. */
  clicks?: number;
  uncountedClicks?: number;
  figures?: CurrencyFigures;
}

export interface FiguresRepositories {
  figures: FiguresRepository;
  rollups: RollupsRepository;
}

const DEFAULT_LIMIT = 20;

type Clicks = { counted: number; bots: number; heads: number; repeats: number; suspicious: number; suspended: number };
const uncountedOf = (c: Clicks) => c.bots + c.heads + c.repeats + c.suspicious + c.suspended;

const currencyFigures = ({ currency, orders, sales, commission, fee, declined, held }: Omit<CurrencyFigures, 'declineRateBp' | 'holdRateBp'>): CurrencyFigures => ({
  currency,
  orders,
  sales,
  commission,
  fee,
  declined,
  held,
  declineRateBp: rateBp(declined, orders),
  holdRateBp: rateBp(held, orders),
});

/** Sums figures (per currency apart), rates computed again from the sums. */
function sum(parts: readonly Figures[]): Figures {
  const byCurrency = new Map<string, Omit<CurrencyFigures, 'declineRateBp' | 'holdRateBp'>>();
  for (const part of parts) {
    for (const c of part.currencies) {
      const seen = byCurrency.get(c.currency) ?? { currency: c.currency, orders: 0, sales: 0, commission: 0, fee: 0, declined: 0, held: 0 };
      byCurrency.set(c.currency, { currency: c.currency, orders: seen.orders + c.orders, sales: seen.sales + c.sales, commission: seen.commission + c.commission, fee: seen.fee + c.fee, declined: seen.declined + c.declined, held: seen.held + c.held });
    }
  }
  return {
    clicks: parts.reduce((n, p) => n + p.clicks, 0),
    uncountedClicks: parts.reduce((n, p) => n + p.uncountedClicks, 0),
    currencies: [...byCurrency.values()].sort((a, b) => (a.currency < b.currency ? -1 : 1)).map(currencyFigures),
  };
}

const keyOf = (row: { period?: string; memberId?: string }) => `${row.period ?? ''}\u0000${row.memberId ?? ''}`;

/** Clicks and orders joined on their period and member: the figures of each key that had any. */
function joined(clicks: ReadonlyArray<Clicks & { period?: string; memberId?: string }>, orders: readonly OrderTotals[]): Map<string, Figures & { period?: string; memberId?: string }> {
  const out = new Map<string, Figures & { period?: string; memberId?: string }>();
  const at = (row: { period?: string; memberId?: string }) => {
    const key = keyOf(row);
    let figures = out.get(key);
    if (!figures) out.set(key, (figures = { ...(row.period !== undefined && { period: row.period }), ...(row.memberId !== undefined && { memberId: row.memberId }), clicks: 0, uncountedClicks: 0, currencies: [] }));
    return figures;
  };
  for (const row of clicks) {
    const figures = at(row);
    figures.clicks += row.counted;
    figures.uncountedClicks += uncountedOf(row);
  }
  for (const row of orders) at(row).currencies.push(currencyFigures(row));
  return out;
}

/** The periods of a range, each cut to the range. */
function periodsOf(from: string, to: string, interval: Interval): Array<{ period: string; from: string; to: string }> {
  const out: Array<{ period: string; from: string; to: string }> = [];
  const last = Date.parse(`${to}T00:00:00.000Z`);
  for (let start = new Date(`${from}T00:00:00.000Z`); start.getTime() <= last; ) {
    const day = start.toISOString().slice(0, 10);
    const next = interval === 'day' ? new Date(start.getTime() + 86_400_000) : new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
    const end = new Date(Math.min(next.getTime() - 86_400_000, last)).toISOString().slice(0, 10);
    out.push({ period: interval === 'day' ? day : day.slice(0, 7), from: day, to: end });
    start = next;
  }
  return out;
}

const orderCount = (f: Figures) => f.currencies.reduce((n, c) => n + c.orders, 0);

export class FiguresConsole {
  constructor(
    private readonly repositories: FiguresRepositories,
    private readonly clock: Clock,
  ) {}

  /** The network's figures over whole UTC days (default: the last 30), per period, and per brand or affiliate when grouped. */
  async figures(query: FiguresQuery): Promise<NetworkFigures> {
    const range = dayRange(query, this.clock.now());
    const interval = query.interval ?? 'day';
    const groupBy = query.groupBy ?? 'none';
    // Clicks per period from the brands' rows: every click is of one brand's link.
    const [periodClicks, periodOrders] = await Promise.all([
      this.repositories.rollups.clicksOfMembers('brand', range.start, range.end, { period: interval }),
      this.repositories.figures.orders(range.start, range.end, { period: interval }),
    ]);
    const byPeriod = joined(periodClicks, periodOrders);
    const periods = periodsOf(range.from, range.to, interval).map((p) => {
      const figures = byPeriod.get(keyOf({ period: p.period }));
      return { ...p, clicks: figures?.clicks ?? 0, uncountedClicks: figures?.uncountedClicks ?? 0, currencies: figures?.currencies ?? [] };
    });
    const answer: NetworkFigures = { from: range.from, to: range.to, interval, groupBy, totals: sum(periods), periods };
    if (groupBy === 'none') return answer;

    const [memberClicks, memberOrders] = await Promise.all([
      this.repositories.rollups.clicksOfMembers(groupBy, range.start, range.end, { perMember: true }),
      this.repositories.figures.orders(range.start, range.end, { member: groupBy }),
    ]);
    const ranked = [...joined(memberClicks, memberOrders).values()].sort((a, b) => orderCount(b) - orderCount(a) || b.clicks - a.clicks || (a.memberId! < b.memberId! ? -1 : 1));
    const top = ranked.slice(0, query.limit ?? DEFAULT_LIMIT);
    const names = new Map((await this.repositories.figures.names(groupBy, top.map((g) => g.memberId!))).map((m) => [m.id, m.name]));
    return {
      ...answer,
      groups: top.map(({ memberId, period: _period, ...figures }) => ({ id: memberId!, name: names.get(memberId!) ?? memberId!, ...figures })),
      groupCount: ranked.length,
    };
  }

  /**
   * The same figures as lines, the finest the query asks for: per period (every one, empty ones
   * too) or, grouped, per period and brand or affiliate (those with clicks or orders in it), then
   * per currency; by period, then name.
   */
  async lines(query: Omit<FiguresQuery, 'limit'>): Promise<{ range: { from: string; to: string }; lines: FiguresLine[] }> {
    const range = dayRange(query, this.clock.now());
    const interval = query.interval ?? 'day';
    const groupBy = query.groupBy ?? 'none';
    const member = groupBy === 'none' ? undefined : groupBy;
    const [clicks, orders] = await Promise.all([
      this.repositories.rollups.clicksOfMembers(groupBy === 'affiliate' ? 'affiliate' : 'brand', range.start, range.end, { period: interval, perMember: member !== undefined }),
      this.repositories.figures.orders(range.start, range.end, { period: interval, ...(member && { member }) }),
    ]);
    const figures = joined(clicks, orders);
    const names = new Map<string, string>();
    if (member) {
      const ids = [...new Set([...figures.values()].map((f) => f.memberId!))];
      for (const m of await this.repositories.figures.names(member, ids)) names.set(m.id, m.name);
    }
    type Row = Figures & { period: string; memberId?: string; name?: string };
    const rows: Row[] = member
      ? [...figures.values()]
          .map((f) => ({ ...f, period: f.period!, name: names.get(f.memberId!) ?? f.memberId! }))
          .sort((a, b) => (a.period !== b.period ? (a.period < b.period ? -1 : 1) : a.name.localeCompare(b.name) || (a.memberId! < b.memberId! ? -1 : 1)))
      : periodsOf(range.from, range.to, interval).map((p) => ({ clicks: 0, uncountedClicks: 0, currencies: [], ...figures.get(keyOf({ period: p.period })), period: p.period }));
    const lines: FiguresLine[] = [];
    for (const { period, memberId, name, clicks, uncountedClicks, currencies } of rows) {
      const who = memberId === undefined ? {} : { memberId, name: name ?? memberId };
      if (currencies.length === 0) lines.push({ period, ...who, clicks, uncountedClicks });
      currencies.forEach((figures, i) => lines.push({ period, ...who, ...(i === 0 && { clicks, uncountedClicks }), figures }));
    }
    return { range: { from: range.from, to: range.to }, lines };
  }
}
