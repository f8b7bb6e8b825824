// Scheduled tasks' rows: the leased claim of the tasks due (one instance runs a task; a dead
// instance's lease runs out and another takes over) and the record of each run.
import type { Database } from '../database.js';
import type { ScheduledTaskRow } from '../tables.js';

export class ScheduledTasksRepository {
  constructor(private readonly database: Database) {}

  /** Adds the tasks not yet known, due at once. */
  async ensure(names: readonly string[], now: string): Promise<void> {
    if (names.length === 0) return;
    await this.database.db
      .insertInto('scheduled_tasks')
      .values(names.map((name) => ({ name, next_run_at: now, updated_at: now })))
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
  }

  /**
   * Claims the tasks among `names` due at `now` whose lease is free or ran out, for `owner` until
   * `leaseUntil`. One statement, so two instances never claim the same task (PostgreSQL skips rows
   * another claim has locked; SQLite has one writer at a time).
   */
  async claimDue(names: readonly string[], owner: string, now: string, leaseUntil: string): Promise<ScheduledTaskRow[]> {
    const { db, dialect } = this.database;
    let due = db
      .selectFrom('scheduled_tasks')
      .select('name')
      .where('name', 'in', names)
      .where('next_run_at', '<=', now)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]));
    // Read first: on SQLite an UPDATE takes the write lock even when it claims nothing.
    if (!(await due.executeTakeFirst())) return [];
    if (dialect === 'postgres') due = due.forUpdate().skipLocked();
    return db.updateTable('scheduled_tasks').set({ lease_owner: owner, lease_until: leaseUntil, updated_at: now }).where('name', 'in', due).returningAll().execute();
  }

  /** Records a run of a claimed task and frees it; false when the lease was lost meanwhile. */
  async recordRun(claimed: ScheduledTaskRow, run: Pick<ScheduledTaskRow, 'next_run_at' | 'failures' | 'last_error'>, now: string): Promise<boolean> {
    const result = await this.database.db
      .updateTable('scheduled_tasks')
      .set({ ...run, last_run_at: now, lease_owner: null, lease_until: null, updated_at: now })
      .where('name', '=', claimed.name)
      .where('lease_owner', '=', claimed.lease_owner)
      .where('lease_until', '=', claimed.lease_until)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  find(name: string): Promise<ScheduledTaskRow | undefined> {
    return this.database.db.selectFrom('scheduled_tasks').selectAll().where('name', '=', name).executeTakeFirst();
  }
}
