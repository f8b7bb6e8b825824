// Work that recurs (retention today; lock dates, statements, feeds later) as a queue of the job
// runner: each task runs every `everyMs`, once across instances. A run that fails is tried again
// after the runner's growing wait (never later than its next regular run), and never given up.
import type { ScheduledTasksRepository } from '../../storage/repositories/scheduled-tasks.js';
import type { ScheduledTaskRow } from '../../storage/tables.js';
import type { Decision, JobQueue, TryResult } from './job-runner.js';
import { isoOf as iso } from '../time.js';

export interface ScheduledTask {
  /** Unique across the installation: the task's row is found by it. */
  name: string;
  everyMs: number;
  run(): Promise<unknown>;
}

export class ScheduledTasks implements JobQueue<ScheduledTaskRow, undefined> {
  readonly name = 'scheduled';
  readonly retryForMs = Infinity;
  readonly batch: number;
  private readonly tasks: Map<string, ScheduledTask>;
  private known = false;

  constructor(
    private readonly rows: ScheduledTasksRepository,
    tasks: readonly ScheduledTask[],
    /** Longer than a run can take; a run past it may be started again by another instance. */
    readonly leaseMs = 15 * 60_000,
  ) {
    this.tasks = new Map(tasks.map((task) => [task.name, task]));
    this.batch = tasks.length;
  }

  /** Every due task, whatever the runner's free workers: it has one per task, and a task under way holds its lease. */
  async claim(owner: string, now: number, leaseUntil: number): Promise<ScheduledTaskRow[]> {
    const names = [...this.tasks.keys()];
    // A task new to the installation is due at once; after that only due rows are read.
    if (!this.known) await this.rows.ensure(names, iso(now));
    this.known = true;
    return this.rows.claimDue(names, owner, iso(now), iso(leaseUntil));
  }

  history(row: ScheduledTaskRow): { attempts: number; since: number } {
    return { attempts: row.failures, since: Date.parse(row.next_run_at) };
  }

  async work(row: ScheduledTaskRow): Promise<TryResult<undefined>> {
    await this.tasks.get(row.name)!.run();
    return { ok: true, detail: undefined };
  }

  record(row: ScheduledTaskRow, decision: Decision): Promise<boolean> {
    const done = decision.outcome === 'done';
    return this.rows.recordRun(
      row,
      { next_run_at: iso(nextRunAt(decision, this.tasks.get(row.name)!.everyMs)), failures: done ? 0 : row.failures + 1, last_error: decision.error ?? null },
      iso(decision.now),
    );
  }
}

/** When a recurring task runs next: its regular time after a run that was done, the runner's retry (never later) after one that failed. */
export function nextRunAt(decision: Decision, everyMs: number): number {
  const regular = decision.now + everyMs;
  return decision.outcome === 'done' ? regular : Math.min(decision.nextAt, regular);
}
