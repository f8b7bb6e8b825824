// Times travel as fixed-width UTC ISO 8601 text everywhere (storage and API), so that they
// compare and sort correctly as strings in both databases.

import { badRequest } from './errors.js';

export const nowIso = (): string => new Date().toISOString();

/** Normalises any ISO 8601 input (with offset or not) to `YYYY-MM-DDTHH:mm:ss.sssZ`. */
export function toIso(value: string | Date): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  // JSON-schema date-time accepts a leap second (…:60) that Date cannot represent.
  if (Number.isNaN(date.getTime())) throw badRequest('invalid_date', `${String(value)} is not a date this service can represent`);
  return date.toISOString();
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

function queryDate(name: string, text: string): string {
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) throw badRequest('invalid_query', `${name} is not a date this service can represent (got "${text}")`);
  return date.toISOString();
}

/** Start of a range given in a query: a bare date means the start of that UTC day. */
export function rangeStart(name: string, value: string): string {
  return queryDate(name, DATE_ONLY.test(value) ? `${value}T00:00:00.000Z` : value);
}

/** End of a range given in a query: a bare date includes the whole UTC day. */
export function rangeEnd(name: string, value: string): string {
  return queryDate(name, DATE_ONLY.test(value) ? `${value}T23:59:59.999Z` : value);
}
