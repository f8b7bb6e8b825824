// Writes of catalogue resources (imports, demo data): each one transaction, so a resource is stored
// whole or not at all. What a write refuses for reasons only the stored data knows (a slug taken
// by another brand, an unknown brand, a campaign id of another brand) is answered, not thrown, so
// the domain says it in its own words; nothing is written then.
import type { Insertable, Updateable } from 'kysely';
import type { Database } from '../database.js';
import type { BrandsTable, CampaignsTable, ProductsTable } from '../tables.js';

export type WriteOutcome = 'inserted' | 'updated';
type Categories = Array<{ category: string; category_key: string }>;

/**
 * Inserts or updates a brand and replaces its categories. `onInsert` holds the columns written only
 * when the brand is new (creation time, default currency).
 */
export async function saveBrand(
  database: Database,
  id: string,
  columns: Updateable<BrandsTable>,
  onInsert: Pick<Insertable<BrandsTable>, 'created_at' | 'currency'>,
  categories: Categories,
): Promise<WriteOutcome | { slugTakenBy: string }> {
  return database.db.transaction().execute(async (trx) => {
    const existing = await trx.selectFrom('brands').select('id').where('id', '=', id).executeTakeFirst();
    const slugOwner = await trx.selectFrom('brands').select('id').where('slug', '=', String(columns.slug)).executeTakeFirst();
    if (slugOwner && slugOwner.id !== id) return { slugTakenBy: slugOwner.id };
    if (existing) {
      await trx.updateTable('brands').set(columns).where('id', '=', id).execute();
      await trx.deleteFrom('brand_categories').where('brand_id', '=', id).execute();
    } else {
      await trx.insertInto('brands').values({ ...onInsert, ...columns, id } as Insertable<BrandsTable>).execute();
    }
    if (categories.length) await trx.insertInto('brand_categories').values(categories.map((c) => ({ brand_id: id, ...c }))).execute();
    return existing ? 'updated' : 'inserted';
  });
}

export async function saveProduct(
  database: Database,
  id: string,
  columns: Omit<Insertable<ProductsTable>, 'id' | 'created_at'>,
  createdAt: string,
): Promise<WriteOutcome | 'brand_missing'> {
  return database.db.transaction().execute(async (trx) => {
    const brand = await trx.selectFrom('brands').select('id').where('id', '=', columns.organization_id).executeTakeFirst();
    if (!brand) return 'brand_missing';
    const existing = await trx.selectFrom('products').select('id').where('id', '=', id).executeTakeFirst();
    if (existing) {
      await trx.updateTable('products').set(columns).where('id', '=', id).execute();
      return 'updated';
    }
    await trx.insertInto('products').values({ id, ...columns, created_at: createdAt }).execute();
    return 'inserted';
  });
}

export async function saveCampaign(
  database: Database,
  id: string,
  columns: Omit<Insertable<CampaignsTable>, 'id' | 'created_at'>,
  createdAt: string,
  categories: Categories,
): Promise<WriteOutcome | 'brand_missing' | { ownedBy: string }> {
  return database.db.transaction().execute(async (trx) => {
    const brand = await trx.selectFrom('brands').select('id').where('id', '=', columns.organization_id).executeTakeFirst();
    if (!brand) return 'brand_missing';
    const existing = await trx.selectFrom('campaigns').select(['id', 'organization_id']).where('id', '=', id).executeTakeFirst();
    if (existing && existing.organization_id !== columns.organization_id) return { ownedBy: existing.organization_id };
    if (existing) {
      await trx.updateTable('campaigns').set(columns).where('id', '=', id).execute();
      await trx.deleteFrom('campaign_categories').where('campaign_id', '=', id).execute();
    } else {
      await trx.insertInto('campaigns').values({ id, ...columns, created_at: createdAt }).execute();
    }
    if (categories.length) await trx.insertInto('campaign_categories').values(categories.map((c) => ({ campaign_id: id, ...c }))).execute();
    return existing ? 'updated' : 'inserted';
  });
}
