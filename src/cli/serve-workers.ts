// `affnet serve --workers N`: one process per core, sharing the listening port through
// node:cluster (the primary accepts connections and hands them to the workers in turn). Each
// worker is a whole instance, as several instances behind a load balancer are: its own caches and
// click buffer, the database shared (SQLite in WAL mode, each write waiting its turn; or
// PostgreSQL), and through Redis the per-key limits, repeat visitors and click velocity.
//
// The primary serves nothing itself. The first worker starts alone (migrations, the demo data on
// a first start), then the others. On SIGTERM or SIGINT each worker stops as a lone instance does
// (finishes its requests, writes its buffered clicks); the primary exits once all have, with 1 if
// any failed. A worker that dies is replaced, unless it died at start: then the primary stops the
// others and exits 1 rather than restart it in a loop.
import cluster, { type Worker } from 'node:cluster';

const INDEX_VARIABLE = 'AFFNET_WORKER_INDEX';
/** A worker that exits within this long of its start is not restarted (its error would repeat). */
const START_GRACE_MS = 10_000;

/** This process's worker index under `serve --workers`, or undefined when it serves alone. */
export function workerIndex(): number | undefined {
  if (!cluster.isWorker) return undefined;
  const index = Number(process.env[INDEX_VARIABLE]);
  return Number.isInteger(index) ? index : undefined;
}

const say = (line: string) => process.stderr.write(`${line}\n`);

/** What a worker tells the primary once everything it serves (API and metrics ports) listens. */
const READY_MESSAGE = 'affnet:worker-ready';

/**
 * Tells the primary this worker is serving. Cluster's own 'listening' event comes with the first
 * port, before the metrics port; the primary counts a worker as started only on this message.
 */
export function announceWorkerReady(): void {
  if (cluster.isWorker) process.send?.(READY_MESSAGE);
}

export async function serveWorkers(count: number): Promise<void> {
  const running = new Map<number, { worker: Worker; startedAt: number }>();
  let stopping = false;
  let failed = false;

  const fork = (index: number): Promise<void> =>
    new Promise((listening, notStarted) => {
      const worker = cluster.fork({ [INDEX_VARIABLE]: String(index) });
      const startedAt = Date.now();
      running.set(index, { worker, startedAt });
      const onMessage = (message: unknown) => {
        if (message !== READY_MESSAGE) return;
        worker.off('message', onMessage);
        listening();
      };
      worker.on('message', onMessage);
      worker.once('exit', (code, signal) => {
        running.delete(index);
        const how = signal ? `signal ${signal}` : `code ${code}`;
        if (stopping) {
          if (code !== 0) failed = true;
          if (running.size === 0) process.exit(failed ? 1 : 0);
          return;
        }
        if (Date.now() - startedAt < START_GRACE_MS) {
          say(`worker ${index} exited at start (${how}); stopping the others`);
          notStarted(new Error(`worker ${index} exited at start`));
          return void stopAll(1);
        }
        say(`worker ${index} exited (${how}); starting another`);
        void fork(index).catch(() => {});
      });
    });

  const stopAll = (exitCode = 0) => {
    if (exitCode !== 0) failed = true;
    if (stopping) return;
    stopping = true;
    if (running.size === 0) process.exit(failed ? 1 : 0);
    for (const { worker } of running.values()) worker.process.kill('SIGTERM');
  };
  process.on('SIGTERM', () => stopAll());
  // Ctrl-C reaches the workers too (same process group) and they start stopping; the SIGTERM that
  // follows finds them at it. A SIGINT sent to the primary alone stops them all the same.
  process.on('SIGINT', () => stopAll());

  try {
    await fork(0);
    await Promise.all(Array.from({ length: count - 1 }, (_, i) => fork(i + 1)));
    say(`serving with ${count} workers (pids ${[...running.values()].map((r) => r.worker.process.pid).join(', ')})`);
  } catch {
    // stopAll is under way; the primary exits when the last worker has.
  }
}
