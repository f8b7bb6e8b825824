// A brand's commission rules, one row per saved version (never changed once written), and the
// facts of an order its rules are checked against that live elsewhere: the catalogue products of
// its items, and the kind of the channel that earned it.
import type { Database } from '../database.js';
import type { CommissionRuleVersionRow } from '../tables.js';

export class CommissionRulesRepository {
  constructor(private readonly database: Database) {}

  /** The brand's latest version; none before it saved any. */
  latest(brandId: string): Promise<CommissionRuleVersionRow | undefined> {
    return this.database.db.selectFrom('commission_rule_versions').selectAll().where('brand_id', '=', brandId).orderBy('version', 'desc').limit(1).executeTakeFirst();
  }

  find(brandId: string, version: number): Promise<CommissionRuleVersionRow | undefined> {
    return this.database.db.selectFrom('commission_rule_versions').selectAll().where('brand_id', '=', brandId).where('version', '=', version).executeTakeFirst();
  }

  /**
   * Writes the next version (the latest plus one, 1 for the first); undefined when another save
   * took that number first (the caller reads the latest again and retries).
   */
  async append(row: Omit<CommissionRuleVersionRow, 'version'>): Promise<number | undefined> {
    const latest = await this.database.db
      .selectFrom('commission_rule_versions')
      .select((eb) => eb.fn.max('version').as('version'))
      .where('brand_id', '=', row.brand_id)
      .executeTakeFirst();
    const version = Number(latest?.version ?? 0) + 1;
    const inserted = await this.database.db
      .insertInto('commission_rule_versions')
      .values({ ...row, version })
      .onConflict((oc) => oc.columns(['brand_id', 'version']).doNothing())
      .returning('version')
      .executeTakeFirst();
    return inserted?.version;
  }

  /** The options (JSON, as stored) of the brand's products with these ids. */
  productOptions(brandId: string, ids: readonly string[]): Promise<Array<{ id: string; options: string }>> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.database.db.selectFrom('products').select(['id', 'options']).where('organization_id', '=', brandId).where('id', 'in', [...ids]).execute();
  }

  /** The kind id of a channel (removed ones included). */
  async channelKind(channelId: string): Promise<string | undefined> {
    return (await this.database.db.selectFrom('affiliate_channels').select('kind_id').where('id', '=', channelId).executeTakeFirst())?.kind_id;
  }
}
