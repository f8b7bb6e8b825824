// Times travel as fixed-width UTC ISO 8601 text everywhere (storage and API), so that they
// compare and sort correctly as strings in both databases. The current time comes from a Clock
// (src/lib/clock.ts), never from here.

import { invalid } from './errors.js';
import { RecentMap } from '../lib/recent-map.js';

/** Normalises any ISO 8601 input (with offset or not) to `YYYY-MM-DDTHH:mm:ss.sssZ`. */
export function toIso(value: string | Date): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  // JSON-schema date-time accepts a leap second (…:60) that Date cannot represent.
  if (Number.isNaN(date.getTime())) throw invalid('invalid_date', `${String(value)} is not a date this service can represent`);
  return date.toISOString();
}

/** An instant in epoch milliseconds as stored: `YYYY-MM-DDTHH:mm:ss.sssZ`. */
export const isoOf = (ms: number): string => new Date(ms).toISOString();

/** A date alone (YYYY-MM-DD), which a range reads as a whole day. */
export const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** An ISO 8601 text as a UTC instant, or undefined when it is no instant this runtime can represent. */
export function instantOf(text: string): string | undefined {
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

const zoneFormats = new Map<string, Intl.DateTimeFormat>();

/** Whether `timeZone` is an IANA time zone name this runtime knows (e.g. America/Sao_Paulo). */
export function isTimeZone(timeZone: string): boolean {
  try {
    zoneFormat(timeZone);
    return true;
  } catch {
    return false;
  }
}

function zoneFormat(timeZone: string): Intl.DateTimeFormat {
  let format = zoneFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    if (zoneFormats.size >= 1000) zoneFormats.clear();
    zoneFormats.set(timeZone, format);
  }
  return format;
}

/**
 * Offsets already asked for (zone and instant): a range of 90 local days asks for a few hundred,
 * the same ones request after request, and each costs Intl a few microseconds.
 */
const knownOffsets = new RecentMap<string, number>(20_000);

/** How far the zone's wall clock is ahead of UTC at an instant, in milliseconds. */
export function zoneOffsetMs(timeZone: string, instantMs: number): number {
  if (timeZone === 'UTC') return 0;
  const key = `${timeZone} ${instantMs}`;
  let offset = knownOffsets.get(key);
  if (offset === undefined) knownOffsets.set(key, (offset = askedOffsetMs(timeZone, instantMs)));
  return offset;
}

function askedOffsetMs(timeZone: string, instantMs: number): number {
  const parts: Record<string, number> = {};
  for (const p of zoneFormat(timeZone).formatToParts(new Date(instantMs))) parts[p.type] = Number(p.value);
  const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day, parts.hour, parts.minute, parts.second);
  return wall - (instantMs - (((instantMs % 1000) + 1000) % 1000));
}

/**
 * The instant a day starts in a time zone (`2026-03-08` in America/New_York → 05:00 UTC). Asked
 * twice so a day whose offset changes overnight (daylight saving) still starts at its own offset;
 * where clocks jump over midnight (no 00:00 that day), the day starts when the jump lands.
 */
export function zonedDayStartMs(date: string, timeZone: string): number {
  const wall = Date.parse(`${date}T00:00:00.000Z`);
  const first = wall - zoneOffsetMs(timeZone, wall);
  const offset = zoneOffsetMs(timeZone, first);
  const start = wall - offset;
  return zoneOffsetMs(timeZone, start) === offset ? start : first;
}

/**
 * Start of a range: a bare date (YYYY-MM-DD) is the first instant of that day in `timeZone` (an
 * IANA name, default UTC), a date-time is itself. Undefined when it is no representable instant.
 */
export function rangeStart(value: string, timeZone?: string): string | undefined {
  if (!DATE_ONLY.test(value)) return instantOf(value);
  const day = instantOf(`${value}T00:00:00.000Z`);
  if (day === undefined || !timeZone) return day;
  return new Date(zonedDayStartMs(day.slice(0, 10), timeZone)).toISOString();
}

/** End of a range: a bare date includes that whole day in `timeZone` (default UTC). */
export function rangeEnd(value: string, timeZone?: string): string | undefined {
  if (!DATE_ONLY.test(value)) return instantOf(value);
  if (instantOf(`${value}T00:00:00.000Z`) === undefined) return undefined;
  const next = addDays(value, 1);
  return new Date((timeZone ? zonedDayStartMs(next, timeZone) : Date.parse(`${next}T00:00:00.000Z`)) - 1).toISOString();
}

/** The calendar date (YYYY-MM-DD) of an instant on the wall clocks of a time zone. */
export function zonedDate(instantMs: number, timeZone: string): string {
  return new Date(instantMs + zoneOffsetMs(timeZone, instantMs)).toISOString().slice(0, 10);
}

/** The calendar date `days` after (or before, when negative) a YYYY-MM-DD date. */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00.000Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

export const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/** The UTC month YYYY-MM as [from, to): its first instant and the next month's. */
export function monthRange(month: string): { from: string; to: string } {
  const [year, m] = month.split('-').map(Number) as [number, number];
  return { from: new Date(Date.UTC(year, m - 1, 1)).toISOString(), to: new Date(Date.UTC(year, m, 1)).toISOString() };
}

/** The UTC month (YYYY-MM) an instant falls in. */
export const monthOf = (instant: string): string => instant.slice(0, 7);

/** The UTC month before the one `instant` falls in. */
export function previousMonth(instant: string): string {
  const date = new Date(instant);
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
}
