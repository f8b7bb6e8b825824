// A brand's commission rules, one row per saved version (never changed once written), and the
// facts of an order its rules are checked against that live elsewhere: the catalogue products of
// its items, and the kind of the channel that earned it.
import type { ExpressionBuilder } from 'kysely';
import type { Database } from '../database.js';
import type { BrandsTable, CommissionRuleVersionRow, CommissionRuleVersionsTable, DB } from '../tables.js';
import { writeEffects, type Effects } from './effects.js';

type WithVersion = DB & { v: CommissionRuleVersionsTable };

/** The later versions (as `w`) of the brand of the version `v`, for both queries that ask whether a later one replaced `v`. */
const laterVersionOf = (eb: ExpressionBuilder<WithVersion, 'v'>) =>
  eb.selectFrom('commission_rule_versions as w').select('w.version').whereRef('w.brand_id', '=', 'v.brand_id').whereRef('w.version', '>', 'v.version');

export class CommissionRulesRepository {
  constructor(private readonly database: Database) {}

  /** The brand's latest version; none before it saved any. */
  latest(brandId: string): Promise<CommissionRuleVersionRow | undefined> {
    return this.database.db.selectFrom('commission_rule_versions').selectAll().where('brand_id', '=', brandId).orderBy('version', 'desc').limit(1).executeTakeFirst();
  }

  /**
   * The version in force at `at`: the latest in force by then that no later save replaced before
   * it came into force (a save while a change waits for its notice replaces that change); none
   * when the brand saved none in force yet.
   */
  inForce(brandId: string, at: string): Promise<CommissionRuleVersionRow | undefined> {
    return this.database.db
      .selectFrom('commission_rule_versions as v')
      .selectAll('v')
      .where('v.brand_id', '=', brandId)
      .where('v.effective_at', '<=', at)
      .where((eb) => eb.not(eb.exists(laterVersionOf(eb).whereRef('w.created_at', '<', 'v.effective_at'))))
      .orderBy('v.version', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /**
   * Brands whose latest version in force came into force after it was saved (a change that waited
   * for its notice) with a default rule their profile does not show yet.
   */
  async dueDefaults(at: string): Promise<string[]> {
    const rows = await this.database.db
      .selectFrom('commission_rule_versions as v')
      .innerJoin('brands as b', 'b.id', 'v.brand_id')
      .select('v.brand_id')
      .where('v.effective_at', '<=', at)
      .whereRef('v.effective_at', '>', 'v.created_at')
      .where((eb) => eb.or([eb('b.commission_transfer', '<>', eb.ref('v.default_transfer')), eb('b.commission_value', '<>', eb.ref('v.default_value'))]))
      .where((eb) => eb.not(eb.exists(laterVersionOf(eb).where('w.effective_at', '<=', at))))
      .execute();
    return [...new Set(rows.map((row) => row.brand_id))];
  }

  find(brandId: string, version: number): Promise<CommissionRuleVersionRow | undefined> {
    return this.database.db.selectFrom('commission_rule_versions').selectAll().where('brand_id', '=', brandId).where('version', '=', version).executeTakeFirst();
  }

  /**
   * Writes the next version (the latest plus one, 1 for the first) with what it tells (`effectsOf`
   * the version number) and, for a version in force at once, the brand's default rule as its
   * profile shows it, in one transaction; undefined when another save took that number first (the
   * caller reads the latest again and retries).
   */
  async append(row: Omit<CommissionRuleVersionRow, 'version'>, effectsOf: (version: number) => Effects, brandDefault?: Pick<BrandsTable, 'commission_transfer' | 'commission_value'>): Promise<number | undefined> {
    return this.database.db.transaction().execute(async (trx) => {
      const latest = await trx
        .selectFrom('commission_rule_versions')
        .select((eb) => eb.fn.max('version').as('version'))
        .where('brand_id', '=', row.brand_id)
        .executeTakeFirst();
      const version = Number(latest?.version ?? 0) + 1;
      const inserted = await trx
        .insertInto('commission_rule_versions')
        .values({ ...row, version })
        .onConflict((oc) => oc.columns(['brand_id', 'version']).doNothing())
        .returning('version')
        .executeTakeFirst();
      if (inserted === undefined) return undefined;
      if (brandDefault) await trx.updateTable('brands').set({ ...brandDefault, updated_at: row.created_at }).where('id', '=', row.brand_id).execute();
      await writeEffects(trx, effectsOf(version), row.created_at);
      return version;
    });
  }

  /** The options (JSON, as stored) of the brand's products with these ids. */
  productOptions(brandId: string, ids: readonly string[]): Promise<Array<{ id: string; options: string }>> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.database.db.selectFrom('products').select(['id', 'options']).where('organization_id', '=', brandId).where('id', 'in', [...ids]).execute();
  }

  /** The lowest price (cents, null when no option has one) and the options of these products of the brand. */
  productPrices(brandId: string, ids: readonly string[]): Promise<Array<{ id: string; price_cents: number | null; options: string }>> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.database.db.selectFrom('products').select(['id', 'price_cents', 'options']).where('organization_id', '=', brandId).where('id', 'in', [...ids]).execute();
  }

  /** The kind id of a channel (removed ones included). */
  async channelKind(channelId: string): Promise<string | undefined> {
    return (await this.database.db.selectFrom('affiliate_channels').select('kind_id').where('id', '=', channelId).executeTakeFirst())?.kind_id;
  }
}
