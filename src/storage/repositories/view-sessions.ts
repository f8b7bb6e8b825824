// Operators' read-only views of members: opening one (with its audit entry), finding it by its
// token, the member's open ones (their session list), and ending one from either side.
import type { Database } from '../database.js';
import type { ViewSessionRow } from '../tables.js';
import { writeAudit, type NewAuditEntry } from './audit.js';

/** The member a view is of. */
export type ViewedMember = { affiliateId: string } | { brandId: string };

export class ViewSessionsRepository {
  constructor(private readonly database: Database) {}

  /**
   * Opens a view, ending any other open view of the same operator session (a browser holds one),
   * with its audit entry, in one transaction.
   */
  async open(row: Omit<ViewSessionRow, 'ended_at' | 'ended_by'>, audit: readonly NewAuditEntry[]): Promise<void> {
    await this.database.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('view_sessions')
        .set({ ended_at: row.created_at, ended_by: 'operator' })
        .where('operator_session_id', '=', row.operator_session_id)
        .where('ended_at', 'is', null)
        .execute();
      await trx.insertInto('view_sessions').values({ ...row, ended_at: null, ended_by: null }).execute();
      await writeAudit(trx, audit, row.created_at);
    });
  }

  /** The view with this token hash, ended or not (the caller says why it no longer works). */
  find(tokenHash: string): Promise<ViewSessionRow | undefined> {
    return this.database.db.selectFrom('view_sessions').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  }

  async touch(tokenHash: string, now: string): Promise<void> {
    await this.database.db.updateTable('view_sessions').set({ last_seen_at: now }).where('token_hash', '=', tokenHash).execute();
  }

  /**
   * The member's views still open at `now` whose operator session is open too (not signed out,
   * used since `operatorSeenSince`), the most recently used first.
   */
  listOpen(member: ViewedMember, now: string, operatorSeenSince: string): Promise<ViewSessionRow[]> {
    let query = this.database.db
      .selectFrom('view_sessions as v')
      .innerJoin('sessions as s', 's.id', 'v.operator_session_id')
      .selectAll('v')
      .where('v.ended_at', 'is', null)
      .where('v.expires_at', '>', now)
      .where('s.revoked_at', 'is', null)
      .where('s.last_seen_at', '>=', operatorSeenSince);
    query = 'affiliateId' in member ? query.where('v.affiliate_id', '=', member.affiliateId) : query.where('v.brand_id', '=', member.brandId);
    return query.orderBy('v.last_seen_at', 'desc').orderBy('v.created_at', 'desc').execute();
  }

  /** Ends the member's open views with these ids (the member's people end them); how many were open. */
  async endOfMember(member: ViewedMember, ids: readonly string[], now: string): Promise<number> {
    if (ids.length === 0) return 0;
    let query = this.database.db.updateTable('view_sessions').set({ ended_at: now, ended_by: 'member' }).where('id', 'in', ids).where('ended_at', 'is', null);
    query = 'affiliateId' in member ? query.where('affiliate_id', '=', member.affiliateId) : query.where('brand_id', '=', member.brandId);
    const result = await query.executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** The operator ends the view with this token hash, opened by their session; false when it was not open. */
  async endOfOperator(tokenHash: string, operatorSessionId: string, now: string): Promise<boolean> {
    const result = await this.database.db
      .updateTable('view_sessions')
      .set({ ended_at: now, ended_by: 'operator' })
      .where('token_hash', '=', tokenHash)
      .where('operator_session_id', '=', operatorSessionId)
      .where('ended_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
