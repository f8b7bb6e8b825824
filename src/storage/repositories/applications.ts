// Applications to join (affiliates' sign-ups, brands' applications): the SQL behind them. Every
// change of status is one transaction with what it makes (the affiliate or brand, its owner, a
// first channel) and the mail that tells the person, and happens only from the status expected,
// so two operators (or a retried command) never decide one application twice.
import type { Insertable, Transaction } from 'kysely';
import type { Database } from '../database.js';
import type { AffiliateChannelsTable, ApplicationRow, BrandsTable, DB, NewMailMessage, UserRow } from '../tables.js';
import { writeMail } from './mail.js';
import { writeEffects, type Effects } from './effects.js';
import { pageWithTotal, type Page, type PageWindow } from './pages.js';

export type ApplicationKind = ApplicationRow['kind'];
export type ApplicationStatus = ApplicationRow['status'];

/** What approving makes, besides the application's own change. */
export interface Approval {
  affiliate?: { id: string; name: string; created_at: string };
  channel?: Insertable<AffiliateChannelsTable>;
  brand?: Insertable<BrandsTable>;
  owner: UserRow;
}

export class ApplicationsRepository {
  constructor(private readonly database: Database) {}

  /**
   * Stores a new application with its verification mail; an unverified one of the same address and
   * kind (a second try, a typo fixed) is replaced by it.
   */
  async submit(row: ApplicationRow, mail: readonly NewMailMessage[]): Promise<void> {
    await this.database.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('applications').where('email', '=', row.email).where('kind', '=', row.kind).where('status', '=', 'unverified').execute();
      await trx.insertInto('applications').values(row).execute();
      await writeMail(trx, mail, row.created_at);
    });
  }

  /** The application of this address and kind that is not decided yet, if any. */
  findOpen(email: string, kind: ApplicationKind): Promise<ApplicationRow | undefined> {
    return this.database.db.selectFrom('applications').selectAll().where('email', '=', email).where('kind', '=', kind).where('status', 'in', ['unverified', 'pending']).executeTakeFirst();
  }

  find(id: string): Promise<ApplicationRow | undefined> {
    return this.database.db.selectFrom('applications').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Applications, oldest first (the order they are looked at), of one status and kind when given. */
  list(filters: { status?: ApplicationStatus; kind?: ApplicationKind }, limit: number): Promise<ApplicationRow[]> {
    let query = this.database.db.selectFrom('applications').selectAll();
    if (filters.status) query = query.where('status', '=', filters.status);
    if (filters.kind) query = query.where('kind', '=', filters.kind);
    return query.orderBy('created_at').orderBy('id').limit(limit).execute();
  }

  /** A page of applications: pending ones the oldest waiting first, the others the newest first. */
  page(filters: { status?: ApplicationStatus | undefined; kind?: ApplicationKind | undefined }, page: PageWindow): Promise<Page<ApplicationRow>> {
    const q = () => {
      let query = this.database.db.selectFrom('applications');
      if (filters.status) query = query.where('status', '=', filters.status);
      if (filters.kind) query = query.where('kind', '=', filters.kind);
      return query;
    };
    const order = filters.status === 'pending' ? 'asc' : 'desc';
    return pageWithTotal(
      this.database,
      q().selectAll().orderBy('created_at', order).orderBy('id', order).limit(page.limit).offset(page.offset).execute(),
      q().select((eb) => eb.fn.countAll<number>().as('n')),
    );
  }

  /** Sends queued mail for an application outside a change of status (a reminder). */
  async queueMail(mail: readonly NewMailMessage[], now: string): Promise<void> {
    await writeMail(this.database.db, mail, now);
  }

  /** Gives an unverified application a new verification token (the previous one stops working); false when it is verified or gone. */
  async setVerifyToken(id: string, tokenHash: string, expiresAt: string, now: string): Promise<boolean> {
    const result = await this.database.db
      .updateTable('applications')
      .set({ verify_token_hash: tokenHash, verify_expires_at: expiresAt, updated_at: now })
      .where('id', '=', id)
      .where('status', '=', 'unverified')
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /**
   * Confirms the address of the application whose live token this is: it becomes pending (the
   * token is used up), with the mail `mail` makes for it; undefined when the token is unknown,
   * used or expired.
   */
  verify(tokenHash: string, now: string, mail: (row: ApplicationRow) => NewMailMessage[]): Promise<ApplicationRow | undefined> {
    return this.database.db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable('applications')
        .set({ status: 'pending', verify_token_hash: null, verify_expires_at: null, verified_at: now, updated_at: now })
        .where('verify_token_hash', '=', tokenHash)
        .where('status', '=', 'unverified')
        .where('verify_expires_at', '>', now)
        .returningAll()
        .executeTakeFirst();
      if (row) await writeMail(trx, mail(row), now);
      return row;
    });
  }

  /**
   * Approves a pending application: creates what `approval` holds and writes `effects`, all or
   * nothing; false when the application is no longer pending.
   */
  approve(id: string, approval: Approval, by: string, effects: Effects, now: string): Promise<boolean> {
    return this.database.db.transaction().execute(async (trx) => {
      const decided = await this.decide(trx, id, { status: 'approved', decided_by: by, affiliate_id: approval.affiliate?.id ?? null, brand_id: approval.brand?.id ?? null }, now);
      if (!decided) return false;
      if (approval.affiliate) await trx.insertInto('affiliates').values(approval.affiliate).execute();
      if (approval.brand) await trx.insertInto('brands').values(approval.brand).execute();
      await trx.insertInto('users').values(approval.owner).execute();
      if (approval.channel) await trx.insertInto('affiliate_channels').values(approval.channel).execute();
      await writeEffects(trx, effects, now);
      return true;
    });
  }

  /** Declines a pending application with its reason, and writes `effects` (its mail, its audit entry); false when it is no longer pending. */
  decline(id: string, reason: string, by: string, effects: Effects, now: string): Promise<boolean> {
    return this.database.db.transaction().execute(async (trx) => {
      const decided = await this.decide(trx, id, { status: 'declined', decided_by: by, decline_reason: reason }, now);
      if (decided) await writeEffects(trx, effects, now);
      return decided;
    });
  }

  /** Moves a pending application to its decision; the chosen password is dropped either way. */
  private async decide(trx: Transaction<DB>, id: string, changes: Partial<ApplicationRow>, now: string): Promise<boolean> {
    const result = await trx
      .updateTable('applications')
      .set({ ...changes, password_hash: null, decided_at: now, updated_at: now })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async prepareMonths(): Promise<void> {}

  async dropMonthsEndedBy(): Promise<number> {
    return 0;
  }

  /** Deletes at most `limit` applications never confirmed, made before `cutoff`, oldest first (their links are long dead). */
  async pruneOlderThan(cutoff: number, limit: number): Promise<number> {
    const { db } = this.database;
    const result = await db
      .deleteFrom('applications')
      .where('id', 'in', db.selectFrom('applications').select('id').where('status', '=', 'unverified').where('created_at', '<', new Date(cutoff).toISOString()).orderBy('created_at').limit(limit))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
