// The order lifecycle, as a table: who may move an order or its commission from which state to
// which. docs/decisions.md shows the same table.
//
//   order status       pending → approved | canceled            (brand)
//   commissionStatus   pending → approved      (with the order's approval)
//                      pending → canceled      (with the order's cancellation)
//                      approved → paid         (operator: affnet commissions pay)
//                      approved → canceled     (operator: affnet commissions cancel)
import { conflict } from '../errors.js';

export type OrderStatus = 'pending' | 'approved' | 'canceled';
export type CommissionStatus = 'pending' | 'approved' | 'paid' | 'canceled';

const ORDER_MOVES: Record<OrderStatus, readonly OrderStatus[]> = {
  pending: ['approved', 'canceled'],
  approved: [],
  canceled: [],
};

const COMMISSION_MOVES: Record<CommissionStatus, readonly CommissionStatus[]> = {
  pending: ['approved', 'canceled'],
  approved: ['paid', 'canceled'],
  paid: [],
  canceled: [],
};

/** The commission status that goes with an order status change by the brand. */
export const COMMISSION_FOR_ORDER: Record<'approved' | 'canceled', CommissionStatus> = { approved: 'approved', canceled: 'canceled' };

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
