// Statements: what each brand is billed per month and currency for the commissions that locked,
// with the network's fee per line; the payments recorded against them; and, once a statement is
// fully paid, its commissions made payable. Each write carries its ledger entries, webhook events
// and mail in the same transaction.
import type { Database } from '../database.js';
import type { OrderRow, StatementRow } from '../tables.js';
import { writeEffects, type Effects } from './effects.js';
import { auditCommissionMoves } from './orders.js';
import { pageWithTotal, type Page, type PageWindow } from './pages.js';

/** Rows per statement when many orders are touched at once (bound-parameter limits). */
const CHUNK = 500;

/** A commission a statement bills. */
export interface BillableOrder {
  id: string;
  affiliate_id: string;
  commission: number;
}

export class StatementsRepository {
  constructor(private readonly database: Database) {}

  /** Brands and currencies with approved, unbilled commissions locked before `until`. */
  async billable(until: string): Promise<Array<{ brand_id: string; currency: string }>> {
    return this.database.db
      .selectFrom('orders')
      .select(['organization_id as brand_id', 'currency'])
      .distinct()
      .where('commission_status', '=', 'approved')
      .where('statement_id', 'is', null)
      .where('lock_at', '<', until)
      .orderBy('organization_id')
      .orderBy('currency')
      .execute();
  }

  /** The brand's approved, unbilled commissions in `currency` locked before `until`, oldest lock first. */
  async unbilled(brandId: string, currency: string, until: string): Promise<BillableOrder[]> {
    const rows = await this.database.db
      .selectFrom('orders')
      .select(['id', 'affiliate_id', 'commission'])
      .where('organization_id', '=', brandId)
      .where('currency', '=', currency)
      .where('commission_status', '=', 'approved')
      .where('statement_id', 'is', null)
      .where('lock_at', '<', until)
      .orderBy('lock_at')
      .orderBy('id')
      .execute();
    return rows.map((r) => ({ ...r, commission: Number(r.commission) }));
  }

  /**
   * Issues the statement with its lines, billing each order once: false (nothing written) when the
   * brand already has a statement for the month and currency, or another issue billed one of the
   * orders first.
   */
  issue(statement: StatementRow, lines: ReadonlyArray<{ order_id: string; commission: number; fee: number }>, effects: Effects): Promise<boolean> {
    return this.database.db
      .transaction()
      .execute(async (trx) => {
        const inserted = await trx
          .insertInto('statements')
          .values(statement)
          .onConflict((oc) => oc.columns(['brand_id', 'currency', 'month']).doNothing())
          .executeTakeFirst();
        if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 0) return false;
        for (let i = 0; i < lines.length; i += CHUNK) {
          const chunk = lines.slice(i, i + CHUNK);
          await trx.insertInto('statement_lines').values(chunk.map((line) => ({ statement_id: statement.id, ...line }))).execute();
          const billed = await trx
            .updateTable('orders')
            .set({ statement_id: statement.id })
            .where('id', 'in', chunk.map((line) => line.order_id))
            .where('statement_id', 'is', null)
            .where('commission_status', '=', 'approved')
            .executeTakeFirst();
          if (Number(billed.numUpdatedRows) !== chunk.length) throw new LostRace();
        }
        await writeEffects(trx, effects, statement.issued_at);
        return true;
      })
      .catch((error: unknown) => {
        if (error instanceof LostRace) return false;
        throw error;
      });
  }

  find(id: string): Promise<StatementRow | undefined> {
    return this.database.db.selectFrom('statements').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findForBrand(brandId: string, id: string): Promise<StatementRow | undefined> {
    return this.database.db.selectFrom('statements').selectAll().where('brand_id', '=', brandId).where('id', '=', id).executeTakeFirst();
  }

  /** A page of the brand's statements, newest month first, and the total. */
  list(brandId: string, page: PageWindow): Promise<Page<StatementRow>> {
    const mine = () => this.database.db.selectFrom('statements').where('brand_id', '=', brandId);
    return pageWithTotal(
      this.database,
      mine().selectAll().orderBy('month', 'desc').orderBy('currency').limit(page.limit).offset(page.offset).execute(),
      mine().select((eb) => eb.fn.countAll<number>().as('n')),
    );
  }

  /** Every statement, newest first (the operator's list), optionally only unpaid ones. */
  listAll(unpaidOnly: boolean): Promise<StatementRow[]> {
    let q = this.database.db.selectFrom('statements').selectAll();
    if (unpaidOnly) q = q.where('paid_at', 'is', null);
    return q.orderBy('month', 'desc').orderBy('brand_id').orderBy('currency').execute();
  }

  /** A page of every brand's statements (unpaid ones, overdue ones at `now`, or paid ones), newest month first, with the brand's name. */
  search(filters: { status?: 'unpaid' | 'overdue' | 'paid' | undefined; brandId?: string | undefined; month?: string | undefined; now: string }, page: PageWindow): Promise<Page<StatementRow & { brand_name: string }>> {
    const q = () => {
      let query = this.database.db.selectFrom('statements').innerJoin('brands', 'brands.id', 'statements.brand_id');
      if (filters.status === 'paid') query = query.where('statements.paid_at', 'is not', null);
      if (filters.status === 'unpaid' || filters.status === 'overdue') query = query.where('statements.paid_at', 'is', null);
      if (filters.status === 'overdue') query = query.where('statements.due_at', '<=', filters.now);
      if (filters.brandId) query = query.where('statements.brand_id', '=', filters.brandId);
      if (filters.month) query = query.where('statements.month', '=', filters.month);
      return query;
    };
    return pageWithTotal(
      this.database,
      q()
        .selectAll('statements')
        .select('brands.name as brand_name')
        .orderBy('statements.month', 'desc')
        .orderBy('brands.name')
        .orderBy('statements.currency')
        .orderBy('statements.id')
        .limit(page.limit)
        .offset(page.offset)
        .execute(),
      q().select((eb) => eb.fn.countAll<number>().as('n')),
    );
  }

  /** A page of a statement's lines with the orders they bill, in the order they locked. */
  lines(statementId: string, page: PageWindow): Promise<Page<StatementLine>> {
    const q = () => this.database.db.selectFrom('statement_lines').innerJoin('orders', 'orders.id', 'statement_lines.order_id').where('statement_lines.statement_id', '=', statementId);
    return pageWithTotal(
      this.database,
      q()
        .select(['orders.order_id', 'orders.affiliate_id', 'orders.value', 'orders.created_at', 'orders.lock_at', 'orders.auto_approved', 'statement_lines.commission', 'statement_lines.fee'])
        .orderBy('orders.lock_at')
        .orderBy('orders.id')
        .limit(page.limit)
        .offset(page.offset)
        .execute(),
      q().select((eb) => eb.fn.countAll<number>().as('n')),
    );
  }

  /** Orders billed by the statement, still approved (made payable when it is fully paid). */
  approvedOrdersOf(statementId: string): Promise<OrderRow[]> {
    return this.database.db.selectFrom('orders').selectAll().where('statement_id', '=', statementId).where('commission_status', '=', 'approved').orderBy('id').execute();
  }

  /**
   * Records a payment. False when it would pay more than is left (another payment came first).
   * When it completes the statement, the statement is marked paid and its approved commissions
   * become payable, with `payable` effects, in the same transaction.
   */
  recordPayment(
    statement: StatementRow,
    payment: { id: string; amount: number; reference: string; recorded_by: string; created_at: string },
    effects: Effects,
    whenPaid: Effects,
  ): Promise<boolean> {
    const now = payment.created_at;
    return this.database.db.transaction().execute(async (trx) => {
      const paidAmount = Number(statement.paid_amount) + payment.amount;
      const completes = paidAmount === Number(statement.total);
      const updated = await trx
        .updateTable('statements')
        .set({ paid_amount: paidAmount, ...(completes && { paid_at: now }) })
        .where('id', '=', statement.id)
        .where('paid_amount', '=', statement.paid_amount)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) return false;
      await trx.insertInto('statement_payments').values({ statement_id: statement.id, ...payment }).execute();
      await writeEffects(trx, effects, now);
      if (completes) {
        const made = await trx
          .updateTable('orders')
          .set({ commission_status: 'payable', payable_at: now, updated_at: now })
          .where('statement_id', '=', statement.id)
          .where('commission_status', '=', 'approved')
          .returning('id')
          .execute();
        await auditCommissionMoves(trx, made.map((o) => o.id), 'approved', 'payable', now);
        await writeEffects(trx, whenPaid, now);
      }
      return true;
    });
  }

  payments(statementId: string): Promise<Array<{ id: string; amount: number; reference: string; created_at: string }>> {
    return this.database.db.selectFrom('statement_payments').select(['id', 'amount', 'reference', 'created_at']).where('statement_id', '=', statementId).orderBy('created_at').orderBy('id').execute();
  }

  /** Unpaid statements past their due date whose brand was not yet told. */
  overdue(now: string): Promise<StatementRow[]> {
    return this.database.db.selectFrom('statements').selectAll().where('paid_at', 'is', null).where('due_at', '<=', now).where('overdue_notified_at', 'is', null).orderBy('due_at').execute();
  }

  /** Marks the statement's brand told it is overdue, once across instances; false when another did first. */
  markOverdue(statementId: string, now: string, effects: Effects): Promise<boolean> {
    return this.database.db.transaction().execute(async (trx) => {
      const marked = await trx.updateTable('statements').set({ overdue_notified_at: now }).where('id', '=', statementId).where('overdue_notified_at', 'is', null).executeTakeFirst();
      if (Number(marked.numUpdatedRows) === 0) return false;
      await writeEffects(trx, effects, now);
      return true;
    });
  }
}

/** One line of a statement as the brand reads it. */
export interface StatementLine {
  order_id: string;
  affiliate_id: string;
  value: number;
  created_at: string;
  lock_at: string;
  auto_approved: number;
  commission: number;
  fee: number;
}

class LostRace extends Error {}
