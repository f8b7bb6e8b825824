// Parses a shop's order export on a worker thread (reconciliation-worker.ts) from the serving
// thread's side: hands the file's bytes over a chunk at a time as the worker asks for them, and
// writes each batch of rows it answers before it asks for more. The worker's heap is capped: a file
// it could only read by holding it whole fails the upload instead of the server.
import { chunkHandover } from '../../lib/pulled-chunks.js';
import { startWorkerBeside } from '../../lib/worker-start.js';
import { DomainError } from '../errors.js';
import type { BadRow, Platform, ShopOrder } from './shop-exports.js';
import type { ExportOptions, FromWorker, ToWorker } from './export-messages.js';

export interface ExportParseSettings extends ExportOptions {
  /** The most the worker's heap may grow to, in MB (RECONCILIATION_WORKER_HEAP_MB). */
  heapMb: number;
}

/**
 * Reads `body` as a shop's export: `write` gets each batch of rows (and is awaited) as it is read;
 * answers the platform its header names, or throws the refusal (a DomainError, as the reading
 * made it) or the failure of `write`.
 */
export function parseExport(body: AsyncIterable<Buffer | string>, settings: ExportParseSettings, write: (rows: Array<ShopOrder | BadRow>) => Promise<void>): Promise<Platform> {
  const { heapMb, ...options } = settings;
  const worker = startWorkerBeside(import.meta.url, 'reconciliation-worker', options, { maxOldGenerationSizeMb: heapMb });
  let settled = false;
  const post = (message: ToWorker, transfer: ArrayBuffer[] = []) => worker.postMessage(message, transfer);
  const pull = chunkHandover(body, post, (error) => `the file stopped before its end: ${error.message}`);

  return new Promise<Platform>((resolve, reject) => {
    const finish = (outcome: Platform | Error) => {
      if (settled) return;
      settled = true;
      void worker.terminate();
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    worker.on('message', (message: FromWorker) => {
      if (settled) return;
      if (message.type === 'pull') void pull();
      else if (message.type === 'batch') write(message.rows).then(
          () => post({ type: 'written' }),
          (error: Error) => finish(error),
        );
      else if (message.type === 'done') finish(message.platform);
      else if (message.type === 'refused') finish(new DomainError(message.kind, message.code, message.message, undefined, message.details));
      else finish(new Error(message.reason));
    });
    worker.on('error', (error: Error & { code?: string }) => {
      // Rows so long that reading them outgrows the parser's heap: the file's fault, said as such (the cap is in the log).
      if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') finish(new DomainError('too_large', 'file_rows_too_large', `the file's rows are longer than the network reads (its parser stopped at RECONCILIATION_WORKER_HEAP_MB, ${heapMb} MB): export the orders again, one row per order line`));
      else finish(error);
    });
    worker.on('exit', () => finish(new Error('reading the file stopped before its end')));
  });
}
