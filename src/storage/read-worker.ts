// Runs slow reads (counts over hundreds of thousands of rows) on a thread of its own with a
// read-only SQLite connection, so the serving thread keeps answering meanwhile. WAL mode lets it
// read alongside the service's writes.
import SqliteDriver from 'better-sqlite3';
import { serveCalls, startedWith } from './worker-rpc.js';
import { setPageCache } from './sqlite-page-cache.js';

export interface ReadRequest {
  sql: string;
  parameters: readonly unknown[];
}

export interface ReadResult {
  rows: unknown[];
  /** How long the statement ran here, without the hand-off between threads. */
  ms: number;
}

const { path, cacheMb } = startedWith<{ path: string; cacheMb: number }>();
const driver = new SqliteDriver(path, { readonly: true });
setPageCache(driver, cacheMb);
driver.pragma('busy_timeout = 5000');
const statements = new Map<string, SqliteDriver.Statement>();

serveCalls((payload) => {
  const { sql, parameters } = payload as ReadRequest;
  let statement = statements.get(sql);
  if (!statement) {
    statement = driver.prepare(sql);
    if (statements.size >= 200) statements.delete(statements.keys().next().value!);
    statements.set(sql, statement);
  }
  const started = performance.now();
  const rows = statement.all(parameters);
  return { rows, ms: performance.now() - started } satisfies ReadResult;
});
