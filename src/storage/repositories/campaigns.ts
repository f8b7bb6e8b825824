import { sql } from 'kysely';
import type { Database } from '../database.js';
import { COUNT_TTL_MS, countOf } from './totals.js';
import type { CampaignRow } from '../tables.js';
import { brandIsVisible, likePattern, type VisibilityCheck } from './visibility.js';

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

function filtered(database: Database, affiliateId: string, f: CampaignFilters, now: string, visibility: VisibilityCheck) {
  let q = database.db.selectFrom('campaigns').where(brandIsVisible(database.db, affiliateId, 'campaigns.organization_id', visibility));
  if (f.types?.length) q = q.where('campaigns.type', 'in', f.types);
  if (f.offerType) q = q.where('campaigns.offer_type', '=', f.offerType);
  if (f.organizationIds?.length) q = q.where('campaigns.organization_id', 'in', f.organizationIds);
  if (f.name) q = q.where('campaigns.name_key', 'like', sql<string>`${likePattern(f.name)} escape '\\'`);
  if (f.isHighlight !== undefined) q = q.where('campaigns.is_highlight', '=', f.isHighlight ? 1 : 0);
  if (f.categories?.length) {
    const keys = f.categories.map((c) => c.toLowerCase());
    q = q.where((eb) =>
      eb.exists(
        eb.selectFrom('campaign_categories as cc').select(sql`1`.as('one')).whereRef('cc.campaign_id', '=', 'campaigns.id').where('cc.category_key', 'in', keys),
      ),
    );
  }
  if (f.statuses?.length) {
    // The same rule as campaignStatus(): scheduled before startAt, expired after endAt.
    const statuses = new Set(f.statuses);
    q = q.where((eb) =>
      eb.or([
        ...(statuses.has('scheduled') ? [eb('campaigns.start_at', '>', now)] : []),
        ...(statuses.has('expired') ? [eb('campaigns.end_at', '<', now)] : []),
        ...(statuses.has('onTime') ? [eb.and([eb('campaigns.start_at', '<=', now), eb('campaigns.end_at', '>=', now)])] : []),
      ]),
    );
  }
  if (f.periodFrom) q = q.where('campaigns.end_at', '>=', f.periodFrom);
  if (f.periodTo) q = q.where('campaigns.start_at', '<=', f.periodTo);
  return q;
}

/** The start of the COUNT_TTL_MS window holding `now`. */
const timeWindowOf = (now: string) => new Date(Math.floor(Date.parse(now) / COUNT_TTL_MS) * COUNT_TTL_MS).toISOString();

/** A page of campaigns of visible brands, newest first (id breaks ties), and the total. */
export async function listCampaigns(
  database: Database,
  affiliateId: string,
  filters: CampaignFilters,
  page: { limit: number; offset: number },
  now: string,
): Promise<{ rows: CampaignRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    filtered(database, affiliateId, filters, now, 'per-row')
      .selectAll('campaigns')
      .orderBy('campaigns.created_at', 'desc')
      .orderBy('campaigns.id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    countOf(database, filtered(database, affiliateId, filters, now, 'as-set').select((eb) => eb.fn.countAll<number>().as('n')), {
      // The status filters compare with the current time, which would make every second's count
      // a new query; a remembered total is already up to COUNT_TTL_MS old, so the same total
      // serves the whole window. Fast counts are not remembered and stay exact.
      rememberAs: filtered(database, affiliateId, filters, timeWindowOf(now), 'as-set').select((eb) => eb.fn.countAll<number>().as('n')),
    }),
  ]);
  return { rows, total: count };
}

export async function findCampaign(database: Database, id: string): Promise<CampaignRow | undefined> {
  return database.db.selectFrom('campaigns').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function categoriesOfCampaigns(database: Database, ids: string[]): Promise<Map<string, string[]>> {
  const result = new Map<string, string[]>();
  if (ids.length === 0) return result;
  const rows = await database.db
    .selectFrom('campaign_categories')
    .select(['campaign_id', 'category'])
    .where('campaign_id', 'in', ids)
    .orderBy('campaign_id')
    .orderBy('category_key')
    .execute();
  for (const row of rows) {
    const list = result.get(row.campaign_id) ?? [];
    list.push(row.category);
    result.set(row.campaign_id, list);
  }
  return result;
}
