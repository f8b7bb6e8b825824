// What the operator's figures share (a member's page, the network's figures): ranges of whole UTC
// days, `from` to `to` both included, the last 30 days by default, at most three years; rates in
// basis points.
import { invalid } from '../errors.js';
import { addDays, DATE_ONLY } from '../time.js';

const DAY_MS = 86_400_000;
/** Without a range, the figures cover the last 30 days, today included. */
export const DEFAULT_DAYS = 30;
export const MAX_DAYS = 366 * 3;

export interface DayRange {
  /** The first and last UTC days covered (YYYY-MM-DD), both included. */
  from: string;
  to: string;
  /** The same range as instants: the first one included, the first one after it. */
  start: string;
  end: string;
  /** How many days it covers. */
  days: number;
}

/** The last day a range may cover: the day after it still has four digits of year, as stored times do. */
const LAST_DAY = '9999-12-30';

/** A real calendar day (YYYY-MM-DD) up to LAST_DAY: 2026-02-30 is none. */
const isDay = (value: string) => DATE_ONLY.test(value) && value <= LAST_DAY && !Number.isNaN(Date.parse(`${value}T00:00:00.000Z`)) && new Date(`${value}T00:00:00.000Z`).toISOString().startsWith(value);

/**
 * The range asked for, in whole UTC days: `to` defaults to today (at `nowMs`), `from` to 29 days
 * before `to`. Refused (invalid_date) when a bound is no calendar day, when `from` is after `to`
 * or when it covers more than MAX_DAYS.
 */
export function dayRange(range: { from?: string | undefined; to?: string | undefined }, nowMs: number): DayRange {
  for (const name of ['from', 'to'] as const) {
    const value = range[name];
    if (value !== undefined && !isDay(value)) throw invalid('invalid_date', `${name} must be a date (YYYY-MM-DD) up to ${LAST_DAY}, got "${value}"`);
  }
  const to = range.to ?? new Date(nowMs).toISOString().slice(0, 10);
  const from = range.from ?? addDays(to, -(DEFAULT_DAYS - 1));
  const days = (Date.parse(to) - Date.parse(from)) / DAY_MS + 1;
  if (days < 1) throw invalid('invalid_date', `from (${from}) must not be after to (${to})`);
  if (days > MAX_DAYS) throw invalid('invalid_date', `a range covers at most ${MAX_DAYS} days (got ${days})`);
  return { from, to, days, start: `${from}T00:00:00.000Z`, end: `${addDays(to, 1)}T00:00:00.000Z` };
}

/** `part` of `whole` in basis points (10000: all), rounded to the nearest; 0 of nothing is 0. */
export const rateBp = (part: number, whole: number): number => (whole === 0 ? 0 : Math.round((part * 10_000) / whole));
