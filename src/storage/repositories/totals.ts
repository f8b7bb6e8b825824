// Totals of filtered lists (count, meta.total, pagination.total). Counting a filter that matches
// hundreds of thousands of rows costs up to a second; doing it on every page request would
// dominate the API's cost at scale. So a count that took long is remembered for a few seconds per
// exact query (SQL and parameters) — once 10 s old it is still answered while a fresh count runs
// in the background — and concurrent identical counts share one query. Cheap counts
// are never cached, so small result sets are always exact. On SQLite every count runs on a read
// worker thread, so even a slow one never stalls other requests.
import type { Compilable } from 'kysely';
import type { Database } from '../database.js';

/**
 * A count that took at least this long is remembered. On SQLite the time is the statement's own,
 * measured on the read worker; elsewhere it is the round trip, which includes the network, so the
 * bar is higher.
 */
export const SLOW_COUNT_MS = { statement: 2, roundTrip: 5 };
/** How long a remembered count is served. */
export const COUNT_TTL_MS = 10_000;
const MAX_ENTRIES = 10_000;

interface Counts {
  remembered: Map<string, { total: number; expires: number }>;
  inFlight: Map<string, Promise<number>>;
}

/** Per database, so two databases in one process never share a total. */
const perDatabase = new WeakMap<Database, Counts>();

export type CountQuery = Compilable<{ n: number | string | bigint }> & { executeTakeFirstOrThrow(): Promise<{ n: number | string | bigint }> };

export async function countOf(
  database: Database,
  query: CountQuery,
  /** Remember the total under this query instead (one that stands for a range of queries). */
  options: { rememberAs?: Compilable<unknown> } = {},
): Promise<number> {
  let counts = perDatabase.get(database);
  if (!counts) perDatabase.set(database, (counts = { remembered: new Map(), inFlight: new Map() }));
  const { remembered, inFlight } = counts;
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
    const counting = timedCount(database, query, compiled)
      .then(({ n, ms, slow }) => {
        const total = Number(n);
        if (ms >= slow) {
          if (remembered.size >= MAX_ENTRIES) remembered.clear();
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

/** Runs a count; on SQLite on the read worker, so a slow one never stalls the serving thread. */
async function timedCount(
  database: Database,
  query: CountQuery,
  compiled: { sql: string; parameters: readonly unknown[] },
): Promise<{ n: number | string | bigint; ms: number; slow: number }> {
  if (database.readAside) {
    const { rows, ms } = await database.readAside(compiled.sql, compiled.parameters);
    return { n: (rows[0] as { n: number | string | bigint }).n, ms, slow: SLOW_COUNT_MS.statement };
  }
  const started = performance.now();
  const { n } = await query.executeTakeFirstOrThrow();
  return { n, ms: performance.now() - started, slow: SLOW_COUNT_MS.roundTrip };
}
