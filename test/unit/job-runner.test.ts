// The job runner over queues kept in memory: every try ends before runOnce does, even when one
// record fails (so stop() never leaves a try running); a failed try is reported, retried after a
// growing wait, and given up after the queue's retry window; a slow item holds one worker while
// the others are claimed and worked as the rest end, never more at once than the queue's batch.
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

/** Items the test lets finish one by one: each try waits for its item's gate to open. */
class GatedQueue implements JobQueue<string, undefined> {
  readonly name = 'gated';
  readonly leaseMs = 60_000;
  readonly retryForMs = 3_600_000;
  readonly due: string[] = [];
  readonly started: string[] = [];
  readonly recorded: string[] = [];
  /** How many tries were under way at most at once. */
  mostAtOnce = 0;
  private underWay = 0;
  private readonly gates = new Map<string, () => void>();
  private readonly opened = new Set<string>();
  constructor(readonly batch: number) {}
  async claim(_owner: string, _now: number, _leaseUntil: number, limit: number): Promise<string[]> {
    return this.due.splice(0, limit);
  }
  history() {
    return { attempts: 0, since: clock.now() };
  }
  async work(item: string): Promise<TryResult<undefined>> {
    this.started.push(item);
    this.mostAtOnce = Math.max(this.mostAtOnce, ++this.underWay);
    if (!this.opened.has(item)) await new Promise<void>((resolve) => this.gates.set(item, resolve));
    this.underWay--;
    return { ok: true, detail: undefined };
  }
  async record(item: string): Promise<boolean> {
    this.recorded.push(item);
    return true;
  }
  /** Lets `item` finish, now or as soon as it starts. */
  open(item: string): void {
    this.opened.add(item);
    this.gates.get(item)?.();
  }
}

/** Waits until `ready()` holds (the runner works on its own time), failing after 10 s. */
async function until(ready: () => boolean): Promise<void> {
  for (const deadline = Date.now() + 10_000; !ready(); await new Promise((resolve) => setTimeout(resolve, 5))) {
    if (Date.now() > deadline) assert.fail('the runner never got there');
  }
}

test('a slow item holds one worker: the items after it are claimed and worked as the others end, never more at once than the batch', async () => {
  const queue = new GatedQueue(2);
  queue.due.push('slow', 'a', 'b', 'c', 'd');
  for (const item of ['a', 'b', 'c', 'd']) queue.open(item);
  const runner = new JobRunner(clock, { instanceId: 'a', onError: () => {} }).add(queue, 0);
  const running = runner.runOnce('gated');
  await until(() => queue.recorded.length === 4);
  assert.deepEqual(queue.recorded, ['a', 'b', 'c', 'd'], 'all four done while the slow one still runs');
  assert.equal(queue.mostAtOnce, 2);
  queue.open('slow');
  assert.equal(await running, 5);
  assert.deepEqual(queue.recorded, ['a', 'b', 'c', 'd', 'slow']);
  assert.deepEqual(runner.outcomes.gated, { done: 5, retrying: 0, failed: 0 });
});

test('runOnce while a slow try is under way works what became due meanwhile without waiting for it', async () => {
  const queue = new GatedQueue(4);
  queue.due.push('slow');
  const runner = new JobRunner(clock, { instanceId: 'a', onError: () => {} }).add(queue, 0);
  const first = runner.runOnce('gated');
  await until(() => queue.started.includes('slow'));
  queue.due.push('new');
  queue.open('new');
  assert.equal(await runner.runOnce('gated'), 1);
  assert.deepEqual(queue.recorded, ['new'], 'recorded while the slow one still runs');
  queue.open('slow');
  assert.equal(await first, 1);
  assert.deepEqual(queue.recorded, ['new', 'slow']);
});

test('started, a freed worker claims again at once, not at the next poll; stop() waits for the try under way', async () => {
  const queue = new GatedQueue(2);
  queue.due.push('slow', 'a', 'b');
  queue.open('a');
  queue.open('b');
  // Polled once an hour: only a freed worker's claim can take b before the test ends.
  const runner = new JobRunner(clock, { instanceId: 'a', onError: (_queue, error) => assert.fail(String(error)) }).add(queue, 3_600_000);
  runner.start();
  await until(() => queue.recorded.length === 2);
  assert.deepEqual(queue.recorded, ['a', 'b']);
  let stopped = false;
  const stopping = runner.stop().then(() => (stopped = true));
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(stopped, false, 'the slow try is still under way');
  queue.open('slow');
  await stopping;
  assert.deepEqual(queue.recorded, ['a', 'b', 'slow']);
});

test('retries wait 5 s doubling up to an hour, of which a random half or more', () => {
  assert.equal(retryDelayMs(1, () => 0), 2_500);
  assert.equal(retryDelayMs(1, () => 1), 5_000);
  assert.equal(retryDelayMs(2, () => 1), 10_000);
  assert.equal(retryDelayMs(30, () => 0), 1_800_000);
  assert.equal(retryDelayMs(30, () => 1), 3_600_000);
});
