// Parses a feed on a worker thread (src/domain/feeds/feed-worker.ts) from the serving thread's
// side: hands the file's bytes over a chunk at a time as the worker asks for them, and writes each
// batch of products it answers before it asks for more. The worker's heap can be capped: a feed it
// could only read by holding it whole ends the run instead of the server.
import type { Readable } from 'node:stream';
import { chunkHandover } from '../../lib/pulled-chunks.js';
import { startWorkerBeside } from '../../lib/worker-start.js';
import type { FeedProduct, Refusal } from './feed-items.js';
import type { FromWorker, ParseCounts, ParseOptions, ToWorker } from './feed-messages.js';

export type ParseOutcome = ({ ok: true } | { ok: false; reason: string }) & ParseCounts & { refusals: Refusal[] };

export interface ParseSettings extends ParseOptions {
  /** The most the worker's heap may grow to, in MB (FEED_WORKER_HEAP_MB). */
  heapMb: number;
}

/** Reads `body` as a feed: `write` gets each batch (and is awaited) as it is read, with how far the reading got. */
export function parseFeed(body: Readable, settings: ParseSettings, write: (products: FeedProduct[], counts: ParseCounts) => Promise<void>): Promise<ParseOutcome> {
  const { heapMb, ...options } = settings;
  const worker = startWorkerBeside(import.meta.url, 'feed-worker', options, { maxOldGenerationSizeMb: heapMb });
  const refusals: Refusal[] = [];
  let counts: ParseCounts = { items: 0, bytes: 0, refused: 0 };
  let settled = false;
  const post = (message: ToWorker, transfer: ArrayBuffer[] = []) => worker.postMessage(message, transfer);
  const pull = chunkHandover(body, post, (error) => `the feed stopped before its end: ${error.message}`);

  return new Promise<ParseOutcome>((resolve, reject) => {
    const finish = (outcome: ParseOutcome | Error) => {
      if (settled) return;
      settled = true;
      void worker.terminate();
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    worker.on('message', (message: FromWorker) => {
      if (settled) return;
      if (message.type === 'pull') void pull();
      else if (message.type === 'batch') {
        refusals.push(...message.refusals);
        counts = message.counts;
        write(message.products, message.counts).then(
          () => post({ type: 'written' }),
          (error: Error) => finish(error),
        );
      } else {
        const { type: _type, refusals: last, ...rest } = message;
        refusals.push(...last);
        counts = { items: rest.items, bytes: rest.bytes, refused: rest.refused };
        finish(message.type === 'done' ? { ok: true, ...counts, refusals } : { ok: false, reason: message.reason, ...counts, refusals });
      }
    });
    worker.on('error', (error: Error & { code?: string }) => {
      const reason =
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? `reading the feed took more memory than its parser may use (FEED_WORKER_HEAP_MB, ${heapMb} MB)`
          : `reading the feed failed: ${error.message}`;
      finish({ ok: false, reason, ...counts, refusals });
    });
    worker.on('exit', () => finish({ ok: false, reason: 'reading the feed stopped before its end', ...counts, refusals }));
  });
}
