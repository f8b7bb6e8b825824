// A click id begins with its time: the milliseconds in 12 hex digits. Ids then sort by time, which
// the click writer, retention and PostgreSQL's monthly partitions rely on; all of them make the
// prefix here, so they agree.

/** The 12-character prefix of the ids of clicks made at `time` (epoch ms); also the bound below every later id. */
export const clickIdTimePrefix = (time: number): string => Math.max(0, time).toString(16).padStart(12, '0');

/** The time (epoch ms) a click id was made at, read from its prefix; NaN when it has none. */
export const clickIdTime = (id: string): number => (/^[0-9a-f]{12}/.test(id) ? Number.parseInt(id.slice(0, 12), 16) : Number.NaN);
