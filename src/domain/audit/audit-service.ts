// Reading the audit trail: operators search all of it; a member reads the entries about its own
// account, where an operator is named only as "operator" (never their id or address). Addresses
// are forgotten after AUDIT_ADDRESS_DAYS, the only change ever made to an entry.
import type { Clock } from '../../lib/clock.js';
import type { AuditFilters, AuditRepository } from '../../storage/repositories/audit.js';
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
}

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
    return { items: rows.map(operatorView), total };
  }

  /** The entries about one member's own account, newest first. */
  async listOf(member: { affiliateId: string } | { brandId: string }, page: PageRequest): Promise<Paged<AuditEntryView>> {
    const { rows, total } = await this.audit.list(member, offsetOf(page));
    const side = 'affiliateId' in member ? 'affiliate' : 'brand';
    return { items: rows.map((row) => memberView(row, side)), total };
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
