// The ledger: balanced double-entry lines written in the same transaction as each money event,
// and the sums an accountant checks them against (what the orders, statements, payouts and
// adjustments say each account should hold).
import { randomUUID } from 'node:crypto';
import { sql, type Transaction } from 'kysely';
import type { Database } from '../database.js';
import type { DB } from '../tables.js';

/** One money event: lines that add up to zero in one currency, and the records it concerns. */
export interface LedgerEntry {
  kind: string;
  currency: string;
  lines: ReadonlyArray<{ account: string; amount: number }>;
  orderId?: string;
  statementId?: string;
  payoutId?: string;
  adjustmentId?: string;
}

/** Rows per insert when many entries are written at once (bound-parameter limits). */
const CHUNK = 400;

/** Writes the entries' lines; refuses an entry whose lines do not add up to zero. */
export async function writeLedger(trx: Transaction<DB>, entries: readonly LedgerEntry[], now: string): Promise<void> {
  const rows = entries.flatMap((entry) => {
    if (entry.lines.reduce((sum, line) => sum + line.amount, 0) !== 0) throw new Error(`unbalanced ${entry.kind} entry in ${entry.currency}`);
    if (entry.lines.every((line) => line.amount === 0)) return [];
    const id = randomUUID();
    return entry.lines.map((line) => ({
      entry_id: id,
      kind: entry.kind,
      currency: entry.currency,
      account: line.account,
      amount: line.amount,
      order_id: entry.orderId ?? null,
      statement_id: entry.statementId ?? null,
      payout_id: entry.payoutId ?? null,
      adjustment_id: entry.adjustmentId ?? null,
      created_at: now,
    }));
  });
  for (let i = 0; i < rows.length; i += CHUNK) await trx.insertInto('ledger_lines').values(rows.slice(i, i + CHUNK)).execute();
}

/** An amount per currency and account. */
export interface AccountSum {
  currency: string;
  account: string;
  amount: number;
}

const summed = <T extends { amount: unknown }>(rows: T[]) => rows.map((r) => ({ ...r, amount: Number(r.amount) }));

export class LedgerRepository {
  constructor(private readonly database: Database) {}

  /** Each account's balance (debits minus credits) per currency, over the lines written before `until` when given. */
  async balances(until?: string): Promise<AccountSum[]> {
    let q = this.database.db.selectFrom('ledger_lines').select((eb) => ['currency', 'account', eb.fn.sum<number>('amount').as('amount')]);
    if (until) q = q.where('created_at', '<', until);
    return summed(await q.groupBy(['currency', 'account']).orderBy('currency').orderBy('account').execute());
  }

  /** Debits and credits per currency and account over the lines written in [from, to). */
  async movements(from: string, to: string): Promise<Array<{ currency: string; account: string; debit: number; credit: number }>> {
    const rows = await this.database.db
      .selectFrom('ledger_lines')
      .select((eb) => [
        'currency',
        'account',
        eb.fn.sum<number>(sql<number>`case when amount > 0 then amount else 0 end`).as('debit'),
        eb.fn.sum<number>(sql<number>`case when amount < 0 then -amount else 0 end`).as('credit'),
      ])
      .where('created_at', '>=', from)
      .where('created_at', '<', to)
      .groupBy(['currency', 'account'])
      .orderBy('currency')
      .orderBy('account')
      .execute();
    return rows.map((r) => ({ ...r, debit: Number(r.debit), credit: Number(r.credit) }));
  }

  /** Entries whose lines do not add up to zero (none, when every write went through writeLedger). */
  async unbalancedEntries(): Promise<Array<{ entry_id: string; currency: string; amount: number }>> {
    const rows = await this.database.db
      .selectFrom('ledger_lines')
      .select((eb) => ['entry_id', 'currency', eb.fn.sum<number>('amount').as('amount')])
      .groupBy(['entry_id', 'currency'])
      .having((eb) => eb.fn.sum('amount'), '<>', 0)
      .execute();
    return summed(rows);
  }

  /**
   * What each tracked account should hold according to the records, as ledger balances (debits
   * positive): brands' unbilled commissions and unpaid statements, affiliates' approved and
   * payable commissions with their unpaid adjustments, and payouts sent but not settled.
   */
  async expectedBalances(): Promise<AccountSum[]> {
    const db = this.database.db;
    const [approved, unbilled, receivable, payable, adjustments, sent] = await Promise.all([
      db.selectFrom('orders').select((eb) => ['currency', sql<string>`'affiliate:' || affiliate_id || ':approved'`.as('account'), eb.fn.sum<number>(sql`-commission`).as('amount')])
        .where('commission_status', '=', 'approved').groupBy(['currency', 'affiliate_id']).execute(),
      db.selectFrom('orders').select((eb) => ['currency', sql<string>`'brand:' || organization_id || ':unbilled'`.as('account'), eb.fn.sum<number>('commission').as('amount')])
        .where('commission_status', '=', 'approved').where('statement_id', 'is', null).groupBy(['currency', 'organization_id']).execute(),
      db.selectFrom('statements').select((eb) => ['currency', sql<string>`'brand:' || brand_id || ':receivable'`.as('account'), eb.fn.sum<number>(sql`total - paid_amount`).as('amount')])
        .groupBy(['currency', 'brand_id']).execute(),
      db.selectFrom('orders').select((eb) => ['currency', sql<string>`'affiliate:' || affiliate_id || ':payable'`.as('account'), eb.fn.sum<number>(sql`-commission`).as('amount')])
        .where('commission_status', '=', 'payable').groupBy(['currency', 'affiliate_id']).execute(),
      db.selectFrom('adjustments').leftJoin('payouts', 'payouts.id', 'adjustments.payout_id')
        .select((eb) => ['adjustments.currency', sql<string>`'affiliate:' || adjustments.affiliate_id || ':payable'`.as('account'), eb.fn.sum<number>(sql`-adjustments.amount`).as('amount')])
        .where((eb) => eb.or([eb('adjustments.payout_id', 'is', null), eb('payouts.status', '=', 'pending')]))
        .groupBy(['adjustments.currency', 'adjustments.affiliate_id']).execute(),
      db.selectFrom('payouts').select((eb) => ['currency', sql<string>`'network:payouts_sent'`.as('account'), eb.fn.sum<number>(sql`-total`).as('amount')])
        .where('status', '=', 'sent').groupBy('currency').execute(),
    ]);
    const total = new Map<string, AccountSum>();
    for (const row of summed([...approved, ...unbilled, ...receivable, ...payable, ...adjustments, ...sent])) {
      const key = `${row.currency} ${row.account}`;
      const known = total.get(key);
      if (known) known.amount += row.amount;
      else total.set(key, { currency: row.currency, account: row.account, amount: row.amount });
    }
    return [...total.values()];
  }
}

/** One affiliate's ledger lines as its statement reads them. */
export interface AffiliateLedgerLine {
  kind: string;
  currency: string;
  account: string;
  amount: number;
  order_id: string | null;
  payout_id: string | null;
  adjustment_id: string | null;
  created_at: string;
}

export class AffiliateLedger {
  constructor(private readonly database: Database) {}

  private accounts(affiliateId: string): string[] {
    return [`affiliate:${affiliateId}:approved`, `affiliate:${affiliateId}:payable`];
  }

  /** The affiliate's balances per currency and account before `until`. */
  async balancesBefore(affiliateId: string, until: string): Promise<AccountSum[]> {
    const rows = await this.database.db
      .selectFrom('ledger_lines')
      .select((eb) => ['currency', 'account', eb.fn.sum<number>('amount').as('amount')])
      .where('account', 'in', this.accounts(affiliateId))
      .where('created_at', '<', until)
      .groupBy(['currency', 'account'])
      .execute();
    return summed(rows);
  }

  /** The affiliate's lines written in [from, to), oldest first. */
  async lines(affiliateId: string, from: string, to: string): Promise<AffiliateLedgerLine[]> {
    const rows = await this.database.db
      .selectFrom('ledger_lines')
      .select(['kind', 'currency', 'account', 'amount', 'order_id', 'payout_id', 'adjustment_id', 'created_at'])
      .where('account', 'in', this.accounts(affiliateId))
      .where('created_at', '>=', from)
      .where('created_at', '<', to)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return summed(rows);
  }
}
