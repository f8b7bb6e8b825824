import type { Database } from '../database.js';

export interface AffiliateChannel {
  id: string;
  name: string;
  kindId: string;
  kindName: string;
}

/** The affiliate's channels in a stable order (creation, then id). */
export async function channelsOf(database: Database, affiliateId: string): Promise<AffiliateChannel[]> {
  const rows = await database.db
    .selectFrom('affiliate_channels as c')
    .innerJoin('channel_kinds as k', 'k.id', 'c.kind_id')
    .select(['c.id', 'c.name', 'c.kind_id', 'k.name as kind_name'])
    .where('c.affiliate_id', '=', affiliateId)
    .orderBy('c.created_at')
    .orderBy('c.id')
    .execute();
  return rows.map((r) => ({ id: r.id, name: r.name, kindId: r.kind_id, kindName: r.kind_name }));
}
