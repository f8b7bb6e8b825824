// Writes clicks on a thread of its own, so the redirect thread never waits for a disk or spends
// time on enrichment: here each click gets its country (from the client address, then dropped),
// device, browser, OS and referrer host, and is stored with its link count and rollups.
//
// SQLite (its own connection; WAL lets the service keep reading): clicks are only appended
// (cheap: the end of the table). Link counts are added up from them every few seconds: a counter
// update rewrites a random page, so doing it once per link per interval instead of once per click
// is most of the saving. Rollups follow the stored clicks in short steps that take a bounded share
// of the time (see rollUp below). How far clicks have been counted and rolled up is stored with
// the sums (click_count_progress, rollup_progress), so a crash neither loses nor double-counts.
// The same thread and connection serve the service's reads aside (src/storage/sqlite-reads.ts):
// a second thread for them cost about 20 MB (its V8 heap and SQLite connection).
//
// PostgreSQL (a small pool of its own): clicks are only inserted, each with its id in
// unrolled_clicks; steps like SQLite's claim the oldest ids, add those clicks to their links'
// counts and the rollups, and delete the ids, in one transaction each. Several instances' writers
// claim disjoint ids, and a crash rolls a claim back with its sums.
import SqliteDriver from 'better-sqlite3';
import { serveCalls, startedWith } from './worker-rpc.js';
import { CLICK_COLUMNS, CLICK_INSERT_SQL, CLICK_WITH_SUB_IDS_INSERT_SQL, ClicksRepository, sliceSubIds, type BatchSubIds, type ClickColumns } from './repositories/clicks.js';
import { countryLookupAt, enrichBatch, type ClickBatch } from './click-enrichment.js';
import { asnLookupAt } from '../lib/ip-asn.js';
import { SQLITE_ROLLUP_RANGE_SQL, sqliteRollUpStep } from './rollup-rows.js';
import { openDatabase } from './database.js';
import { setUpWriting } from './sqlite-writing.js';
import { runPaced, type Pace } from './paced-steps.js';
import { SpareCores } from '../lib/spare-cores.js';
import { sqliteReader, type ReadCall, type ReadRequest, type ReadResult } from './sqlite-reads.js';
import { analyzeWhereStale, type StatisticsCall, type StatisticsResult } from './sqlite-statistics.js';

/** Clicks per transaction: short transactions keep the write lock free for the service's own writes. */
export const CLICKS_PER_TRANSACTION = 2000;

export interface ClickWriterOptions {
  /** A SQLite file, or a PostgreSQL URL. */
  database: { sqlitePath: string; cacheMb: number } | { postgresUrl: string };
  /** SQLite: how often stored clicks are added to their links' counts and the rollups. */
  countEveryMs: number;
  /** The IP database (MMDB) to find countries in; null: none, every country ZZ. */
  ipDatabase: string | null;
  /** The ASN database (MMDB, ASN_DATABASE) to find networks in; null: none, no click has an ASN. */
  asnDatabase: string | null;
}

/**
 * Store these clicks, add every stored click to the sums now (before stopping), close the
 * connection, or (SQLite) run a read aside for the serving thread (src/storage/sqlite-reads.ts)
 * or analyze the tables whose planner statistics are missing or stale (src/storage/sqlite-statistics.ts).
 */
export type ClickWriterCall = { clicks: ClickBatch } | { countNow: true } | { stop: true } | ReadCall | StatisticsCall;

export interface WriteResult {
  /** Clicks committed, in order, before any error. */
  written: number;
  error?: string;
}

const options = startedWith<ClickWriterOptions>();
const countries = countryLookupAt(options.ipDatabase);
const asns = asnLookupAt(options.asnDatabase);

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Stores clicks [from, to) of the batch, with the sub-ids of those that carry any (their sums follow in the background). */
type ChunkWriter = (clicks: ClickColumns, from: number, to: number, subIds: BatchSubIds | undefined) => Promise<void> | void;

interface Writer {
  writeChunk: ChunkWriter;
  /** SQLite: runs a read aside on this thread's connection, between click writes and rollup steps. */
  read?: (request: ReadRequest) => ReadResult;
  /** SQLite: analyzes the tables whose statistics are missing or stale on this thread's connection; the statements run. */
  analyze?: () => string[];
  /** Adds stored clicks to the sums now (before stopping); the error, if that failed. */
  countNow(): Promise<string | undefined> | string | undefined;
  stop(): Promise<void> | void;
}

/** What the service's other threads leave of the machine (this thread reports its own work). */
const spare = new SpareCores();

/** Runs work of this thread's, reporting its time to `spare`. */
function working<T>(work: () => T): T {
  const started = performance.now();
  try {
    return work();
  } finally {
    spare.worked(performance.now() - started);
  }
}

/**
 * SQLite: rollup steps of about 50 ms (each holds the write lock, which the serving thread's own
 * writes wait on synchronously). They take up to half the time when the other threads leave a
 * core spare, and wait while the other threads need the cores (a burst of redirects): a step
 * started then is slow and dear (one of 200 clicks at the start of a burst held the writer for
 * 4 s and took as much of its CPU as writing the burst's 60,000 clicks), and the sums follow
 * after the burst in larger, cheaper steps. Under load that never ends, one step a minute runs.
 */
const SQLITE_ROLLUP_PACE: Omit<Pace, 'idleMs'> = {
  firstStep: 200,
  targetMs: 50,
  maxStep: 20_000,
  duty: () => Math.min(0.5, Math.max(0, spare.read() - 0.5)),
  maxDeferMs: 60_000,
};
/**
 * PostgreSQL: a step locks only the rows it adds to, so steps are longer (more clicks summed into
 * each rollup row) and may take half the time; the other half leaves the database's CPU to the
 * service under a burst.
 */
const POSTGRES_ROLLUP_PACE: Omit<Pace, 'idleMs'> = { firstStep: 1000, targetMs: 500, maxStep: 50_000, duty: 0.5 };
/**
 * PostgreSQL: how long a stop may spend adding stored clicks to the sums, within the 10 s the
 * deployment guide gives a stop past its requests; the rest is added by another instance or the
 * next start (a kill mid-step rolls that step back, losing nothing).
 */
const POSTGRES_COUNT_NOW_MS = 3_000;

function sqliteWriter(path: string, cacheMb: number): Writer {
  const driver = new SqliteDriver(path);
  setUpWriting(driver, cacheMb);

  const insert = driver.prepare(CLICK_INSERT_SQL);
  const insertWithSubIds = driver.prepare(CLICK_WITH_SUB_IDS_INSERT_SQL);
  const writeChunk = driver.transaction((clicks: ClickColumns, from: number, to: number, subIds: BatchSubIds | undefined) => {
    const columns = CLICK_COLUMNS.map((column) => clicks[column]);
    // One parameter array for every row: better-sqlite3 binds its values before run returns.
    const row = new Array<unknown>(columns.length);
    const rowWithSubIds = new Array<unknown>(columns.length + 1);
    // The clicks that carry sub-ids (few, in batch order) take the other statement, the sub-ids last.
    const at = subIds?.at ?? [];
    let next = 0;
    while (next < at.length && at[next]! < from) next++;
    for (let i = from; i < to; i++) {
      for (let c = 0; c < columns.length; c++) row[c] = columns[c]![i];
      if (at[next] === i) {
        for (let c = 0; c < columns.length; c++) rowWithSubIds[c] = row[c];
        rowWithSubIds[columns.length] = subIds!.values[next++];
        insertWithSubIds.run(rowWithSubIds);
      } else insert.run(row);
    }
  });

  const counted = driver.prepare<[], { last: number }>('select last_counted_rowid as last from click_count_progress where id = 1');
  const rollupRange = driver.prepare<[], { from: number; to: number }>(SQLITE_ROLLUP_RANGE_SQL);
  const lastStored = driver.prepare<[], { last: number | null }>('select max(rowid) as last from clicks');
  const countsSince = driver.prepare<[number, number], { link_id: string; n: number }>(
    'select link_id, count(*) as n from clicks where rowid > ? and rowid <= ? and counted = 1 group by link_id',
  );
  const addCount = driver.prepare('update short_links set click_count = click_count + ? where id = ?');
  const setCounted = driver.prepare('update click_count_progress set last_counted_rowid = ? where id = 1');

  const countUp = driver.transaction(() => {
    const from = counted.get()?.last ?? 0;
    const to = lastStored.get()?.last ?? 0;
    if (to <= from) return;
    for (const { link_id, n } of countsSince.all(from, to)) addCount.run(n, link_id);
    setCounted.run(to);
  });

  /** Adds the next stored clicks after the progress (at most `limit`) to the rollups; how many. */
  const rollUpStep = driver.transaction((limit: number) => {
    const step = sqliteRollUpStep(rollupRange.get()!, limit);
    for (const statement of step.statements) driver.prepare(statement).run();
    return step.clicks;
  });

  const countNow = () => {
    try {
      // IMMEDIATE: the write lock first, so another process's writer (serve --workers) is waited
      // for rather than found to have moved the progress after this one read it.
      countUp.immediate();
      return undefined;
    } catch (error) {
      // Nothing is lost: the progress row did not move, so the next attempt counts these clicks.
      return message(error);
    }
  };

  // Rollups follow the stored clicks in short transactions (each adds one rowid range with its
  // progress), so the write lock is never held long. IMMEDIATE, as countNow.
  const rollUps = runPaced((limit) => working(() => rollUpStep.immediate(limit)), { ...SQLITE_ROLLUP_PACE, idleMs: options.countEveryMs });

  countNow();
  const countTimer = setInterval(() => working(countNow), options.countEveryMs);
  countTimer.unref();
  return {
    writeChunk,
    read: sqliteReader(driver),
    analyze: () => analyzeWhereStale(driver),
    countNow,
    async stop() {
      clearInterval(countTimer);
      await rollUps.stop();
      driver.close();
    },
  };
}

/** Clicks [from, to) of `clicks`, each column sliced. */
function sliceColumns(clicks: ClickColumns, from: number, to: number): ClickColumns {
  if (from === 0 && to === clicks.id.length) return clicks;
  return Object.fromEntries(CLICK_COLUMNS.map((column) => [column, clicks[column].slice(from, to)])) as ClickColumns;
}

function postgresWriter(url: string): Writer {
  const database = openDatabase(url, { poolSize: 2 });
  const repository = new ClicksRepository(database);
  const rollUps = runPaced((limit) => repository.rollUpStored(limit), { ...POSTGRES_ROLLUP_PACE, idleMs: options.countEveryMs });
  return {
    writeChunk: (clicks, from, to, subIds) => repository.writeColumns(sliceColumns(clicks, from, to), sliceSubIds(subIds, from, to)),
    async countNow() {
      try {
        await repository.sumAllStored(performance.now() + POSTGRES_COUNT_NOW_MS);
        return undefined;
      } catch (error) {
        // Nothing is lost: the claim was rolled back, and a later step adds these clicks.
        return message(error);
      }
    },
    async stop() {
      await rollUps.stop();
      await database.close();
    },
  };
}

const writer = 'sqlitePath' in options.database ? sqliteWriter(options.database.sqlitePath, options.database.cacheMb) : postgresWriter(options.database.postgresUrl);

serveCalls(async (payload) => {
  const call = payload as ClickWriterCall;
  if ('read' in call) {
    const { read } = writer;
    if (!read) throw new Error('reads aside are served on SQLite only');
    return working(() => read(call.read));
  }
  if ('statistics' in call) {
    const { analyze } = writer;
    if (!analyze) throw new Error('planner statistics are kept on SQLite only');
    return working(analyze) satisfies StatisticsResult;
  }
  if ('stop' in call) {
    await writer.stop();
    return { written: 0 } satisfies WriteResult;
  }
  if ('countNow' in call) {
    const error = await writer.countNow();
    return { written: 0, ...(error === undefined ? {} : { error }) } satisfies WriteResult;
  }
  const started = performance.now();
  const clicks = enrichBatch(call.clicks, countries, asns);
  const total = clicks.id.length;
  let written = 0;
  try {
    for (let from = 0; from < total; from += CLICKS_PER_TRANSACTION) {
      const to = Math.min(total, from + CLICKS_PER_TRANSACTION);
      await writer.writeChunk(clicks, from, to, call.clicks.subIds);
      written = to;
    }
    return { written } satisfies WriteResult;
  } catch (error) {
    return { written, error: message(error) } satisfies WriteResult;
  } finally {
    spare.worked(performance.now() - started);
  }
});
