// Brand keys used to share the affiliate default of 60 requests per 60 s, so a shop's 61st order
// in a minute was refused and a pixel that never retries lost it. Brand keys now default to 6,000
// (DEFAULT_BRAND_RATE_LIMIT). Existing brand keys that still have the old default are raised;
// a key an operator gave another limit keeps it. Affiliate keys are untouched.
// The numbers are written out: a migration must do the same thing whatever the code says later.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`update api_keys set rate_limit = 6000 where brand_id is not null and rate_limit = 60 and rate_window_seconds = 60`.execute(db);
}
