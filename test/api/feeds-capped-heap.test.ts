// A feed is read as it streams, a batch at a time: its 10,000 items import with the parser's heap
// capped at 16 MB (FEED_WORKER_HEAP_MB), while the same file held whole does not fit in that cap.
// Measured: the feed below is 27.7 MB of XML; a worker capped at 16 MB (or 32 MB) that only joins
// its text into one string runs out of memory (ERR_WORKER_OUT_OF_MEMORY), one capped at 64 MB holds
// it. The control below asserts the first, so the import passing is not a matter of a loose cap.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { startHarness, type Harness } from '../helpers/harness.js';
import { BRANDS } from '../helpers/world.js';
import { brandKey } from '../helpers/tracking.js';
import { googleXml, startFeedServer, type FeedServer } from '../helpers/feeds.js';

const HEAP_MB = 16;
const FEED = { items: 10_000, descriptionChars: 2000 };

let h: Harness;
let feeds: FeedServer;
let acme: string;

before(async () => {
  h = await startHarness({ WEBHOOK_ALLOW_LOCAL_TARGETS: 'true', FEED_WORKER_HEAP_MB: String(HEAP_MB) });
  acme = await brandKey(h, BRANDS.acme);
  feeds = await startFeedServer();
  feeds.serve('/feed.xml', { body: () => googleXml(FEED) });
});
after(async () => {
  await feeds.close();
  await h.close();
});

test(`held whole, the feed does not fit in a ${HEAP_MB} MB heap`, async () => {
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
  for await (const piece of googleXml(FEED)) holder.postMessage(piece);
  holder.postMessage(null);
  assert.equal(await outcome, 'ERR_WORKER_OUT_OF_MEMORY');
  await holder.terminate();
});

test(`read as it streams, its 10,000 items import with the parser's heap capped at ${HEAP_MB} MB`, async () => {
  const created = await h.request({ method: 'PUT', url: '/advertiser/feeds/large', headers: { 'x-api-key': acme }, payload: { url: feeds.url('/feed.xml'), format: 'google-xml', schedule: 'daily' } });
  assert.equal(created.statusCode, 201, created.body);
  assert.equal(await h.service.services.jobs.runOnce('feeds'), 1);
  const run = (await h.get('/advertiser/feeds/large/runs', acme)).json<{ data: Array<{ status: string; reason?: string; items: number; bytes: number; added: number }> }>().data[0]!;
  assert.equal(run.status, 'complete', run.reason);
  assert.equal(run.items, FEED.items);
  assert.equal(run.added, 8000);
  assert.ok(run.bytes > 27_000_000, `read ${run.bytes} bytes`);
});
