// Products: the visible ones an affiliate lists and searches, and the write of a product (imports,
// demo data).
import { sql, type Insertable, type SelectQueryBuilder } from 'kysely';
import type { Database } from '../database.js';
import { compiledCount, countOf } from './totals.js';
import { CompiledShapes, flagValue, type QueryValues } from './compiled-shapes.js';
import type { DB, ProductRow, ProductsTable } from '../tables.js';
import { brandIsVisible, hiddenBrandIds, type VisibilityCheck } from './visibility.js';
import { offIndex } from './off-index.js';
import { foldText } from '../../lib/text-keys.js';
import { pageWithTotal, rowsOf, type Page, type PageWindow } from './pages.js';
import type { WriteOutcome } from './brands.js';

/** What a product feed reads of a product. */
export type FeedProductRow = Pick<ProductRow, 'seq' | 'organization_id' | 'id' | 'name' | 'description' | 'url' | 'images' | 'options' | 'available' | 'price_cents'>;

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

/**
 * How much more a price-range page may read walking the products in list order than through the
 * price index: a row read in list order cost about a quarter of an index match (whose brand is
 * checked and which is sorted), measured at 1 M products.
 */
const WALK_OVER_INDEX = 4;

/** A products list's filters as its query compares them (availability as 0 or 1). */
interface ProductListValues extends QueryValues {
  affiliateId: string;
  organizationIds?: string[];
  isAvailable?: number;
  priceFrom?: number;
  priceTo?: number;
}

function productListValues(affiliateId: string, f: ProductFilters): ProductListValues {
  return {
    affiliateId,
    organizationIds: f.organizationIds?.length ? f.organizationIds : undefined,
    isAvailable: flagValue(f.isAvailable),
    priceFrom: f.priceFrom,
    priceTo: f.priceTo,
  };
}

/**
 * `priceIndex: false` compares `+price_cents`, an expression no index holds, so SQLite walks the
 * products in list order and stops after the page.
 */
function filtered(database: Database, v: ProductListValues, visibility: VisibilityCheck, priceIndex = true) {
  let q = database.db.selectFrom('products').where(brandIsVisible(database.db, v.affiliateId, 'products.organization_id', visibility));
  if (v.organizationIds !== undefined) q = q.where('products.organization_id', 'in', v.organizationIds);
  if (v.isAvailable !== undefined) q = q.where('products.available', '=', v.isAvailable);
  const price = priceIndex ? sql.ref<number>('products.price_cents') : offIndex<number>(database, 'products.price_cents');
  if (v.priceFrom !== undefined) q = q.where(price, '>=', v.priceFrom);
  if (v.priceTo !== undefined) q = q.where(price, '<=', v.priceTo);
  return q;
}

type ProductQuery = SelectQueryBuilder<DB, 'products', object>;

/** What a brand filters its own products by. */
export interface BrandProductFilters {
  isAvailable?: boolean;
  /** Words of the name or description, or the start of the id. */
  search?: string;
}

/** The order of a brand's own products: as they were added, or as they were last changed. */
export type BrandProductOrder = 'added' | 'changed';

/** An FTS5 query: every word as a prefix. */
const ftsMatch = (terms: string[]): string => terms.map((t) => `"${t}"*`).join(' ');

/** What a search's words become in the dialect's full-text query: every word as a prefix. */
const textQueryOf = (database: Database, terms: string[]): string => (database.dialect === 'sqlite' ? ftsMatch(terms) : terms.map((t) => `${t}:*`).join(' & '));

/** A search with no other filter, whose total the full-text index can count on its own. */
const searchIsAlone = (f: ProductFilters): boolean =>
  f.priceFrom === undefined && f.priceTo === undefined && !f.organizationIds?.length && f.isAvailable === undefined;

/** Products whose name or description holds every word as a prefix, as a condition (full-text index). */
function textMatches(database: Database, terms: string[]) {
  const textQuery = textQueryOf(database, terms);
  if (database.dialect === 'sqlite') return sql<boolean>`products.seq in (select products_fts.rowid from products_fts where products_fts match ${textQuery})`;
  return sql<boolean>`products.search @@ to_tsquery('simple', ${textQuery})`;
}

/**
 * Full-text search, the one dialect-specific query: every word must match as a prefix ("sneak"
 * finds "sneakers"). On SQLite the FTS5 table drives the query, joined by rowid and read in rowid
 * order, which is the list's order: a word in most products still answers its first page at
 * once. On PostgreSQL, a tsvector GIN index.
 */
function searched(database: Database, q: ProductQuery, textQuery: string): { query: ProductQuery; order: string } {
  if (database.dialect === 'sqlite') {
    const joined = q.innerJoin('products_fts', 'products_fts.rowid', 'products.seq').where(sql<boolean>`products_fts match ${textQuery}`);
    // The join only narrows the rows; every column selected is still a products column.
    return { query: joined, order: 'products_fts.rowid' };
  }
  return { query: q.where(sql<boolean>`products.search @@ to_tsquery('simple', ${textQuery})`), order: 'products.seq' };
}

export class ProductsRepository {
  private readonly shapes = new CompiledShapes();

  constructor(private readonly database: Database) {}

  /**
   * A page of products of visible brands, newest first: in the order they were added to the
   * network (a unique order, so pages never overlap), and the total.
   */
  async list(affiliateId: string, filters: ProductFilters, page: PageWindow): Promise<Page<ProductRow>> {
    const { database } = this;
    const values = productListValues(affiliateId, filters);
    if (filters.search !== undefined) {
      const terms = searchTerms(filters.search);
      // A search with no word in it matches nothing rather than everything.
      if (terms.length === 0) return { rows: [], total: 0 };
      // The page stops after a few rows, the count visits them all: each checks visibility its own way.
      const searchValues = { ...values, textQuery: textQueryOf(database, terms) };
      const rows = this.shapes.compiled('products search page', { ...searchValues, limit: page.limit, offset: page.offset }, (v) => {
        const { query, order } = searched(database, filtered(database, v, 'per-row'), v.textQuery);
        return query.selectAll('products').orderBy(sql.ref(order), 'desc').limit(v.limit).offset(v.offset);
      });
      const count =
        database.dialect === 'sqlite' && searchIsAlone(filters)
          ? this.shapes.compiled('products search total, alone', { affiliateId, textQuery: searchValues.textQuery }, (v) => this.searchMatchesVisible(v.affiliateId, v.textQuery))
          : this.shapes.compiled('products search total', searchValues, (v) =>
              searched(database, filtered(database, v, 'as-set'), v.textQuery).query.select((eb) => eb.fn.countAll<number>().as('n')),
            );
      const [found, total] = await Promise.all([rowsOf(database, rows), countOf(database, compiledCount(database, count))]);
      return { rows: found, total };
    }
    const count = this.shapes.compiled('products total', values, (v) => filtered(database, v, 'as-set').select((eb) => eb.fn.countAll<number>().as('n')));
    // The page's keys first, from whichever index serves the filters, then only those rows whole:
    // a price range read through its index sorts the keys of its matches, not their rows
    // (0.64 → 0.44 ms a page on average over the bench's four ranges at 100,000 products).
    const pageRows = (priceIndex: boolean) =>
      rowsOf(
        database,
        this.shapes.compiled(priceIndex ? 'products page' : 'products page, walking', { ...values, limit: page.limit, offset: page.offset }, (v) =>
          database.db
            .selectFrom('products')
            .selectAll()
            .where('seq', 'in', filtered(database, v, 'per-row', priceIndex).select('products.seq').orderBy('products.seq', 'desc').limit(v.limit).offset(v.offset))
            .orderBy('seq', 'desc'),
        ),
      );
    if (database.dialect === 'sqlite' && (filters.priceFrom !== undefined || filters.priceTo !== undefined)) {
      const total = await countOf(database, compiledCount(database, count));
      return { rows: await pageRows(!(await this.walkIsCheaper(total, page))), total };
    }
    const [rows, total] = await Promise.all([pageRows(true), countOf(database, compiledCount(database, count))]);
    return { rows, total };
  }

  /**
   * The next products of visible brands for a feed, in list order (newest first) after the one
   * numbered `beforeSeq` (undefined: from the newest): the list's filters, read a batch at a time
   * by key so that a feed of any size holds one batch.
   */
  async feedBatch(affiliateId: string, filters: ProductFilters, beforeSeq: number | undefined, limit: number): Promise<FeedProductRow[]> {
    const { database } = this;
    let base = filtered(database, productListValues(affiliateId, filters), 'per-row');
    let order = 'products.seq';
    if (filters.search !== undefined) {
      const terms = searchTerms(filters.search);
      if (terms.length === 0) return [];
      ({ query: base, order } = searched(database, base, textQueryOf(database, terms)));
    }
    if (beforeSeq !== undefined) base = base.where('products.seq', '<', beforeSeq);
    return base
      .select(['products.seq', 'products.organization_id', 'products.id', 'products.name', 'products.description', 'products.url', 'products.images', 'products.options', 'products.available', 'products.price_cents'])
      .orderBy(sql.ref(order), 'desc')
      .limit(limit)
      .execute();
  }

  /**
   * How many products of visible brands match a search with no other filter, on SQLite: every
   * match in the full-text index, less the matches among the hidden brands' products. Counting the
   * matches through the products table read each match's wide row for its brand: 0.7 s for a word
   * in 880,000 of a million products, 1.7 s from a cold disk, which the first searches for it
   * waited on. The index's own count reads its word lists (20 ms), and the hidden brands' products
   * come from (organization_id, seq) entries: 0.12 s in all, the same total (the index holds
   * exactly the products: triggers keep it).
   */
  private searchMatchesVisible(affiliateId: string, textQuery: string) {
    const { db } = this.database;
    const matches = () => db.selectFrom('products_fts').where(sql<boolean>`products_fts match ${textQuery}`);
    const all = matches().select((eb) => eb.fn.countAll<number>().as('n'));
    const hidden = db
      .selectFrom('products')
      .where('products.organization_id', 'in', hiddenBrandIds(db, affiliateId))
      // Off the rowid, so the hidden brands' index entries drive and the matches are the set probed.
      .where(offIndex<number>(this.database, 'products.seq'), 'in', matches().select('products_fts.rowid'))
      .select((eb) => eb.fn.countAll<number>().as('n'));
    return db.selectNoFrom(sql<number>`(${all}) - (${hidden})`.as('n'));
  }

  /**
   * Whether a price-range page is cheaper found by walking the products in list order than
   * through the price index. SQLite's planner takes the index whenever it expects a small share of
   * the products to match, without weighing that a walk in list order stops after the page: a
   * range holding 2 % of a million products took 27 ms through the index and 0.26 ms walking.
   * The walk reads about (offset + limit) / share rows, the index every match; with the total
   * counted (and remembered) first, the cheaper one is chosen here. The estimate takes the
   * range's products as spread over the list; one whose products are all old makes the walk read
   * further, every product once at worst. PostgreSQL's planner weighs the limit itself.
   */
  private async walkIsCheaper(total: number, page: PageWindow): Promise<boolean> {
    if (total === 0) return false;
    const newest = await this.database.db.selectFrom('products').select((eb) => eb.fn.max('seq').as('n')).executeTakeFirst();
    // seq numbers every product ever added, so it stands for the rows the walk passes.
    const rows = Number(newest?.n ?? 0);
    return ((page.offset + page.limit) * rows) / total <= WALK_OVER_INDEX * total;
  }

  /**
   * A page of the brand's own products (available or not, unless asked), and the total: newest
   * first (the order they were added), or most recently changed first. A search matches every
   * word as a prefix of a word of the name or description (the affiliates' full-text index), or
   * the start of the id.
   */
  async listOfBrand(brandId: string, filters: BrandProductFilters, page: PageWindow, order: BrandProductOrder = 'added'): Promise<Page<ProductRow>> {
    const { database } = this;
    let q = database.db.selectFrom('products').where('products.organization_id', '=', brandId);
    if (filters.isAvailable !== undefined) q = q.where('products.available', '=', filters.isAvailable ? 1 : 0);
    if (filters.search !== undefined) {
      const search = filters.search.trim().toLowerCase();
      if (search === '') return { rows: [], total: 0 };
      const terms = searchTerms(search);
      const idStarts = sql<boolean>`substr(lower(products.id), 1, ${[...search].length}) = ${search}`;
      q = q.where((eb) => (terms.length === 0 ? idStarts : eb.or([idStarts, textMatches(database, terms)])));
    }
    const sorted = order === 'changed' ? q.selectAll('products').orderBy('products.updated_at', 'desc').orderBy('products.seq', 'desc') : q.selectAll('products').orderBy('products.seq', 'desc');
    return pageWithTotal(
      database,
      sorted.limit(page.limit).offset(page.offset).execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')),
    );
  }

  /**
   * The categories the brand's products' options name, each once (first spelling met, case
   * ignored), in alphabetical order; at most `limit`.
   */
  async categoriesOfBrand(brandId: string, limit: number): Promise<string[]> {
    const query =
      this.database.dialect === 'sqlite'
        ? sql<{ category: string }>`select distinct c.value as category from products p, json_each(p.options) o, json_each(o.value, '$.categories') c
            where p.organization_id = ${brandId} and c.type = 'text' order by 1 limit ${limit * 2}`
        : sql<{ category: string }>`select distinct c.value as category from products p
            cross join lateral jsonb_array_elements(p.options::jsonb) o(value)
            cross join lateral jsonb_array_elements_text(case when jsonb_typeof(o.value->'categories') = 'array' then o.value->'categories' else '[]'::jsonb end) c(value)
            where p.organization_id = ${brandId} order by 1 limit ${limit * 2}`;
    const { rows } = await query.execute(this.database.db);
    const seen = new Map<string, string>();
    for (const { category } of rows) {
      const name = category.trim();
      if (name && !seen.has(name.toLowerCase())) seen.set(name.toLowerCase(), name);
    }
    return [...seen.values()].sort((a, b) => a.localeCompare(b)).slice(0, limit);
  }

  /**
   * Whether anything the network keeps names the brand's product: an order of the brand with an
   * item whose id is the product's or one of its options', or a link of the brand whose address
   * begins with the product's page address. Neither holds a key to the product (orders keep their
   * items as reported, links their address), so they are matched by those values.
   */
  async isNamed(brandId: string, itemIds: string[], url: string): Promise<boolean> {
    const { db } = this.database;
    const ids = sql.join(itemIds.map((id) => sql`${id}`));
    const itemNamed =
      this.database.dialect === 'sqlite'
        ? sql<boolean>`exists (select 1 from json_each(orders.items) i where json_extract(i.value, '$.id') in (${ids}))`
        : sql<boolean>`exists (select 1 from jsonb_array_elements(orders.items::jsonb) i(value) where i.value->>'id' in (${ids}))`;
    const order = itemIds.length === 0 ? undefined : await db.selectFrom('orders').select('orders.id').where('orders.organization_id', '=', brandId).where(itemNamed).limit(1).executeTakeFirst();
    if (order) return true;
    if (url === '') return false;
    const link = await db
      .selectFrom('short_links')
      .select('short_links.id')
      .where('short_links.organization_id', '=', brandId)
      .where(sql<boolean>`substr(short_links.original_url, 1, ${[...url].length}) = ${url}`)
      .limit(1)
      .executeTakeFirst();
    return link !== undefined;
  }

  /** Makes the brand's product unavailable, its options too; false when it has none with this id. */
  async makeUnavailable(brandId: string, id: string, options: string, now: string): Promise<boolean> {
    const result = await this.database.db
      .updateTable('products')
      .set({ available: 0, options, updated_at: now })
      .where('organization_id', '=', brandId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** The brand's product with this id (ids are unique per brand). */
  find(brandId: string, id: string): Promise<ProductRow | undefined> {
    return this.database.db.selectFrom('products').selectAll().where('organization_id', '=', brandId).where('id', '=', id).executeTakeFirst();
  }

  /** Deletes the brand's product with this id; false when it has none. */
  async delete(brandId: string, id: string): Promise<boolean> {
    const result = await this.database.db.deleteFrom('products').where('organization_id', '=', brandId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /**
   * Inserts or updates the brand's product with this id (ids are unique per brand: another
   * brand's product with the same id is another product), in one transaction; an unknown brand
   * is answered and nothing is written.
   */
  save(id: string, columns: Omit<Insertable<ProductsTable>, 'id' | 'created_at'>, createdAt: string): Promise<WriteOutcome | 'brand_missing'> {
    return this.database.db.transaction().execute(async (trx) => {
      const brand = await trx.selectFrom('brands').select('id').where('id', '=', columns.organization_id).executeTakeFirst();
      if (!brand) return 'brand_missing';
      const existing = await trx.selectFrom('products').select('seq').where('organization_id', '=', columns.organization_id).where('id', '=', id).executeTakeFirst();
      if (existing) {
        await trx.updateTable('products').set(columns).where('seq', '=', existing.seq).execute();
        return 'updated';
      }
      await trx.insertInto('products').values({ id, ...columns, created_at: createdAt }).execute();
      return 'inserted';
    });
  }
}
