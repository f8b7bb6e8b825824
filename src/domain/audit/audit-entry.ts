// One line of the audit trail, as the services write it: who acted (and as whom), from which
// address, what they did to what, the state before and after. Secrets never reach the trail:
// any field whose name says it holds one is masked before the entry is written, whatever the
// caller passed.
import type { NewAuditEntry } from '../../storage/repositories/audit.js';

/** Who did something. */
export type Actor =
  | { kind: 'operator'; userId: string; address?: string | undefined; actingAs?: string | undefined }
  | { kind: 'brand'; brandId: string; /** the key or user that called */ id: string; address?: string | undefined }
  | { kind: 'affiliate'; affiliateId: string; id: string; address?: string | undefined }
  /** Scheduled work: a lock, an auto-accepted claim. */
  | { kind: 'network' }
  /** A command on the server. */
  | { kind: 'cli' };

export const NETWORK: Actor = { kind: 'network' };
export const CLI: Actor = { kind: 'cli' };

/**
 * A brand's decision: the brand, the key (key_…) or person (usr_… from a portal session's
 * user:usr_…) that called, from where; `demo` for the demo data's own decisions, which come with
 * no credential.
 */
export function brandActor(caller: { brandId: string; keyId?: string | undefined; address?: string | undefined }): Actor {
  return { kind: 'brand', brandId: caller.brandId, id: caller.keyId?.replace(/^user:/, '') ?? 'demo', address: caller.address };
}

/** The accounts an entry is about: each reads it in its portal. */
export interface AuditMembers {
  affiliateId?: string | undefined;
  brandId?: string | undefined;
}

export interface AuditFacts {
  action: string;
  subject: { kind: string; id: string };
  members?: AuditMembers;
  before?: object | undefined;
  after?: object | undefined;
  reason?: string | undefined;
}

/** Field names that hold secrets or payee details: their values are masked in the trail. */
const SECRET_FIELD = /password|secret|token|apikey|^key$|iban|account|pix|taxid|document|recovery|code$/i;
const MASK = '•••';

/** A copy of `value` with every secret field's value masked, at any depth. */
export function maskSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskSecrets);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([name, field]) => [name, SECRET_FIELD.test(name) && field !== null && typeof field !== 'boolean' ? MASK : maskSecrets(field)]));
}

/** How a record's `by` names an actor: the operator's user id, `cli`, `network`, or the side. */
export const actorName = (actor: Actor): string => (actor.kind === 'operator' ? actor.userId : actor.kind);

const actorId = (actor: Actor): string | null => {
  switch (actor.kind) {
    case 'operator':
      return actor.userId;
    case 'brand':
    case 'affiliate':
      return actor.id;
    default:
      return null;
  }
};

/** The entry recording `facts` done by `actor`. */
export function auditEntry(actor: Actor, facts: AuditFacts): NewAuditEntry {
  const members = {
    affiliateId: facts.members?.affiliateId ?? (actor.kind === 'affiliate' ? actor.affiliateId : undefined),
    brandId: facts.members?.brandId ?? (actor.kind === 'brand' ? actor.brandId : undefined),
  };
  return {
    actor_kind: actor.kind,
    actor_id: actorId(actor),
    acting_as: actor.kind === 'operator' ? (actor.actingAs ?? null) : null,
    address: 'address' in actor ? (actor.address ?? null) : null,
    action: facts.action,
    subject_kind: facts.subject.kind,
    subject_id: facts.subject.id,
    affiliate_id: members.affiliateId ?? null,
    brand_id: members.brandId ?? null,
    before: facts.before === undefined ? null : JSON.stringify(maskSecrets(facts.before)),
    after: facts.after === undefined ? null : JSON.stringify(maskSecrets(facts.after)),
    reason: facts.reason ?? null,
  };
}
