// Request/reply with a storage worker thread (its own SQLite connection): the serving thread posts
// work and awaits the answer instead of blocking on better-sqlite3, which is synchronous.
import { parentPort } from 'node:worker_threads';
import { startWorkerBeside, startedWith } from '../lib/worker-start.js';

interface Request {
  id: number;
  payload: unknown;
}

interface Reply {
  id: number;
  result?: unknown;
  error?: string;
}

export interface WorkerRpc {
  call(payload: unknown): Promise<unknown>;
  close(): Promise<void>;
}

/** Inside a storage worker, first: see src/lib/worker-start.ts. */
export { startedWith };

/** Starts `name`, a module beside this one. */
const startWorker = (name: string, options: unknown) => startWorkerBeside(import.meta.url, name, options);

export function startWorkerRpc(name: string, workerData: unknown): WorkerRpc {
  const worker = startWorker(name, workerData);
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  // The worker keeps the process alive only while a call is in flight.
  const settle = () => (waiting.size ? worker.ref() : worker.unref());
  settle();
  worker.on('message', (reply: Reply) => {
    const pending = waiting.get(reply.id);
    waiting.delete(reply.id);
    settle();
    if (!pending) return;
    if (reply.error !== undefined) pending.reject(new Error(reply.error));
    else pending.resolve(reply.result);
  });
  /** Set once the thread is gone (closed, or it died): calls are refused rather than left unanswered. */
  let gone: Error | undefined;
  const failAll = (error: Error) => {
    for (const pending of waiting.values()) pending.reject(error);
    waiting.clear();
    settle();
  };
  worker.on('error', failAll);
  worker.on('exit', () => {
    gone = new Error(`the ${name} thread has stopped`);
    failAll(gone);
  });
  return {
    call(payload) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        if (gone) return reject(gone);
        waiting.set(id, { resolve, reject });
        settle();
        worker.postMessage({ id, payload } satisfies Request);
      });
    },
    async close() {
      await worker.terminate();
    },
  };
}

/** Inside a worker: answers each call with what `handle` returns or resolves to (or the error it throws). */
export function serveCalls(handle: (payload: unknown) => unknown): void {
  parentPort!.on('message', ({ id, payload }: Request) => {
    const answer = (reply: Reply) => parentPort!.postMessage(reply);
    try {
      const result = handle(payload);
      if (result instanceof Promise) {
        result.then(
          (value) => answer({ id, result: value }),
          (error: unknown) => answer({ id, error: error instanceof Error ? error.message : String(error) }),
        );
      } else answer({ id, result });
    } catch (error) {
      answer({ id, error: error instanceof Error ? error.message : String(error) });
    }
  });
}
