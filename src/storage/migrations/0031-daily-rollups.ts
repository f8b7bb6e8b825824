// Analytics rollups per UTC day beside the hourly ones (click_rollups_daily, order_rollups_daily:
// the same key and sums, `hour` being the day's 00:00), so a range of whole days reads one row per
// day and value instead of 24. A range that starts or ends inside a UTC day (a local day in
// another time zone, the last 24 hours) reads its edges from the hourly rows.
//
// The top values of a dimension with many values (links, brands, affiliates, referrer hosts) are
// found by reading each period's largest counts first: an index per such dimension in count order
// (partial, so the other rows do not pay for it). The daily rows start as the sums of the hourly
// ones already kept.
import { sql, type CreateTableBuilder, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { textType } from './column-types.js';
import { dailyFromHourlySql } from '../rollup-rows.js';

/** Dimensions whose top values are read in count order (kept in step with the rollups repository). */
const RANKED = ['link', 'brand', 'affiliate', 'referer'];
const KEY = ['affiliate_id', 'organization_id', 'link_id', 'dimension', 'hour', 'value'];

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const text = textType(dialect);
  const bigint = dialect === 'postgres' ? 'bigint' : 'integer';
  const dailyTable = (name: string, extraKey: string[], sums: string[]) => {
    let table = db.schema.createTable(name) as CreateTableBuilder<string, string>;
    for (const column of [...KEY, ...extraKey]) table = table.addColumn(column, text, (c) => c.notNull());
    for (const column of sums) table = table.addColumn(column, bigint, (c) => c.notNull());
    table = table.addPrimaryKeyConstraint(`${name}_pk`, [...KEY, ...extraKey]);
    return dialect === 'sqlite' ? table.modifyEnd(sql`without rowid`) : table;
  };
  const clickSums = ['counted', 'bots', 'heads', 'repeats', 'suspicious'];
  const orderSums = ['orders', 'sales', 'commission'];
  await dailyTable('click_rollups_daily', [], clickSums).execute();
  await dailyTable('order_rollups_daily', ['currency'], orderSums).execute();

  // The rebuild's own SQL (src/storage/rollup-rows.ts), as migration 0032 uses it too, over the
  // click counts the tables had then (0048 added one).
  for (const statement of [...dailyFromHourlySql('clicks', undefined, 'before-0047'), ...dailyFromHourlySql('orders')]) await sql.raw(statement).execute(db);

  for (const table of ['click_rollups', 'click_rollups_daily']) {
    for (const dimension of RANKED) {
      // Every count in the index, so a period's top values are read from it alone.
      await sql`create index ${sql.id(`${table}_top_${dimension}`)} on ${sql.table(table)} (affiliate_id, organization_id, link_id, hour, counted desc, value, bots, heads, repeats, suspicious) where dimension = ${sql.lit(dimension)}`.execute(db);
    }
  }
}
