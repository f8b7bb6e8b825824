// Categories of brands and of campaigns: the same shape in two tables, read the same way.
import type { Database } from '../database.js';

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
  constructor(private readonly database: Database) {}

  async ofBrands(brandIds: string[]): Promise<Map<string, string[]>> {
    if (brandIds.length === 0) return new Map();
    const { db } = this.database;
    return byOwner(await db.selectFrom('brand_categories').select(['brand_id as owner', 'category']).where('brand_id', 'in', brandIds).orderBy('brand_id').orderBy('category_key').execute());
  }

  async ofCampaigns(campaignIds: string[]): Promise<Map<string, string[]>> {
    if (campaignIds.length === 0) return new Map();
    const { db } = this.database;
    return byOwner(await db.selectFrom('campaign_categories').select(['campaign_id as owner', 'category']).where('campaign_id', 'in', campaignIds).orderBy('campaign_id').orderBy('category_key').execute());
  }
}
