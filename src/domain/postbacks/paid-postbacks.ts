// commission.paid has no webhook event per order (payout.sent names the payout): a payout's sending
// writes one postback event per order it pays, the affiliate's view of the order as paid, in the
// transaction that pays them. Read only when one of the affiliate's active templates fires on it.
import type { AffiliatesRepository } from '../../storage/repositories/affiliates.js';
import type { OrdersRepository } from '../../storage/repositories/orders.js';
import type { PostbacksRepository, PostbackTrigger } from '../../storage/repositories/postbacks.js';
import type { OrderRow, PayoutRow } from '../../storage/tables.js';
import { channelRefsOf, orderOf } from '../orders/orders.js';
import { PAYLOAD_VERSION } from '../webhooks/events.js';

const BATCH = 500;

export interface PaidPostbackRepositories {
  affiliates: AffiliatesRepository;
  orders: OrdersRepository;
  postbacks: PostbacksRepository;
}

/** The commission.paid event of each order `payout` pays at `paidAt` (those payable in it now); none when no template would fire. */
export async function paidPostbacks(repositories: PaidPostbackRepositories, payout: PayoutRow, paidAt: string): Promise<PostbackTrigger[]> {
  const affiliateId = payout.affiliate_id;
  if (!(await repositories.postbacks.subscribed(affiliateId, 'commission.paid'))) return [];
  const channels = await channelRefsOf(repositories.affiliates, affiliateId);
  const triggers: PostbackTrigger[] = [];
  let after: OrderRow | undefined;
  for (;;) {
    const rows = await repositories.orders.listAfter(affiliateId, { payoutId: payout.id }, after, BATCH);
    for (const row of rows.filter((r) => r.commission_status === 'payable')) {
      const data = orderOf({ ...row, commission_status: 'paid', paid_at: paidAt, updated_at: paidAt }, channels);
      triggers.push({
        affiliate_id: affiliateId,
        event: 'commission.paid',
        event_key: `paid:${payout.id}:${row.id}`,
        brand_id: row.organization_id,
        payload: JSON.stringify({ type: 'commission.paid', version: PAYLOAD_VERSION, timestamp: paidAt, data }),
      });
    }
    if (rows.length < BATCH) return triggers;
    after = rows.at(-1);
  }
}
