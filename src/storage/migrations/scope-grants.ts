// Granting a new scope to existing keys: keys keep explicit scope lists, so a key that held its
// kind's whole default set when the scope was added gets it too, and a narrowed key does not.
import { sql, type Kysely } from 'kysely';

export async function grantToFullKeys(db: Kysely<unknown>, grant: { owner: 'affiliate' | 'brand'; fullSet: readonly string[]; scope: string }): Promise<void> {
  const ownerColumn = grant.owner === 'affiliate' ? sql.ref('affiliate_id') : sql.ref('brand_id');
  const { rows } = await sql<{ id: string; scopes: string }>`select id, scopes from api_keys where ${ownerColumn} is not null`.execute(db);
  for (const key of rows) {
    const held = new Set(key.scopes.split(' '));
    if (held.has(grant.scope) || !grant.fullSet.every((s) => held.has(s))) continue;
    await sql`update api_keys set scopes = ${`${key.scopes} ${grant.scope}`} where id = ${key.id}`.execute(db);
  }
}
