// Categories of brands and of campaigns: the same shape in two tables, read the same way.
import { sql } from 'kysely';
import type { Database } from '../database.js';
import { CompiledShapes } from './compiled-shapes.js';
import { rowsOf } from './pages.js';
import { campaignKey } from '../../lib/catalog-keys.js';

/** Categories per owner id, each list in the order of its lower-cased names. */
function byOwner(rows: Array<{ owner: string; category: string }>): Map<string, string[]> {
  const result = new Map<string, string[]>();
  for (const row of rows) {
    const list = result.get(row.owner);
    if (list) list.push(row.category);
    else result.set(row.owner, [row.category]);
  }
  return result;
}

export class CategoriesRepository {
  private readonly shapes = new CompiledShapes();

  constructor(private readonly database: Database) {}

  async ofBrands(brandIds: string[]): Promise<Map<string, string[]>> {
    if (brandIds.length === 0) return new Map();
    const query = this.shapes.compiled('categories of brands', { brandIds }, (v) =>
      this.database.db.selectFrom('brand_categories').select(['brand_id as owner', 'category']).where('brand_id', 'in', v.brandIds).orderBy('brand_id').orderBy('category_key'),
    );
    return byOwner(await rowsOf(this.database, query));
  }

  /**
   * Keyed by campaignKey(brand, id): a campaign's id is unique per brand only. The (brand, id)
   * pairs are matched as row values: one index probe per campaign, where a brand list crossed with
   * an id list probes every combination (400 for a page of 20).
   */
  async ofCampaigns(campaigns: ReadonlyArray<{ organization_id: string; id: string }>): Promise<Map<string, string[]>> {
    if (campaigns.length === 0) return new Map();
    const { db } = this.database;
    const pairs = sql.join(campaigns.map((c) => sql`(${c.organization_id}, ${c.id})`));
    const rows = await db
      .selectFrom('campaign_categories')
      .select(['organization_id', 'campaign_id', 'category'])
      .where(sql<boolean>`(organization_id, campaign_id) in (values ${pairs})`)
      .orderBy('organization_id')
      .orderBy('campaign_id')
      .orderBy('category_key')
      .execute();
    return byOwner(rows.map((r) => ({ owner: campaignKey(r.organization_id, r.campaign_id), category: r.category })));
  }
}
