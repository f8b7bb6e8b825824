// Money in and out. Brands are billed monthly in statements (the network's fee per brand, a due
// date) and pay them, in parts or at once; a commission becomes payable only once the statement
// that billed it is paid. Payout runs pay payable commissions and operator adjustments in batches
// (pending → sent → settled | failed). Every money event writes balanced double-entry lines to
// the ledger in the same transaction.
//
// Upgrade: the network funded approved commissions under the old rule, so those not yet paid
// become payable, and the payouts already made are settled; opening ledger lines give each
// affiliate's payable balance, so the ledger check passes on an upgraded database.
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Dialect } from '../database.js';
import { textType } from './column-types.js';

const DEFAULT_FEE_BASIS_POINTS = 3000;
const DEFAULT_DUE_DAYS = 15;

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const text = textType(dialect);
  const now = new Date().toISOString();

  await db.schema.alterTable('brands').addColumn('fee_basis_points', 'integer', (c) => c.notNull().defaultTo(DEFAULT_FEE_BASIS_POINTS)).execute();
  await db.schema.alterTable('brands').addColumn('statement_due_days', 'integer', (c) => c.notNull().defaultTo(DEFAULT_DUE_DAYS)).execute();

  await db.schema
    .createTable('statements')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('brand_id', text, (c) => c.notNull())
    .addColumn('currency', text, (c) => c.notNull())
    /** YYYY-MM: the month in which the billed commissions locked. */
    .addColumn('month', text, (c) => c.notNull())
    .addColumn('line_count', 'integer', (c) => c.notNull())
    .addColumn('commission', 'bigint', (c) => c.notNull())
    .addColumn('fee', 'bigint', (c) => c.notNull())
    .addColumn('total', 'bigint', (c) => c.notNull())
    .addColumn('paid_amount', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('fee_basis_points', 'integer', (c) => c.notNull())
    .addColumn('issued_at', text, (c) => c.notNull())
    .addColumn('due_at', text, (c) => c.notNull())
    .addColumn('paid_at', text)
    /** When the brand was told the statement is overdue (once). */
    .addColumn('overdue_notified_at', text)
    .addUniqueConstraint('statements_brand_month_uq', ['brand_id', 'currency', 'month'])
    .execute();

  await db.schema
    .createTable('statement_lines')
    .addColumn('statement_id', text, (c) => c.notNull())
    /** An order is billed once. */
    .addColumn('order_id', text, (c) => c.primaryKey())
    .addColumn('commission', 'bigint', (c) => c.notNull())
    .addColumn('fee', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('statement_lines_statement_idx').on('statement_lines').columns(['statement_id', 'order_id']).execute();

  await db.schema
    .createTable('statement_payments')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('statement_id', text, (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('reference', text, (c) => c.notNull())
    .addColumn('recorded_by', text, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('statement_payments_statement_idx').on('statement_payments').columns(['statement_id']).execute();

  await db.schema.alterTable('orders').addColumn('statement_id', text).execute();
  await db.schema.alterTable('orders').addColumn('payable_at', text).execute();
  await db.schema.createIndex('orders_statement_idx').on('orders').columns(['statement_id']).execute();
  // Statements find approved commissions by lock date (payout runs use orders_affiliate_commission_idx).
  await db.schema.createIndex('orders_commission_lock_idx').on('orders').columns(['commission_status', 'lock_at']).execute();

  await db.schema
    .createTable('payout_batches')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('payout_count', 'integer', (c) => c.notNull())
    .addColumn('created_by', text, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .execute();

  await db.schema.alterTable('payouts').addColumn('batch_id', text).execute();
  await db.schema.alterTable('payouts').addColumn('status', text, (c) => c.notNull().defaultTo('settled')).execute();
  /** The destination, masked, as it was when the payout was made. */
  await db.schema.alterTable('payouts').addColumn('method', text).execute();
  await db.schema.alterTable('payouts').addColumn('adjustment_total', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('payouts').addColumn('sent_at', text).execute();
  await db.schema.alterTable('payouts').addColumn('settled_at', text).execute();
  await db.schema.alterTable('payouts').addColumn('failed_at', text).execute();
  await db.schema.alterTable('payouts').addColumn('failure_reason', text).execute();
  await db.schema.createIndex('payouts_batch_idx').on('payouts').columns(['batch_id']).execute();
  await sql`update payouts set sent_at = created_at, settled_at = created_at`.execute(db);

  await db.schema
    .createTable('adjustments')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('affiliate_id', text, (c) => c.notNull())
    .addColumn('currency', text, (c) => c.notNull())
    /** Cents: positive owes the affiliate more, negative less. */
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('reason', text, (c) => c.notNull())
    .addColumn('created_by', text, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    /** The payout that paid it; cleared again when that payout fails. */
    .addColumn('payout_id', text)
    .execute();
  await db.schema.createIndex('adjustments_affiliate_idx').on('adjustments').columns(['affiliate_id', 'payout_id']).execute();
  // Adjustments are append-only: amounts and reasons never change, rows are never deleted.
  if (dialect === 'postgres') {
    await sql`create function adjustments_append_only() returns trigger language plpgsql as $$
      begin
        if tg_op = 'DELETE' or new.amount <> old.amount or new.reason <> old.reason or new.affiliate_id <> old.affiliate_id or new.currency <> old.currency then
          raise exception 'adjustments are append-only';
        end if;
        return new;
      end $$`.execute(db);
    await sql`create trigger adjustments_append_only before update or delete on adjustments for each row execute function adjustments_append_only()`.execute(db);
  } else {
    await sql`create trigger adjustments_no_delete before delete on adjustments begin select raise(abort, 'adjustments are append-only'); end`.execute(db);
    await sql`create trigger adjustments_no_change before update of amount, reason, affiliate_id, currency on adjustments begin select raise(abort, 'adjustments are append-only'); end`.execute(db);
  }

  await db.schema
    .createTable('ledger_lines')
    .addColumn('id', dialect === 'postgres' ? 'bigserial' : 'integer', (c) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
    /** The lines of one money event share it, and add up to zero. */
    .addColumn('entry_id', text, (c) => c.notNull())
    /** approval, statement, payment, payable, payout_sent, payout_settled, payout_failed, adjustment, opening */
    .addColumn('kind', text, (c) => c.notNull())
    .addColumn('currency', text, (c) => c.notNull())
    /** e.g. brand:<id>:unbilled, affiliate:<id>:payable, network:cash */
    .addColumn('account', text, (c) => c.notNull())
    /** Cents: debits positive, credits negative. */
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('order_id', text)
    .addColumn('statement_id', text)
    .addColumn('payout_id', text)
    .addColumn('adjustment_id', text)
    .addColumn('created_at', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ledger_lines_account_idx').on('ledger_lines').columns(['currency', 'account']).execute();
  await db.schema.createIndex('ledger_lines_created_idx').on('ledger_lines').columns(['created_at']).execute();

  // Opening balances: approved commissions not yet paid were funded by the network.
  await sql`insert into ledger_lines (entry_id, kind, currency, account, amount, order_id, created_at)
    select 'opening:' || id, 'opening', currency, 'network:opening', commission, id, ${now} from orders
    where commission_status = 'approved' and commission <> 0`.execute(db);
  await sql`insert into ledger_lines (entry_id, kind, currency, account, amount, order_id, created_at)
    select 'opening:' || id, 'opening', currency, 'affiliate:' || affiliate_id || ':payable', -commission, id, ${now} from orders
    where commission_status = 'approved' and commission <> 0`.execute(db);
  await sql`insert into order_events (order_id, field, from_value, to_value, actor, created_at)
    select id, 'commissionStatus', 'approved', 'payable', 'network', ${now} from orders where commission_status = 'approved'`.execute(db);
  await sql`update orders set commission_status = 'payable', payable_at = ${now} where commission_status = 'approved'`.execute(db);
}
