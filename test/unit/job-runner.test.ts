// The job runner's round over a queue kept in memory: every try ends before the round does, even
// when one record fails (so stop() never leaves a try running); a failed try is reported, retried
// after a growing wait, and given up after the queue's retry window.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../src/lib/clock.js';
import { JobRunner, retryDelayMs, type Decision, type JobQueue, type TryResult } from '../../src/domain/jobs/job-runner.js';

interface Item {
  id: number;
  attempts: number;
  since: number;
}

class ListQueue implements JobQueue<Item, string> {
  readonly name = 'list';
  readonly leaseMs = 60_000;
  readonly batch = 10;
  readonly retryForMs = 3_600_000;
  readonly recorded: Array<[number, Decision['outcome']]> = [];
  constructor(
    private items: Item[],
    private readonly failing: ReadonlySet<number> = new Set(),
    private readonly unrecordable: ReadonlySet<number> = new Set(),
  ) {}
  async claim(): Promise<Item[]> {
    const claimed = this.items;
    this.items = [];
    return claimed;
  }
  history(item: Item) {
    return { attempts: item.attempts, since: item.since };
  }
  async work(item: Item): Promise<TryResult<string>> {
    await new Promise((resolve) => setTimeout(resolve, 20 * item.id));
    return this.failing.has(item.id) ? { ok: false, detail: 'x', error: `item ${item.id} refused` } : { ok: true, detail: 'x' };
  }
  async record(item: Item, decision: Decision): Promise<boolean> {
    if (this.unrecordable.has(item.id)) throw new Error('the database went away');
    this.recorded.push([item.id, decision.outcome]);
    return true;
  }
}

const clock = new ManualClock('2026-03-01T00:00:00.000Z');

test('a round whose record fails still waits for its other tries, then reports the failure', async () => {
  const queue = new ListQueue([0, 1, 2].map((id) => ({ id, attempts: 0, since: clock.now() })), new Set(), new Set([0]));
  const runner = new JobRunner(clock, { instanceId: 'a', onError: () => {} }).add(queue, 0);
  await assert.rejects(runner.runOnce('list'), /1 of 3 tries could not be recorded/);
  assert.deepEqual(queue.recorded, [[1, 'done'], [2, 'done']], 'the slower tries were recorded before the round ended');
  await runner.stop();
});

test('a failed try is reported, retried after a growing wait, and given up after the retry window', async () => {
  const failures: string[] = [];
  const queue = new ListQueue([{ id: 1, attempts: 0, since: clock.now() }, { id: 2, attempts: 5, since: clock.now() - 3_600_000 }], new Set([1, 2]));
  const runner = new JobRunner(clock, { instanceId: 'a', onError: () => {}, onTryFailed: (name, error) => failures.push(`${name}: ${error}`) }).add(queue, 0);
  assert.equal(await runner.runOnce('list'), 2);
  assert.deepEqual(failures, ['list: item 1 refused', 'list: item 2 refused']);
  assert.deepEqual(queue.recorded, [[1, 'retrying'], [2, 'failed']]);
  assert.deepEqual(runner.outcomes.list, { done: 0, retrying: 1, failed: 1 });
  await assert.rejects(runner.runOnce('nothing'), /no job queue named nothing/);
});

test('retries wait 5 s doubling up to an hour, of which a random half or more', () => {
  assert.equal(retryDelayMs(1, () => 0), 2_500);
  assert.equal(retryDelayMs(1, () => 1), 5_000);
  assert.equal(retryDelayMs(2, () => 1), 10_000);
  assert.equal(retryDelayMs(30, () => 0), 1_800_000);
  assert.equal(retryDelayMs(30, () => 1), 3_600_000);
});
