import { sql } from 'kysely';
import type { Database } from '../database.js';
import { countOf } from './totals.js';
import type { BrandRow } from '../tables.js';
import { brandIsVisible, likePattern, visibleBrandIds, type VisibilityCheck } from './visibility.js';

export interface BrandFilters {
  search?: string;
  categories?: string[];
  isExclusive?: boolean;
  isFavorite?: boolean;
  isHighlight?: boolean;
  isPublic?: boolean;
  createdFrom?: string;
  createdTo?: string;
}

function filtered(database: Database, affiliateId: string, f: BrandFilters, visibility: VisibilityCheck) {
  let q = database.db.selectFrom('brands').where(brandIsVisible(database.db, affiliateId, 'brands.id', visibility));
  if (f.search) q = q.where('brands.name_key', 'like', sql<string>`${likePattern(f.search)} escape '\\'`);
  if (f.categories?.length) {
    const keys = f.categories.map((c) => c.toLowerCase());
    q = q.where((eb) =>
      eb.exists(
        eb.selectFrom('brand_categories as bc').select(sql`1`.as('one')).whereRef('bc.brand_id', '=', 'brands.id').where('bc.category_key', 'in', keys),
      ),
    );
  }
  if (f.isExclusive !== undefined) q = q.where('brands.is_exclusive', '=', f.isExclusive ? 1 : 0);
  if (f.isFavorite !== undefined) q = q.where('brands.is_favorite', '=', f.isFavorite ? 1 : 0);
  if (f.isHighlight !== undefined) q = q.where('brands.is_highlight', '=', f.isHighlight ? 1 : 0);
  if (f.isPublic !== undefined) q = q.where('brands.is_public', '=', f.isPublic ? 1 : 0);
  if (f.createdFrom) q = q.where('brands.created_at', '>=', f.createdFrom);
  if (f.createdTo) q = q.where('brands.created_at', '<=', f.createdTo);
  return q;
}

/** A page of visible brands, ordered by name then id, and the total matching the filters. */
export async function listBrands(
  database: Database,
  affiliateId: string,
  filters: BrandFilters,
  page: { limit: number; offset: number },
): Promise<{ rows: BrandRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    filtered(database, affiliateId, filters, 'per-row').selectAll('brands').orderBy('brands.name_key').orderBy('brands.id').limit(page.limit).offset(page.offset).execute(),
    countOf(database, filtered(database, affiliateId, filters, 'as-set').select((eb) => eb.fn.countAll<number>().as('n'))),
  ]);
  return { rows, total: count };
}

export async function findVisibleBrand(database: Database, affiliateId: string, id: string): Promise<BrandRow | undefined> {
  return database.db
    .selectFrom('brands')
    .selectAll()
    .where('id', '=', id)
    .where('brands.id', 'in', visibleBrandIds(database.db, affiliateId))
    .executeTakeFirst();
}

export async function findBrand(database: Database, id: string): Promise<BrandRow | undefined> {
  return database.db.selectFrom('brands').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function categoriesOfBrands(database: Database, brandIds: string[]): Promise<Map<string, string[]>> {
  const result = new Map<string, string[]>();
  if (brandIds.length === 0) return result;
  const rows = await database.db
    .selectFrom('brand_categories')
    .select(['brand_id', 'category'])
    .where('brand_id', 'in', brandIds)
    .orderBy('brand_id')
    .orderBy('category_key')
    .execute();
  for (const row of rows) {
    const list = result.get(row.brand_id) ?? [];
    list.push(row.category);
    result.set(row.brand_id, list);
  }
  return result;
}

export async function isApproved(database: Database, affiliateId: string, brandId: string): Promise<boolean> {
  const row = await database.db
    .selectFrom('brand_approvals')
    .select('brand_id')
    .where('affiliate_id', '=', affiliateId)
    .where('brand_id', '=', brandId)
    .executeTakeFirst();
  return row !== undefined;
}

/** The currency of each of these brands. */
export async function currenciesOf(database: Database, brandIds: string[]): Promise<Map<string, string>> {
  if (brandIds.length === 0) return new Map();
  const rows = await database.db.selectFrom('brands').select(['id', 'currency']).where('id', 'in', brandIds).execute();
  return new Map(rows.map((r) => [r.id, r.currency]));
}

export async function brandsByIds(database: Database, ids: string[]): Promise<BrandRow[]> {
  return ids.length ? database.db.selectFrom('brands').selectAll().where('id', 'in', ids).execute() : [];
}

export async function brandExists(database: Database, brandId: string): Promise<boolean> {
  return (await database.db.selectFrom('brands').select('id').where('id', '=', brandId).executeTakeFirst()) !== undefined;
}
