// Opens the database named by DATABASE_URL: embedded SQLite (file, WAL) or PostgreSQL.
// Everything above this file speaks Kysely only and never assumes a dialect.
import { mkdirSync } from 'node:fs';
import { setTimeout } from 'node:timers/promises';
import { dirname } from 'node:path';
import SqliteDriver from 'better-sqlite3';
import { createRequire } from 'node:module';
import type pg from 'pg';
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect, sql, type Driver, type LogEvent } from 'kysely';
import type { DB } from './tables.js';
import { startWorkerRpc, type WorkerRpc } from './worker-rpc.js';
import { DEFAULT_SQLITE_CACHE_MB } from './sqlite-page-cache.js';
import { setUpWriting } from './sqlite-writing.js';
import { preparedStatements } from './sqlite-statements.js';
import type { ReadCall, ReadResult } from './sqlite-reads.js';
import { analyzeWhereStale, reloadStatistics, type StatisticsCall, type StatisticsResult } from './sqlite-statistics.js';

export type Dialect = 'sqlite' | 'postgres';

export interface DatabaseStats {
  queryErrors: number;
  pool?: { size: number; max: number; idle: number; waiting: number };
}

/** Kysely's log hook, counting the queries that failed (the error itself reaches the caller); `onQuery` hears each that ran. */
function errorCounter(onQuery?: (query: CompiledQuery) => void): { log: (event: LogEvent) => void; count: () => number } {
  let errors = 0;
  return {
    log: (event) => {
      if (event.level === 'error') errors++;
      else onQuery?.(event.query);
    },
    count: () => errors,
  };
}

export interface Database {
  db: Kysely<DB>;
  dialect: Dialect;
  /** The SQLite file (or ':memory:'), for work done on a connection of its own (click writes). */
  sqlitePath?: string;
  /** SQLite: the page cache of each connection (serving, click writer, reads), in MB. */
  sqliteCacheMb?: number;
  /** The PostgreSQL URL, likewise. */
  postgresUrl?: string;
  /**
   * SQLite file only: runs a read on a worker thread's own connection, for queries slow enough to
   * stall the serving thread (better-sqlite3 blocks the thread it runs on). PostgreSQL queries are
   * asynchronous already.
   */
  readAside?(sql: string, parameters: readonly unknown[]): Promise<ReadResult>;
  /**
   * SQLite file only: from now on, reads aside go to `thread` (the click writer's, which serves
   * them on its own connection) rather than to a read worker of their own: one thread, V8 heap and
   * SQLite connection fewer (about 20 MB). They then wait behind a click write or a rollup step
   * (tens of milliseconds) where they had a thread to themselves. `thread` is not closed with this
   * database: its owner closes it.
   */
  readAsideOn?(thread: WorkerRpc): void;
  /**
   * SQLite file only: runs a read on the serving connection at once, timed like readAside (the
   * statement alone, not the wait for a turn on the connection). Undefined while a transaction is
   * open on that connection: its writes are not committed, and a read now would see them.
   */
  readHere?(sql: string, parameters: readonly unknown[]): ReadResult | undefined;
  /**
   * SQLite only: analyzes the tables whose planner statistics are missing or stale (on the click
   * writer's thread when this database lent it its reads aside, else here), then makes the serving
   * connection plan with the statistics the file holds now; the statements run. PostgreSQL
   * analyzes its tables by itself (autovacuum).
   */
  refreshStatistics?(): Promise<string[]>;
  /** Cheap round trip used by readiness checks. */
  ping(): Promise<void>;
  /** Failed queries so far, and PostgreSQL's connection pool as it is now (for the metrics). */
  stats(): DatabaseStats;
  close(): Promise<void>;
}

export function dialectOf(url: string): Dialect {
  return /^postgres(ql)?:\/\//i.test(url) ? 'postgres' : 'sqlite';
}

export function sqlitePath(url: string): string {
  return url.replace(/^sqlite:(\/\/)?/i, '').replace(/^file:/i, '');
}

export function openDatabase(url: string, options: { poolSize?: number; sqliteCacheMb?: number; onQuery?: (query: CompiledQuery) => void } = {}): Database {
  if (dialectOf(url) === 'postgres') return openPostgres(url, options.poolSize ?? 10, options.onQuery);
  return openSqlite(sqlitePath(url), options.sqliteCacheMb ?? DEFAULT_SQLITE_CACHE_MB);
}

/** Reading the statistics again waits for no lock: it is tried this often, this far apart, while another connection writes. */
const RELOAD_ATTEMPTS = 50;
const RELOAD_WAIT_MS = 20;

function openSqlite(path: string, cacheMb: number): Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const driver = new SqliteDriver(path);
  setUpWriting(driver, cacheMb);
  driver.pragma('foreign_keys = ON');
  const errors = errorCounter();
  const statements = preparedStatements(driver);
  const db = new Kysely<DB>({ dialect: new ImmediateSqliteDialect({ database: statements }), log: errors.log });
  let reader: WorkerRpc | undefined;
  /** Whether the reader is this database's own read worker (closed with it), not a thread lent to it. */
  let ownReader = true;
  return {
    db,
    dialect: 'sqlite',
    sqlitePath: path,
    sqliteCacheMb: cacheMb,
    ...(path === ':memory:'
      ? {}
      : {
          readAside(sqlText: string, parameters: readonly unknown[]) {
            reader ??= startWorkerRpc('read-worker', { path, cacheMb });
            return reader.call({ read: { sql: sqlText, parameters } } satisfies ReadCall) as Promise<ReadResult>;
          },
          readAsideOn(thread: WorkerRpc) {
            if (ownReader) void reader?.close();
            reader = thread;
            ownReader = false;
          },
          readHere(sqlText: string, parameters: readonly unknown[]) {
            if (driver.inTransaction) return undefined;
            const statement = statements.prepare(sqlText);
            const started = performance.now();
            const rows = statement.all(parameters);
            return { rows, ms: performance.now() - started };
          },
        }),
    async refreshStatistics() {
      // The serving connection's own statistics run only where no writer thread was lent (tools,
      // tests): a read-only reader cannot write them, and an open transaction would take them in.
      const here = () => (driver.inTransaction ? [] : analyzeWhereStale(driver));
      const analyzed = reader && !ownReader ? ((await reader.call({ statistics: true } satisfies StatisticsCall)) as StatisticsResult) : here();
      // Always: another process on the same file (serve --workers) may be the one that analyzed.
      // The click writer's steps hold the write lock tens of milliseconds: try again between them.
      for (let attempt = 1; !reloadStatistics(driver); attempt++) {
        if (attempt === RELOAD_ATTEMPTS) throw new Error(`the database was writing through ${RELOAD_ATTEMPTS} attempts to read its statistics again`);
        await setTimeout(RELOAD_WAIT_MS);
      }
      return analyzed;
    },
    async ping() {
      await sql`select 1`.execute(db);
    },
    stats: () => ({ queryErrors: errors.count() }),
    async close() {
      if (ownReader) await reader?.close();
      await db.destroy();
    },
  };
}

/**
 * Transactions that take the write lock when they begin (BEGIN IMMEDIATE). A deferred transaction
 * that reads, then writes after the click writer thread committed meanwhile, fails at once with
 * SQLITE_BUSY (its snapshot is stale; the busy timeout does not apply); one that begins with the
 * lock waits its turn instead.
 */
class ImmediateSqliteDialect extends SqliteDialect {
  override createDriver(): Driver {
    const driver = super.createDriver();
    driver.beginTransaction = async (connection) => {
      await connection.executeQuery(CompiledQuery.raw('begin immediate'));
    };
    return driver;
  }
}

// Loaded only for a PostgreSQL DATABASE_URL, so the embedded default starts without it.
function loadPg(): typeof pg {
  const driver = createRequire(import.meta.url)('pg') as typeof pg;
  // int8 (COUNT, SUM, bigint columns) arrives as a string by default; our integers stay far below 2^53.
  driver.types.setTypeParser(driver.types.builtins.INT8, (value: string) => Number.parseInt(value, 10));
  return driver;
}

function openPostgres(url: string, poolSize: number, onQuery?: (query: CompiledQuery) => void): Database {
  // JIT and parallel workers off for every connection: the service's statements each read a few
  // thousand rows at most, but when the planner misjudges a skewed key (one busy affiliate's
  // rollups) their estimated cost passes jit_above_cost and the parallel thresholds. Compiling
  // took 11–270 ms and starting two workers 5–10 ms of a query that runs in 2–3 ms (measured at
  // 1m: top countries over 90 days 304 ms, then 11 ms, then 3 ms; see bench/README.md). The
  // large counts that could use workers are remembered and refreshed off the request path.
  const pool = new (loadPg().Pool)({ connectionString: url, max: poolSize, connectionTimeoutMillis: 5000, options: '-c jit=off -c max_parallel_workers_per_gather=0' });
  // A connection lost while idle, or while checked out between two queries, must not crash the
  // process: the query in flight fails (answered 503), the pool drops the broken client on
  // release, and the next query opens a new connection.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const errors = errorCounter(onQuery);
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }), log: errors.log });
  return {
    db,
    dialect: 'postgres',
    postgresUrl: url,
    async ping() {
      await sql`select 1`.execute(db);
    },
    stats: () => ({ queryErrors: errors.count(), pool: { size: pool.totalCount, max: poolSize, idle: pool.idleCount, waiting: pool.waitingCount } }),
    async close() {
      await db.destroy();
    },
  };
}
