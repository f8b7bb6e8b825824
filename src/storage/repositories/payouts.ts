// Payouts: what a payment run would pay, the run itself (orders claimed and paid in one
// transaction), and the affiliate's payouts.
import type { Database } from '../database.js';
import type { NewWebhookEvent, PayoutRow } from '../tables.js';
import { writeOutbox } from './webhooks.js';
import { pageWithTotal, type Page, type PageWindow } from './pages.js';

/** Rows per statement when many orders are touched at once (bound-parameter limits). */
const CHUNK = 500;

export class PayoutsRepository {
  constructor(private readonly database: Database) {}

  /** Approved, unpaid commissions of orders created up to `until`, per currency: what a payment run would pay. */
  async payable(
    affiliateId: string,
    until: string,
  ): Promise<Array<{ currency: string; orders: number; total: number; first: string; last: string }>> {
    const rows = await this.database.db
      .selectFrom('orders')
      .select((eb) => [
        'currency',
        eb.fn.countAll<number>().as('orders'),
        eb.fn.sum<number>('commission').as('total'),
        eb.fn.min<string>('created_at').as('first'),
        eb.fn.max<string>('created_at').as('last'),
      ])
      .where('affiliate_id', '=', affiliateId)
      .where('commission_status', '=', 'approved')
      .where('created_at', '<=', until)
      .groupBy('currency')
      .orderBy('currency')
      .execute();
    return rows.map((r) => ({ ...r, orders: Number(r.orders), total: Number(r.total) }));
  }

  /**
   * Pays the affiliate's approved commissions of orders created up to `until`: one payout per
   * currency, the orders marked paid and pointing to it, each change audited, in one transaction.
   * The orders are claimed first (an update that only matches approved ones), so two runs at the
   * same time cannot pay an order twice: the second finds nothing left to claim and creates nothing.
   */
  create(
    affiliateId: string,
    until: string,
    actor: string,
    now: string,
    newId: () => string,
    /** Webhook events of the payouts made, written to the outbox in the same transaction. */
    eventsFor: (payouts: PayoutRow[]) => NewWebhookEvent[] = () => [],
  ): Promise<PayoutRow[]> {
    return this.database.db.transaction().execute(async (trx) => {
      const claimed = await trx
        .updateTable('orders')
        .set({ commission_status: 'paid', paid_at: now, updated_at: now })
        .where('affiliate_id', '=', affiliateId)
        .where('commission_status', '=', 'approved')
        .where('created_at', '<=', until)
        .returning(['id', 'commission', 'currency', 'created_at'])
        .execute();
      const byCurrency = new Map<string, typeof claimed>();
      for (const order of claimed) {
        const group = byCurrency.get(order.currency);
        if (group) group.push(order);
        else byCurrency.set(order.currency, [order]);
      }
      const payouts: PayoutRow[] = [];
      for (const [currency, orders] of [...byCurrency].sort(([a], [b]) => (a < b ? -1 : 1))) {
        const times = orders.map((o) => o.created_at).sort();
        const payout: PayoutRow = {
          id: newId(),
          affiliate_id: affiliateId,
          currency,
          period_start: times[0]!,
          period_end: times.at(-1)!,
          total: orders.reduce((sum, o) => sum + Number(o.commission), 0),
          order_count: orders.length,
          created_at: now,
        };
        await trx.insertInto('payouts').values(payout).execute();
        for (let i = 0; i < orders.length; i += CHUNK) {
          const ids = orders.slice(i, i + CHUNK).map((o) => o.id);
          await trx.updateTable('orders').set({ payout_id: payout.id }).where('id', 'in', ids).execute();
          await trx
            .insertInto('order_events')
            .values(ids.map((id) => ({ order_id: id, field: 'commissionStatus', from_value: 'approved', to_value: 'paid', actor, created_at: now })))
            .execute();
        }
        payouts.push(payout);
      }
      await writeOutbox(trx, eventsFor(payouts), now);
      return payouts;
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
}
