// A brand's affiliate groups, which its commission rules name (conditions.affiliateGroups): the
// affiliates the brand names, and those a volume tier places by their approved orders at the
// brand in the last calendar month (UTC), recomputed when the tier is saved and when a month ends.
import type { Clock } from '../../lib/clock.js';
import type { AffiliateGroupsRepository } from '../../storage/repositories/affiliate-groups.js';
import type { ApprovalsRepository } from '../../storage/repositories/approvals.js';
import type { CommissionRulesRepository } from '../../storage/repositories/commission-rules.js';
import type { AffiliateGroupRow } from '../../storage/tables.js';
import { conflict, invalid, notFound } from '../errors.js';
import { monthOf, monthRange, previousMonth } from '../time.js';
import type { CommissionRule } from './commission-rules.js';

export const GROUP_ID = /^[a-z0-9][a-z0-9_-]{0,39}$/;
export const MAX_GROUPS = 50;
export const MAX_MEMBERS = 10_000;

export interface AffiliateGroupsRepositories {
  affiliateGroups: AffiliateGroupsRepository;
  approvals: ApprovalsRepository;
  commissionRules: CommissionRulesRepository;
}

export interface AffiliateGroupView {
  id: string;
  name: string;
  /** The affiliates the brand named. */
  members: string[];
  tier?: { minApprovedOrders: number; month?: string; members: string[] };
  createdAt: string;
  updatedAt: string;
}

export interface AffiliateGroupInput {
  name: string;
  members: string[];
  tier?: { minApprovedOrders: number };
}

export class AffiliateGroupsService {
  constructor(
    private readonly repositories: AffiliateGroupsRepositories,
    private readonly clock: Clock,
  ) {}

  /** The brand's groups, each with its named members and its tier's. */
  async list(brandId: string): Promise<AffiliateGroupView[]> {
    const groups = await this.repositories.affiliateGroups.list(brandId);
    const members = await this.repositories.affiliateGroups.members(brandId);
    return groups.map((group) => viewOf(group, members.filter((m) => m.group_id === group.id)));
  }

  /** Creates or replaces the group (true when created); its tier members are computed at once. */
  async put(brandId: string, id: string, input: AffiliateGroupInput): Promise<{ created: boolean; group: AffiliateGroupView }> {
    if (!GROUP_ID.test(id)) throw invalid('invalid_group_id', `group id "${id}" must be 1 to 40 lowercase letters, digits, - or _, starting with a letter or digit`);
    const name = input.name.trim();
    if (name.length === 0) throw invalid('invalid_group', 'name must not be empty');
    const members = [...new Set(input.members)].sort();
    if (members.length > MAX_MEMBERS) throw invalid('too_many_members', `a group has at most ${MAX_MEMBERS} named members; this one names ${members.length}`);
    const existing = await this.repositories.affiliateGroups.find(brandId, id);
    if (!existing && (await this.repositories.affiliateGroups.list(brandId)).length >= MAX_GROUPS) {
      throw invalid('too_many_groups', `a brand has at most ${MAX_GROUPS} groups; delete one first`);
    }
    if (members.length > 0) {
      const programme = new Set(await this.repositories.approvals.programmeOf(brandId));
      const unknown = members.filter((m) => !programme.has(m));
      if (unknown.length > 0) {
        const shown = unknown.slice(0, 20).map((m) => `"${m}"`).join(', ');
        throw invalid('invalid_members', `not affiliates of your programme (approved, asking, with links or orders): ${shown}${unknown.length > 20 ? ` and ${unknown.length - 20} more` : ''}`, { values: unknown.slice(0, 20) });
      }
    }
    const now = this.clock.iso();
    const tier = input.tier?.minApprovedOrders ?? null;
    const created = await this.repositories.affiliateGroups.put(
      { brand_id: brandId, id, name, tier_min_approved_orders: tier, tier_month: existing?.tier_month ?? null, created_at: existing?.created_at ?? now, updated_at: now },
      members,
    );
    const group = await this.repositories.affiliateGroups.find(brandId, id);
    await this.computeTier(group!);
    return { created, group: (await this.list(brandId)).find((g) => g.id === id)! };
  }

  /** Deletes the group, unless the brand's latest saved rules name it. */
  async delete(brandId: string, id: string): Promise<void> {
    const latest = await this.repositories.commissionRules.latest(brandId);
    const rules = latest ? (JSON.parse(latest.rules) as CommissionRule[]) : [];
    const using = rules.findIndex((rule) => rule.conditions?.affiliateGroups?.includes(id));
    if (using >= 0) throw conflict('group_in_use', `rules[${using}] of your commission rules names group "${id}": save your rules without it first`, { position: using + 1 });
    if (!(await this.repositories.affiliateGroups.delete(brandId, id))) throw notFound(`group "${id}" not found`, 'group_not_found');
  }

  /**
   * Recomputes the tier members of every group whose tier was last computed before this month:
   * idempotent, so the hourly run does the work once a month. The number recomputed.
   */
  async recomputeTiers(): Promise<number> {
    const stale = await this.repositories.affiliateGroups.staleTiers(monthOf(this.clock.iso()));
    for (const group of stale) await this.computeTier(group);
    return stale.length;
  }

  /** The group's tier members: affiliates with at least its minimum of approved orders at the brand last month. */
  private async computeTier(group: AffiliateGroupRow): Promise<void> {
    const now = this.clock.iso();
    if (group.tier_min_approved_orders === null) {
      await this.repositories.affiliateGroups.replaceTier(group.brand_id, group.id, [], null);
      return;
    }
    const { from, to } = monthRange(previousMonth(now));
    const affiliates = await this.repositories.affiliateGroups.approvedAtLeast(group.brand_id, from, to, group.tier_min_approved_orders);
    await this.repositories.affiliateGroups.replaceTier(group.brand_id, group.id, affiliates, monthOf(now));
  }
}

function viewOf(group: AffiliateGroupRow, members: Array<{ affiliate_id: string; source: string }>): AffiliateGroupView {
  return {
    id: group.id,
    name: group.name,
    members: members.filter((m) => m.source === 'member').map((m) => m.affiliate_id),
    ...(group.tier_min_approved_orders !== null && {
      tier: {
        minApprovedOrders: group.tier_min_approved_orders,
        ...(group.tier_month !== null && { month: group.tier_month }),
        members: members.filter((m) => m.source === 'tier').map((m) => m.affiliate_id),
      },
    }),
    createdAt: group.created_at,
    updatedAt: group.updated_at,
  };
}
