// Reads aside: slow reads (counts over hundreds of thousands of rows) run on a storage thread's own
// SQLite connection, so the serving thread keeps answering meanwhile. WAL mode lets them read
// alongside the service's writes. Served by the click writer's thread when the service has one,
// else by a read worker of their own (src/storage/read-worker.ts).
import type SqliteDriver from 'better-sqlite3';

export interface ReadRequest {
  sql: string;
  parameters: readonly unknown[];
}

/** A read aside, as posted to the thread that runs it. */
export interface ReadCall {
  read: ReadRequest;
}

export interface ReadResult {
  rows: unknown[];
  /** How long the statement ran there, without the hand-off between threads. */
  ms: number;
}

/** Statements kept prepared per connection (a few dozen distinct reads in practice). */
const STATEMENTS_KEPT = 200;

/** Runs reads on `driver`, each statement prepared once per text. */
export function sqliteReader(driver: SqliteDriver.Database): (request: ReadRequest) => ReadResult {
  const statements = new Map<string, SqliteDriver.Statement>();
  return ({ sql, parameters }) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = driver.prepare(sql);
      if (statements.size >= STATEMENTS_KEPT) statements.delete(statements.keys().next().value!);
      statements.set(sql, statement);
    }
    const started = performance.now();
    const rows = statement.all(parameters);
    return { rows, ms: performance.now() - started };
  };
}
