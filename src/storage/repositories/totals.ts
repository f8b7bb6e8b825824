// Totals of filtered lists (count, meta.total, pagination.total). Counting a filter that matches
// hundreds of thousands of rows costs up to a second; doing it on every page request would
// dominate the API's cost at scale. So a count that took long is remembered for a few seconds per
// exact query (SQL and parameters) — once 10 s old it is still answered while a fresh count runs
// in the background — and concurrent identical counts share one query. Cheap counts
// are never cached, so small result sets are always exact. On SQLite a count runs on a read
// worker thread, so even a slow one never stalls other requests; a count that was cheap the last
// time it ran runs on the serving thread instead, where it costs less than the hand-off to the
// worker and back.
import type { Compilable, CompiledQuery } from 'kysely';
import type { Database } from '../database.js';
import { RecentMap } from '../../lib/recent-map.js';

/**
 * A count that took at least this long is remembered. On SQLite the time is the statement's own,
 * measured on the thread that ran it; elsewhere it is the round trip, which includes the network,
 * so the bar is higher.
 */
export const SLOW_COUNT_MS = { statement: 2, roundTrip: 5 };
/**
 * A remembered total is forgotten only once its count takes under half the bar: a count that
 * takes about the bar would otherwise be remembered on one refresh and re-counted on every
 * request after the next, which makes the list's cost flip from run to run.
 */
const FORGET_BELOW = 0.5;
/**
 * On SQLite, a count runs on the serving connection when the same count (SQL and parameters)
 * last took under INLINE_BELOW_MS: for a cheap count the hand-off to the worker and its colder
 * page cache cost more than the count (measurements in ADR 0003). A count never run before goes
 * to the worker, and one that turns out slow sends the next one back there.
 */
const INLINE_BELOW_MS = 1;
/** How long a remembered count is served. */
export const COUNT_TTL_MS = 10_000;
const MAX_ENTRIES = 10_000;

interface Counts {
  remembered: RecentMap<string, { total: number; expires: number }>;
  inFlight: Map<string, Promise<number>>;
  /** How long each count took the last time (SQLite file only). */
  lastMs: RecentMap<string, number>;
}

/** Per database, so two databases in one process never share a total. */
const perDatabase = new WeakMap<Database, Counts>();

export type CountQuery = Compilable<CountRow> & { executeTakeFirstOrThrow(): Promise<CountRow> };

export type CountRow = { n: number | string | bigint };

/** A count already compiled (see CompiledShapes), as countOf takes it. */
export function compiledCount(database: Database, compiled: CompiledQuery<CountRow>): CountQuery {
  return {
    compile: () => compiled,
    executeTakeFirstOrThrow: async () => (await database.db.executeQuery(compiled)).rows[0]!,
  };
}

export async function countOf(
  database: Database,
  query: CountQuery,
  /** Remember the total under this query instead (one that stands for a range of queries). */
  options: { rememberAs?: Compilable<unknown> } = {},
): Promise<number> {
  let counts = perDatabase.get(database);
  if (!counts) perDatabase.set(database, (counts = { remembered: new RecentMap(MAX_ENTRIES), inFlight: new Map(), lastMs: new RecentMap(MAX_ENTRIES) }));
  const { remembered, inFlight, lastMs } = counts;
  const compiled = query.compile();
  const keyQuery = options.rememberAs?.compile() ?? compiled;
  const key = `${keyQuery.sql}\u0000${JSON.stringify(keyQuery.parameters)}`;
  const hit = remembered.get(key);
  if (hit && hit.expires > Date.now()) return hit.total;
  const running = inFlight.get(key);
  if (hit) {
    // Expired: answer with the remembered total and refresh it in the background, so no request
    // waits for a slow count after the first.
    if (!running) start().catch(() => {});
    return hit.total;
  }
  return running ?? start();

  function start(): Promise<number> {
    const counting = timedCount(database, query, compiled, key, lastMs)
      .then(({ n, ms, slow }) => {
        const total = Number(n);
        if (ms >= (remembered.get(key) !== undefined ? slow * FORGET_BELOW : slow)) {
          remembered.set(key, { total, expires: Date.now() + COUNT_TTL_MS });
        } else {
          // Cheap again: forget the remembered total, or it would be answered stale forever.
          remembered.delete(key);
        }
        return total;
      })
      .finally(() => inFlight.delete(key));
    inFlight.set(key, counting);
    return counting;
  }
}

/**
 * Runs a count; on a SQLite file on a storage thread (the click writer's in a serving instance),
 * so a slow one never stalls the serving thread, unless the same count was cheap the last time.
 */
async function timedCount(
  database: Database,
  query: CountQuery,
  compiled: { sql: string; parameters: readonly unknown[] },
  key: string,
  lastMs: RecentMap<string, number>,
): Promise<{ n: number | string | bigint; ms: number; slow: number }> {
  if (!database.readAside) {
    const started = performance.now();
    const { n } = await query.executeTakeFirstOrThrow();
    return { n, ms: performance.now() - started, slow: SLOW_COUNT_MS.roundTrip };
  }
  const here = (lastMs.get(key) ?? Infinity) < INLINE_BELOW_MS ? database.readHere?.(compiled.sql, compiled.parameters) : undefined;
  const { rows, ms } = here ?? (await database.readAside(compiled.sql, compiled.parameters));
  lastMs.set(key, ms);
  return { n: (rows[0] as { n: number | string | bigint }).n, ms, slow: SLOW_COUNT_MS.statement };
}
