// While the database is away, or the writer is behind a burst, clicks wait in memory only up to
// CLICK_BUFFER_MB; past it they wait in spool files, and every one is written once the database
// takes writes again (or the writer catches up), also after a stop and a new start. The sink here is a stand-in that refuses writes while "down" and keeps
// what it is given otherwise; the spool is the real one, on disk.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClickRecorder } from '../../src/domain/links/click-recorder.js';
import { memoryRepeatFilter } from '../../src/domain/links/repeat-filter.js';
import { memoryVelocityFilter } from '../../src/domain/links/velocity-filter.js';
import { ClickSpool } from '../../src/storage/click-spool.js';
import type { ClickSink, ClickWrite } from '../../src/storage/click-sink.js';
import { batchWrites } from '../helpers/click-batches.js';
import { systemClock } from '../../src/lib/clock.js';

/** A sink that refuses every write while `down`, and otherwise keeps the clicks it is given. */
function switchableSink() {
  const state = { down: false, stored: [] as ClickWrite[] };
  const sink: ClickSink = {
    async write(batch) {
      const clicks = batchWrites(batch);
      if (state.down) throw new Error('connection refused');
      state.stored.push(...clicks);
    },
    async close() {},
  };
  return { state, sink };
}

const target = { linkId: 'l-1', affiliateId: 'aff-1', channelId: 'ch-1', brandId: 'b-1', mdasc: 'm', url: 'https://brand.example/' } as never;
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36';

function recorder(sink: ClickSink, spool: ClickSpool, maxBytes: number) {
  const errors: unknown[] = [];
  const clicks = new ClickRecorder(sink, memoryRepeatFilter(0), memoryVelocityFilter(0), { flushMs: 60_000, visitorSalt: 's', overflow: { to: spool, maxBytes } }, systemClock, (e) => errors.push(e));
  return { clicks, errors };
}

/** `n` clicks from distinct visitors, answered now. */
function answer(clicks: ClickRecorder, n: number, from = 0): void {
  for (let i = from; i < from + n; i++) clicks.clickThrough(target, { method: 'GET', ip: `10.0.${i >> 8}.${i & 255}`, userAgent: BROWSER });
}

function withDir(run: (dir: string) => Promise<void>) {
  return async () => {
    const dir = mkdtempSync(join(tmpdir(), 'affnet-spool-'));
    try {
      await run(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

const spoolFiles = (dir: string) => readdirSync(dir).filter((name) => !name.startsWith('.'));

describe('clicks waiting for the database', () => {
  test(
    'past the memory bound move to files, and are all written once when writes succeed again',
    withDir(async (dir) => {
      const { state, sink } = switchableSink();
      const { clicks } = recorder(sink, new ClickSpool(dir), 20 * 1024); // about 90 clicks
      state.down = true;
      for (let round = 0; round < 10; round++) {
        answer(clicks, 100, round * 100);
        await clicks.flush();
        assert.ok(clicks.backlog <= 200, `round ${round}: ${clicks.backlog} clicks in memory`);
      }
      assert.ok(spoolFiles(dir).length >= 3, 'the overflow is on disk');
      assert.ok(clicks.overflowed >= 700);

      state.down = false;
      answer(clicks, 1, 1000); // the next click's write succeeds: the kept ones follow, a file per flush
      for (let i = 0; i < 20 && (clicks.backlog > 0 || spoolFiles(dir).length > 0); i++) await clicks.flush();
      assert.equal(clicks.backlog, 0);
      assert.deepEqual(spoolFiles(dir), []);
      const ids = state.stored.map((w) => w.click.id);
      assert.equal(ids.length, 1001, 'every click answered is written');
      assert.equal(new Set(ids).size, 1001, 'none twice');
      assert.ok(state.stored.every((w) => w.click.visitor_hash !== '' && w.address.startsWith('10.0.')), 'written decided, with the address the writer needs');
    }),
  );

  test(
    'past the memory bound while writes succeed (a burst the writer is behind), they move to files too, and are all written once',
    withDir(async (dir) => {
      const { state, sink } = switchableSink();
      const { clicks } = recorder(sink, new ClickSpool(dir), 20 * 1024); // about 90 clicks
      answer(clicks, 60);
      await clicks.flush();
      assert.equal(clicks.overflowed, 0, 'within the bound, clicks go straight to the writer');
      assert.equal(state.stored.length, 60);

      answer(clicks, 300, 60); // more than the bound waits before the next flush
      await clicks.flush();
      assert.ok(clicks.overflowed >= 300, `moved to files although writes succeed: ${clicks.overflowed}`);
      assert.equal(clicks.backlog, 0);
      for (let i = 0; i < 20 && spoolFiles(dir).length > 0; i++) await clicks.flush();
      assert.deepEqual(spoolFiles(dir), [], 'taken back as the writer catches up');
      const moved = clicks.overflowed;
      answer(clicks, 60, 360);
      await clicks.flush();
      assert.equal(clicks.overflowed, moved, 'caught up, clicks within the bound go straight to the writer again');
      const ids = state.stored.map((w) => w.click.id);
      assert.equal(ids.length, 420, 'every click answered is written');
      assert.equal(new Set(ids).size, 420, 'none twice');
      assert.ok(state.stored.every((w) => w.click.visitor_hash !== ''), 'decided before they were moved');
    }),
  );

  test(
    'a stop while the database is away keeps the clicks in files, and the next start writes them',
    withDir(async (dir) => {
      const first = switchableSink();
      first.state.down = true;
      const before = recorder(first.sink, new ClickSpool(dir), 1024 * 1024);
      answer(before.clicks, 50);
      await before.clicks.stop(300);
      assert.equal(spoolFiles(dir).length, 1);
      assert.equal(statSync(join(dir, spoolFiles(dir)[0]!)).mode & 0o777, 0o600, 'client addresses readable by the service only');

      const second = switchableSink();
      const after = recorder(second.sink, new ClickSpool(dir), 1024 * 1024);
      await after.clicks.flush();
      assert.equal(second.state.stored.length, 50);
      assert.deepEqual(spoolFiles(dir), []);
    }),
  );

  test(
    'with no new click to try the database, kept clicks are tried again by themselves',
    withDir(async (dir) => {
      const { state, sink } = switchableSink();
      const { clicks } = recorder(sink, new ClickSpool(dir), 1);
      state.down = true;
      answer(clicks, 10);
      await clicks.flush();
      assert.equal(clicks.backlog, 0, 'moved out of memory');
      assert.equal(spoolFiles(dir).length, 1);
      state.down = false;
      await clicks.stop(10_000);
      assert.equal(state.stored.length, 10);
    }),
  );
});

describe('ClickSpool', () => {
  test(
    'gives files back oldest first, each to one taker only',
    withDir(async (dir) => {
      const a = new ClickSpool(dir);
      const write = (id: string) => ({ click: { id } as never, address: '10.0.0.1', referer: null });
      a.put([write('first')]);
      a.put([write('second')]);
      const b = new ClickSpool(dir);
      assert.equal(b.holds, true, 'files of another process are found');
      assert.equal(b.take()![0]!.click.id, 'first');
      assert.equal(a.take()![0]!.click.id, 'second');
      assert.equal(a.take(), undefined);
      assert.equal(b.take(), undefined);
      assert.equal(a.holds, false);
    }),
  );
});

describe('a spool directory that cannot be written', () => {
  test(
    'is not needed to start, and clicks then wait in memory, none lost',
    withDir(async (dir) => {
      const blocked = join(dir, 'not-a-directory');
      writeFileSync(blocked, 'a file where the directory would go');
      const { state, sink } = switchableSink();
      const { clicks, errors } = recorder(sink, new ClickSpool(join(blocked, 'spool')), 1);
      state.down = true;
      answer(clicks, 20);
      await clicks.flush();
      assert.equal(clicks.backlog, 20, 'kept in memory');
      assert.ok(errors.length >= 2, 'the write and the move are both reported');
      state.down = false;
      await clicks.flush();
      assert.equal(state.stored.length, 20);
    }),
  );
});
