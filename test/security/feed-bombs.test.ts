// Feeds built to exhaust the service end as failed runs with a reason the brand can read, having
// written nothing they should not: a gzip bomb (a few kilobytes that decompress past FEED_MAX_MB),
// a stream that never ends, and a DOCTYPE whose entities would expand a billion times (its own
// test is in test/api/feeds.test.ts, beside the formats a feed may take).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { startHarness, type Harness } from '../helpers/harness.js';
import { brandKey } from '../helpers/tracking.js';
import { BRANDS } from '../helpers/world.js';
import { itemXml, startFeedServer, type FeedServer } from '../helpers/feeds.js';

let h: Harness;
let acme: string;
let feeds: FeedServer;

before(async () => {
  // The smallest limit the service takes, so a bomb past it is small to make.
  h = await startHarness({ WEBHOOK_ALLOW_LOCAL_TARGETS: 'true', FEED_MAX_MB: '1' });
  acme = await brandKey(h, BRANDS.acme);
  feeds = await startFeedServer();
});
after(async () => {
  await feeds.close();
  await h.close();
});

const HEAD = '<?xml version="1.0"?><rss version="2.0" xmlns:g="http://base.google.com/ns/1.0"><channel>';

async function runOf(id: string, url: string): Promise<{ status: string; reason?: string }> {
  const saved = await h.request({ method: 'PUT', url: `/advertiser/feeds/${id}`, headers: { 'x-api-key': acme }, payload: { url, format: 'google-xml', schedule: 'daily' } });
  assert.ok([200, 201].includes(saved.statusCode), saved.body);
  await h.service.services.jobs.runOnce('feeds');
  const runs = await h.request({ method: 'GET', url: `/advertiser/feeds/${id}/runs?limit=1`, headers: { 'x-api-key': acme } });
  return runs.json<{ data: Array<{ status: string; reason?: string }> }>().data[0]!;
}

test('a gzip bomb fails its run at the limit, decompressed, and names no setting', async () => {
  // 2 MB of one item's description, compressed to a few kilobytes.
  const bomb = gzipSync(Buffer.from(`${HEAD}<item><g:id>bomb</g:id><description>${'A'.repeat(2 * 1024 * 1024)}</description></item></channel></rss>`));
  assert.ok(bomb.length < 20_000, `the bomb is small: ${bomb.length} bytes`);
  feeds.serve('/bomb.xml', { headers: { 'content-encoding': 'gzip' }, body: () => bomb });
  const run = await runOf('gzip-bomb', feeds.url('/bomb.xml'));
  assert.equal(run.status, 'failed');
  assert.match(run.reason ?? '', /larger than 1 MB \(decompressed\)/);
  assert.doesNotMatch(run.reason ?? '', /FEED_MAX_MB/);
});

test('a feed that never ends is cut off at the limit', async () => {
  async function* endless(): AsyncGenerator<string> {
    yield HEAD;
    for (let index = 0; ; index++) yield itemXml(index);
  }
  feeds.serve('/endless.xml', { body: endless });
  const run = await runOf('endless', feeds.url('/endless.xml'));
  assert.equal(run.status, 'failed');
  assert.match(run.reason ?? '', /larger than 1 MB/);
});
