// Request/reply with a storage worker thread (its own SQLite connection): the serving thread posts
// work and awaits the answer instead of blocking on better-sqlite3, which is synchronous.
import { Worker, parentPort, workerData } from 'node:worker_threads';
import { getBackgroundNice, lowerBackgroundThreads } from '../lib/thread-priority.js';
import { keepYoungGenerationCap } from '../lib/young-generation.js';

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

/**
 * Starts `name` (a module beside this one). Built, it runs from its JavaScript; under tsx (tests
 * and tools run the TypeScript sources) a worker does not inherit tsx's loader on Node 20, so a
 * bootstrap registers it first.
 */
/**
 * A worker's young generation, in MB. V8 lets it grow to 32 MB per thread under a steady stream of
 * allocations (as the main thread's), and each worker kept that much however little it held: a
 * storage worker's objects live for one call, so a small nursery costs a few more quick scavenges.
 */
const WORKER_YOUNG_GENERATION_MB = 8;

function startWorker(name: string, options: unknown): Worker {
  const worker = newWorker(name, options);
  // Setting up the worker's heap reset the serving thread's young generation cap (see there).
  worker.once('online', keepYoungGenerationCap);
  return worker;
}

function newWorker(name: string, options: unknown): Worker {
  const resourceLimits = { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB };
  const workerData: WorkerStart = { options, nice: getBackgroundNice() };
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL(`${name}.js`, import.meta.url), { workerData, resourceLimits });
  const source = new URL(`${name}.ts`, import.meta.url).href;
  const tsx = import.meta.resolve('tsx/esm/api');
  const bootstrap = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(source)}); });`;
  return new Worker(bootstrap, { eval: true, workerData, resourceLimits });
}

/** What a storage worker is started with: its options, and how far below the serving thread it runs. */
interface WorkerStart {
  options: unknown;
  nice: number;
}

/**
 * Inside a worker, first: lowers this thread's priority as the service asked (a storage worker is
 * background work; see src/lib/thread-priority.ts) and returns the options it was started with.
 */
export function startedWith<T>(): T {
  const start = workerData as WorkerStart;
  lowerBackgroundThreads(start.nice);
  return start.options as T;
}

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
