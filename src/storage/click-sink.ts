// Where buffered clicks are written. On a SQLite file: a worker thread with its own connection,
// so the serving thread never blocks on the write. Otherwise (PostgreSQL, in-memory SQLite): the
// shared Kysely connection, which for PostgreSQL is asynchronous anyway.
import { Worker } from 'node:worker_threads';
import type { Database } from './database.js';
import type { NewClickRow } from './schema.js';
import { writeClicks } from './repositories/clicks.js';
import type { WriteReply, WriteRequest } from './click-writer-worker.js';

export interface ClickSink {
  /** Writes the clicks; resolves with how many were committed (all, unless it throws). */
  write(clicks: NewClickRow[]): Promise<void>;
  close(): Promise<void>;
}

/** Thrown when only the first `written` clicks of a batch were committed. */
export class PartialWriteError extends Error {
  constructor(
    readonly written: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Built, the worker runs from its JavaScript. Under tsx (tests and tools run the TypeScript
 * sources) a worker does not inherit tsx's loader on Node 20, so a bootstrap registers it first.
 */
function startWorker(path: string): Worker {
  const workerData = { path };
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('click-writer-worker.js', import.meta.url), { workerData });
  const source = new URL('click-writer-worker.ts', import.meta.url).href;
  const tsx = import.meta.resolve('tsx/esm/api');
  const bootstrap = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(source)}); });`;
  return new Worker(bootstrap, { eval: true, workerData });
}

function workerSink(path: string): ClickSink {
  const worker = startWorker(path);
  worker.unref();
  const waiting = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  let nextId = 1;
  // The worker keeps the process alive only while a write is in flight.
  const settle = () => (waiting.size ? worker.ref() : worker.unref());
  worker.on('message', (reply: WriteReply) => {
    const pending = waiting.get(reply.id);
    waiting.delete(reply.id);
    settle();
    if (!pending) return;
    if (reply.error) pending.reject(new PartialWriteError(reply.written, reply.error));
    else pending.resolve();
  });
  worker.on('error', (error) => {
    for (const pending of waiting.values()) pending.reject(new PartialWriteError(0, error.message));
    waiting.clear();
    settle();
  });
  return {
    write(clicks) {
      const id = nextId++;
      return new Promise<void>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        settle();
        worker.postMessage({ id, clicks } satisfies WriteRequest);
      });
    },
    async close() {
      await worker.terminate();
    },
  };
}

export function openClickSink(database: Database): ClickSink {
  if (database.dialect === 'sqlite' && database.sqlitePath && database.sqlitePath !== ':memory:') return workerSink(database.sqlitePath);
  return { write: (clicks) => writeClicks(database, clicks), close: async () => {} };
}
