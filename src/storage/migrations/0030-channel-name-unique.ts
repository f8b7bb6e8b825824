// Two channels in use of one affiliate never share a name (case aside, as the channels service
// compares them): a partial unique index on (affiliate, lower(name)) over the channels not
// removed makes two concurrent adds or renames to one name end with one of them refused, where
// both could pass the service's own check. lower() folds ASCII letters in SQLite and, in
// PostgreSQL, the letters of the database's locale; the service's check folds every letter, so
// the index never refuses a name the service allows.
//
// Channels in use that already share a name (added by operators or the demo data, which do not
// check names, or by an earlier race) keep the oldest one's name; each later one gets its id
// appended, so the index can be built and the lists can tell them apart.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`update affiliate_channels set name = name || ' (' || id || ')'
    where removed_at is null and exists (
      select 1 from affiliate_channels o
      where o.affiliate_id = affiliate_channels.affiliate_id and o.removed_at is null and lower(o.name) = lower(affiliate_channels.name)
        and (o.created_at < affiliate_channels.created_at or (o.created_at = affiliate_channels.created_at and o.id < affiliate_channels.id))
    )`.execute(db);
  await sql`create unique index affiliate_channels_live_name_idx on affiliate_channels (affiliate_id, lower(name)) where removed_at is null`.execute(db);
}
