// Work every instance does for itself, as a queue of the job runner: the upkeep of its own
// connections (SQLite's planner statistics). Scheduled tasks run once across instances and keep
// their schedule in the database; these run in each instance, and their schedule is this
// process's: the first run a while after the start (out of the start's and its first requests'
// way), then every `everyMs`. A run that fails is tried again after the runner's growing wait,
// never later than its next regular run.
import type { Decision, JobQueue, TryResult } from './job-runner.js';
import { nextRunAt } from './scheduled-tasks.js';

export interface InstanceTask {
  name: string;
  /** From the first look for work (the runner's start) to the first run. */
  firstAfterMs: number;
  everyMs: number;
  run(): Promise<unknown>;
}

/** A task as this instance keeps it. */
export interface InstanceTaskRun {
  task: InstanceTask;
  nextAt: number;
  /** Failed runs in a row, and when the first of them was due. */
  failures: number;
  since: number;
  running: boolean;
}

export class InstanceTasks implements JobQueue<InstanceTaskRun, undefined> {
  readonly name = 'instance';
  readonly retryForMs = Infinity;
  /** Unused: nothing else claims an instance's own task. */
  readonly leaseMs = 15 * 60_000;
  readonly batch: number;
  private runs: InstanceTaskRun[] | undefined;

  constructor(private readonly tasks: readonly InstanceTask[]) {
    this.batch = tasks.length;
  }

  async claim(_owner: string, now: number): Promise<InstanceTaskRun[]> {
    this.runs ??= this.tasks.map((task) => ({ task, nextAt: now + task.firstAfterMs, failures: 0, since: now, running: false }));
    const due = this.runs.filter((run) => !run.running && run.nextAt <= now);
    for (const run of due) {
      if (run.failures === 0) run.since = run.nextAt;
      run.running = true;
    }
    return due;
  }

  history(run: InstanceTaskRun): { attempts: number; since: number } {
    return { attempts: run.failures, since: run.since };
  }

  async work(run: InstanceTaskRun): Promise<TryResult<undefined>> {
    await run.task.run();
    return { ok: true, detail: undefined };
  }

  async record(run: InstanceTaskRun, decision: Decision): Promise<boolean> {
    run.nextAt = nextRunAt(decision, run.task.everyMs);
    run.failures = decision.outcome === 'done' ? 0 : run.failures + 1;
    run.running = false;
    return true;
  }
}
