// Payouts: what each affiliate has payable (commissions and unpaid adjustments), the runs that
// claim it into payouts, and each payout's way from pending to sent to settled or failed, every
// step in one transaction with its ledger entries, webhook events and mail.
import type { Database } from '../database.js';
import type { PayoutRow } from '../tables.js';
import { auditCommissionMoves } from './orders.js';
import { writeEffects, type Effects } from './effects.js';
import { pageWithTotal, type Page, type PageWindow } from './pages.js';

/** What an affiliate has payable in one currency. */
export interface Payable {
  affiliate_id: string;
  currency: string;
  commission: number;
  orders: number;
  adjustments: number;
}

/** A payout a run means to make: the minimum it must reach once claimed, and where it goes. */
export interface PlannedPayout {
  id: string;
  affiliate_id: string;
  currency: string;
  minimum: number;
  method: string | null;
}

export class PayoutsRepository {
  constructor(private readonly database: Database) {}

  /** Payable commissions and unpaid adjustments per affiliate and currency (of one affiliate when given). */
  async payable(affiliateId?: string): Promise<Payable[]> {
    let orders = this.database.db
      .selectFrom('orders')
      .select((eb) => ['affiliate_id', 'currency', eb.fn.sum<number>('commission').as('total'), eb.fn.countAll<number>().as('n')])
      .where('commission_status', '=', 'payable')
      .where('payout_id', 'is', null);
    let adjustments = this.database.db
      .selectFrom('adjustments')
      .select((eb) => ['affiliate_id', 'currency', eb.fn.sum<number>('amount').as('total')])
      .where('payout_id', 'is', null);
    if (affiliateId) {
      orders = orders.where('affiliate_id', '=', affiliateId);
      adjustments = adjustments.where('affiliate_id', '=', affiliateId);
    }
    const [commissions, adjusted] = await Promise.all([orders.groupBy(['affiliate_id', 'currency']).execute(), adjustments.groupBy(['affiliate_id', 'currency']).execute()]);
    const byKey = new Map<string, Payable>();
    const entry = (affiliate: string, currency: string) => {
      const key = `${affiliate} ${currency}`;
      let found = byKey.get(key);
      if (!found) byKey.set(key, (found = { affiliate_id: affiliate, currency, commission: 0, orders: 0, adjustments: 0 }));
      return found;
    };
    for (const row of commissions) Object.assign(entry(row.affiliate_id, row.currency), { commission: Number(row.total), orders: Number(row.n) });
    for (const row of adjusted) entry(row.affiliate_id, row.currency).adjustments = Number(row.total);
    return [...byKey.values()].sort((a, b) => (a.affiliate_id === b.affiliate_id ? (a.currency < b.currency ? -1 : 1) : a.affiliate_id < b.affiliate_id ? -1 : 1));
  }

  /**
   * Makes a run: a batch and, for each planned payout, the affiliate's payable commissions and
   * unpaid adjustments in its currency claimed into it (an update that matches only unclaimed
   * ones, so two runs at the same time never pay one twice). A payout whose claim falls below
   * its minimum is not made, and what it claimed is released. Returns the payouts made.
   */
  createRun(
    batch: { id: string; created_by: string; created_at: string },
    planned: readonly PlannedPayout[],
    effectsFor: (payouts: PayoutRow[]) => Effects,
  ): Promise<PayoutRow[]> {
    const now = batch.created_at;
    return this.database.db.transaction().execute(async (trx) => {
      const made: PayoutRow[] = [];
      for (const plan of planned) {
        const orders = await trx
          .updateTable('orders')
          .set({ payout_id: plan.id })
          .where('affiliate_id', '=', plan.affiliate_id)
          .where('currency', '=', plan.currency)
          .where('commission_status', '=', 'payable')
          .where('payout_id', 'is', null)
          .returning(['commission', 'created_at'])
          .execute();
        const adjustments = await trx
          .updateTable('adjustments')
          .set({ payout_id: plan.id })
          .where('affiliate_id', '=', plan.affiliate_id)
          .where('currency', '=', plan.currency)
          .where('payout_id', 'is', null)
          .returning('amount')
          .execute();
        const commission = orders.reduce((sum, o) => sum + Number(o.commission), 0);
        const adjustmentTotal = adjustments.reduce((sum, a) => sum + Number(a.amount), 0);
        const total = commission + adjustmentTotal;
        if (total < plan.minimum || total <= 0) {
          await trx.updateTable('orders').set({ payout_id: null }).where('payout_id', '=', plan.id).execute();
          await trx.updateTable('adjustments').set({ payout_id: null }).where('payout_id', '=', plan.id).execute();
          continue;
        }
        const times = orders.map((o) => o.created_at).sort();
        const payout: PayoutRow = {
          id: plan.id,
          affiliate_id: plan.affiliate_id,
          currency: plan.currency,
          period_start: times[0] ?? now,
          period_end: times.at(-1) ?? now,
          total,
          order_count: orders.length,
          adjustment_total: adjustmentTotal,
          created_at: now,
          batch_id: batch.id,
          status: 'pending',
          method: plan.method,
          sent_at: null,
          settled_at: null,
          failed_at: null,
          failure_reason: null,
        };
        await trx.insertInto('payouts').values(payout).execute();
        made.push(payout);
      }
      await trx.insertInto('payout_batches').values({ ...batch, payout_count: made.length }).execute();
      await writeEffects(trx, effectsFor(made), now);
      return made;
    });
  }

  /**
   * Marks a pending payout sent: its commissions are paid from now. False when it was not
   * pending any more (another export sent or failed it first).
   */
  send(payout: PayoutRow, now: string, effects: Effects): Promise<boolean> {
    return this.database.db.transaction().execute(async (trx) => {
      const sent = await trx.updateTable('payouts').set({ status: 'sent', sent_at: now }).where('id', '=', payout.id).where('status', '=', 'pending').executeTakeFirst();
      if (Number(sent.numUpdatedRows) === 0) return false;
      const paid = await trx
        .updateTable('orders')
        .set({ commission_status: 'paid', paid_at: now, updated_at: now })
        .where('payout_id', '=', payout.id)
        .where('commission_status', '=', 'payable')
        .returning('id')
        .execute();
      await auditCommissionMoves(trx, paid.map((o) => o.id), 'payable', 'paid', now);
      await writeEffects(trx, effects, now);
      return true;
    });
  }

  /** Marks a sent payout settled; false when it was not sent (settled or failed already). */
  settle(payout: PayoutRow, now: string, effects: Effects): Promise<boolean> {
    return this.database.db.transaction().execute(async (trx) => {
      const settled = await trx.updateTable('payouts').set({ status: 'settled', settled_at: now }).where('id', '=', payout.id).where('status', '=', 'sent').executeTakeFirst();
      if (Number(settled.numUpdatedRows) === 0) return false;
      await writeEffects(trx, effects, now);
      return true;
    });
  }

  /**
   * Marks a pending or sent payout failed: its commissions are payable again (paidAt and payoutId
   * cleared) and its adjustments unpaid, for the next run. False when its status had moved on.
   */
  fail(payout: PayoutRow, reason: string, now: string, effects: Effects): Promise<boolean> {
    return this.database.db.transaction().execute(async (trx) => {
      const failed = await trx
        .updateTable('payouts')
        .set({ status: 'failed', failed_at: now, failure_reason: reason })
        .where('id', '=', payout.id)
        .where('status', '=', payout.status)
        .where('status', 'in', ['pending', 'sent'])
        .executeTakeFirst();
      if (Number(failed.numUpdatedRows) === 0) return false;
      const returned = await trx
        .updateTable('orders')
        .set({ commission_status: 'payable', paid_at: null, payout_id: null, updated_at: now })
        .where('payout_id', '=', payout.id)
        .returning(['id', 'commission_status'])
        .execute();
      if (payout.status === 'sent') await auditCommissionMoves(trx, returned.map((o) => o.id), 'paid', 'payable', now);
      await trx.updateTable('adjustments').set({ payout_id: null }).where('payout_id', '=', payout.id).execute();
      await writeEffects(trx, effects, now);
      return true;
    });
  }

  /**
   * Records a payout made before this database knew payout runs (the demo's history): the
   * affiliate's payable commissions of orders created up to `until`, paid and settled at once.
   */
  recordPast(affiliateId: string, until: string, id: string, now: string, effectsFor: (payouts: PayoutRow[]) => Effects): Promise<PayoutRow[]> {
    return this.database.db.transaction().execute(async (trx) => {
      const claimed = await trx
        .updateTable('orders')
        .set({ commission_status: 'paid', paid_at: now, payout_id: id, updated_at: now })
        .where('affiliate_id', '=', affiliateId)
        .where('commission_status', '=', 'payable')
        .where('payout_id', 'is', null)
        .where('created_at', '<=', until)
        .returning(['id', 'commission', 'currency', 'created_at'])
        .execute();
      if (claimed.length === 0) return [];
      const currencies = new Set(claimed.map((o) => o.currency));
      if (currencies.size > 1) throw new Error('recordPast pays one currency at a time');
      const times = claimed.map((o) => o.created_at).sort();
      const payout: PayoutRow = {
        id,
        affiliate_id: affiliateId,
        currency: claimed[0]!.currency,
        period_start: times[0]!,
        period_end: times.at(-1)!,
        total: claimed.reduce((sum, o) => sum + Number(o.commission), 0),
        order_count: claimed.length,
        adjustment_total: 0,
        created_at: now,
        batch_id: null,
        status: 'settled',
        method: null,
        sent_at: now,
        settled_at: now,
        failed_at: null,
        failure_reason: null,
      };
      await trx.insertInto('payouts').values(payout).execute();
      await auditCommissionMoves(trx, claimed.map((o) => o.id), 'payable', 'paid', now);
      await writeEffects(trx, effectsFor([payout]), now);
      return [payout];
    });
  }

  /** A page of the affiliate's payouts, newest first (id breaks ties), and the total. */
  list(affiliateId: string, page: PageWindow): Promise<Page<PayoutRow>> {
    const mine = () => this.database.db.selectFrom('payouts').where('affiliate_id', '=', affiliateId);
    return pageWithTotal(
      this.database,
      mine().selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute(),
      mine().select((eb) => eb.fn.countAll<number>().as('n')),
    );
  }

  find(affiliateId: string, id: string): Promise<PayoutRow | undefined> {
    return this.database.db.selectFrom('payouts').selectAll().where('affiliate_id', '=', affiliateId).where('id', '=', id).executeTakeFirst();
  }

  /** The payouts of a run, by affiliate and currency. */
  ofBatch(batchId: string): Promise<PayoutRow[]> {
    return this.database.db.selectFrom('payouts').selectAll().where('batch_id', '=', batchId).orderBy('affiliate_id').orderBy('currency').execute();
  }

  batchExists(batchId: string): Promise<boolean> {
    return this.database.db.selectFrom('payout_batches').select('id').where('id', '=', batchId).executeTakeFirst().then(Boolean);
  }

  /** Every run, newest first. */
  batches(): Promise<Array<{ id: string; payout_count: number; created_by: string; created_at: string }>> {
    return this.database.db.selectFrom('payout_batches').selectAll().orderBy('created_at', 'desc').orderBy('id').execute();
  }

  /** A page of runs, newest first. */
  batchPage(page: PageWindow): Promise<Page<{ id: string; payout_count: number; created_by: string; created_at: string }>> {
    return pageWithTotal(
      this.database,
      this.database.db.selectFrom('payout_batches').selectAll().orderBy('created_at', 'desc').orderBy('id').limit(page.limit).offset(page.offset).execute(),
      this.database.db.selectFrom('payout_batches').select((eb) => eb.fn.countAll<number>().as('n')),
    );
  }

  /** The runs' payouts counted and summed per run, status and currency. */
  async batchTotals(batchIds: readonly string[]): Promise<Array<{ batch_id: string; status: PayoutRow['status']; currency: string; payouts: number; total: number }>> {
    if (batchIds.length === 0) return [];
    const rows = await this.database.db
      .selectFrom('payouts')
      .select((eb) => ['batch_id', 'status', 'currency', eb.fn.countAll<number>().as('payouts'), eb.fn.sum<number>('total').as('total')])
      .where('batch_id', 'in', [...batchIds])
      .groupBy(['batch_id', 'status', 'currency'])
      .orderBy('batch_id')
      .orderBy('currency')
      .orderBy('status')
      .execute();
    return rows.map((r) => ({ batch_id: r.batch_id!, status: r.status, currency: r.currency, payouts: Number(r.payouts), total: Number(r.total) }));
  }
}
