// FeedsRepository's run reports against a real database: a feed keeps only its newest reports
// (the newest first by start time, the id breaking ties); another feed's, or another brand's, are
// never touched.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openFixture, type StorageFixture } from './fixture.js';

let f: StorageFixture;

before(async () => {
  f = await openFixture();
});
after(async () => {
  await f?.close();
});

const at = (minute: number) => new Date(Date.UTC(2026, 10, 1, 0, minute)).toISOString();

test('forgetRunsBeyond keeps the feed’s newest runs and deletes the older ones, of that feed only', async () => {
  const { feeds } = f.repos;
  const run = (id: string, feed: string, minute: number, brand = 'brand-a') => feeds.startRun({ id, organization_id: brand, feed_id: feed, source: 'fetch', started_at: at(minute) });
  for (let i = 1; i <= 5; i++) await run(`a-${i}`, 'feed-1', i);
  // Two runs started in the same minute: the id breaks the tie.
  await run('a-6b', 'feed-1', 6);
  await run('a-6a', 'feed-1', 6);
  for (let i = 1; i <= 3; i++) await run(`b-${i}`, 'feed-2', i);
  await run('c-1', 'feed-1', 1, 'brand-b');
  assert.equal(await feeds.forgetRunsBeyond('brand-a', 'feed-1', 3), 4);
  const left = async (brand: string, feed: string) => (await feeds.listRuns(brand, feed, { limit: 100, offset: 0 })).rows.map((r) => r.id);
  assert.deepEqual(await left('brand-a', 'feed-1'), ['a-6b', 'a-6a', 'a-5']);
  assert.deepEqual(await left('brand-a', 'feed-2'), ['b-3', 'b-2', 'b-1'], 'another feed keeps its runs');
  assert.deepEqual(await left('brand-b', 'feed-1'), ['c-1'], 'another brand keeps its runs');
  assert.equal(await feeds.forgetRunsBeyond('brand-a', 'feed-1', 3), 0, 'nothing more to forget');
  assert.equal(await feeds.forgetRunsBeyond('brand-a', 'feed-9', 3), 0, 'a feed without runs');
});
