// Checks across query parameters that a schema cannot express.
import { badRequest } from '../../../domain/errors.js';
import { isTimeZone, zonedRangeEnd, zonedRangeStart } from '../../../domain/time.js';

/** A range's start may not come after its end. */
export function checkRange(fromName: string, from: string | undefined, toName: string, to: string | undefined): void {
  if (from && to && new Date(from).getTime() > new Date(to).getTime()) {
    throw badRequest('invalid_query', `${fromName} must not be after ${toName}`);
  }
}

/** Both or neither. */
export function checkTogether(aName: string, a: unknown, bName: string, b: unknown): void {
  if ((a === undefined) !== (b === undefined)) {
    throw badRequest('invalid_query', `${aName} and ${bName} must be used together`);
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
    throw badRequest('invalid_query', `timezone "${timezone}" is not an IANA time zone name such as America/Sao_Paulo or Europe/Lisbon`);
  }
  const from = query.from && zonedRangeStart('from', query.from, timezone);
  const to = query.to && zonedRangeEnd('to', query.to, timezone);
  checkRange('from', from, 'to', to);
  return { from, to };
}
