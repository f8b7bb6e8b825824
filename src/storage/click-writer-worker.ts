// Writes clicks to SQLite on a thread of its own, with its own connection: better-sqlite3 blocks
// the thread it runs on, and the redirect thread must never wait for a disk. WAL mode lets the
// service keep reading while this thread writes.
import { workerData } from 'node:worker_threads';
import SqliteDriver from 'better-sqlite3';
import type { NewClickRow } from './schema.js';
import { serveCalls } from './worker-rpc.js';

/** Clicks per transaction: short transactions keep the write lock free for the service's own writes. */
export const CLICKS_PER_TRANSACTION = 2000;

export interface WriteResult {
  /** Clicks committed, in order, before any error. */
  written: number;
  error?: string;
}

const driver = new SqliteDriver((workerData as { path: string }).path);
driver.pragma('journal_mode = WAL');
driver.pragma('synchronous = NORMAL');
driver.pragma('busy_timeout = 5000');

const insert = driver.prepare(
  `insert into clicks (id, link_id, affiliate_id, channel_id, organization_id, mdasc, created_at, is_bot, is_head, is_repeat, counted, visitor_hash, user_agent)
   values (@id, @link_id, @affiliate_id, @channel_id, @organization_id, @mdasc, @created_at, @is_bot, @is_head, @is_repeat, @counted, @visitor_hash, @user_agent)`,
);
const addCount = driver.prepare('update short_links set click_count = click_count + ? where id = ?');

const writeChunk = driver.transaction((clicks: NewClickRow[]) => {
  const counts = new Map<string, number>();
  for (const click of clicks) {
    insert.run({ mdasc: null, user_agent: null, ...click });
    if (click.counted) counts.set(click.link_id, (counts.get(click.link_id) ?? 0) + 1);
  }
  for (const [linkId, n] of counts) addCount.run(n, linkId);
});

serveCalls((payload) => {
  const clicks = payload as NewClickRow[];
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
