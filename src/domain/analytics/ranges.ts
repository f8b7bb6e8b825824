// The time range of an analytics request and its buckets. Rollups are hourly (UTC), so a range
// is whole hours: a local day is the hours between two local midnights, exact in every zone whose
// offset is a whole number of hours (daylight saving days have 23 or 25 of them). Zones with
// other offsets (India, +05:30) are refused rather than answered approximately.
import { invalid } from '../errors.js';
import { DATE_ONLY, addDays, isTimeZone, isoOf as iso, zoneOffsetMs, zonedDate, zonedDayStartMs } from '../time.js';

export const INTERVALS = ['24h', '7d', '30d', '90d', 'ytd', '1y', 'all'] as const;
export type Interval = (typeof INTERVALS)[number];

export interface RangeRequest {
  interval?: Interval;
  /** A date (the start of that local day) or a date-time (its hour). */
  start?: string;
  /** A date (that whole local day included) or a date-time (up to its hour, rounded up). */
  end?: string;
  timezone?: string;
}

export interface Bucket {
  /** First instant of the bucket (UTC ISO). */
  start: string;
  /** Daily buckets: the local calendar date. */
  date?: string;
}

export interface AnalyticsRange {
  /** First hour included (UTC ISO). */
  from: string;
  /** First hour after the range (UTC ISO). */
  to: string;
  timezone: string;
  /** Timeseries buckets: hours for ranges up to 48 hours, local days beyond. */
  granularity: 'hour' | 'day';
  buckets: Bucket[];
}

const HOUR = 3_600_000;
/** Ten years of days: enough for "all" on any real data, small enough to answer at once. */
const MAX_DAYS = 3660;
const DEFAULT_INTERVAL: Interval = '30d';

function parseInstant(name: string, value: string): number {
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw invalid('invalid_query', `${name} must be a date (YYYY-MM-DD) or a date-time (ISO 8601), got "${value}"`);
  return ms;
}

/** Every local midnight strictly between two instants. */
function midnightsBetween(fromMs: number, toMs: number, timeZone: string): number[] {
  const out: number[] = [];
  for (let date = addDays(zonedDate(fromMs, timeZone), 1); ; date = addDays(date, 1)) {
    const ms = zonedDayStartMs(date, timeZone);
    if (ms >= toMs) return out;
    if (ms > fromMs) out.push(ms);
  }
}

function checkWholeHours(timeZone: string, instants: number[]): void {
  for (const ms of instants) {
    const offset = zoneOffsetMs(timeZone, ms);
    if (offset % HOUR !== 0) {
      const minutes = Math.abs(offset / 60_000) % 60;
      throw invalid(
        'invalid_timezone',
        `timezone ${timeZone} is ${minutes} minutes off a whole hour from UTC (at ${iso(ms)}); analytics are kept per hour, so they answer for time zones whose offset is a whole number of hours (UTC, Europe/Berlin, America/New_York, …)`,
      );
    }
  }
}

/**
 * Resolves interval, start/end and timezone against the current time. `firstHour` is asked only
 * for interval=all: the first hour with data (undefined: none, the range is today).
 */
export async function resolveRange(request: RangeRequest, nowMs: number, firstHour: () => Promise<string | undefined>): Promise<AnalyticsRange> {
  const timezone = request.timezone ?? 'UTC';
  if (!isTimeZone(timezone)) throw invalid('invalid_timezone', `timezone must be an IANA time zone name such as Europe/Berlin or America/New_York, got "${timezone}"`);
  if (request.interval !== undefined && (request.start !== undefined || request.end !== undefined)) {
    throw invalid('invalid_query', 'give either interval or start (and end), not both');
  }
  if (request.end !== undefined && request.start === undefined) throw invalid('invalid_query', 'end needs a start: give start too, or use interval');
  checkWholeHours(timezone, [nowMs]);

  const today = zonedDate(nowMs, timezone);
  const tomorrow = zonedDayStartMs(addDays(today, 1), timezone);
  let fromMs: number;
  let toMs: number;
  if (request.start !== undefined) {
    const { start, end } = request;
    fromMs = DATE_ONLY.test(start) ? zonedDayStartMs(start, timezone) : Math.floor(parseInstant('start', start) / HOUR) * HOUR;
    if (end === undefined) toMs = tomorrow;
    else toMs = DATE_ONLY.test(end) ? zonedDayStartMs(addDays(end, 1), timezone) : Math.ceil(parseInstant('end', end) / HOUR) * HOUR;
    if (Number.isNaN(fromMs) || Number.isNaN(toMs)) throw invalid('invalid_query', 'start and end must be dates this service can represent');
    if (toMs <= fromMs) throw invalid('invalid_query', `end (${end ?? 'today'}) must be after start (${start})`);
  } else {
    const interval = request.interval ?? DEFAULT_INTERVAL;
    toMs = tomorrow;
    if (interval === '24h') {
      toMs = Math.floor(nowMs / HOUR) * HOUR + HOUR;
      fromMs = toMs - 24 * HOUR;
    } else if (interval === 'ytd') fromMs = zonedDayStartMs(`${today.slice(0, 4)}-01-01`, timezone);
    else if (interval === 'all') {
      const first = await firstHour();
      fromMs = zonedDayStartMs(first === undefined || first.slice(0, 10) > today ? today : zonedDate(Date.parse(first), timezone), timezone);
    } else {
      const days = { '7d': 7, '30d': 30, '90d': 90, '1y': 365 }[interval];
      fromMs = zonedDayStartMs(addDays(today, 1 - days), timezone);
    }
  }
  if (toMs - fromMs > MAX_DAYS * 24 * HOUR) throw invalid('invalid_query', `the range is longer than ${MAX_DAYS} days: narrow start and end`);

  const granularity = toMs - fromMs <= 48 * HOUR ? 'hour' : 'day';
  const starts: number[] = [fromMs];
  if (granularity === 'hour') for (let ms = fromMs + HOUR; ms < toMs; ms += HOUR) starts.push(ms);
  else starts.push(...midnightsBetween(fromMs, toMs, timezone));
  checkWholeHours(timezone, [...starts, toMs]);
  const buckets = starts.map((ms) => (granularity === 'day' ? { start: iso(ms), date: zonedDate(ms, timezone) } : { start: iso(ms) }));
  return { from: iso(fromMs), to: iso(toMs), timezone, granularity, buckets };
}
