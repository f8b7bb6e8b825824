// The order lifecycle, as a table: who may move an order or its commission from which state to
// which. docs/decisions.md shows the same table.
//
//   order status       pending → approved | canceled            (brand)
//   commissionStatus   (new) → pending         (with the new order)
//                      (new) → canceled        (the order's click did not count: bot, HEAD or
//                                               suspicious; or its affiliate is suspended;
//                                               commission 0, commissionReason set)
//                      (new) → held            (the conversion tripped a fraud rule; holdReasons)
//                      pending → approved      (with the order's approval)
//                      pending → canceled      (with the order's cancellation)
//                      held → pending          (an operator releases it; lockAt from then)
//                      held → canceled         (an operator declines it: commission 0,
//                                               commissionReason fraud_declined; or the brand
//                                               cancels the order). The brand's approval of a
//                                               held order is refused (409 commission_held)
//                      canceled stays canceled when the brand approves or cancels the order
//                      approved → payable      (the statement that billed it is paid in full)
//                      payable → paid          (a payout run's payout is sent)
//                      paid → payable          (that payout failed)
import { conflict } from '../errors.js';

export type OrderStatus = 'pending' | 'approved' | 'canceled';
export type CommissionStatus = 'pending' | 'held' | 'approved' | 'payable' | 'paid' | 'canceled';

const ORDER_MOVES: Record<OrderStatus, readonly OrderStatus[]> = {
  pending: ['approved', 'canceled'],
  approved: [],
  canceled: [],
};

const COMMISSION_MOVES: Record<CommissionStatus, readonly CommissionStatus[]> = {
  pending: ['approved', 'canceled'],
  held: ['pending', 'canceled'],
  approved: ['payable'],
  payable: ['paid'],
  paid: ['payable'],
  canceled: [],
};

/** The commission status that goes with an order status change by the brand. */
export const COMMISSION_FOR_ORDER: Record<'approved' | 'canceled', CommissionStatus> = { approved: 'approved', canceled: 'canceled' };

/**
 * The commission status after the brand moves the order to `to`: the commission follows the
 * order, except one canceled from the start (its click did not count), which nothing revives.
 */
export function commissionAfter(current: CommissionStatus, to: 'approved' | 'canceled'): CommissionStatus {
  return current === 'canceled' ? 'canceled' : COMMISSION_FOR_ORDER[to];
}

export function checkOrderMove(from: OrderStatus, to: OrderStatus): void {
  if (!ORDER_MOVES[from].includes(to)) {
    throw conflict('invalid_transition', `order is ${from} and cannot become ${to}; only a pending order can be approved or canceled`);
  }
}

export function checkCommissionMove(from: CommissionStatus, to: CommissionStatus): void {
  if (!COMMISSION_MOVES[from].includes(to)) {
    throw conflict('invalid_transition', `commission is ${from} and cannot become ${to}`);
  }
}
