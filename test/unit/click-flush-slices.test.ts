// A flush hands its clicks to the writer in slices, each written before the next is decided, so
// the serving thread is never held for a whole large batch; slicing loses, repeats and reorders
// nothing, also when a slice's write fails part-way.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ClickRecorder } from '../../src/domain/links/click-recorder.js';
import { memoryRepeatFilter } from '../../src/domain/links/repeat-filter.js';
import { memoryVelocityFilter } from '../../src/domain/links/velocity-filter.js';
import type { ClickSink, ClickWrite } from '../../src/storage/click-sink.js';
import { batchWrites } from '../helpers/click-batches.js';
import { PartialWriteError } from '../../src/lib/partial-write.js';
import { systemClock } from '../../src/lib/clock.js';

const target = { linkId: 'l-1', affiliateId: 'aff-1', channelId: 'ch-1', brandId: 'b-1', mdasc: null, locationBefore: 'https://brand.example/?clickId=', locationAfter: '', queryStart: 23, ownNames: undefined } as never;
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36';

/**
 * A sink that keeps what it is given: `writes` the clicks of each call, `stored` all of them.
 * `failOnce(n, keep)`: call number n stores its first `keep` clicks, then fails.
 */
function recordingSink() {
  const writes: ClickWrite[][] = [];
  const stored: ClickWrite[] = [];
  let calls = 0;
  let failing: { call: number; keep: number } | undefined;
  const sink: ClickSink = {
    async write(batch) {
      const clicks = batchWrites(batch);
      calls++;
      const kept = failing?.call === calls ? clicks.slice(0, failing.keep) : clicks;
      writes.push(kept);
      stored.push(...kept);
      if (kept !== clicks) throw new PartialWriteError(kept.length, 'disk I/O error');
    },
    async close() {},
  };
  return { sink, writes, stored, failOnce: (call: number, keep: number) => (failing = { call, keep }) };
}

function recorder(sink: ClickSink) {
  const errors: unknown[] = [];
  const clicks = new ClickRecorder(sink, memoryRepeatFilter(3_600_000), memoryVelocityFilter(0), { flushMs: 60_000, visitorSalt: 's' }, systemClock, (e) => errors.push(e));
  return { clicks, errors };
}

/** `n` clicks from distinct visitors; their click ids, in the order answered. */
function answer(clicks: ClickRecorder, n: number, from = 0): string[] {
  const ids: string[] = [];
  for (let i = from; i < from + n; i++) {
    const location = clicks.clickThrough(target, { method: 'GET', ip: `10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`, userAgent: BROWSER });
    ids.push(new URL(location).searchParams.get('clickId')!);
  }
  return ids;
}

describe('a flush of many clicks', () => {
  test('is written in slices of at most 1,000, in the order the clicks were answered', async () => {
    const { sink, writes, stored } = recordingSink();
    const { clicks, errors } = recorder(sink);
    const answered = answer(clicks, 2_500);
    await clicks.flush();
    assert.deepEqual(errors, []);
    assert.deepEqual(
      writes.map((w) => w.length),
      [1_000, 1_000, 500],
    );
    assert.deepEqual(
      stored.map((w) => w.click.id),
      answered,
    );
    assert.ok(stored.every((w) => w.click.counted === 1 && w.click.visitor_hash !== ''), 'each slice is decided before it is written');
    assert.equal(clicks.backlog, 0);
  });

  test('lets requests be answered between slices, leaving clicks answered meanwhile to the next flush', async () => {
    const { sink, writes, stored } = recordingSink();
    const { clicks } = recorder(sink);
    const first = answer(clicks, 1_500);
    const flushing = clicks.flush();
    // The first slice is with the writer: the serving thread is free to answer more redirects.
    await new Promise((resolve) => setImmediate(resolve));
    const meanwhile = answer(clicks, 10, 1_500);
    await flushing;
    assert.deepEqual(
      stored.map((w) => w.click.id),
      first,
      'the flush wrote what was buffered when it began',
    );
    assert.equal(clicks.backlog, 10);
    await clicks.flush();
    assert.deepEqual(
      stored.map((w) => w.click.id),
      [...first, ...meanwhile],
    );
    assert.deepEqual(
      writes.map((w) => w.length),
      [1_000, 500, 10],
    );
  });

  test('stops at a failed slice and writes the rest on the next flush, none lost or written twice', async () => {
    const { sink, stored, failOnce } = recordingSink();
    const { clicks, errors } = recorder(sink);
    const answered = answer(clicks, 3_000);
    failOnce(2, 400); // the second slice stores 400 of its 1,000 clicks, then fails
    await clicks.flush();
    assert.equal(errors.length, 1);
    assert.equal(stored.length, 1_400);
    assert.equal(clicks.backlog, 1_600, 'the unwritten 600 and the undecided 1,000 wait');
    await clicks.flush();
    assert.equal(errors.length, 1);
    assert.equal(clicks.backlog, 0);
    const ids = stored.map((w) => w.click.id);
    assert.equal(new Set(ids).size, 3_000, 'none twice');
    assert.deepEqual(ids, answered, 'in order');
    assert.equal(clicks.written.counted, 3_000);
  });
});
