// Private brands decide who promotes them: an affiliate asks (the brand hears of it through its
// webhook), the brand approves or withdraws the approval. An affiliate that loses it sees the
// brand no more, gets the approval message on its channels, and its links stop redirecting within
// seconds on every instance (the redirect checks approval; the caches are told, or poll).
import { ownersOf } from './owners.js';
import type { Clock } from '../../lib/clock.js';
import type { AffiliatesRepository } from '../../storage/repositories/affiliates.js';
import type { ApprovalsRepository, PromotingAffiliate } from '../../storage/repositories/approvals.js';
import type { BrandsRepository } from '../../storage/repositories/brands.js';
import type { UsersRepository } from '../../storage/repositories/users.js';
import { mailRow } from '../mail/mail-queue.js';
import { conflict, notFound } from '../errors.js';
import type { InvalidationPublisher } from '../invalidation.js';
import { offsetOf, type PageRequest, type Paged } from '../paging.js';
import { webhookEvent } from '../webhooks/events.js';
import { requireAffiliate } from './require.js';
import { auditEntry, brandActor } from '../audit/audit-entry.js';

export interface ApprovalRepositories {
  affiliates: AffiliatesRepository;
  approvals: ApprovalsRepository;
  brands: BrandsRepository;
  users: UsersRepository;
}

/** Where an affiliate stands with a brand. */
export interface ApprovalState {
  brandId: string;
  status: 'approved' | 'pending' | 'declined';
  requestedAt?: string;
}

/** An affiliate as the brand sees it. */
export interface Promoter {
  affiliateId: string;
  name: string;
  /** approved; pending (asked, not answered); declined; none (promotes a public brand without approval) */
  approval: 'approved' | 'pending' | 'declined' | 'none';
  approvedAt?: string;
  requestedAt?: string;
  clicks: number;
  orders: number;
  sales: number;
  commission: number;
}

function promoterOf(row: PromotingAffiliate): Promoter {
  const approval = row.approved_at !== null ? 'approved' : ((row.request_status as 'pending' | 'declined' | null) ?? 'none');
  return {
    affiliateId: row.affiliate_id,
    name: row.name,
    approval,
    ...(row.approved_at !== null && { approvedAt: row.approved_at }),
    ...(row.requested_at !== null && { requestedAt: row.requested_at }),
    clicks: row.clicks,
    orders: row.orders,
    sales: row.sales,
    commission: row.commission,
  };
}

export class ApprovalsService {
  constructor(
    private readonly repositories: ApprovalRepositories,
    private readonly clock: Clock,
    /** Tells every instance's redirect cache that a brand's links changed. */
    private readonly publisher: InvalidationPublisher,
    private readonly publicUrl: string,
  ) {}

  /**
   * An affiliate asks to promote a private brand: pending until the brand answers (asking again
   * after a decline asks again). A public brand needs no approval (409); an approved affiliate is
   * answered that it is.
   */
  async request(affiliateId: string, brandId: string): Promise<{ created: boolean; state: ApprovalState }> {
    const { brands, approvals, affiliates } = this.repositories;
    const brand = await brands.find(brandId);
    // A suspended brand is out of affiliates' sight: it answers as an unknown one.
    if (!brand || brand.suspended_at !== null) throw notFound('Brand not found');
    if (brand.is_public === 1) throw conflict('approval_not_needed', 'this brand is public: every affiliate may promote it without approval');
    if (await brands.isApproved(affiliateId, brandId)) return { created: false, state: { brandId, status: 'approved' } };
    const existing = await approvals.findRequest(affiliateId, brandId);
    if (existing?.status === 'pending') return { created: false, state: { brandId, status: 'pending', requestedAt: existing.created_at } };
    const now = this.clock.iso();
    const name = (await affiliates.nameOf(affiliateId)) ?? affiliateId;
    const event = webhookEvent({ kind: 'brand', id: brandId }, 'affiliate.approval.requested', { affiliateId, affiliateName: name, requestedAt: now }, this.clock);
    const row = await approvals.request({ affiliate_id: affiliateId, brand_id: brandId, status: 'pending', message: '', created_at: existing?.created_at ?? now, updated_at: now }, [event]);
    return { created: true, state: { brandId, status: 'pending', requestedAt: row.created_at } };
  }

  /**
   * The brand's affiliates with their orders, sales and commission of orders created in the range.
   * A search also finds, for a public brand, any active affiliate of the network (each may promote
   * it, and be given a code); a private brand finds only its own.
   */
  async promoters(brandId: string, range: { from?: string; to?: string }, filter: { status?: 'approved' | 'pending' | undefined; search?: string | undefined }, page: PageRequest): Promise<Paged<Promoter>> {
    const network = filter.search !== undefined && (await this.repositories.brands.find(brandId))?.is_public === 1;
    const { rows, total } = await this.repositories.approvals.promoters(brandId, range, { ...filter, network }, offsetOf(page));
    return { items: rows.map(promoterOf), total };
  }

  /**
   * The brand approves the affiliate (answering its request, if any); the affiliate's owners are
   * mailed, and the decision is audited under `caller` (the key or person, from where), unless the
   * affiliate was approved already.
   */
  async approve(brandId: string, affiliateId: string, caller: { keyId?: string; address?: string } = {}): Promise<void> {
    await requireAffiliate(this.repositories.affiliates, affiliateId);
    const brand = await this.repositories.brands.find(brandId);
    const owners = await ownersOf(this.repositories.users, { affiliateId });
    const mail = owners.map((owner) =>
      mailRow({ to: owner.email, template: 'brand-approved', locale: owner.language ?? 'en', values: { account: brand?.name ?? brandId, url: `${this.publicUrl}/app/brands` } }),
    );
    const audit = (request: string | null) => [approvalEntry({ ...caller, brandId }, affiliateId, 'approval.granted', request ?? 'none', 'approved')];
    await this.repositories.approvals.approve(affiliateId, brandId, this.clock.iso(), mail, audit);
    await this.publisher.publish({ kind: 'brand', id: brandId });
  }

  /** The brand withdraws its approval, or declines the request (audited under `caller`); not_found when there was neither. */
  async revoke(brandId: string, affiliateId: string, caller: { keyId?: string; address?: string } = {}): Promise<void> {
    const audit = (was: 'approved' | 'pending') => [
      was === 'approved' ? approvalEntry({ ...caller, brandId }, affiliateId, 'approval.withdrawn', 'approved', 'none') : approvalEntry({ ...caller, brandId }, affiliateId, 'approval.declined', 'pending', 'declined'),
    ];
    if (!(await this.repositories.approvals.revoke(affiliateId, brandId, this.clock.iso(), audit))) {
      throw notFound(`affiliate "${affiliateId}" is neither approved for nor asking to promote your brand`, 'approval_not_found');
    }
    await this.publisher.publish({ kind: 'brand', id: brandId });
  }
}

/** A private brand's decision on an affiliate, as the audit trail keeps it: the approval before and after. */
function approvalEntry(caller: { brandId: string; keyId?: string; address?: string }, affiliateId: string, action: string, before: string, after: string) {
  return auditEntry(brandActor(caller), {
    action,
    subject: { kind: 'affiliate', id: affiliateId },
    members: { affiliateId, brandId: caller.brandId },
    before: { approval: before },
    after: { approval: after },
  });
}
