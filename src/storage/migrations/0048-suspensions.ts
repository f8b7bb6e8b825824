// The network suspends an affiliate or a brand with a reason, and reactivates it.
// - affiliates and brands: suspended_at and suspension_reason (both null while active). Affiliates
//   gain updated_at, so every redirect cache polling for changes sees a suspension (brands have
//   one already); null on existing rows, set from the next change on.
// - clicks: is_suspended, a click on a suspended affiliate's or brand's link (it counts no click).
//   Defaulting to 0, so instances of the previous version, which do not name it, keep writing
//   clicks while new ones start.
// - click_rollups and click_rollups_daily: suspended, the uncounted clicks of that reason; the
//   indexes that read a period's top values carry it too, so they still answer alone.
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { textType } from './column-types.js';

/** Dimensions whose top values are read in count order (as in migration 0031). */
const RANKED = ['link', 'brand', 'affiliate', 'referer'];

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const text = textType(dialect);
  const bigint = dialect === 'postgres' ? 'bigint' : 'integer';
  for (const table of ['affiliates', 'brands']) {
    await db.schema.alterTable(table).addColumn('suspended_at', text).execute();
    await db.schema.alterTable(table).addColumn('suspension_reason', text).execute();
  }
  await db.schema.alterTable('affiliates').addColumn('updated_at', text).execute();
  await db.schema.createIndex('affiliates_updated_idx').on('affiliates').column('updated_at').execute();
  // The suspended affiliates and brands (every catalogue query leaves the brands out; the redirect
  // caches hold both): usually none, read from these alone.
  await db.schema.createIndex('affiliates_suspended_idx').on('affiliates').column('id').where(sql.ref('suspended_at'), 'is not', null).execute();
  await db.schema.createIndex('brands_suspended_idx').on('brands').column('id').where(sql.ref('suspended_at'), 'is not', null).execute();

  await db.schema.alterTable('clicks').addColumn('is_suspended', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  for (const table of ['click_rollups', 'click_rollups_daily']) {
    await db.schema.alterTable(table).addColumn('suspended', bigint, (c) => c.notNull().defaultTo(0)).execute();
    for (const dimension of RANKED) {
      const name = `${table}_top_${dimension}`;
      await sql`drop index ${sql.id(name)}`.execute(db);
      await sql`create index ${sql.id(name)} on ${sql.table(table)} (affiliate_id, organization_id, link_id, hour, counted desc, value, bots, heads, repeats, suspicious, suspended) where dimension = ${sql.lit(dimension)}`.execute(db);
    }
  }
}
