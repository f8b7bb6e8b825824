// Times travel as fixed-width UTC ISO 8601 text everywhere (storage and API), so that they
// compare and sort correctly as strings in both databases.

export const nowIso = (): string => new Date().toISOString();

/** Normalises any ISO 8601 input (with offset or not) to `YYYY-MM-DDTHH:mm:ss.sssZ`. */
export function toIso(value: string | Date): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) throw new RangeError(`not a valid date: ${String(value)}`);
  return date.toISOString();
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** Start of a range: a bare date means the start of that UTC day. */
export function rangeStart(value: string): string {
  return toIso(DATE_ONLY.test(value) ? `${value}T00:00:00.000Z` : value);
}

/** End of a range: a bare date includes the whole UTC day. */
export function rangeEnd(value: string): string {
  return toIso(DATE_ONLY.test(value) ? `${value}T23:59:59.999Z` : value);
}
