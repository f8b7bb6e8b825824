// Operators pay affiliates: every approved commission up to a date becomes paid.
import type { Database } from '../../storage/database.js';
import { payApprovedCommissions } from '../../storage/repositories/orders.js';
import { DomainError } from '../errors.js';
import { nowIso, rangeEnd } from '../time.js';

export async function payCommissions(database: Database, affiliateId: string, until?: string): Promise<{ orders: number; total: number }> {
  const affiliate = await database.db.selectFrom('affiliates').select('id').where('id', '=', affiliateId).executeTakeFirst();
  if (!affiliate) throw new DomainError(404, 'affiliate_not_found', `affiliate "${affiliateId}" does not exist`);
  const now = nowIso();
  const limit = until === undefined ? now : rangeEnd('--until', until);
  return payApprovedCommissions(database, affiliateId, limit, 'operator', now);
}
