// Days as a person picks them in a date field, in their own time zone (the browser's), and the
// UTC moments the service keeps: a day starts at its local midnight and ends at its last
// millisecond.

/** The browser's time zone, as people read it (America/Sao_Paulo). */
export const timeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

const pad = (n: number) => String(n).padStart(2, '0');

/** The local day (YYYY-MM-DD, a date field's value) a moment falls on. */
export function localDay(iso: string): string {
  const at = new Date(iso);
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
}

/** Today, as a date field's value. */
export const today = (): string => localDay(new Date().toISOString());

function localMoment(day: string, hours: number, minutes: number, seconds: number, ms: number): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return undefined;
  const at = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]), hours, minutes, seconds, ms);
  return Number.isNaN(at.getTime()) ? undefined : at.toISOString();
}

/** The UTC moment a local day starts; undefined for a value that is no day. */
export const dayStart = (day: string): string | undefined => localMoment(day, 0, 0, 0, 0);

/** The UTC moment a local day ends (its last millisecond); undefined for a value that is no day. */
export const dayEnd = (day: string): string | undefined => localMoment(day, 23, 59, 59, 999);
