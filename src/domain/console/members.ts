// The network's members as operators see them: affiliates and brands found by id or name, and one
// member with its figures over a range (clicks, orders, sales, commission, approval and decline
// rates), its people, its keys and (affiliates) its channels.
import type { Clock } from '../../lib/clock.js';
import type { AffiliatesRepository } from '../../storage/repositories/affiliates.js';
import type { BrandsRepository } from '../../storage/repositories/brands.js';
import type { Member, MembersRepository, OrderFigures } from '../../storage/repositories/members.js';
import type { RollupsRepository } from '../../storage/repositories/rollups.js';
import { keyView, type AccessService, type KeySummary } from '../access/access-service.js';
import type { UsersService, UserView } from '../access/users-service.js';
import { notFound } from '../errors.js';
import { offsetOf, type PageRequest, type Paged } from '../paging.js';
import { dayRange, rateBp } from './common.js';

export interface MemberSummary {
  id: string;
  name: string;
  createdAt: string;
  suspended: boolean;
  /** While suspended: since when, and why. */
  suspendedAt?: string;
  suspensionReason?: string;
}

const summaryOf = (row: { id: string; name: string; created_at: string; suspended_at: string | null; suspension_reason: string | null }): MemberSummary => ({
  id: row.id,
  name: row.name,
  createdAt: row.created_at,
  suspended: row.suspended_at !== null,
  ...(row.suspended_at !== null && { suspendedAt: row.suspended_at, ...(row.suspension_reason !== null && { suspensionReason: row.suspension_reason }) }),
});

export interface MemberFigures {
  /** The whole UTC days covered: `from` to `to`, both included. */
  from: string;
  to: string;
  clicks: number;
  uncountedClicks: number;
  /** Per currency: orders reported in the range, their sales and commission (not canceled), and how many were approved or canceled. */
  orders: Array<OrderFigures & { approvalRateBp: number; declineRateBp: number }>;
}

export interface MemberDetail extends MemberSummary {
  kind: 'affiliate' | 'brand';
  figures: MemberFigures;
  users: UserView[];
  keys: Array<Omit<KeySummary, 'owner' | 'revokedAt'> & { revokedAt?: string }>;
  channels?: Array<{ id: string; name: string; kind: string }>;
  /** Brands: whether affiliates see it, and its site. */
  active?: boolean;
  site?: string;
  /** Brands: the network's terms for its statements. */
  networkTerms?: { feeBasisPoints: number; dueDays: number };
}

export interface MembersConsoleRepositories {
  members: MembersRepository;
  rollups: RollupsRepository;
  affiliates: AffiliatesRepository;
  brands: BrandsRepository;
}

export class MembersConsole {
  constructor(
    private readonly repositories: MembersConsoleRepositories,
    private readonly users: UsersService,
    private readonly access: AccessService,
    private readonly clock: Clock,
  ) {}

  async list(kind: 'affiliate' | 'brand', search: string | undefined, page: PageRequest): Promise<Paged<MemberSummary>> {
    const found = kind === 'affiliate' ? await this.repositories.members.affiliates(search, offsetOf(page)) : await this.repositories.members.brands(search, offsetOf(page));
    return { items: found.rows.map(summaryOf), total: found.total };
  }

  /** One member as the search lists it. */
  async summary(kind: 'affiliate' | 'brand', id: string): Promise<MemberSummary> {
    const row = kind === 'affiliate' ? await this.repositories.members.affiliate(id) : await this.repositories.brands.find(id);
    if (!row) throw notFound(`no ${kind} ${id}`, `${kind}_not_found`);
    return summaryOf(row);
  }

  async affiliate(id: string, range: { from?: string | undefined; to?: string | undefined }): Promise<MemberDetail> {
    const row = await this.repositories.members.affiliate(id);
    if (!row) throw notFound(`no affiliate ${id}`, 'affiliate_not_found');
    const owner = { affiliateId: id };
    const channels = await this.repositories.affiliates.channelsOf(id);
    return {
      kind: 'affiliate',
      ...summaryOf(row),
      figures: await this.figures({ affiliateId: id }, range),
      users: await this.users.team(owner),
      keys: await this.keysOf(owner),
      channels: channels.map((c) => ({ id: c.id, name: c.name, kind: c.kindId })),
    };
  }

  async brand(id: string, range: { from?: string | undefined; to?: string | undefined }): Promise<MemberDetail> {
    const brand = await this.repositories.brands.find(id);
    if (!brand) throw notFound(`no brand ${id}`, 'brand_not_found');
    const owner = { brandId: id };
    return {
      kind: 'brand',
      ...summaryOf(brand),
      active: brand.active === 1,
      site: brand.site,
      networkTerms: { feeBasisPoints: brand.fee_basis_points, dueDays: brand.statement_due_days },
      figures: await this.figures({ brandId: id }, range),
      users: await this.users.team(owner),
      keys: await this.keysOf(owner),
    };
  }

  private async keysOf(owner: { affiliateId?: string; brandId?: string }) {
    return (await this.access.listApiKeys(owner)).map(keyView);
  }

  /** Counted and uncounted clicks of the member's links in [start, end), from the analytics rollups (they outlive the clicks). */
  private async clicks(member: Member, start: string, end: string): Promise<{ counted: number; uncounted: number }> {
    const rows = await this.repositories.rollups.clicksByHour({
      affiliateId: 'affiliateId' in member ? member.affiliateId : '',
      organizationId: 'brandId' in member ? member.brandId : '',
      linkId: '',
      dimension: 'all',
      from: start,
      to: end,
      days: true,
    });
    return rows.reduce((sum, r) => ({ counted: sum.counted + r.counted, uncounted: sum.uncounted + r.bots + r.heads + r.repeats + r.suspicious + r.suspended }), { counted: 0, uncounted: 0 });
  }

  /** The member's figures over whole UTC days: `from` to `to` included (default: the last 30 days). */
  async figures(member: Member, range: { from?: string | undefined; to?: string | undefined }): Promise<MemberFigures> {
    const { from, to, start, end } = dayRange(range, this.clock.now());
    const [clicks, orders] = await Promise.all([this.clicks(member, start, end), this.repositories.members.orders(member, start, end)]);
    return {
      from,
      to,
      clicks: clicks.counted,
      uncountedClicks: clicks.uncounted,
      orders: orders.map((o) => ({ ...o, approvalRateBp: rateBp(o.approved, o.orders), declineRateBp: rateBp(o.canceled, o.orders) })),
    };
  }
}
