// npm run bench:feed -- [--items 1000000] [--description 300] [--database URL] [--file PATH]
//
// Imports a generated Google Merchant Center XML feed (items made as they are sent, never held
// whole: 30% in groups of three options, every seventh out of stock) through a real feed run:
// served on loopback, fetched on the job runner, parsed on its worker thread, written in batches.
// Reports the run's time, items per second, and the process's peak resident memory, which should
// stay flat whatever --items is. With --file, only writes the feed (gzip) to PATH and exits.
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { createGzip } from 'node:zlib';
import { loadConfig } from '../src/config.js';
import { createService } from '../src/server.js';
import { brandInput } from '../test/helpers/world.js';
import { googleXml, startFeedServer } from '../test/helpers/feeds.js';

const { values: args } = parseArgs({
  options: {
    items: { type: 'string', default: '1000000' },
    description: { type: 'string', default: '300' },
    database: { type: 'string' },
    file: { type: 'string' },
  },
});
const shape = { items: Number(args.items), descriptionChars: Number(args.description) };
const BRAND = '22222222-2222-4222-8222-222222222222';

if (args.file) {
  await pipeline(Readable.from(googleXml(shape)), createGzip(), createWriteStream(args.file));
  console.log(`wrote ${shape.items} items to ${args.file}`);
  process.exit(0);
}

const work = mkdtempSync(join(tmpdir(), 'affnet-feed-bench-'));
const config = loadConfig({
  DATABASE_URL: args.database ?? `sqlite://${join(work, 'bench.db')}`,
  PUBLIC_URL: 'http://go.bench',
  WEBHOOK_ALLOW_LOCAL_TARGETS: 'true',
  SCHEDULE_POLL_MS: '0',
  MAIL_POLL_MS: '0',
});
const service = await createService(config);
const feeds = await startFeedServer();
let peakRssMb = 0;
const sampler = setInterval(() => (peakRssMb = Math.max(peakRssMb, process.memoryUsage().rss / 1024 / 1024)), 200);
try {
  await service.services.imports.upsertBrand(brandInput({ id: BRAND, name: 'Bench shop', slug: 'bench-shop', site: 'https://www.example.com' }));
  feeds.serve('/feed.xml', { body: () => googleXml(shape) });
  await service.services.feeds.putFeed(BRAND, 'bench', { url: feeds.url('/feed.xml'), format: 'google-xml', schedule: 'daily' });
  const started = performance.now();
  await service.services.jobs.runOnce('feeds');
  const seconds = (performance.now() - started) / 1000;
  const [run] = (await service.services.feeds.runs(BRAND, 'bench', { page: 1, limit: 1 })).items;
  console.log(JSON.stringify(run && { status: run.status, reason: run.reason, items: run.items, added: run.added, refused: run.refused, megabytes: Math.round(run.bytes / 1024 / 1024) }));
  console.log(`${shape.items} items in ${seconds.toFixed(1)} s: ${Math.round(shape.items / seconds)} items/s; peak RSS ${Math.round(peakRssMb)} MB`);
} finally {
  clearInterval(sampler);
  await feeds.close();
  await service.close();
  rmSync(work, { recursive: true, force: true });
}
