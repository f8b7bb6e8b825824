// Where buffered clicks are written. On a SQLite file: a worker thread with its own connection,
// so the serving thread never blocks on the write. Otherwise (PostgreSQL, in-memory SQLite): the
// shared Kysely connection, which for PostgreSQL is asynchronous anyway.
import type { Database } from './database.js';
import type { NewClickRow } from './tables.js';
import { ClicksRepository } from './repositories/clicks.js';
import type { ClickWriterCall, ClickWriterOptions, WriteResult } from './click-writer-worker.js';
import { startWorkerRpc } from './worker-rpc.js';
import { PartialWriteError } from '../lib/partial-write.js';

export interface ClickSink {
  /** Writes the clicks; resolves with how many were committed (all, unless it throws). */
  write(clicks: NewClickRow[]): Promise<void>;
  close(): Promise<void>;
}


function workerSink(options: ClickWriterOptions): ClickSink {
  const rpc = startWorkerRpc('click-writer-worker', options);
  const call = async (request: ClickWriterCall) =>
    (await rpc.call(request).catch((error: Error) => ({ written: 0, error: error.message }))) as WriteResult;
  return {
    async write(clicks) {
      const result = await call({ clicks });
      if (result.error !== undefined) throw new PartialWriteError(result.written, result.error);
    },
    async close() {
      // Counts include every stored click before the service stops (the next start would add
      // them anyway, from the stored progress).
      await call({ countNow: true });
      await rpc.close();
    },
  };
}

/**
 * On a SQLite file, link counts follow the stored clicks within `countEveryMs`; elsewhere they
 * are updated with each batch.
 */
export function openClickSink(database: Database, options: { countEveryMs: number }): ClickSink {
  if (database.dialect === 'sqlite' && database.sqlitePath && database.sqlitePath !== ':memory:') {
    return workerSink({ path: database.sqlitePath, countEveryMs: options.countEveryMs });
  }
  const repository = new ClicksRepository(database);
  return { write: (clicks) => repository.write(clicks), close: async () => {} };
}
