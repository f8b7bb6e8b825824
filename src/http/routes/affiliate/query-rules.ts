// Checks across query parameters that a schema cannot express.
import { isTimeZone, rangeEnd, rangeStart } from '../../../domain/time.js';
import { HttpError } from '../../errors.js';

const badQuery = (message: string) => new HttpError(400, 'invalid_query', message);

/** A range's start may not come after its end. */
export function checkRange(fromName: string, from: string | undefined, toName: string, to: string | undefined): void {
  if (from && to && new Date(from).getTime() > new Date(to).getTime()) {
    throw badQuery(`${fromName} must not be after ${toName}`);
  }
}

/** Both or neither. */
export function checkTogether(aName: string, a: unknown, bName: string, b: unknown): void {
  if ((a === undefined) !== (b === undefined)) {
    throw badQuery(`${aName} and ${bName} must be used together`);
  }
}

/** organizationId and organizationIds together select any of the brands they name. */
export function anyOfBrands(organizationId: string | undefined, organizationIds: string[] | undefined): string[] | undefined {
  if (!organizationId && !organizationIds) return undefined;
  return [...new Set([...(organizationIds ?? []), ...(organizationId ? [organizationId] : [])])];
}

/**
 * A from/to range in UTC ISO instants: a date alone is a whole day in `timeZone` (an IANA name,
 * default UTC); a start after the end, or an unknown zone, answers 400.
 */
export function dayRange(query: { from?: string; to?: string; timezone?: string }): { from?: string; to?: string } {
  const { timezone } = query;
  if (timezone !== undefined && !isTimeZone(timezone)) {
    throw badQuery(`timezone "${timezone}" is not an IANA time zone name such as America/Sao_Paulo or Europe/Lisbon`);
  }
  const from = query.from && startOf('from', query.from, timezone);
  const to = query.to && endOf('to', query.to, timezone);
  checkRange('from', from, 'to', to);
  return { from, to };
}

const unrepresentable = (name: string, value: string) => badQuery(`${name} is not a date this service can represent (got "${value}")`);

/** The start of a range given in a query parameter (see rangeStart); 400 naming it when no instant. */
export function startOf(name: string, value: string, timeZone?: string): string {
  const start = rangeStart(value, timeZone);
  if (start === undefined) throw unrepresentable(name, value);
  return start;
}

/** The end of a range given in a query parameter (see rangeEnd); 400 naming it when no instant. */
export function endOf(name: string, value: string, timeZone?: string): string {
  const end = rangeEnd(value, timeZone);
  if (end === undefined) throw unrepresentable(name, value);
  return end;
}
