// Starting a worker thread from a module beside the one starting it, and the worker's first step:
// the storage workers (src/storage/worker-rpc.ts) and the parsers of feeds and shops' exports start
// this way. Built, a worker runs from its JavaScript (scripts/build-server.mjs bundles each beside
// the server); under tsx (tests and tools run the TypeScript sources) a worker does not inherit
// tsx's loader on Node 20, so a bootstrap registers it first.
import { Worker, workerData, type ResourceLimits } from 'node:worker_threads';
import { getBackgroundNice, lowerBackgroundThreads } from './thread-priority.js';
import { keepYoungGenerationCap } from './young-generation.js';

/**
 * A worker's young generation, in MB. V8 lets it grow to 32 MB per thread under a steady stream of
 * allocations (as the main thread's), and each worker kept that much however little it held: a
 * worker's objects live for one call or one batch, so a small nursery costs a few more quick scavenges.
 */
const WORKER_YOUNG_GENERATION_MB = 8;

/** What a worker is started with: its options, and how far below the serving thread it runs. */
interface WorkerStart {
  options: unknown;
  nice: number;
}

/** Starts the worker module `name` found beside `base` (the starting module's import.meta.url), its heap limited as given. */
export function startWorkerBeside(base: string, name: string, options: unknown, limits: ResourceLimits = {}): Worker {
  const resourceLimits = { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB, ...limits };
  const data: WorkerStart = { options, nice: getBackgroundNice() };
  let worker: Worker;
  if (!base.endsWith('.ts')) worker = new Worker(new URL(`${name}.js`, base), { workerData: data, resourceLimits });
  else {
    const source = new URL(`${name}.ts`, base).href;
    const tsx = import.meta.resolve('tsx/esm/api');
    const bootstrap = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(source)}); });`;
    worker = new Worker(bootstrap, { eval: true, workerData: data, resourceLimits });
  }
  // Setting up the worker's heap reset the serving thread's young generation cap (see there).
  worker.once('online', keepYoungGenerationCap);
  return worker;
}

/**
 * Inside a worker, first: lowers this thread's priority as the service asked (a worker is
 * background work; see src/lib/thread-priority.ts) and returns the options it was started with.
 */
export function startedWith<T>(): T {
  const start = workerData as WorkerStart;
  lowerBackgroundThreads(start.nice);
  return start.options as T;
}
