// A shop's order export parsed on a thread of its own at background priority, its heap capped
// (RECONCILIATION_WORKER_HEAP_MB): the bytes are pulled from the serving thread a chunk at a time,
// read into rows (export-reading.ts) and sent back a batch at a time; the next chunk is asked for
// only once the batch's lines are written.
import { parentPort } from 'node:worker_threads';
import { chunkReceiver } from '../../lib/pulled-chunks.js';
import { startedWith } from '../../lib/worker-start.js';
import { DomainError } from '../errors.js';
import { fileEmpty, readerOf, recordsOf } from './export-reading.js';
import type { BadRow, Platform, RowReader, ShopOrder } from './shop-exports.js';
import type { ExportOptions, FromWorker } from './export-messages.js';

const options = startedWith<ExportOptions>();
const port = parentPort!;
// A connection that broke mid-file: read as today, a file that is not CSV (export-reading.ts).
const { pulled, written } = chunkReceiver((reason) => new Error(reason));
const send = (message: FromWorker) => port.postMessage(message);

async function run(): Promise<void> {
  let reader: RowReader | undefined;
  let platform: Platform = 'mapped';
  let batch: Array<ShopOrder | BadRow> = [];
  const flush = async () => {
    if (batch.length === 0) return;
    send({ type: 'batch', rows: batch });
    batch = [];
    await written();
  };
  try {
    for await (const { record, line } of recordsOf(pulled(), options.maxBytes)) {
      if (!reader) {
        ({ platform, reader } = readerOf(record, options.given, options.digits, options.currency));
        continue;
      }
      const read = reader.read(record, line);
      if (read === undefined) continue;
      batch.push(read);
      if (batch.length >= options.batchSize) await flush();
    }
    if (!reader) throw fileEmpty();
    await flush();
    send({ type: 'done', platform });
  } catch (error) {
    if (error instanceof DomainError) send({ type: 'refused', kind: error.kind, code: error.code, message: error.message, details: error.details });
    else send({ type: 'failed', reason: `reading the file failed: ${(error as Error).message}` });
  }
}

void run();
