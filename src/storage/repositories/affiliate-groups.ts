// A brand's affiliate groups and who is in them: the members the brand names and those its volume
// tier places, the groups one affiliate is in, and the approved orders a tier counts.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../database.js';
import type { AffiliateGroupRow, AffiliateGroupsTable, DB } from '../tables.js';

/** Members are written in chunks: SQLite takes a bounded number of parameters per statement. */
const CHUNK = 500;

export interface AffiliateGroupMember {
  group_id: string;
  affiliate_id: string;
  source: 'member' | 'tier';
}

export class AffiliateGroupsRepository {
  constructor(private readonly database: Database) {}

  /** The brand's groups, by id. */
  list(brandId: string): Promise<AffiliateGroupRow[]> {
    return this.database.db.selectFrom('affiliate_groups').selectAll().where('brand_id', '=', brandId).orderBy('id').execute();
  }

  /** Everyone in the brand's groups, by group, source and affiliate. */
  members(brandId: string): Promise<AffiliateGroupMember[]> {
    return this.database.db
      .selectFrom('affiliate_group_members')
      .select(['group_id', 'affiliate_id', 'source'])
      .where('brand_id', '=', brandId)
      .orderBy('group_id')
      .orderBy('source')
      .orderBy('affiliate_id')
      .execute();
  }

  find(brandId: string, id: string): Promise<AffiliateGroupRow | undefined> {
    return this.database.db.selectFrom('affiliate_groups').selectAll().where('brand_id', '=', brandId).where('id', '=', id).executeTakeFirst();
  }

  /**
   * Creates or replaces the group and its named members (tier members are left to replaceTier);
   * true when it was created.
   */
  async put(row: AffiliateGroupsTable, members: readonly string[]): Promise<boolean> {
    return this.database.db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('affiliate_groups')
        .values(row)
        .onConflict((oc) => oc.columns(['brand_id', 'id']).doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!inserted) {
        await trx
          .updateTable('affiliate_groups')
          .set({ name: row.name, tier_min_approved_orders: row.tier_min_approved_orders, tier_month: row.tier_month, updated_at: row.updated_at })
          .where('brand_id', '=', row.brand_id)
          .where('id', '=', row.id)
          .execute();
      }
      await trx.deleteFrom('affiliate_group_members').where('brand_id', '=', row.brand_id).where('group_id', '=', row.id).where('source', '=', 'member').execute();
      await insertMembers(trx, row.brand_id, row.id, 'member', members);
      return inserted !== undefined;
    });
  }

  /** Replaces the tier members of a group and notes the month they were computed in. */
  async replaceTier(brandId: string, groupId: string, affiliates: readonly string[], month: string | null): Promise<void> {
    await this.database.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('affiliate_group_members').where('brand_id', '=', brandId).where('group_id', '=', groupId).where('source', '=', 'tier').execute();
      await insertMembers(trx, brandId, groupId, 'tier', affiliates);
      await trx.updateTable('affiliate_groups').set({ tier_month: month }).where('brand_id', '=', brandId).where('id', '=', groupId).execute();
    });
  }

  /** Deletes the group and its members; false when the brand has no such group. */
  async delete(brandId: string, id: string): Promise<boolean> {
    const result = await this.database.db.deleteFrom('affiliate_groups').where('brand_id', '=', brandId).where('id', '=', id).executeTakeFirst();
    await this.database.db.deleteFrom('affiliate_group_members').where('brand_id', '=', brandId).where('group_id', '=', id).execute();
    return Number(result.numDeletedRows) > 0;
  }

  /** The ids of the brand's groups the affiliate is in, named or by tier. */
  async groupsOf(brandId: string, affiliateId: string): Promise<string[]> {
    const rows = await this.database.db
      .selectFrom('affiliate_group_members')
      .select('group_id')
      .distinct()
      .where('brand_id', '=', brandId)
      .where('affiliate_id', '=', affiliateId)
      .orderBy('group_id')
      .execute();
    return rows.map((row) => row.group_id);
  }

  /** Groups with a tier whose members were not computed in `month` (any brand). */
  staleTiers(month: string): Promise<AffiliateGroupRow[]> {
    return this.database.db
      .selectFrom('affiliate_groups')
      .selectAll()
      .where('tier_min_approved_orders', 'is not', null)
      .where((eb) => eb.or([eb('tier_month', 'is', null), eb('tier_month', '<>', month)]))
      .orderBy('brand_id')
      .orderBy('id')
      .execute();
  }

  /** Affiliates with at least `min` approved orders at the brand created in [from, to). */
  async approvedAtLeast(brandId: string, from: string, to: string, min: number): Promise<string[]> {
    const rows = await this.database.db
      .selectFrom('orders')
      .select('affiliate_id')
      .where('organization_id', '=', brandId)
      .where('status', '=', 'approved')
      .where('created_at', '>=', from)
      .where('created_at', '<', to)
      .groupBy('affiliate_id')
      .having((eb) => eb.fn.countAll(), '>=', min)
      .orderBy('affiliate_id')
      .execute();
    return rows.map((row) => row.affiliate_id);
  }
}

async function insertMembers(trx: Transaction<DB> | Kysely<DB>, brandId: string, groupId: string, source: 'member' | 'tier', affiliates: readonly string[]): Promise<void> {
  for (let i = 0; i < affiliates.length; i += CHUNK) {
    const chunk = affiliates.slice(i, i + CHUNK).map((affiliate_id) => ({ brand_id: brandId, group_id: groupId, affiliate_id, source }));
    await trx.insertInto('affiliate_group_members').values(chunk).execute();
  }
}
