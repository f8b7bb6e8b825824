// Money says what it is counted in, payouts are records, and an order keeps the facts of the click
// that earned it:
// - brands.currency (ISO 4217, BRL for the brands that existed: the market the network started in);
//   orders.currency, the brand's currency when the order was reported, never changed afterwards;
// - payouts: one row per affiliate, currency and payment run; orders point to theirs and say when
//   they were paid;
// - orders.click_created_at: when the click happened, copied from the click, so attribution
//   survives the click's deletion.
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { textType } from './column-types.js';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const text = textType(dialect);
  const bigint = dialect === 'postgres' ? 'bigint' : 'integer';

  await db.schema.alterTable('brands').addColumn('currency', text, (c) => c.notNull().defaultTo('BRL')).execute();
  await db.schema.alterTable('orders').addColumn('currency', text, (c) => c.notNull().defaultTo('BRL')).execute();
  await db.schema.alterTable('orders').addColumn('click_created_at', text).execute();
  await db.schema.alterTable('orders').addColumn('paid_at', text).execute();
  await db.schema.alterTable('orders').addColumn('payout_id', text).execute();
  await sql`update orders set click_created_at = (select c.created_at from clicks c where c.id = orders.click_id) where click_id is not null`.execute(db);
  await sql`update orders set currency = (select b.currency from brands b where b.id = orders.organization_id)`.execute(db);

  await db.schema
    .createTable('payouts')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('affiliate_id', text, (c) => c.notNull().references('affiliates.id'))
    .addColumn('currency', text, (c) => c.notNull())
    /** Creation time of the earliest and the latest order paid. */
    .addColumn('period_start', text, (c) => c.notNull())
    .addColumn('period_end', text, (c) => c.notNull())
    .addColumn('total', bigint, (c) => c.notNull())
    .addColumn('order_count', 'integer', (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('payouts_affiliate_idx').on('payouts').columns(['affiliate_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('orders_payout_idx').on('orders').columns(['payout_id', 'created_at', 'id']).execute();
  // What an affiliate's balance adds up: its commissions by status and currency.
  await db.schema.createIndex('orders_affiliate_commission_idx').on('orders').columns(['affiliate_id', 'commission_status', 'currency', 'created_at']).execute();
}
