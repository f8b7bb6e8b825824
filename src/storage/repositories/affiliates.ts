import type { Database } from '../database.js';

export async function affiliateExists(database: Database, affiliateId: string): Promise<boolean> {
  return (await database.db.selectFrom('affiliates').select('id').where('id', '=', affiliateId).executeTakeFirst()) !== undefined;
}

/** Whether any affiliate exists at all (an empty database is seeded on its first start). */
export async function anyAffiliateExists(database: Database): Promise<boolean> {
  return (await database.db.selectFrom('affiliates').select('id').limit(1).executeTakeFirst()) !== undefined;
}

export async function saveAffiliate(database: Database, row: { id: string; name: string; created_at: string }): Promise<void> {
  await database.db
    .insertInto('affiliates')
    .values(row)
    .onConflict((oc) => oc.column('id').doUpdateSet({ name: row.name }))
    .execute();
}

export async function saveChannelKinds(database: Database, kinds: ReadonlyArray<{ id: string; name: string }>): Promise<void> {
  await database.db
    .insertInto('channel_kinds')
    .values(kinds.map((k) => ({ id: k.id, name: k.name })))
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

export async function channelKindExists(database: Database, kindId: string): Promise<boolean> {
  return (await database.db.selectFrom('channel_kinds').select('id').where('id', '=', kindId).executeTakeFirst()) !== undefined;
}

export async function saveChannel(database: Database, row: { id: string; affiliate_id: string; kind_id: string; name: string; created_at: string }): Promise<void> {
  await database.db
    .insertInto('affiliate_channels')
    .values(row)
    .onConflict((oc) => oc.column('id').doUpdateSet({ name: row.name, kind_id: row.kind_id }))
    .execute();
}

export async function saveApproval(database: Database, row: { affiliate_id: string; brand_id: string; created_at: string }): Promise<void> {
  await database.db
    .insertInto('brand_approvals')
    .values(row)
    .onConflict((oc) => oc.columns(['affiliate_id', 'brand_id']).doNothing())
    .execute();
}
