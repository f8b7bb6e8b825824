// Campaigns (coupons and offers): the visible ones an affiliate lists, lookups by id, and the write
// of a campaign with its categories (imports, demo data).
import { sql, type Insertable } from 'kysely';
import type { Database } from '../database.js';
import { compiledCount, COUNT_TTL_MS } from './totals.js';
import type { CampaignRow, CampaignsTable } from '../tables.js';
import { pageWithTotal, rowsOf, type Page, type PageWindow } from './pages.js';
import { CompiledShapes, flagValue, type QueryValues } from './compiled-shapes.js';
import { brandIsVisible, likePattern, type VisibilityCheck } from './visibility.js';
import { offIndex } from './off-index.js';
import type { CategoryRows, WriteOutcome } from './brands.js';

export interface CampaignFilters {
  types?: string[];
  offerType?: string;
  organizationIds?: string[];
  name?: string;
  isHighlight?: boolean;
  categories?: string[];
  statuses?: string[];
  /** Campaigns whose period overlaps [periodFrom, periodTo]. */
  periodFrom?: string;
  periodTo?: string;
}

/** The start of the COUNT_TTL_MS window holding `now`. */
const timeWindowOf = (now: string) => new Date(Math.floor(Date.parse(now) / COUNT_TTL_MS) * COUNT_TTL_MS).toISOString();

/** A campaigns list's filters as its query compares them (the flag as 0 or 1, the name as a LIKE pattern, the time only with statuses). */
interface CampaignListValues extends QueryValues {
  affiliateId: string;
  types?: string[];
  offerType?: string;
  organizationIds?: string[];
  namePattern?: string;
  isHighlight?: number;
  categoryKeys?: string[];
  /** The time the statuses are judged at: given with statuses only. */
  now?: string;
  periodFrom?: string;
  periodTo?: string;
}

function campaignListValues(affiliateId: string, f: CampaignFilters, now: string): CampaignListValues {
  return {
    affiliateId,
    types: f.types?.length ? f.types : undefined,
    offerType: f.offerType || undefined,
    organizationIds: f.organizationIds?.length ? f.organizationIds : undefined,
    namePattern: f.name ? likePattern(f.name) : undefined,
    isHighlight: flagValue(f.isHighlight),
    categoryKeys: f.categories?.length ? f.categories.map((c) => c.toLowerCase()) : undefined,
    now: f.statuses?.length ? now : undefined,
    periodFrom: f.periodFrom || undefined,
    periodTo: f.periodTo || undefined,
  };
}

export class CampaignsRepository {
  private readonly shapes = new CompiledShapes();

  constructor(private readonly database: Database) {}

  /**
   * The type column as a filter on `count` types. With several types, SQLite would walk the type
   * index once per type and sort every match by the list order (430 µs for page 10 of coupons at
   * 10,000 campaigns); kept off that index, it walks campaigns_list_idx in list order and stops
   * after the page (250 µs).
   */
  private typeColumn(count: number) {
    return count > 1 ? offIndex<string>(this.database, 'campaigns.type') : sql.ref<string>('campaigns.type');
  }

  /** A list's query over the visible brands' campaigns; `v` as campaignListValues gives them, `statuses` which statuses (see CompiledShapes). */
  private filtered(v: CampaignListValues, statuses: ReadonlySet<string>, visibility: VisibilityCheck) {
    let q = this.database.db.selectFrom('campaigns').where(brandIsVisible(this.database.db, v.affiliateId, 'campaigns.organization_id', visibility));
    if (v.types !== undefined) q = q.where(this.typeColumn(v.types.length), 'in', v.types);
    if (v.offerType !== undefined) q = q.where('campaigns.offer_type', '=', v.offerType);
    if (v.organizationIds !== undefined) q = q.where('campaigns.organization_id', 'in', v.organizationIds);
    if (v.namePattern !== undefined) q = q.where('campaigns.name_key', 'like', sql<string>`${v.namePattern} escape '\\'`);
    if (v.isHighlight !== undefined) q = q.where('campaigns.is_highlight', '=', v.isHighlight);
    if (v.categoryKeys !== undefined) {
      const keys = v.categoryKeys;
      q = q.where((eb) =>
        eb.exists(
          eb.selectFrom('campaign_categories as cc').select(sql`1`.as('one')).whereRef('cc.campaign_id', '=', 'campaigns.id').whereRef('cc.organization_id', '=', 'campaigns.organization_id').where('cc.category_key', 'in', keys),
        ),
      );
    }
    const now = v.now;
    if (now !== undefined) {
      // The same rule as campaignStatus(): scheduled before startAt, expired after endAt.
      q = q.where((eb) =>
        eb.or([
          ...(statuses.has('scheduled') ? [eb('campaigns.start_at', '>', now)] : []),
          ...(statuses.has('expired') ? [eb('campaigns.end_at', '<', now)] : []),
          ...(statuses.has('onTime') ? [eb.and([eb('campaigns.start_at', '<=', now), eb('campaigns.end_at', '>=', now)])] : []),
        ]),
      );
    }
    if (v.periodFrom !== undefined) q = q.where('campaigns.end_at', '>=', v.periodFrom);
    if (v.periodTo !== undefined) q = q.where('campaigns.start_at', '<=', v.periodTo);
    return q;
  }

  /**
   * A page of campaigns of visible brands, newest first (id breaks ties), and the total. The page
   * is found by key first, from an index that holds every column the usual filters read, and only
   * its rows are read whole: rows skipped by the offset or the filters cost an index entry each,
   * not a table row, and the two coupon types are walked in list order rather than sorted.
   */
  list(affiliateId: string, filters: CampaignFilters, page: PageWindow, now: string): Promise<Page<CampaignRow>> {
    const values = campaignListValues(affiliateId, filters, now);
    // Which statuses are asked for changes the query's text, not only its values: a shape of its own.
    const statuses = new Set(filters.statuses ?? []);
    const shape = (name: string) => `${name}|${[...statuses].sort().join(',')}`;
    const rows = this.shapes.compiled(shape('campaigns page'), { ...values, limit: page.limit, offset: page.offset }, (v) => {
      const keys = this.filtered(v, statuses, 'per-row')
        .select(['campaigns.organization_id', 'campaigns.id'])
        .orderBy('campaigns.created_at', 'desc')
        .orderBy('campaigns.id', 'desc')
        .limit(v.limit)
        .offset(v.offset);
      return this.database.db
        .selectFrom('campaigns')
        .selectAll()
        .where((eb) => eb(eb.refTuple('organization_id', 'id'), 'in', keys.$asTuple('organization_id', 'id')))
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc');
    });
    const count = (at: string) =>
      this.shapes.compiled(shape('campaigns total'), { ...values, now: values.now === undefined ? undefined : at }, (v) => this.filtered(v, statuses, 'as-set').select((eb) => eb.fn.countAll<number>().as('n')));
    const remembered = count(timeWindowOf(now));
    return pageWithTotal(this.database, rowsOf(this.database, rows), compiledCount(this.database, count(now)), {
      // The status filters compare with the current time, which would make every second's count
      // a new query; a remembered total is already up to COUNT_TTL_MS old, so the same total
      // serves the whole window. Fast counts are not remembered and stay exact.
      rememberAs: { compile: () => remembered },
    });
  }

  /** A page of the brand's own campaigns, whatever their period, newest first (id breaks ties), and the total. */
  listOfBrand(brandId: string, page: PageWindow): Promise<Page<CampaignRow>> {
    const q = this.database.db.selectFrom('campaigns').where('organization_id', '=', brandId);
    return pageWithTotal(
      this.database,
      q.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')),
    );
  }

  /** The brand's campaign with this id (ids are unique per brand). */
  find(brandId: string, id: string): Promise<CampaignRow | undefined> {
    return this.database.db.selectFrom('campaigns').selectAll().where('organization_id', '=', brandId).where('id', '=', id).executeTakeFirst();
  }

  /** The brand's coupon campaigns whose code, lowercased, is `codeKey` (a code given to an affiliate must not be a public one's). */
  withCode(brandId: string, codeKey: string): Promise<Array<Pick<CampaignRow, 'id' | 'type' | 'code'>>> {
    return this.database.db
      .selectFrom('campaigns')
      .select(['id', 'type', 'code'])
      .where('organization_id', '=', brandId)
      .where((eb) => eb.fn('lower', ['code']), '=', codeKey)
      .orderBy('id')
      .execute();
  }

  /** Deletes the brand's campaign with this id (its categories with it); false when it has none. */
  async delete(brandId: string, id: string): Promise<boolean> {
    const result = await this.database.db.deleteFrom('campaigns').where('organization_id', '=', brandId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /**
   * Inserts or updates the brand's campaign with this id and replaces its categories, in one
   * transaction (another brand's campaign with the same id is another campaign). An unknown brand
   * is answered, not thrown, and nothing is written.
   */
  save(
    id: string,
    columns: Omit<Insertable<CampaignsTable>, 'id' | 'created_at'>,
    createdAt: string,
    categories: CategoryRows,
  ): Promise<WriteOutcome | 'brand_missing'> {
    const brandId = columns.organization_id;
    return this.database.db.transaction().execute(async (trx) => {
      const brand = await trx.selectFrom('brands').select('id').where('id', '=', brandId).executeTakeFirst();
      if (!brand) return 'brand_missing';
      const existing = await trx.selectFrom('campaigns').select('id').where('organization_id', '=', brandId).where('id', '=', id).executeTakeFirst();
      if (existing) {
        await trx.updateTable('campaigns').set(columns).where('organization_id', '=', brandId).where('id', '=', id).execute();
        await trx.deleteFrom('campaign_categories').where('organization_id', '=', brandId).where('campaign_id', '=', id).execute();
      } else {
        await trx.insertInto('campaigns').values({ id, ...columns, created_at: createdAt }).execute();
      }
      if (categories.length) await trx.insertInto('campaign_categories').values(categories.map((c) => ({ organization_id: brandId, campaign_id: id, ...c }))).execute();
      return existing ? 'updated' : 'inserted';
    });
  }
}
