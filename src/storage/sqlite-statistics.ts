// The statistics SQLite's query planner chooses indexes by (sqlite_stat1, sqlite_stat4). A served
// database has none unless someone runs ANALYZE, and without them the planner guesses every
// index's selectivity alike: a brands page cost 2.7 ms of the serving thread that way against
// 1.4 ms with statistics (bench/README.md). SQLite's advice for long-lived connections is
// `PRAGMA optimize`, now and then: it finds the tables that have rows and no statistics yet or that
// grew or shrank tenfold since; they are analyzed here within a bounded sample.
import type SqliteDriver from 'better-sqlite3';

/** `PRAGMA optimize` saying which tables it would analyze (0x1, dry run; 0x2, analyze) among all of them, not only those this connection queried (0x10000). */
const STALE_TABLES = 'optimize = 0x10003';
/**
 * Rows each index is sampled by (SQLite advises 100 to 1,000): at 100k the 19 tables a first run
 * finds without statistics take about 220 ms in all, 54 ms the largest (orders), and the write
 * lock is held one table at a time.
 */
const ROWS_SAMPLED = 1000;

/**
 * Analyzes, one table at a time, the tables whose statistics are missing or stale on `driver`;
 * the statements run (`ANALYZE "main"."brands"`), none when all held. Tables without rowid are
 * left out: SQLite counts every row of their key whatever the sample (click_rollups took 0.74 s at
 * 100k, holding the write lock that the serving thread's writes wait on), and they are the
 * rollups, read by their key or their partial indexes in fixed shapes.
 */
export function analyzeWhereStale(driver: SqliteDriver.Database): string[] {
  const withoutRowid = new Set(
    (driver.prepare("select name from pragma_table_list where schema = 'main' and wr = 1").all() as Array<{ name: string }>).map((row) => `ANALYZE "main"."${row.name}"`),
  );
  const due = (driver.pragma(STALE_TABLES) as Array<{ optimize: string }>).map((row) => row.optimize).filter((statement) => !withoutRowid.has(statement));
  if (due.length === 0) return due;
  const limit = driver.pragma('analysis_limit', { simple: true }) as number;
  driver.pragma(`analysis_limit = ${ROWS_SAMPLED}`);
  try {
    for (const statement of due) driver.exec(statement);
  } finally {
    driver.pragma(`analysis_limit = ${limit}`);
  }
  return due;
}

/**
 * Makes `driver` plan with the statistics in the file now; false, at once, when another
 * connection holds the write lock (reading them again takes it). A connection reads them with the
 * schema, once: another connection's ANALYZE reaches it only this way. Its prepared statements
 * are planned again as they next run. Never waits for the lock: on the serving connection a wait
 * would stop every request meanwhile.
 */
export function reloadStatistics(driver: SqliteDriver.Database): boolean {
  const waitMs = driver.pragma('busy_timeout', { simple: true }) as number;
  driver.pragma('busy_timeout = 0');
  try {
    driver.exec('analyze sqlite_schema');
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === 'SQLITE_BUSY') return false;
    throw error;
  } finally {
    driver.pragma(`busy_timeout = ${waitMs}`);
  }
}

/** Asks a storage thread with a writing connection (the click writer's) to analyze where stale. */
export interface StatisticsCall {
  statistics: true;
}
/** The statements it ran. */
export type StatisticsResult = string[];
