// Which brands an affiliate may see: every public brand plus the private brands it is approved
// for, less the brands the network has suspended. Every catalogue query filters through this
// module, so lists, lookups and link creation always agree.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../tables.js';
import { foldText } from '../../lib/text-keys.js';

/** The brands the network has suspended: usually none, read from their own small index (migration 0048). */
function suspendedBrandIds(db: Kysely<DB>) {
  return db.selectFrom('brands').select('brands.id').where('brands.suspended_at', 'is not', null);
}

/**
 * The complement: the private brands the affiliate is NOT approved for, and the suspended ones.
 * It is small, so `organization_id not in (…)` leaves the planner free to walk the table's own
 * order or filter index, where `in (visible)` would make it visit every visible brand first.
 */
export function hiddenBrandIds(db: Kysely<DB>, affiliateId: string) {
  return db
    .selectFrom('brands')
    .select('brands.id')
    .where('brands.is_public', '=', 0)
    .except(db.selectFrom('brand_approvals').select('brand_approvals.brand_id as id').where('brand_approvals.affiliate_id', '=', affiliateId))
    .union(suspendedBrandIds(db));
}

/**
 * How a query checks visibility. The rule is the same; the cost is not:
 * - 'per-row' looks each row's brand up in the (is_public, id) index: a page that stops after a
 *   few dozen rows pays a few microseconds per row (measured at 1m: a page 3–4× faster);
 * - 'as-set' builds the hidden brands once per query (about 0.8 ms), then each row is a cheap
 *   probe: a count that visits hundreds of thousands of rows is 2–3× faster this way.
 */
export type VisibilityCheck = 'per-row' | 'as-set';

/** A condition: `brandColumn` names a brand the affiliate may see. */
export function brandIsVisible(db: Kysely<DB>, affiliateId: string, brandColumn: string, check: VisibilityCheck): RawBuilder<boolean> {
  const brand = sql.ref(brandColumn);
  if (check === 'as-set') return sql<boolean>`${brand} not in (${hiddenBrandIds(db, affiliateId)})`;
  // The suspended brands are one small set read once per query (the same either way).
  return sql<boolean>`not exists (select 1 from brands as hidden where hidden.is_public = 0 and hidden.id = ${brand} and not exists (select 1 from brand_approvals as approved where approved.affiliate_id = ${affiliateId} and approved.brand_id = hidden.id)) and ${brand} not in (${suspendedBrandIds(db)})`;
}

/**
 * The same rule for a query on the brands table itself: the row's own is_public, and an approval
 * looked up for private brands only. No second visit to the brand by id, so a page of brands
 * costs about 40 % less, and their count 60 % less, than through brandIsVisible.
 */
export function brandRowIsVisible(db: Kysely<DB>, affiliateId: string): RawBuilder<boolean> {
  // Not the row's own suspended_at: a count then reads every brand's row, where the (is_public, id)
  // index alone answered.
  return sql<boolean>`((brands.is_public = 1 or exists (select 1 from brand_approvals as approved where approved.affiliate_id = ${affiliateId} and approved.brand_id = brands.id)) and brands.id not in (${suspendedBrandIds(db)}))`;
}

/**
 * How many brands the affiliate may see, the same rule counted in three parts: the public brands,
 * plus the private ones it is approved for, less the suspended among both. The first two are
 * counted from their indexes alone; the rule row by row (brandRowIsVisible) checks each brand
 * against the suspended set, which took half the count (105 → 56 µs at 1,000 brands).
 */
export function visibleBrandCount(db: Kysely<DB>, affiliateId: string): RawBuilder<number> {
  return sql<number>`(select count(*) from brands where brands.is_public = 1)
    + (select count(*) from brand_approvals as approved where approved.affiliate_id = ${affiliateId} and exists (select 1 from brands where brands.is_public = 0 and brands.id = approved.brand_id))
    - (select count(*) from brands where brands.suspended_at is not null and (brands.is_public = 1 or exists (select 1 from brand_approvals as approved where approved.affiliate_id = ${affiliateId} and approved.brand_id = brands.id)))`;
}

/** A LIKE pattern matching the folded `term` anywhere; compare it against a folded column. */
export const likePattern = (term: string): string => `%${foldText(term).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
