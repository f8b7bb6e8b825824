import { sql, type SelectQueryBuilder } from 'kysely';
import type { Database } from '../database.js';
import { countOf } from './totals.js';
import type { DB, ProductRow } from '../schema.js';
import { hiddenBrandIds } from './visibility.js';
import { foldText } from '../../domain/text-keys.js';

export interface ProductFilters {
  search?: string;
  priceFrom?: number;
  priceTo?: number;
  organizationIds?: string[];
  isAvailable?: boolean;
}

/** Words of a search, reduced to letters and digits so no user text reaches the query syntax. */
export function searchTerms(search: string): string[] {
  return (foldText(search).match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 10);
}

// Full-text search is the one dialect-specific query: FTS5 on SQLite, tsvector on PostgreSQL.
// Every word must match, as a prefix ("sneak" finds "sneakers").
function withSearch(database: Database, q: SelectQueryBuilder<DB, 'products', object>, terms: string[]) {
  if (database.dialect === 'sqlite') {
    const match = terms.map((t) => `"${t}"*`).join(' ');
    return q.where('products.seq', 'in', sql<number>`(select rowid from products_fts where products_fts match ${match})`);
  }
  const query = terms.map((t) => `${t}:*`).join(' & ');
  return q.where(sql<boolean>`products.search @@ to_tsquery('simple', ${query})`);
}

function filtered(database: Database, affiliateId: string, f: ProductFilters) {
  let q = database.db.selectFrom('products').where('products.organization_id', 'not in', hiddenBrandIds(database.db, affiliateId));
  if (f.organizationIds?.length) q = q.where('products.organization_id', 'in', f.organizationIds);
  if (f.isAvailable !== undefined) q = q.where('products.available', '=', f.isAvailable ? 1 : 0);
  if (f.priceFrom !== undefined) q = q.where('products.price_cents', '>=', f.priceFrom);
  if (f.priceTo !== undefined) q = q.where('products.price_cents', '<=', f.priceTo);
  if (f.search !== undefined) {
    const terms = searchTerms(f.search);
    // A search with no word in it matches nothing rather than everything.
    q = terms.length > 0 ? withSearch(database, q, terms) : q.where(sql<boolean>`1 = 0`);
  }
  return q;
}

/** A page of products of visible brands, newest first (id breaks ties), and the total. */
export async function listProducts(
  database: Database,
  affiliateId: string,
  filters: ProductFilters,
  page: { limit: number; offset: number },
): Promise<{ rows: ProductRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    filtered(database, affiliateId, filters)
      .selectAll('products')
      .orderBy('products.created_at', 'desc')
      .orderBy('products.id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    countOf(database, filtered(database, affiliateId, filters).select((eb) => eb.fn.countAll<number>().as('n'))),
  ]);
  return { rows, total: count };
}
