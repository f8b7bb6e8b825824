// Click and earnings analytics:
// - clicks keep what their writer found out about them: country (ISO 3166 alpha-2, ZZ unknown),
//   device type, browser and OS family, and the referrer's host ((direct) without one); orders
//   keep the country of their click (clicks may be deleted, orders stay);
// - click_rollups and order_rollups hold per-hour (UTC) sums, keyed by what they are about: an
//   affiliate (organization_id and link_id empty), an affiliate at one brand (link_id empty), one
//   link (organization_id empty), or a brand (affiliate_id empty); then a dimension and its value
//   (country, device, …, or "all" with an empty value), then the hour. Every read is a range
//   of that key, never a scan of clicks or orders;
// - rollup_progress (SQLite): the rowid of the last click in the rollups, so the click writer
//   adds each stored click exactly once across restarts. Clicks and orders stored before this
//   migration reach the rollups with `affnet analytics rebuild`;
// - analytics:read, granted to every affiliate and brand key that held its kind's whole set.
import { sql, type CreateTableBuilder, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { textType } from './column-types.js';
import { grantToFullKeys } from './scope-grants.js';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const text = textType(dialect);
  const bigint = dialect === 'postgres' ? 'bigint' : 'integer';
  for (const column of ['country', 'device', 'browser', 'os', 'referer_host']) {
    await db.schema.alterTable('clicks').addColumn(column, text).execute();
  }
  await db.schema.alterTable('orders').addColumn('click_country', text).execute();

  // Both rollup tables: the key, then their sums (bigint on PostgreSQL: sales add up).
  const rollupTable = (name: string, extraKey: string[], sums: string[]) => {
    let table = db.schema.createTable(name) as CreateTableBuilder<string, string>;
    for (const column of ['affiliate_id', 'organization_id', 'link_id', 'dimension', 'hour', 'value', ...extraKey]) table = table.addColumn(column, text, (c) => c.notNull());
    for (const column of sums) table = table.addColumn(column, bigint, (c) => c.notNull());
    table = table.addPrimaryKeyConstraint(`${name}_pk`, ['affiliate_id', 'organization_id', 'link_id', 'dimension', 'hour', 'value', ...extraKey]);
    // SQLite: rows stored in key order (no rowid beside the key), so a read is one contiguous
    // range and the key is not kept twice.
    return dialect === 'sqlite' ? table.modifyEnd(sql`without rowid`) : table;
  };
  await rollupTable('click_rollups', [], ['counted', 'bots', 'heads', 'repeats', 'suspicious']).execute();
  await rollupTable('order_rollups', ['currency'], ['orders', 'sales', 'commission']).execute();

  await db.schema
    .createTable('rollup_progress')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('last_rolled_rowid', bigint, (c) => c.notNull())
    .execute();
  const last = dialect === 'sqlite' ? sql`(select coalesce(max(rowid), 0) from clicks)` : sql`0`;
  await sql`insert into rollup_progress (id, last_rolled_rowid) values (1, ${last})`.execute(db);
  await grantToFullKeys(db, {
    owner: 'affiliate',
    fullSet: ['brands:read', 'products:read', 'campaigns:read', 'shortener:read', 'shortener:write', 'orders:read', 'channels:read', 'webhooks:read', 'webhooks:write', 'approvals:write'],
    scope: 'analytics:read',
  });
  await grantToFullKeys(db, {
    owner: 'brand',
    fullSet: ['conversions:write', 'conversions:read', 'webhooks:read', 'webhooks:write', 'affiliates:read', 'affiliates:write', 'catalog:read', 'catalog:write'],
    scope: 'analytics:read',
  });
}
