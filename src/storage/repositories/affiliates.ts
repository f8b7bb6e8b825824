import type { Database } from '../database.js';

export async function affiliateExists(database: Database, affiliateId: string): Promise<boolean> {
  return (await database.db.selectFrom('affiliates').select('id').where('id', '=', affiliateId).executeTakeFirst()) !== undefined;
}
