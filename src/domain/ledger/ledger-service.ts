// What an accountant asks of the ledger: does it balance, and does it say what the records say
// (the check); the month's trial balance per currency (the report); operators' adjustments; and
// each affiliate's monthly statement of what it is owed, read from its own accounts.
import type { Clock } from '../../lib/clock.js';
import type { AdjustmentsRepository } from '../../storage/repositories/adjustments.js';
import type { BrandsRepository } from '../../storage/repositories/brands.js';
import type { AffiliatesRepository } from '../../storage/repositories/affiliates.js';
import type { AccountSum, AffiliateLedger, LedgerRepository } from '../../storage/repositories/ledger.js';
import type { OrdersRepository } from '../../storage/repositories/orders.js';
import type { AdjustmentRow } from '../../storage/tables.js';
import { invalid, notFound } from '../errors.js';
import { newId } from '../random.js';
import { MONTH, monthOf, monthRange } from '../time.js';
import { adjustmentEntry } from './entries.js';
import { actorName, auditEntry, type Actor } from '../audit/audit-entry.js';
import { offsetOf, type PageRequest, type Paged } from '../paging.js';

/** An adjustment as it is stored. */
export type AdjustmentView = AdjustmentRow;

export interface LedgerRepositories {
  adjustments: AdjustmentsRepository;
  affiliateLedger: AffiliateLedger;
  affiliates: AffiliatesRepository;
  brands: BrandsRepository;
  ledger: LedgerRepository;
  orders: OrdersRepository;
}

/** One account of the trial balance. */
export interface TrialBalanceLine {
  account: string;
  /** Whose account it is (a brand's or an affiliate's, by name; the network's own otherwise) and what it holds, for a page to word. */
  holder: { kind: 'brand' | 'affiliate' | 'network'; id?: string; name?: string };
  purpose: string;
  opening: number;
  debit: number;
  credit: number;
  closing: number;
}

/** Whose an account is and what it holds, from its name (`brand:<id>:unbilled`, `network:fees`). */
function holderOf(account: string): Pick<TrialBalanceLine, 'holder' | 'purpose'> {
  const parts = account.split(':');
  const kind = parts[0];
  if ((kind === 'brand' || kind === 'affiliate') && parts.length === 3) return { holder: { kind, id: parts[1]! }, purpose: parts[2]! };
  return { holder: { kind: 'network' }, purpose: parts.slice(1).join(':') || account };
}

/** What the network owes an affiliate in one currency over a month, from its ledger accounts. */
export interface AffiliateStatement {
  month: string;
  currency: string;
  /** Owed at the month's start (approved and payable), in cents. */
  openingBalance: number;
  /** Commissions approved in the month. */
  approved: number;
  /** Commissions that became payable in the month (their brands paid). */
  payable: number;
  /** Payouts sent in the month. */
  paid: number;
  /** Payouts that failed in the month (their amounts owed again). */
  returned: number;
  adjustments: number;
  /** Owed at the month's end: openingBalance + approved + adjustments − paid + returned. */
  closingBalance: number;
  /** Of the closing balance: approved, waiting for the brand to pay its statement. */
  awaitingBrandPayment: number;
  /** Of the closing balance: payable, for the next payout run. */
  payableBalance: number;
  movements: Array<{ at: string; kind: string; amount: number; orderId?: string; orderNumber?: string; brandId?: string; brandName?: string; payoutId?: string; adjustmentId?: string }>;
}

const TRACKED = /^(brand:.+:(unbilled|receivable)|affiliate:.+:(approved|payable)|network:payouts_sent)$/;

export class LedgerService {
  constructor(
    private readonly repositories: LedgerRepositories,
    private readonly clock: Clock,
  ) {}

  /**
   * Every difference between the ledger and itself or the records: entries or currencies that do
   * not add up to zero, and tracked accounts whose balance differs from what the orders,
   * statements, payouts and adjustments say. None when all is well.
   */
  async check(): Promise<string[]> {
    const { ledger } = this.repositories;
    const [unbalanced, balances, expected] = await Promise.all([ledger.unbalancedEntries(), ledger.balances(), ledger.expectedBalances()]);
    const differences = unbalanced.map((e) => `entry ${e.entry_id} does not balance in ${e.currency}: its lines add up to ${e.amount}`);
    const perCurrency = new Map<string, number>();
    for (const b of balances) perCurrency.set(b.currency, (perCurrency.get(b.currency) ?? 0) + b.amount);
    for (const [currency, sum] of perCurrency) if (sum !== 0) differences.push(`${currency} does not balance: debits exceed credits by ${sum}`);
    const key = (s: AccountSum) => `${s.currency} ${s.account}`;
    const actual = new Map(balances.filter((b) => TRACKED.test(b.account)).map((b) => [key(b), b]));
    const wanted = new Map(expected.map((e) => [key(e), e]));
    for (const k of [...new Set([...actual.keys(), ...wanted.keys()])].sort()) {
      const has = actual.get(k)?.amount ?? 0;
      const should = wanted.get(k)?.amount ?? 0;
      if (has !== should) differences.push(`${k}: the ledger holds ${has}, the records say ${should}`);
    }
    return differences;
  }

  /** The month's trial balance per currency: each account's opening balance, debits, credits and closing balance. */
  async report(month: string): Promise<Map<string, TrialBalanceLine[]>> {
    if (!MONTH.test(month)) throw invalid('invalid_month', `month must be YYYY-MM, got "${month}"`);
    const { from, to } = monthRange(month);
    const [opening, moves] = await Promise.all([this.repositories.ledger.balances(from), this.repositories.ledger.movements(from, to)]);
    const out = new Map<string, Map<string, TrialBalanceLine>>();
    const line = (currency: string, account: string) => {
      let accounts = out.get(currency);
      if (!accounts) out.set(currency, (accounts = new Map<string, TrialBalanceLine>()));
      let found = accounts.get(account);
      if (!found) accounts.set(account, (found = { account, ...holderOf(account), opening: 0, debit: 0, credit: 0, closing: 0 }));
      return found;
    };
    for (const b of opening) line(b.currency, b.account).opening = b.amount;
    for (const m of moves) Object.assign(line(m.currency, m.account), { debit: m.debit, credit: m.credit });
    const lines = [...out.values()].flatMap((accounts) => [...accounts.values()]);
    const idsOf = (kind: 'brand' | 'affiliate') => [...new Set(lines.filter((l) => l.holder.kind === kind).map((l) => l.holder.id!))];
    const [brandNames, affiliates] = await Promise.all([this.repositories.brands.namesOf(idsOf('brand')), this.repositories.affiliates.namesOf(idsOf('affiliate'))]);
    for (const l of lines) {
      const name = l.holder.kind === 'brand' ? brandNames.get(l.holder.id!) : l.holder.kind === 'affiliate' ? affiliates.get(l.holder.id!) : undefined;
      if (name !== undefined) l.holder.name = name;
    }
    const report = new Map<string, TrialBalanceLine[]>();
    for (const [currency, accounts] of [...out].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const lines = [...accounts.values()].sort((a, b) => (a.account < b.account ? -1 : 1));
      for (const l of lines) l.closing = l.opening + l.debit - l.credit;
      report.set(currency, lines);
    }
    return report;
  }

  /** An operator's adjustment of what the affiliate is owed (cents, ±), paid with its next payout. */
  async adjust(input: { affiliateId: string; amount: number; currency: string; reason: string; actor: Actor }): Promise<AdjustmentRow> {
    if (!(await this.repositories.affiliates.exists(input.affiliateId))) throw notFound(`affiliate "${input.affiliateId}" not found`, 'affiliate_not_found');
    if (!Number.isSafeInteger(input.amount) || input.amount === 0) throw invalid('invalid_amount', `amount must be a whole, non-zero number of cents (negative to reduce), got ${input.amount}`);
    if (!/^[A-Z]{3}$/.test(input.currency)) throw invalid('invalid_currency', `currency must be an ISO 4217 code such as BRL, got "${input.currency}"`);
    if (!input.reason.trim()) throw invalid('reason_required', 'give the reason for the adjustment: the affiliate reads it');
    const row: AdjustmentRow = {
      id: newId(),
      affiliate_id: input.affiliateId,
      currency: input.currency,
      amount: input.amount,
      reason: input.reason.trim(),
      created_by: actorName(input.actor),
      created_at: this.clock.iso(),
      payout_id: null,
    };
    const audit = [
      auditEntry(input.actor, {
        action: 'adjustment.created',
        subject: { kind: 'adjustment', id: row.id },
        members: { affiliateId: row.affiliate_id },
        after: { amount: row.amount, currency: row.currency },
        reason: row.reason,
      }),
    ];
    await this.repositories.adjustments.create(row, { ledger: [adjustmentEntry(row)], audit });
    return row;
  }

  /** Operators' adjustments, newest first: every affiliate's, or one's. */
  async adjustments(affiliateId: string | undefined, page: PageRequest): Promise<Paged<AdjustmentRow>> {
    const { rows, total } = await this.repositories.adjustments.list(affiliateId, offsetOf(page));
    return { items: rows, total };
  }

  /** The affiliate's statement for a month (YYYY-MM), one per currency it had money in. */
  async affiliateStatement(affiliateId: string, month: string): Promise<AffiliateStatement[]> {
    if (!MONTH.test(month)) throw invalid('invalid_month', `month must be YYYY-MM (e.g. 2026-11), got "${month}"`);
    const current = monthOf(this.clock.iso());
    if (month > current) throw invalid('month_in_future', `${month} has not begun: ask for ${current} (so far) or an earlier month`);
    const { from, to } = monthRange(month);
    const [before, lines] = await Promise.all([this.repositories.affiliateLedger.balancesBefore(affiliateId, from), this.repositories.affiliateLedger.lines(affiliateId, from, to)]);
    const statements = new Map<string, AffiliateStatement>();
    const of = (currency: string) => {
      let found = statements.get(currency);
      if (!found) {
        statements.set(currency, (found = { month, currency, openingBalance: 0, approved: 0, payable: 0, paid: 0, returned: 0, adjustments: 0, closingBalance: 0, awaitingBrandPayment: 0, payableBalance: 0, movements: [] }));
      }
      return found;
    };
    // Ledger balances are debits minus credits; what is owed to the affiliate is a credit.
    for (const b of before) {
      const s = of(b.currency);
      s.openingBalance -= b.amount;
      if (b.account.endsWith(':approved')) s.awaitingBrandPayment -= b.amount;
      else s.payableBalance -= b.amount;
    }
    for (const line of lines) {
      const s = of(line.currency);
      const owed = -line.amount;
      if (line.account.endsWith(':approved')) s.awaitingBrandPayment += owed;
      else s.payableBalance += owed;
      if (line.kind === 'payable') {
        // A move between the affiliate's two accounts: counted once, on the payable side.
        if (owed > 0) s.payable += owed;
        continue;
      }
      if (line.kind === 'approval' || line.kind === 'opening') s.approved += owed;
      else if (line.kind === 'adjustment') s.adjustments += owed;
      else if (line.kind === 'payout_sent') s.paid -= owed;
      else if (line.kind === 'payout_failed') s.returned += owed;
      s.movements.push({
        at: line.created_at,
        kind: line.kind,
        amount: owed,
        ...(line.order_id && { orderId: line.order_id }),
        ...(line.payout_id && { payoutId: line.payout_id }),
        ...(line.adjustment_id && { adjustmentId: line.adjustment_id }),
      });
    }
    for (const s of statements.values()) s.closingBalance = s.openingBalance + s.approved + s.adjustments - s.paid + s.returned;
    // A commission's movement names its order as the brand numbers it, and the brand.
    const movements = [...statements.values()].flatMap((s) => s.movements);
    const orders = new Map((await this.repositories.orders.numbersOf([...new Set(movements.flatMap((m) => (m.orderId ? [m.orderId] : [])))])).map((o) => [o.id, o]));
    for (const m of movements) {
      const order = m.orderId ? orders.get(m.orderId) : undefined;
      if (order) Object.assign(m, { orderNumber: order.order_id, brandId: order.organization_id, brandName: order.brand_name });
    }
    return [...statements.values()].sort((a, b) => (a.currency < b.currency ? -1 : 1));
  }
}
