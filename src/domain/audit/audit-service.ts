// Reading the audit trail: operators search all of it; a member reads the entries about its own
// account, where an operator is named only as "operator" (never their id or address). Addresses
// are forgotten after AUDIT_ADDRESS_DAYS, the only change ever made to an entry.
import type { Clock } from '../../lib/clock.js';
import type { AuditFilters, AuditNameIds, AuditRepository } from '../../storage/repositories/audit.js';
import type { AuditEntryRow } from '../../storage/tables.js';
import { offsetOf, type PageRequest, type Paged } from '../paging.js';
import { auditEntry, type Actor, type AuditFacts } from './audit-entry.js';

const DAY_MS = 86_400_000;

/** What an operator searches the trail by. */
export type AuditSearch = AuditFilters;

export interface AuditEntryView {
  id: number;
  at: string;
  actor: { kind: AuditEntryRow['actor_kind']; id?: string; actingAs?: string };
  address?: string;
  action: string;
  subject: { kind: string; id: string };
  affiliateId?: string;
  brandId?: string;
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
  reason?: string;
  /** What people read for the ids the entry names, as they are now (absent where nothing is known). */
  names?: { actor?: string; subject?: string; affiliate?: string; brand?: string };
}

/** Which of the names' lists holds a subject of each kind. */
const SUBJECT_NAMES: Partial<Record<string, keyof AuditNameIds>> = {
  user: 'users',
  order: 'orders',
  application: 'applications',
  claim: 'claims',
  statement: 'statements',
  affiliate: 'affiliates',
  brand: 'brands',
};
const actorNames = (id: string): keyof AuditNameIds => (id.startsWith('key_') ? 'keys' : 'users');

const parsed = (text: string | null): Record<string, unknown> | undefined => (text === null ? undefined : (JSON.parse(text) as Record<string, unknown>));

/** An entry as an operator reads it: everything kept. */
export function operatorView(row: AuditEntryRow): AuditEntryView {
  const before = parsed(row.before);
  const after = parsed(row.after);
  return {
    id: Number(row.id),
    at: row.created_at,
    actor: { kind: row.actor_kind, ...(row.actor_id && { id: row.actor_id }), ...(row.acting_as && { actingAs: row.acting_as }) },
    ...(row.address && { address: row.address }),
    action: row.action,
    subject: { kind: row.subject_kind, id: row.subject_id },
    ...(row.affiliate_id && { affiliateId: row.affiliate_id }),
    ...(row.brand_id && { brandId: row.brand_id }),
    ...(before && { before }),
    ...(after && { after }),
    ...(row.reason && { reason: row.reason }),
  };
}

/**
 * An entry as a member reads it: the network's people and addresses stay the network's, and the
 * other side's keys and people stay theirs (an affiliate reads that the brand decided, not which
 * of its keys or people); only the member's own are named.
 */
function memberView(row: AuditEntryRow, side: 'affiliate' | 'brand'): AuditEntryView {
  const { address: _address, ...view } = operatorView(row);
  const ownPeople = row.actor_kind === side;
  return { ...view, actor: ownPeople && row.actor_id ? { kind: row.actor_kind, id: row.actor_id } : { kind: row.actor_kind } };
}

export class AuditService {
  constructor(
    private readonly audit: AuditRepository,
    private readonly clock: Clock,
    private readonly settings: { addressDays: number },
  ) {}

  async list(filters: AuditFilters, page: PageRequest): Promise<Paged<AuditEntryView>> {
    const { rows, total } = await this.audit.list(filters, offsetOf(page));
    return { items: await this.named(rows.map(operatorView)), total };
  }

  /** The entries about one member's own account, newest first. */
  async listOf(member: { affiliateId: string } | { brandId: string }, page: PageRequest): Promise<Paged<AuditEntryView>> {
    const { rows, total } = await this.audit.list(member, offsetOf(page));
    const side = 'affiliateId' in member ? 'affiliate' : 'brand';
    return { items: await this.named(rows.map((row) => memberView(row, side))), total };
  }

  /**
   * The entries with the names of what they name, so a page writes "ana@loja.com.br approved order
   * BC-1001 of Acme" rather than ids. Only ids the reader may see are looked up: a member's view
   * has dropped the other side's actors already.
   */
  private async named(entries: AuditEntryView[]): Promise<AuditEntryView[]> {
    if (entries.length === 0) return entries;
    const ids: { [kind in keyof AuditNameIds]: Set<string> } = { users: new Set(), keys: new Set(), orders: new Set(), applications: new Set(), claims: new Set(), statements: new Set(), affiliates: new Set(), brands: new Set() };
    for (const entry of entries) {
      if (entry.actor.id) ids[actorNames(entry.actor.id)].add(entry.actor.id);
      const subjects = SUBJECT_NAMES[entry.subject.kind];
      if (subjects) ids[subjects].add(entry.subject.id);
      if (entry.affiliateId) ids.affiliates.add(entry.affiliateId);
      if (entry.brandId) ids.brands.add(entry.brandId);
    }
    const names = await this.audit.namesOf({ users: [...ids.users], keys: [...ids.keys], orders: [...ids.orders], applications: [...ids.applications], claims: [...ids.claims], statements: [...ids.statements], affiliates: [...ids.affiliates], brands: [...ids.brands] });
    return entries.map((entry) => {
      const subjects = SUBJECT_NAMES[entry.subject.kind];
      const found = {
        actor: entry.actor.id ? names[actorNames(entry.actor.id)].get(entry.actor.id) : undefined,
        subject: subjects ? names[subjects].get(entry.subject.id) : undefined,
        affiliate: entry.affiliateId ? names.affiliates.get(entry.affiliateId) : undefined,
        brand: entry.brandId ? names.brands.get(entry.brandId) : undefined,
      };
      const known = Object.fromEntries(Object.entries(found).filter(([, name]) => name !== undefined));
      return Object.keys(known).length > 0 ? { ...entry, names: known } : entry;
    });
  }

  /** Records something done outside any other write (a "view as", a refused attempt worth keeping). */
  record(actor: Actor, facts: AuditFacts): Promise<void> {
    return this.audit.record([auditEntry(actor, facts)], this.clock.iso());
  }

  /** Forgets the addresses of entries older than AUDIT_ADDRESS_DAYS (a scheduled task); how many. */
  forgetOldAddresses(): Promise<number> {
    return this.audit.dropAddressesBefore(new Date(this.clock.now() - this.settings.addressDays * DAY_MS).toISOString());
  }
}
