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

/** The ids a page of entries names, by what they are. */
export interface AuditNameIds {
  users: readonly string[];
  keys: readonly string[];
  orders: readonly string[];
  applications: readonly string[];
  claims: readonly string[];
  statements: readonly string[];
  affiliates: readonly string[];
  brands: readonly string[];
}

/** What people read for those ids: e-mails, key names, brands' order numbers, applicants', affiliates' and brands' names, statements' months. */
export type AuditNames = { [kind in keyof AuditNameIds]: Map<string, string> };

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

  /** The names of what a page of entries names (a few small lookups by primary key, none for an empty list). */
  async namesOf(ids: AuditNameIds): Promise<AuditNames> {
    const db = this.database.db;
    const byId = async (list: readonly string[], rows: (list: string[]) => Promise<Array<{ id: string; name: string }>>) =>
      list.length === 0 ? new Map<string, string>() : new Map((await rows([...list])).map((row) => [row.id, row.name]));
    const [users, keys, orders, applications, claims, statements, affiliates, brands] = await Promise.all([
      byId(ids.users, (list) => db.selectFrom('users').select(['id', 'email as name']).where('id', 'in', list).execute()),
      byId(ids.keys, (list) => db.selectFrom('api_keys').select(['id', 'name']).where('id', 'in', list).execute()),
      byId(ids.orders, (list) => db.selectFrom('orders').select(['id', 'order_id as name']).where('id', 'in', list).execute()),
      byId(ids.applications, (list) => db.selectFrom('applications').select(['id', sql<string>`coalesce(company, name)`.as('name')]).where('id', 'in', list).execute()),
      byId(ids.claims, (list) => db.selectFrom('claims').select(['id', 'order_id as name']).where('id', 'in', list).execute()),
      byId(ids.statements, (list) => db.selectFrom('statements').select(['id', 'month as name']).where('id', 'in', list).execute()),
      byId(ids.affiliates, (list) => db.selectFrom('affiliates').select(['id', 'name']).where('id', 'in', list).execute()),
      byId(ids.brands, (list) => db.selectFrom('brands').select(['id', 'name']).where('id', 'in', list).execute()),
    ]);
    return { users, keys, orders, applications, claims, statements, affiliates, brands };
  }

  /** Drops the client address of entries written before `before`; the count of entries changed. */
  async dropAddressesBefore(before: string): Promise<number> {
    const result = await this.database.db.updateTable('audit_entries').set({ address: null }).where('created_at', '<', before).where('address', 'is not', null).executeTakeFirst();
    return Number(result.numUpdatedRows);
  }
}
