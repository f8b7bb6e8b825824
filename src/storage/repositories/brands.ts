// Brands: the visible ones an affiliate lists and opens, lookups by id, approvals, and the write
// of a brand with its categories (imports, demo data).
import { RecentMap } from '../../lib/recent-map.js';
import { sql, type Insertable, type Updateable } from 'kysely';
import type { Database } from '../database.js';
import type { BrandRow, BrandsTable } from '../tables.js';
import { compiledPage, type Page, type PageWindow } from './pages.js';
import { CompiledShapes, flagValue, type QueryValues } from './compiled-shapes.js';
import { brandRowIsVisible, likePattern, visibleBrandCount } from './visibility.js';
import { offIndex } from './off-index.js';
import { writeEffects, type Effects } from './effects.js';
import type { MemberStanding, Suspension } from './affiliates.js';

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

/** Whether a write inserted the row or updated the one there was. */
export type WriteOutcome = 'inserted' | 'updated';
export type CategoryRows = Array<{ category: string; category_key: string }>;

/** The columns of a brand that decide whether a channel may have links to it. */
export type BrandLinkRules = Pick<BrandRow, 'id' | 'active' | 'allowed_channel_kinds'>;
/** A brand an affiliate may promote: its domains and its rules for channels. */
export type PromotableBrand = BrandLinkRules & Pick<BrandRow, 'name' | 'site' | 'domains'>;
/** The network's terms for a brand's statements, as the brand's row keeps them. */
export type NetworkTermsColumns = Pick<BrandRow, 'fee_basis_points' | 'statement_due_days'>;

/**
 * What a list of brands shows of each (and what decides where a channel's links may go): a page
 * of rows is turned into objects column by column, and the other columns cost as much again.
 */
export const LISTED_BRAND_COLUMNS = [
  'id',
  'name',
  'logo',
  'slug',
  'site',
  'segment',
  'active',
  'is_public',
  'is_exclusive',
  'is_highlight',
  'is_favorite',
  'rating_approval',
  'rating_commission',
  'rating_conversion',
  'rating_popularity',
  'rating_validation',
  'ratings_absent',
  'created_at',
  'commission_transfer',
  'commission_value',
  'currency',
  'allowed_channel_kinds',
] as const satisfies ReadonlyArray<keyof BrandRow>;
export type ListedBrandRow = Pick<BrandRow, (typeof LISTED_BRAND_COLUMNS)[number]>;

/** A brands list's filters as its query compares them (flags as 0 or 1, the name as a LIKE pattern). */
interface BrandListValues extends QueryValues {
  affiliateId: string;
  namePattern?: string;
  categoryKeys?: string[];
  isExclusive?: number;
  isFavorite?: number;
  isHighlight?: number;
  isPublic?: number;
  createdFrom?: string;
  createdTo?: string;
}

function brandListValues(affiliateId: string, f: BrandFilters): BrandListValues {
  return {
    affiliateId,
    namePattern: f.search ? likePattern(f.search) : undefined,
    categoryKeys: f.categories?.length ? f.categories.map((c) => c.toLowerCase()) : undefined,
    isExclusive: flagValue(f.isExclusive),
    isFavorite: flagValue(f.isFavorite),
    isHighlight: flagValue(f.isHighlight),
    isPublic: flagValue(f.isPublic),
    createdFrom: f.createdFrom || undefined,
    createdTo: f.createdTo || undefined,
  };
}

/** No filter but the affiliate's own visibility. */
const unfiltered = (v: BrandListValues): boolean => Object.entries(v).every(([name, value]) => name === 'affiliateId' || value === undefined);

/** How long a brand's name is kept in memory for lists. */
const NAMES_KEPT_MS = 60_000;

export class BrandsRepository {
  private readonly names = new RecentMap<string, { name: string; until: number }>(10_000);
  private readonly shapes = new CompiledShapes();

  constructor(private readonly database: Database) {}

  /** A list's query over the visible brands; `v` as brandListValues gives them (see CompiledShapes). */
  private filtered(v: BrandListValues) {
    let q = this.database.db.selectFrom('brands').where(brandRowIsVisible(this.database.db, v.affiliateId));
    if (v.namePattern !== undefined) q = q.where('brands.name_key', 'like', sql<string>`${v.namePattern} escape '\\'`);
    if (v.categoryKeys !== undefined) {
      const keys = v.categoryKeys;
      q = q.where((eb) =>
        eb.exists(
          eb.selectFrom('brand_categories as bc').select(sql`1`.as('one')).whereRef('bc.brand_id', '=', 'brands.id').where('bc.category_key', 'in', keys),
        ),
      );
    }
    if (v.isExclusive !== undefined) q = q.where('brands.is_exclusive', '=', v.isExclusive);
    if (v.isFavorite !== undefined) q = q.where('brands.is_favorite', '=', v.isFavorite);
    if (v.isHighlight !== undefined) q = q.where('brands.is_highlight', '=', v.isHighlight);
    // Off the (is_public, id) index: with it, SQLite read every public brand and sorted them by
    // name for a page of 20 (2–5 ms at 10,000 brands); walking the name order stops after the page.
    if (v.isPublic !== undefined) q = q.where(offIndex<number>(this.database, 'brands.is_public'), '=', v.isPublic);
    if (v.createdFrom !== undefined) q = q.where('brands.created_at', '>=', v.createdFrom);
    if (v.createdTo !== undefined) q = q.where('brands.created_at', '<=', v.createdTo);
    return q;
  }

  /** A page of visible brands, ordered by name then id, and the total matching the filters. */
  list(affiliateId: string, filters: BrandFilters, page: PageWindow): Promise<Page<ListedBrandRow>> {
    const values = brandListValues(affiliateId, filters);
    const rows = this.shapes.compiled('brands page', { ...values, limit: page.limit, offset: page.offset }, (v) =>
      this.filtered(v)
        .select(LISTED_BRAND_COLUMNS.map((column) => `brands.${column}` as const))
        .orderBy('brands.name_key').orderBy('brands.id').limit(v.limit).offset(v.offset),
    );
    const count = unfiltered(values)
      ? this.shapes.compiled('brands total, unfiltered', { affiliateId }, (v) => this.database.db.selectNoFrom(visibleBrandCount(this.database.db, v.affiliateId).as('n')))
      : this.shapes.compiled('brands total', values, (v) => this.filtered(v).select((eb) => eb.fn.countAll<number>().as('n')));
    return compiledPage(this.database, rows, count);
  }

  findVisible(affiliateId: string, id: string): Promise<BrandRow | undefined> {
    return this.database.db.selectFrom('brands').selectAll().where('id', '=', id).where(brandRowIsVisible(this.database.db, affiliateId)).executeTakeFirst();
  }

  /**
   * The active brands the affiliate may see (public, or private and approved; not suspended) with
   * what decides where their links may point and which channels may have them: what an
   * affiliate's link script may turn links to.
   */
  promotableBy(affiliateId: string): Promise<PromotableBrand[]> {
    return this.database.db
      .selectFrom('brands')
      .select(['brands.id', 'brands.name', 'brands.site', 'brands.domains', 'brands.active', 'brands.allowed_channel_kinds'])
      .where(brandRowIsVisible(this.database.db, affiliateId))
      .where('brands.active', '=', 1)
      .orderBy('brands.id')
      .execute();
  }

  find(id: string): Promise<BrandRow | undefined> {
    return this.database.db.selectFrom('brands').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The brand's name and standing; undefined when there is no such brand. */
  standingOf(id: string): Promise<MemberStanding | undefined> {
    return this.database.db.selectFrom('brands').select(['id', 'name', 'suspended_at', 'suspension_reason']).where('id', '=', id).executeTakeFirst();
  }

  /**
   * Suspends (`next.suspended_at` set) or reactivates (null) the brand, with the change's effects
   * in the same transaction; false, and nothing written, when it was not in the opposite standing
   * (another change came first). The new updated_at tells every redirect cache.
   */
  setSuspension(id: string, next: Suspension, now: string, effects: Effects): Promise<boolean> {
    return this.database.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('brands')
        .set({ ...next, updated_at: now })
        .where('id', '=', id)
        .where('suspended_at', next.suspended_at === null ? 'is not' : 'is', null)
        .executeTakeFirst();
      if (result.numUpdatedRows === 0n) return false;
      await writeEffects(trx, effects, now);
      return true;
    });
  }

  /**
   * The network's terms for the brand's statements, changed from `before` to `next` with the
   * effects (audit, mail, webhooks) in one transaction; false when they were not `before` any more
   * (someone changed them meanwhile) or there is no such brand.
   */
  setNetworkTerms(id: string, before: NetworkTermsColumns, next: NetworkTermsColumns, now: string, effects: Effects): Promise<boolean> {
    return this.database.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('brands')
        .set({ ...next, updated_at: now })
        .where('id', '=', id)
        .where('fee_basis_points', '=', before.fee_basis_points)
        .where('statement_due_days', '=', before.statement_due_days)
        .executeTakeFirst();
      if (result.numUpdatedRows === 0n) return false;
      await writeEffects(trx, effects, now);
      return true;
    });
  }

  async slugExists(slug: string): Promise<boolean> {
    return (await this.database.db.selectFrom('brands').select('id').where('slug', '=', slug).executeTakeFirst()) !== undefined;
  }

  async exists(id: string): Promise<boolean> {
    return (await this.database.db.selectFrom('brands').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
  }

  /**
   * The names of these brands, by id: lists name each row's brand, so names are kept a minute in
   * memory rather than asked for with every page (a renamed brand shows its new name within it).
   */
  async namesOf(ids: readonly string[]): Promise<Map<string, string>> {
    const now = Date.now();
    const found = new Map<string, string>();
    const missing: string[] = [];
    for (const id of ids) {
      const known = this.names.get(id);
      if (known !== undefined && known.until > now) found.set(id, known.name);
      else missing.push(id);
    }
    if (missing.length === 0) return found;
    const rows = await this.database.db.selectFrom('brands').select(['id', 'name']).where('id', 'in', missing).execute();
    for (const row of rows) {
      found.set(row.id, row.name);
      this.names.set(row.id, { name: row.name, until: now + NAMES_KEPT_MS });
    }
    return found;
  }

  async byIds(ids: string[]): Promise<BrandRow[]> {
    return ids.length ? this.database.db.selectFrom('brands').selectAll().where('id', 'in', ids).execute() : [];
  }

  /** What decides whether each of these brands takes links, for lists that show many brands' links. */
  async linkRulesOf(ids: string[]): Promise<BrandLinkRules[]> {
    return ids.length ? this.database.db.selectFrom('brands').select(['id', 'active', 'allowed_channel_kinds']).where('id', 'in', ids).execute() : [];
  }

  /** The currency and the name of each of these brands. */
  async currenciesOf(ids: string[]): Promise<Map<string, { currency: string; name: string }>> {
    if (ids.length === 0) return new Map();
    const rows = await this.database.db.selectFrom('brands').select(['id', 'currency', 'name']).where('id', 'in', ids).execute();
    return new Map(rows.map((r) => [r.id, { currency: r.currency, name: r.name }]));
  }

  /** Changes the brand's own settings; the new updated_at tells every redirect cache. */
  async updateProfile(id: string, columns: Updateable<BrandsTable>): Promise<void> {
    await this.database.db.updateTable('brands').set(columns).where('id', '=', id).execute();
  }

  /** How far a brand made from an application is with its setup: its commission, and whether it has a product or a campaign. */
  async setupOf(id: string): Promise<{ setup_pending: number; commission_value: number; has_catalogue: boolean } | undefined> {
    const brand = await this.database.db.selectFrom('brands').select(['setup_pending', 'commission_value']).where('id', '=', id).executeTakeFirst();
    if (!brand) return undefined;
    const product = await this.database.db.selectFrom('products').select('id').where('organization_id', '=', id).limit(1).executeTakeFirst();
    const campaign = product ? undefined : await this.database.db.selectFrom('campaigns').select('id').where('organization_id', '=', id).limit(1).executeTakeFirst();
    return { ...brand, has_catalogue: product !== undefined || campaign !== undefined };
  }

  /**
   * Whether the brand's tracking is seen working: an order its server or its tag reported (a
   * claim's order is not tracking), a report its tag or pixel had accepted, or its own word that
   * its server reports its orders.
   */
  async trackingSeen(id: string): Promise<boolean> {
    const { db } = this.database;
    const brand = await db.selectFrom('brands').select('reports_orders_from_server').where('id', '=', id).executeTakeFirst();
    if (brand?.reports_orders_from_server === 1) return true;
    const order = await db.selectFrom('orders').select('id').where('organization_id', '=', id).where('source', '<>', 'claim').limit(1).executeTakeFirst();
    if (order) return true;
    const report = await db.selectFrom('tag_reports').select('id').where('brand_id', '=', id).where('outcome', '=', 'accepted').limit(1).executeTakeFirst();
    return report !== undefined;
  }

  /** Puts a brand in affiliates' sight and lets its links work: the end of its setup. */
  async launch(id: string, now: string): Promise<void> {
    await this.database.db.updateTable('brands').set({ setup_pending: 0, active: 1, is_public: 1, updated_at: now }).where('id', '=', id).where('setup_pending', '=', 1).execute();
  }

  async isApproved(affiliateId: string, brandId: string): Promise<boolean> {
    const row = await this.database.db
      .selectFrom('brand_approvals')
      .select('brand_id')
      .where('affiliate_id', '=', affiliateId)
      .where('brand_id', '=', brandId)
      .executeTakeFirst();
    return row !== undefined;
  }

  async approve(row: { affiliate_id: string; brand_id: string; created_at: string }): Promise<void> {
    await this.database.db
      .insertInto('brand_approvals')
      .values(row)
      .onConflict((oc) => oc.columns(['affiliate_id', 'brand_id']).doNothing())
      .execute();
  }

  /**
   * Inserts or updates a brand and replaces its categories, in one transaction. `onInsert` holds
   * the columns written only when the brand is new (creation time, default currency). A slug
   * another brand holds is answered, not thrown, and nothing is written.
   */
  save(
    id: string,
    columns: Updateable<BrandsTable>,
    onInsert: Pick<Insertable<BrandsTable>, 'created_at' | 'currency'>,
    categories: CategoryRows,
  ): Promise<WriteOutcome | { slugTakenBy: string }> {
    return this.database.db.transaction().execute(async (trx) => {
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
}
