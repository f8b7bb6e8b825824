// Scheduled tasks on the job runner, on the pass's database: a task runs every interval once
// across instances, a failed run is tried again after a growing wait and never given up, and an
// instance that dies mid-run leaves the task to another once its lease runs out.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openFixture, type StorageFixture } from './fixture.js';
import { ManualClock } from '../../src/lib/clock.js';
import { JobRunner } from '../../src/domain/jobs/job-runner.js';
import { ScheduledTasks, type ScheduledTask } from '../../src/domain/jobs/scheduled-tasks.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
let fixture: StorageFixture;
const clock = new ManualClock('2026-03-01T00:00:00.000Z');

before(async () => {
  fixture = await openFixture();
});
after(async () => {
  await fixture?.close();
});

/** An instance's runner serving `tasks`, polled only when the test says. */
function instance(id: string, tasks: ScheduledTask[], leaseMs?: number): JobRunner {
  return new JobRunner(clock, { instanceId: id, onError: (_queue, error) => assert.fail(String(error)) }).add(new ScheduledTasks(fixture.repos.scheduledTasks, tasks, leaseMs), 0);
}

test('a task runs at once when new, then every interval, once across two instances', async () => {
  let runs = 0;
  const task = { name: 'hourly-count', everyMs: HOUR, run: async () => void runs++ };
  const [a, b] = [instance('a', [task]), instance('b', [task])];
  await Promise.all([a.runOnce('scheduled'), b.runOnce('scheduled')]);
  assert.equal(runs, 1, 'due at once, run by one instance');
  clock.advance(59 * MINUTE);
  await Promise.all([a.runOnce('scheduled'), b.runOnce('scheduled')]);
  assert.equal(runs, 1, 'not due before the hour');
  clock.advance(MINUTE);
  await Promise.all([a.runOnce('scheduled'), b.runOnce('scheduled')]);
  assert.equal(runs, 2, 'due again after the hour, run once');
  assert.equal(a.outcomes.scheduled!.done + b.outcomes.scheduled!.done, 2);
  const row = await fixture.repos.scheduledTasks.find('hourly-count');
  assert.equal(row?.next_run_at, new Date(clock.now() + HOUR).toISOString());
  assert.equal(row?.lease_owner, null);
});

test('a failing run is tried again after a growing wait, never given up, and a success resets it', async () => {
  let failing = true;
  let runs = 0;
  const task = {
    name: 'flaky',
    everyMs: 6 * HOUR,
    run: async () => {
      runs++;
      if (failing) throw new Error('the feed did not answer');
    },
  };
  const runner = instance('a', [task]);
  await runner.runOnce('scheduled');
  let row = (await fixture.repos.scheduledTasks.find('flaky'))!;
  assert.equal(row.failures, 1);
  assert.equal(row.last_error, 'the feed did not answer');
  const firstWait = Date.parse(row.next_run_at) - clock.now();
  assert.ok(firstWait >= 2_500 && firstWait <= 5_000, `first retry after 2.5-5 s, not ${firstWait} ms`);
  // A day of failures: retried with waits that grow (up to an hour), never given up.
  let wait = firstWait;
  for (let i = 0; i < 30; i++) {
    clock.set(Date.parse(row.next_run_at));
    await runner.runOnce('scheduled');
    row = (await fixture.repos.scheduledTasks.find('flaky'))!;
    wait = Date.parse(row.next_run_at) - clock.now();
    assert.ok(wait <= HOUR, 'never later than an hour');
  }
  assert.ok(wait >= 30 * MINUTE, `the waits grew to half an hour or more, not ${wait} ms`);
  assert.equal(row.failures, 31);
  assert.equal(runner.outcomes.scheduled!.failed, 0, 'a scheduled task is never given up');
  assert.equal(runner.outcomes.scheduled!.retrying, 31);
  failing = false;
  clock.set(Date.parse(row.next_run_at));
  await runner.runOnce('scheduled');
  row = (await fixture.repos.scheduledTasks.find('flaky'))!;
  assert.deepEqual([row.failures, row.last_error, row.next_run_at], [0, null, new Date(clock.now() + 6 * HOUR).toISOString()]);
  assert.equal(runs, 32);
});

test("an instance that stops mid-run leaves the task to another when its lease runs out; its late record is refused", async () => {
  let release: () => void = () => {};
  const ran: string[] = [];
  const stuck = { name: 'slow', everyMs: HOUR, run: () => new Promise<void>((resolve) => ((release = resolve), ran.push('a'))) };
  const quick = { name: 'slow', everyMs: HOUR, run: async () => void ran.push('b') };
  const [a, b] = [instance('a', [stuck], 10 * MINUTE), instance('b', [quick], 10 * MINUTE)];
  const roundA = a.runOnce('scheduled');
  while (ran.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
  assert.equal(await b.runOnce('scheduled'), 0, 'held by a');
  clock.advance(10 * MINUTE + 1);
  assert.equal(await b.runOnce('scheduled'), 1, 'the lease ran out: b runs it');
  release();
  assert.equal(await roundA, 1);
  assert.deepEqual(ran, ['a', 'b']);
  assert.equal(a.outcomes.scheduled!.done, 0, "a's record came after its lease and was refused");
  const row = (await fixture.repos.scheduledTasks.find('slow'))!;
  assert.equal(row.next_run_at, new Date(clock.now() + HOUR).toISOString(), "b's run decides the next one");
});
