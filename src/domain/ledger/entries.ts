// The network's chart of accounts and the double-entry lines of each money event. Debits are
// positive, credits negative; the lines of one event add up to zero, per currency.
//
//   approval          brand:<id>:unbilled       / affiliate:<id>:approved   the commission
//   statement issued  brand:<id>:receivable     / brand:<id>:unbilled       the commissions billed
//                                               / network:fees              the network's fee
//   statement payment network:cash              / brand:<id>:receivable
//   payable           affiliate:<id>:approved   / affiliate:<id>:payable    (statement fully paid)
//   adjustment        network:adjustments       / affiliate:<id>:payable    (negative: reversed)
//   payout sent       affiliate:<id>:payable    / network:payouts_sent
//   payout settled    network:payouts_sent      / network:cash
//   payout failed     network:payouts_sent      / affiliate:<id>:payable    (back to payable)
//   opening           network:opening           / affiliate:<id>:payable    (funded before statements)
import type { LedgerEntry } from '../../storage/repositories/ledger.js';

export const accounts = {
  brandUnbilled: (brandId: string) => `brand:${brandId}:unbilled`,
  brandReceivable: (brandId: string) => `brand:${brandId}:receivable`,
  affiliateApproved: (affiliateId: string) => `affiliate:${affiliateId}:approved`,
  affiliatePayable: (affiliateId: string) => `affiliate:${affiliateId}:payable`,
  cash: 'network:cash',
  fees: 'network:fees',
  adjustments: 'network:adjustments',
  payoutsSent: 'network:payouts_sent',
  opening: 'network:opening',
} as const;

type Refs = Pick<LedgerEntry, 'orderId' | 'statementId' | 'payoutId' | 'adjustmentId'>;

/** One amount moved from one account to another: debit `to`, credit `from`. */
function transfer(kind: string, currency: string, debit: string, credit: string, amount: number, refs: Refs): LedgerEntry {
  return { kind, currency, lines: [{ account: debit, amount }, { account: credit, amount: -amount }], ...refs };
}

export function approvalEntry(order: { id: string; organization_id: string; affiliate_id: string; currency: string }, commission: number): LedgerEntry {
  return transfer('approval', order.currency, accounts.brandUnbilled(order.organization_id), accounts.affiliateApproved(order.affiliate_id), commission, { orderId: order.id });
}

/** The entries of an order's change: its commission owed from the moment it is approved. */
export function entriesOfChange(
  current: { id: string; organization_id: string; affiliate_id: string; currency: string; commission: number; commission_status: string },
  next: { commission_status?: string; commission?: number },
): LedgerEntry[] {
  if (current.commission_status === 'approved' || next.commission_status !== 'approved') return [];
  return [approvalEntry(current, next.commission ?? current.commission)];
}

export function statementEntry(statement: { id: string; brand_id: string; currency: string; commission: number; fee: number }): LedgerEntry {
  return {
    kind: 'statement',
    currency: statement.currency,
    statementId: statement.id,
    lines: [
      { account: accounts.brandReceivable(statement.brand_id), amount: statement.commission + statement.fee },
      { account: accounts.brandUnbilled(statement.brand_id), amount: -statement.commission },
      { account: accounts.fees, amount: -statement.fee },
    ],
  };
}

export function paymentEntry(statement: { id: string; brand_id: string; currency: string }, amount: number): LedgerEntry {
  return transfer('payment', statement.currency, accounts.cash, accounts.brandReceivable(statement.brand_id), amount, { statementId: statement.id });
}

export function payableEntry(order: { id: string; affiliate_id: string; currency: string; commission: number }): LedgerEntry {
  return transfer('payable', order.currency, accounts.affiliateApproved(order.affiliate_id), accounts.affiliatePayable(order.affiliate_id), order.commission, { orderId: order.id });
}

export function adjustmentEntry(adjustment: { id: string; affiliate_id: string; currency: string; amount: number }): LedgerEntry {
  return transfer('adjustment', adjustment.currency, accounts.adjustments, accounts.affiliatePayable(adjustment.affiliate_id), adjustment.amount, { adjustmentId: adjustment.id });
}

export function openingEntry(order: { id: string; affiliate_id: string; currency: string; commission: number }): LedgerEntry {
  return transfer('opening', order.currency, accounts.opening, accounts.affiliatePayable(order.affiliate_id), order.commission, { orderId: order.id });
}

type PayoutFacts = { id: string; affiliate_id: string; currency: string; total: number };

export function payoutSentEntry(payout: PayoutFacts): LedgerEntry {
  return transfer('payout_sent', payout.currency, accounts.affiliatePayable(payout.affiliate_id), accounts.payoutsSent, payout.total, { payoutId: payout.id });
}

export function payoutSettledEntry(payout: PayoutFacts): LedgerEntry {
  return transfer('payout_settled', payout.currency, accounts.payoutsSent, accounts.cash, payout.total, { payoutId: payout.id });
}

export function payoutFailedEntry(payout: PayoutFacts): LedgerEntry {
  return transfer('payout_failed', payout.currency, accounts.payoutsSent, accounts.affiliatePayable(payout.affiliate_id), payout.total, { payoutId: payout.id });
}
