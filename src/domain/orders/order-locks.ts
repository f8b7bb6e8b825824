// Lock dates: the network approves every order still pending at its lock date, with the events a
// brand's approval sends and the ledger entry of its commission.
import type { Clock } from '../../lib/clock.js';
import type { AffiliatesRepository } from '../../storage/repositories/affiliates.js';
import type { OrdersRepository } from '../../storage/repositories/orders.js';
import type { OrderRow } from '../../storage/tables.js';
import { entriesOfChange } from '../ledger/entries.js';
import { commissionAfter, type CommissionStatus } from './lifecycle.js';
import { orderEvents } from './order-events.js';

export class OrderLocks {
  constructor(
    private readonly repositories: { affiliates: AffiliatesRepository; orders: OrdersRepository },
    private readonly clock: Clock,
  ) {}

  /**
   * Approves every order still pending whose lock date has come; how many it approved. Each order
   * is approved once however many instances run this at the same moment: the change applies only
   * to the order as it was read.
   */
  async approveLocked(batch = 500): Promise<number> {
    const { orders } = this.repositories;
    let approved = 0;
    for (;;) {
      const now = this.clock.iso();
      const due = await orders.pendingLockedBy(now, batch);
      for (const current of due) {
        const next = { status: 'approved', commission_status: commissionAfter(current.commission_status as CommissionStatus, 'approved'), auto_approved: 1 } as const;
        const changed: OrderRow = { ...current, ...next, updated_at: now };
        const events = await orderEvents(this.repositories.affiliates, this.clock, changed, 'updated', next.commission_status === 'approved' ? 'approved' : undefined);
        if (await orders.change(current, next, { actor: 'network' }, now, events, entriesOfChange(current, next))) approved++;
      }
      if (due.length < batch) return approved;
    }
  }
}
