// The mail queue: messages written in the caller's transaction, the leased claim of those due (one
// instance sends a message), and the record of each attempt.
import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../database.js';
import type { DB, MailMessageRow, NewMailMessage } from '../tables.js';

/** Queues messages inside the caller's transaction (or straight away on `db`): stored with what caused them, or not at all. */
export async function writeMail(db: Transaction<DB> | Kysely<DB>, messages: readonly NewMailMessage[], now: string): Promise<void> {
  if (messages.length === 0) return;
  await db
    .insertInto('mail_messages')
    .values(messages.map((message) => ({ ...message, id: randomUUID(), status: 'pending', attempts: 0, next_attempt_at: now, lease_owner: null, lease_until: null, last_error: null, created_at: now, sent_at: null, updated_at: now })))
    .execute();
}

export class MailRepository {
  constructor(private readonly database: Database) {}

  queue(messages: readonly NewMailMessage[], now: string): Promise<void> {
    return writeMail(this.database.db, messages, now);
  }

  /**
   * Claims up to `limit` pending messages due at `now` whose lease is free or ran out, for `owner`
   * until `leaseUntil`. One statement, so two instances never claim the same message (PostgreSQL
   * skips rows another claim has locked; SQLite has one writer at a time).
   */
  async claimDue(owner: string, now: string, leaseUntil: string, limit: number): Promise<MailMessageRow[]> {
    const { db, dialect } = this.database;
    let due = db
      .selectFrom('mail_messages')
      .select('id')
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
      .orderBy('next_attempt_at')
      .limit(limit);
    // Read first: on SQLite an UPDATE takes the write lock even when it claims nothing.
    if (!(await due.executeTakeFirst())) return [];
    if (dialect === 'postgres') due = due.forUpdate().skipLocked();
    return db.updateTable('mail_messages').set({ lease_owner: owner, lease_until: leaseUntil, updated_at: now }).where('id', 'in', due).returningAll().execute();
  }

  /** Records an attempt of a claimed message and frees it; false when the lease was lost meanwhile. */
  async recordAttempt(claimed: MailMessageRow, changes: Pick<MailMessageRow, 'status' | 'next_attempt_at' | 'last_error' | 'params' | 'sent_at'>, now: string): Promise<boolean> {
    const result = await this.database.db
      .updateTable('mail_messages')
      .set({ ...changes, attempts: claimed.attempts + 1, lease_owner: null, lease_until: null, updated_at: now })
      .where('id', '=', claimed.id)
      .where('lease_owner', '=', claimed.lease_owner)
      .where('lease_until', '=', claimed.lease_until)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Nothing to prepare: the queue is not kept in months. */
  async prepareMonths(): Promise<void> {}

  async dropMonthsEndedBy(): Promise<number> {
    return 0;
  }

  /** Deletes at most `limit` messages over (sent, failed, canceled) queued before `cutoff`, oldest first. */
  async pruneOlderThan(cutoff: number, limit: number): Promise<number> {
    const { db } = this.database;
    const result = await db
      .deleteFrom('mail_messages')
      .where('id', 'in', db.selectFrom('mail_messages').select('id').where('status', '!=', 'pending').where('created_at', '<', new Date(cutoff).toISOString()).orderBy('created_at').limit(limit))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  find(id: string): Promise<MailMessageRow | undefined> {
    return this.database.db.selectFrom('mail_messages').selectAll().where('id', '=', id).executeTakeFirst();
  }
}
