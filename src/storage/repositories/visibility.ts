// Which brands an affiliate may see: every public brand plus the private brands it is approved
// for. Every catalogue query filters through this one subquery, so lists, lookups and link
// creation always agree.
import type { Kysely } from 'kysely';
import type { DB } from '../schema.js';
import { foldText } from '../../domain/text-keys.js';

export function visibleBrandIds(db: Kysely<DB>, affiliateId: string) {
  return db
    .selectFrom('brands')
    .select('brands.id')
    .where('brands.is_public', '=', 1)
    .union(db.selectFrom('brand_approvals').select('brand_approvals.brand_id as id').where('brand_approvals.affiliate_id', '=', affiliateId));
}

/**
 * The complement, for filtering large tables: the private brands the affiliate is NOT approved
 * for. It is small, so `organization_id not in (…)` leaves the planner free to walk the table's
 * own order or filter index, where `in (visible)` would make it visit every visible brand first.
 */
export function hiddenBrandIds(db: Kysely<DB>, affiliateId: string) {
  return db
    .selectFrom('brands')
    .select('brands.id')
    .where('brands.is_public', '=', 0)
    .except(db.selectFrom('brand_approvals').select('brand_approvals.brand_id as id').where('brand_approvals.affiliate_id', '=', affiliateId));
}

/** A LIKE pattern matching the folded `term` anywhere; compare it against a folded column. */
export const likePattern = (term: string): string => `%${foldText(term).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
