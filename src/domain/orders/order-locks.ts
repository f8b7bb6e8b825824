// Lock dates: the network approves every order still pending at its lock date, with the events a
// brand's approval sends and the ledger entry of its commission. An order only the shop's pages
// reported (the tag or the pixel, whose key is public) and the brand never confirmed is canceled
// instead (commissionReason unconfirmed), unless the brand trusts its tag's conversions.
import type { Clock } from '../../lib/clock.js';
import type { AffiliatesRepository } from '../../storage/repositories/affiliates.js';
import type { BrandsRepository } from '../../storage/repositories/brands.js';
import type { OrdersRepository } from '../../storage/repositories/orders.js';
import type { OrderRow } from '../../storage/tables.js';
import { entriesOfChange } from '../ledger/entries.js';
import { commissionAfter, type CommissionStatus } from './lifecycle.js';
import { orderEvents } from './order-events.js';
import type { OrderChange } from '../../storage/repositories/orders.js';
import { fromPages } from './conversions.js';

export class OrderLocks {
  constructor(
    private readonly repositories: { affiliates: AffiliatesRepository; brands: BrandsRepository; orders: OrdersRepository },
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
      const trusting = new Map<string, boolean>();
      for (const current of due) {
        const unconfirmed = fromPages(current.source) && !(await this.trustsPages(current.organization_id, trusting));
        const next: OrderChange = unconfirmed
          ? { status: 'canceled', commission_status: 'canceled', commission_reason: 'unconfirmed', commission: 0 }
          : { status: 'approved', commission_status: commissionAfter(current.commission_status as CommissionStatus, 'approved'), auto_approved: 1 };
        const changed: OrderRow = { ...current, ...next, updated_at: now };
        const settled = next.commission_status === 'approved' || (unconfirmed && current.commission_status !== 'canceled') ? (next.commission_status as 'approved' | 'canceled') : undefined;
        const events = await orderEvents(this.repositories.affiliates, this.clock, changed, 'updated', settled);
        if (await orders.change(current, next, { actor: 'network' }, now, events, entriesOfChange(current, next))) approved++;
      }
      if (due.length < batch) return approved;
    }
  }

  /** Whether the brand lets its tag's and pixel's conversions lock unconfirmed (read once per round). */
  private async trustsPages(brandId: string, known: Map<string, boolean>): Promise<boolean> {
    if (!known.has(brandId)) known.set(brandId, (await this.repositories.brands.find(brandId))?.trust_tag_conversions === 1);
    return known.get(brandId)!;
  }
}
