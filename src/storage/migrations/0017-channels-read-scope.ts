// A new scope, channels:read (GET /affiliate/channels), granted to every affiliate key that holds
// the full affiliate default set of the time: a key created without --scopes keeps reaching every
// affiliate route. A key an operator narrowed keeps exactly what it was given.
// The sets are written out: a migration must do the same thing whatever the code says later.
import type { Kysely } from 'kysely';
import { grantToFullKeys } from './scope-grants.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await grantToFullKeys(db, {
    owner: 'affiliate',
    fullSet: ['brands:read', 'products:read', 'campaigns:read', 'shortener:read', 'shortener:write', 'orders:read'],
    scope: 'channels:read',
  });
}
