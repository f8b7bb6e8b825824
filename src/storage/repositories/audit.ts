// The audit trail: entries are written in the transaction of the change they record (through
// writeEffects or writeAudit) and never changed after, but for the address dropped once it is
// AUDIT_ADDRESS_DAYS old; the table's triggers refuse anything else.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../database.js';
import type { AuditEntryRow, DB } from '../tables.js';
import { pageWithTotal, type Page, type PageWindow } from './pages.js';

export type NewAuditEntry = Omit<AuditEntryRow, 'id' | 'created_at'>;

export async function writeAudit(db: Transaction<DB> | Kysely<DB>, entries: readonly NewAuditEntry[], now: string): Promise<void> {
  if (entries.length === 0) return;
  await db.insertInto('audit_entries').values(entries.map((entry) => ({ ...entry, created_at: now }))).execute();
}

export interface AuditFilters {
  /** Entries about this affiliate or brand. */
  affiliateId?: string;
  brandId?: string;
  /** Entries by this user or key. */
  actorId?: string;
  actorKind?: string;
  /** An action, or all of a kind of action when it ends with `.` (e.g. `payout.`). */
  action?: string;
  from?: string;
  to?: string;
}

export class AuditRepository {
  constructor(private readonly database: Database) {}

  /** Writes entries on their own (a change with no transaction of its own, e.g. a sign-in as a member). */
  record(entries: readonly NewAuditEntry[], now: string): Promise<void> {
    return writeAudit(this.database.db, entries, now);
  }

  /** A page of entries, newest first, and the total. */
  list(f: AuditFilters, page: PageWindow): Promise<Page<AuditEntryRow>> {
    const filtered = () => {
      let q = this.database.db.selectFrom('audit_entries');
      if (f.affiliateId) q = q.where('affiliate_id', '=', f.affiliateId);
      if (f.brandId) q = q.where('brand_id', '=', f.brandId);
      if (f.actorId) q = q.where('actor_id', '=', f.actorId);
      if (f.actorKind) q = q.where('actor_kind', '=', f.actorKind as AuditEntryRow['actor_kind']);
      // A prefix compared as text, not LIKE: action names hold underscores (payout_run.).
      if (f.action) q = f.action.endsWith('.') ? q.where(sql<string>`substr(action, 1, ${f.action.length})`, '=', f.action) : q.where('action', '=', f.action);
      if (f.from) q = q.where('created_at', '>=', f.from);
      if (f.to) q = q.where('created_at', '<', f.to);
      return q;
    };
    return pageWithTotal(
      this.database,
      filtered().selectAll().orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute(),
      filtered().select((eb) => eb.fn.countAll<number>().as('n')),
    );
  }

  /** Drops the client address of entries written before `before`; the count of entries changed. */
  async dropAddressesBefore(before: string): Promise<number> {
    const result = await this.database.db.updateTable('audit_entries').set({ address: null }).where('created_at', '<', before).where('address', 'is not', null).executeTakeFirst();
    return Number(result.numUpdatedRows);
  }
}
