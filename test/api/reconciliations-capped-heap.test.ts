// A shop's order export is read as it streams, 500 rows at a time, on a thread whose heap is
// capped: Shopify's export of 100,000 orders previews with the parser's heap capped at 16 MB
// (RECONCILIATION_WORKER_HEAP_MB, its least), while the same file held whole does not fit in that
// cap. The file below is 17.6 MB of CSV (40 columns, as Shopify documents them); a worker capped at
// 16 MB that only keeps its text and joins it into one string runs out of memory
// (ERR_WORKER_OUT_OF_MEMORY). The control below asserts it, so the preview passing is not a matter
// of a loose cap.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import { startHarness, type Harness } from '../helpers/harness.js';
import { BRANDS } from '../helpers/world.js';
import { brandKey } from '../helpers/tracking.js';
import { shopifyExportStream, type ShopifyRow } from '../helpers/shop-exports.js';
import type { Reconciliation } from '../../src/domain/reconciliation/reconciliations.js';

const HEAP_MB = 16;
const ORDERS = 100_000;
const run = Math.random().toString(36).slice(2, 8);
/** Orders the network does not know (the file's day is long past), a few refunded or pending. */
const rowOf = (index: number): ShopifyRow => ({
  name: `#${run}${index}`,
  id: String(5_100_000_000_000 + index),
  financial: index % 10 === 0 ? 'refunded' : index % 10 === 1 ? 'pending' : 'paid',
  ...(index % 10 === 0 && { refunded: '100.00' }),
  createdAt: `2025-03-10 ${String(Math.floor(index / 5000) + 1).padStart(2, '0')}:00:00 -0300`,
});
const file = () => shopifyExportStream(ORDERS, rowOf);

let h: Harness;
let acme: string;

before(async () => {
  h = await startHarness({ RECONCILIATION_WORKER_HEAP_MB: String(HEAP_MB) });
  acme = await brandKey(h, BRANDS.acme);
});
after(() => h?.close());

test(`held whole, the export does not fit in a ${HEAP_MB} MB heap`, async () => {
  const holder = new Worker(
    `const { parentPort } = require('node:worker_threads');
     const parts = [];
     parentPort.on('message', (piece) => {
       if (piece !== null) return void parts.push(piece);
       parentPort.postMessage(parts.join('').length);
     });`,
    { eval: true, resourceLimits: { maxOldGenerationSizeMb: HEAP_MB, maxYoungGenerationSizeMb: 8 } },
  );
  const outcome = new Promise<string>((resolve) => {
    holder.on('message', (length: number) => resolve(`held ${length} characters`));
    holder.on('error', (error: Error & { code?: string }) => resolve(error.code ?? error.message));
  });
  let bytes = 0;
  for await (const chunk of file()) {
    bytes += chunk.length;
    holder.postMessage(chunk.toString('utf8'));
  }
  holder.postMessage(null);
  assert.ok(bytes > 17_000_000, `${bytes} bytes`);
  assert.equal(await outcome, 'ERR_WORKER_OUT_OF_MEMORY');
  await holder.terminate();
});

test(`read as it streams, its ${ORDERS.toLocaleString('en-US')} orders preview with the parser's heap capped at ${HEAP_MB} MB`, async () => {
  const res = await h.request({
    method: 'POST',
    url: '/advertiser/conversions/reconciliations',
    payload: Readable.from(file(), { objectMode: false }),
    headers: { 'x-api-key': acme, 'content-type': 'text/csv' },
  });
  assert.equal(res.statusCode, 201, res.body);
  const preview = res.json<{ data: Reconciliation }>().data;
  assert.equal(preview.platform, 'shopify');
  assert.equal(preview.rows, ORDERS);
  assert.equal(preview.counts.unknown, ORDERS, JSON.stringify(preview.counts));
  assert.equal(preview.lines.unknown.length, 20);
  assert.deepEqual(preview.lines.unknown.slice(0, 2).map((l) => [l.line, l.orderId, l.verdict]), [
    [2, `#${run}0`, 'refunded'],
    [3, `#${run}1`, 'pending'],
  ]);
  assert.equal(preview.from, '2025-03-10T04:00:00.000Z');
  assert.equal(preview.to, '2025-03-10T23:00:00.000Z');
});
