// Writes clicks to SQLite on a thread of its own, with its own connection: better-sqlite3 blocks
// the thread it runs on, and the redirect thread must never wait for a disk. WAL mode lets the
// service keep reading while this thread writes.
//
// Clicks are only appended (cheap: the end of the table). Link counts are added up from them
// every few seconds: a counter update rewrites a random page of short_links, so doing it once per
// link per interval instead of once per link per batch is most of the saving. How far clicks have
// been counted is stored with the counts (click_count_progress), so a crash neither loses nor
// double-counts.
import { workerData } from 'node:worker_threads';
import SqliteDriver from 'better-sqlite3';
import type { NewClickRow } from './tables.js';
import { serveCalls } from './worker-rpc.js';
import { CLICK_INSERT_SQL, clickInsert } from './repositories/clicks.js';

/** Clicks per transaction: short transactions keep the write lock free for the service's own writes. */
export const CLICKS_PER_TRANSACTION = 2000;

export interface ClickWriterOptions {
  path: string;
  /** How often stored clicks are added to their links' counts. */
  countEveryMs: number;
}

/** Store these clicks, or add every stored click to the counts now (before stopping). */
export type ClickWriterCall = { clicks: NewClickRow[] } | { countNow: true };

export interface WriteResult {
  /** Clicks committed, in order, before any error. */
  written: number;
  error?: string;
}

const options = workerData as ClickWriterOptions;
const driver = new SqliteDriver(options.path);
driver.pragma('journal_mode = WAL');
driver.pragma('synchronous = NORMAL');
driver.pragma('busy_timeout = 5000');

const insert = driver.prepare(CLICK_INSERT_SQL);
const writeChunk = driver.transaction((clicks: NewClickRow[]) => {
  for (const click of clicks) insert.run(clickInsert(click));
});

const progress = driver.prepare<[], { last: number }>('select last_counted_rowid as last from click_count_progress where id = 1');
const lastStored = driver.prepare<[], { last: number | null }>('select max(rowid) as last from clicks');
const countsSince = driver.prepare<[number, number], { link_id: string; n: number }>(
  'select link_id, count(*) as n from clicks where rowid > ? and rowid <= ? and counted = 1 group by link_id',
);
const addCount = driver.prepare('update short_links set click_count = click_count + ? where id = ?');
const setProgress = driver.prepare('update click_count_progress set last_counted_rowid = ? where id = 1');

const countUp = driver.transaction(() => {
  const from = progress.get()?.last ?? 0;
  const to = lastStored.get()?.last ?? 0;
  if (to <= from) return;
  for (const { link_id, n } of countsSince.all(from, to)) addCount.run(n, link_id);
  setProgress.run(to);
});

function countClicks(): string | undefined {
  try {
    countUp();
    return undefined;
  } catch (error) {
    // Nothing is lost: the progress row did not move, so the next attempt counts these clicks.
    return error instanceof Error ? error.message : String(error);
  }
}

countClicks();
setInterval(countClicks, options.countEveryMs).unref();

serveCalls((payload) => {
  const call = payload as ClickWriterCall;
  if ('countNow' in call) {
    const error = countClicks();
    return { written: 0, ...(error === undefined ? {} : { error }) } satisfies WriteResult;
  }
  const { clicks } = call;
  let written = 0;
  try {
    for (let i = 0; i < clicks.length; i += CLICKS_PER_TRANSACTION) {
      const chunk = clicks.slice(i, i + CLICKS_PER_TRANSACTION);
      writeChunk(chunk);
      written += chunk.length;
    }
    return { written } satisfies WriteResult;
  } catch (error) {
    return { written, error: error instanceof Error ? error.message : String(error) } satisfies WriteResult;
  }
});
