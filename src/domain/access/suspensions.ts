// The network suspends an affiliate or a brand, with a reason, and reactivates it. While an
// affiliate is suspended its links still redirect (a visitor is never stranded) but count no
// click, its conversions earn nothing and payout runs skip it; a suspended brand is out of
// affiliates' sight and its links lead to its home page, uncounted. Either's API keys, postback
// token and portal sessions are refused (403 account_suspended). Each change is audited, mailed
// to the member's owners in their language, and announced to every instance's caches.
import type { Clock } from '../../lib/clock.js';
import type { AffiliatesRepository, MemberStanding } from '../../storage/repositories/affiliates.js';
import type { BrandsRepository } from '../../storage/repositories/brands.js';
import type { UsersRepository } from '../../storage/repositories/users.js';
import type { Effects } from '../../storage/repositories/effects.js';
import { auditEntry, type Actor } from '../audit/audit-entry.js';
import { conflict, invalid, notFound } from '../errors.js';
import type { InvalidationPublisher } from '../invalidation.js';
import { mailRow } from '../mail/mail-queue.js';
import { ownersOf } from './owners.js';

/** An affiliate or a brand of the network. */
export type Member = { affiliateId: string; brandId?: undefined } | { brandId: string; affiliateId?: undefined };

/** A member's standing, as operators read it. */
export interface Standing {
  kind: 'affiliate' | 'brand';
  id: string;
  name: string;
  suspended: boolean;
  /** While suspended: since when, and why. */
  suspendedAt?: string;
  reason?: string;
}

export interface SuspensionRepositories {
  affiliates: AffiliatesRepository;
  brands: BrandsRepository;
  users: UsersRepository;
}

/** The longest reason kept (it is mailed, and shown to operators). */
export const REASON_MAX = 500;

/** A reason as given, trimmed; invalid_reason when it is empty, too long or holds control characters. */
export function checkedReason(reason: string | undefined): string {
  const text = (reason ?? '').trim();
  if (text === '') throw invalid('invalid_reason', 'give a reason: the member\'s owners are mailed it and the audit trail keeps it');
  if (text.length > REASON_MAX) throw invalid('invalid_reason', `the reason has ${text.length} characters; at most ${REASON_MAX}`);
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\u0000-\u001F\u007F]/.test(text)) throw invalid('invalid_reason', 'the reason must be one line of text, without control characters');
  return text;
}

const standingOf = (kind: Standing['kind'], row: MemberStanding): Standing => ({
  kind,
  id: row.id,
  name: row.name,
  suspended: row.suspended_at !== null,
  ...(row.suspended_at !== null && { suspendedAt: row.suspended_at }),
  ...(row.suspension_reason !== null && row.suspended_at !== null && { reason: row.suspension_reason }),
});

/** What the trail keeps of a standing: no name, which may change. */
const auditState = (standing: Standing) => ({ status: standing.suspended ? 'suspended' : 'active', ...(standing.suspendedAt && { suspendedAt: standing.suspendedAt }) });

export class SuspensionsService {
  constructor(
    private readonly repositories: SuspensionRepositories,
    private readonly clock: Clock,
    /** Tells every instance's redirect cache and key cache. */
    private readonly publisher: InvalidationPublisher,
  ) {}

  /** The member's standing; not_found when there is no such affiliate or brand. */
  async standing(member: Member): Promise<Standing> {
    const { kind, row } = await this.find(member);
    return standingOf(kind, row);
  }

  /**
   * Suspends the affiliate or brand: from now on its links count nothing (a brand's lead to its
   * home page), its conversions earn nothing, its keys and sessions are refused. conflict
   * already_suspended when it is.
   */
  async suspend(actor: Actor, member: Member, reason: string): Promise<Standing> {
    return this.change(actor, member, checkedReason(reason), true);
  }

  /** Reactivates a suspended affiliate or brand; conflict not_suspended when it is active. */
  async reactivate(actor: Actor, member: Member, reason: string): Promise<Standing> {
    return this.change(actor, member, checkedReason(reason), false);
  }

  private async change(actor: Actor, member: Member, reason: string, suspend: boolean): Promise<Standing> {
    const { kind, row } = await this.find(member);
    const before = standingOf(kind, row);
    const label = `${kind} ${row.id}`;
    if (suspend && before.suspended) throw conflict('already_suspended', `${label} is suspended already (since ${before.suspendedAt}): reactivate it first to suspend it again`);
    if (!suspend && !before.suspended) throw conflict('not_suspended', `${label} is not suspended: there is nothing to reactivate`);
    const now = this.clock.iso();
    const next = suspend ? { suspended_at: now, suspension_reason: reason } : { suspended_at: null, suspension_reason: null };
    const after = standingOf(kind, { ...row, ...next });
    const effects: Effects = {
      audit: [
        auditEntry(actor, {
          action: `${kind}.${suspend ? 'suspended' : 'reactivated'}`,
          subject: { kind, id: row.id },
          members: kind === 'affiliate' ? { affiliateId: row.id } : { brandId: row.id },
          before: auditState(before),
          after: auditState(after),
          reason,
        }),
      ],
      mail: await this.ownersMail(member, suspend ? 'account-suspended' : 'account-reactivated', { account: row.name, kind, reason, when: now }),
    };
    const repository = kind === 'affiliate' ? this.repositories.affiliates : this.repositories.brands;
    if (!(await repository.setSuspension(row.id, next, now, effects))) {
      throw conflict('concurrent_update', `${label} was suspended or reactivated by someone else meanwhile: read its standing again`);
    }
    await this.publisher.publish({ kind: 'suspension', ...(kind === 'affiliate' ? { affiliateId: row.id } : { brandId: row.id }) });
    return after;
  }

  private async find(member: Member): Promise<{ kind: Standing['kind']; row: MemberStanding }> {
    if (member.affiliateId !== undefined) {
      const row = await this.repositories.affiliates.standingOf(member.affiliateId);
      if (!row) throw notFound(`affiliate "${member.affiliateId}" not found`, 'affiliate_not_found');
      return { kind: 'affiliate', row };
    }
    const row = await this.repositories.brands.standingOf(member.brandId);
    if (!row) throw notFound(`brand "${member.brandId}" not found`, 'brand_not_found');
    return { kind: 'brand', row };
  }

  private async ownersMail(member: Member, template: 'account-suspended' | 'account-reactivated', values: { account: string; kind: Standing['kind']; reason: string; when: string }) {
    const owners = await ownersOf(this.repositories.users, member.affiliateId !== undefined ? { affiliateId: member.affiliateId } : { brandId: member.brandId });
    return owners.map((owner) => mailRow({ to: owner.email, template, locale: owner.language ?? 'en', values }));
  }
}
