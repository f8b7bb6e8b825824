// Keys with few clicks each (an affiliate at one brand, a link, a brand) keep their click facts as
// one row per combination (dimension 'facts', value `country|device|browser|os|referer[|channel]`)
// instead of a row per fact: for most of them one row per click instead of five to eight. A link
// keeps no total of its own (its affiliate's row for the link is that total); a brand keeps its
// totals, affiliates, links and countries apart, an affiliate at a brand its totals and links.
//
// The click rollups (hourly and daily) are recomputed from the stored clicks in that layout, as
// `affnet analytics rebuild` does. Hours before the oldest stored click (deleted by retention)
// keep their rows of the dimensions still kept; their other rows cannot become combinations and
// are deleted. The SQL is the service's own (src/storage/rollup-rows.ts), so a later change of
// the layout recomputes again after this one; it reads the click columns the tables had then
// (migrations 0047 and 0048 added some).
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { clickRollupSql, dailyFromHourlySql } from '../rollup-rows.js';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await sql`delete from click_rollups where affiliate_id <> '' and organization_id <> '' and dimension not in ('all', 'link', 'facts')`.execute(db);
  await sql`delete from click_rollups where link_id <> '' and dimension <> 'facts'`.execute(db);
  await sql`delete from click_rollups where affiliate_id = '' and dimension not in ('all', 'country', 'affiliate', 'link', 'facts')`.execute(db);

  const { rows } = await sql<{ at: string }>`select created_at as at from clicks order by id limit 1`.execute(db);
  const oldest = rows[0]?.at;
  if (oldest !== undefined) {
    const from = `${oldest.slice(0, 13)}:00:00.000Z`;
    await sql`delete from click_rollups where hour >= ${from}`.execute(db);
    await sql.raw(clickRollupSql(`created_at >= '${from.replace(/'/g, '')}'`, 'hour', 'before-0047')).execute(db);
  }
  for (const statement of dailyFromHourlySql('clicks', undefined, 'before-0047')) await sql.raw(statement).execute(db);
  if (dialect === 'sqlite') {
    await sql`update rollup_progress set last_rolled_rowid = (select coalesce(max(rowid), 0) from clicks) where id = 1`.execute(db);
  }
}
