// Payout runs: each affiliate's payable commissions and unpaid adjustments, per currency, paid
// once they reach the currency's minimum and the affiliate's payout details are complete and not
// on hold, unless the network has suspended the affiliate; the rest carries over. A run makes a batch of pending payouts; exporting it hands them
// to the bank or payment provider (sent: their commissions are paid); the provider's results
// settle or fail each one (failed: its commissions are payable again).
import { ownersOf } from '../access/owners.js';
import type { Clock } from '../../lib/clock.js';
import type { AffiliatesRepository, Suspension } from '../../storage/repositories/affiliates.js';
import type { Payable, PayoutsRepository } from '../../storage/repositories/payouts.js';
import type { UsersRepository } from '../../storage/repositories/users.js';
import type { OrdersRepository } from '../../storage/repositories/orders.js';
import type { PostbacksRepository } from '../../storage/repositories/postbacks.js';
import type { PayoutRow } from '../../storage/tables.js';
import type { AuditRepository } from '../../storage/repositories/audit.js';
import type { Payout } from '../../schemas/payout.js';
import type { RunLineWait } from '../../schemas/operator-money.js';
import type { PayoutDestination } from '../payees/payee-service.js';
import { invalid, notFound } from '../errors.js';
import { newId } from '../random.js';
import { formatMinor } from '../money.js';
import { webhookEvent } from '../webhooks/events.js';
import { mailRow } from '../mail/mail-queue.js';
import { payoutOf } from '../orders/payouts.js';
import { paidPostbacks } from '../postbacks/paid-postbacks.js';
import { payoutFailedEntry, payoutSentEntry, payoutSettledEntry } from './entries.js';
import { actorName, auditEntry, type Actor } from '../audit/audit-entry.js';
import { offsetOf, type PageRequest, type Paged } from '../paging.js';

/** Where an affiliate's payouts go, or why they cannot go now (PayeeService). */
export interface PayoutDestinations {
  destinationFor(affiliateId: string, now: string): Promise<PayoutDestination>;
}

export interface PayoutRunRepositories {
  affiliates: AffiliatesRepository;
  audit: AuditRepository;
  orders: OrdersRepository;
  payouts: PayoutsRepository;
  postbacks: PostbacksRepository;
  users: UsersRepository;
}

/** One affiliate's payable amount in one currency, and whether a run pays it now. */
export interface RunLine {
  affiliateId: string;
  currency: string;
  commission: number;
  orders: number;
  adjustments: number;
  total: number;
  /** Set when a run skips it: why, in English, */
  skipped?: string;
  /** and as a code with its values. */
  waits?: RunLineWait;
  /** The payout made, when one was. */
  payout?: Payout;
}

/** What settling one payout of the provider's results did, in English and as a code. */
export type SettlementDone = PayoutResult & { outcome: string; result: 'settled' | 'failed' | 'already_done' | 'not_sent' | 'changed_meanwhile'; payoutStatus?: string };
const CHANGED_MEANWHILE = { outcome: 'changed meanwhile: left as it is', result: 'changed_meanwhile' } as const;

export interface RunResult {
  batchId?: string;
  lines: RunLine[];
}

/** One payout in the file a bank or payment provider takes. */
export interface ExportedPayout {
  payoutId: string;
  affiliateId: string;
  currency: string;
  amount: number;
  method: string | null;
  payee: object | null;
  status: Payout['status'];
  failureReason: string | null;
}

/** What a provider said of one payout. */
export interface PayoutResult {
  payoutId: string;
  status: 'settled' | 'failed';
  reason?: string;
}

/** A run as operators list it: who made it, when, and its payouts per status and currency. */
export interface RunSummary {
  id: string;
  createdBy: string;
  createdAt: string;
  payoutCount: number;
  totals: Array<{ status: Payout['status']; currency: string; payouts: number; total: number }>;
}

/** The audit entry of a payout's step: the affiliate reads it in its trail. */
const payoutAudit = (actor: Actor, row: PayoutRow, action: 'payout.created' | 'payout.sent' | 'payout.settled' | 'payout.failed', reason?: string) =>
  auditEntry(actor, {
    action,
    subject: { kind: 'payout', id: row.id },
    members: { affiliateId: row.affiliate_id },
    after: { status: action.slice('payout.'.length), amount: Number(row.total), currency: row.currency, ...(row.batch_id && { runId: row.batch_id }) },
    ...(reason && { reason }),
  });

export class PayoutRuns {
  constructor(
    private readonly repositories: PayoutRunRepositories,
    private readonly destinations: PayoutDestinations,
    private readonly clock: Clock,
    private readonly settings: { minimums: ReadonlyMap<string, number>; publicUrl: string },
  ) {}

  /** The minimum a payout in `currency` must reach (PAYOUT_MINIMUM; 1 cent for a currency it does not name). */
  minimumOf(currency: string): number {
    return this.settings.minimums.get(currency) ?? 1;
  }

  /**
   * Pays every affiliate (or one) what it has payable, per currency, where it can be paid now; the
   * dry run says what it would pay and why each other amount waits. Two runs at the same time
   * never pay a commission twice.
   */
  async run(options: { affiliateId?: string | undefined; dryRun?: boolean | undefined; actor: Actor }): Promise<RunResult> {
    if (options.affiliateId && !(await this.repositories.affiliates.exists(options.affiliateId))) throw notFound(`affiliate "${options.affiliateId}" not found`, 'affiliate_not_found');
    const now = this.clock.iso();
    const lines: RunLine[] = [];
    const planned: Array<{ line: RunLine; id: string; method: string }> = [];
    const destinations = new Map<string, PayoutDestination>();
    const payables = await this.repositories.payouts.payable(options.affiliateId);
    const suspended = await this.repositories.affiliates.suspendedAmong([...new Set(payables.map((p) => p.affiliate_id))]);
    for (const payable of payables) {
      const line = lineOf(payable);
      lines.push(line);
      const suspension = suspended.get(line.affiliateId);
      if (suspension) {
        line.skipped = suspendedSkip(suspension);
        line.waits = { reason: 'affiliate_suspended', ...(suspension.suspended_at && { since: suspension.suspended_at }) };
        continue;
      }
      const minimum = this.minimumOf(line.currency);
      if (line.total < minimum) {
        line.skipped = `below the minimum: ${formatMinor(line.total, line.currency)} of ${formatMinor(minimum, line.currency)}`;
        line.waits = { reason: 'below_minimum', minimum };
        continue;
      }
      let destination = destinations.get(line.affiliateId);
      if (!destination) destinations.set(line.affiliateId, (destination = await this.destinations.destinationFor(line.affiliateId, now)));
      if (!destination.ready) {
        line.skipped = destination.reason;
        line.waits = destination.waits;
        continue;
      }
      planned.push({ line, id: newId(), method: destination.masked });
    }
    if (options.dryRun || planned.length === 0) return { lines };
    const batch = { id: newId(), created_by: actorName(options.actor), created_at: now };
    const made = await this.repositories.payouts.createRun(
      batch,
      planned.map((p) => ({ id: p.id, affiliate_id: p.line.affiliateId, currency: p.line.currency, minimum: this.minimumOf(p.line.currency), method: p.method })),
      (payouts) => ({
        events: payouts.map((payout) => webhookEvent({ kind: 'affiliate', id: payout.affiliate_id }, 'payout.created', payoutOf(payout), this.clock)),
        audit: [
          auditEntry(options.actor, { action: 'payout_run.created', subject: { kind: 'payout_run', id: batch.id }, after: { payouts: payouts.length, ...(options.affiliateId && { affiliateId: options.affiliateId }) } }),
          ...payouts.map((payout) => payoutAudit(options.actor, payout, 'payout.created')),
        ],
      }),
    );
    const byId = new Map(made.map((payout) => [payout.id, payout]));
    for (const p of planned) {
      const payout = byId.get(p.id);
      if (payout) p.line.payout = payoutOf(payout);
      else {
        p.line.skipped = 'paid meanwhile by another run, or no longer above the minimum';
        p.line.waits = { reason: 'paid_meanwhile' };
      }
    }
    return { batchId: batch.id, lines };
  }

  /**
   * The run's payouts as a bank or provider takes them, payee details in full. Pending payouts are
   * marked sent as they are exported (their commissions paid); one whose payout details cannot be
   * used now (changed since the run, and so on hold), or whose affiliate the network suspended
   * since the run, fails instead, its commissions payable again. Exporting again gives the file
   * again and changes nothing more.
   */
  async export(batchId: string, actor: Actor): Promise<ExportedPayout[]> {
    if (!(await this.repositories.payouts.batchExists(batchId))) throw notFound(`payout run "${batchId}" not found`, 'batch_not_found');
    // The file holds payee details in full: who took it, and when, is kept (in its own transaction, before any payout moves).
    await this.repositories.audit.record([auditEntry(actor, { action: 'payout_run.exported', subject: { kind: 'payout_run', id: batchId } })], this.clock.iso());
    const out: ExportedPayout[] = [];
    const rows = await this.repositories.payouts.ofBatch(batchId);
    const suspended = await this.repositories.affiliates.suspendedAmong([...new Set(rows.filter((r) => r.status === 'pending').map((r) => r.affiliate_id))]);
    for (const row of rows) {
      const now = this.clock.iso();
      let current = row;
      const destination = row.status === 'failed' || row.status === 'settled' ? undefined : await this.destinations.destinationFor(row.affiliate_id, now);
      const suspension = row.status === 'pending' ? suspended.get(row.affiliate_id) : undefined;
      if (suspension) {
        // Suspended after the run: not sent, its commissions payable again for a run after the reactivation.
        current = (await this.failOne(row, suspendedSkip(suspension), actor)) ?? row;
      } else if (row.status === 'pending' && destination) {
        if (!destination.ready || destination.masked !== row.method) {
          const reason = destination.ready ? 'the payout details changed after the run: it is held, and paid by a later run' : destination.reason;
          current = (await this.failOne(row, reason, actor)) ?? row;
        } else if (await this.repositories.payouts.send(row, now, await this.sentEffects(row, now, actor))) {
          current = { ...row, status: 'sent', sent_at: now };
        }
      }
      out.push({
        payoutId: current.id,
        affiliateId: current.affiliate_id,
        currency: current.currency,
        amount: Number(current.total),
        method: current.method,
        payee: destination?.ready && !suspension ? destination.details : null,
        status: current.status,
        failureReason: current.failure_reason,
      });
    }
    return out;
  }

  /** The runs, newest first, each with its payouts per status and currency. */
  async list(page: PageRequest): Promise<Paged<RunSummary>> {
    const { rows, total } = await this.repositories.payouts.batchPage(offsetOf(page));
    const totals = await this.repositories.payouts.batchTotals(rows.map((r) => r.id));
    return {
      items: rows.map((r) => ({
        id: r.id,
        createdBy: r.created_by,
        createdAt: r.created_at,
        payoutCount: r.payout_count,
        totals: totals.filter((t) => t.batch_id === r.id).map(({ batch_id: _b, ...t }) => t),
      })),
      total,
    };
  }

  /** The run's payouts, without payee details. */
  async payoutsOf(batchId: string): Promise<Payout[]> {
    const rows = await this.repositories.payouts.ofBatch(batchId);
    if (rows.length === 0 && !(await this.repositories.payouts.batchExists(batchId))) throw notFound(`payout run "${batchId}" not found`, 'batch_not_found');
    return rows.map(payoutOf);
  }

  /** Settles or fails each sent payout of the run as the provider's results say; what it did with each. */
  async settle(batchId: string, results: readonly PayoutResult[], actor: Actor): Promise<SettlementDone[]> {
    const payouts = new Map((await this.repositories.payouts.ofBatch(batchId)).map((row) => [row.id, row]));
    if (payouts.size === 0 && !(await this.repositories.payouts.batchExists(batchId))) throw notFound(`payout run "${batchId}" not found`, 'batch_not_found');
    const done: SettlementDone[] = [];
    for (const result of results) {
      const row = payouts.get(result.payoutId);
      if (!row) throw invalid('unknown_payout', `payout "${result.payoutId}" is not in run ${batchId}`);
      if (result.status === 'failed' && !result.reason?.trim()) throw invalid('reason_required', `payout "${result.payoutId}" failed: give the reason the provider gave`);
    }
    for (const result of results) {
      const row = payouts.get(result.payoutId)!;
      if (row.status !== 'sent') {
        done.push(
          row.status === result.status
            ? { ...result, outcome: `already ${row.status}`, result: 'already_done' }
            : { ...result, outcome: `left ${row.status}: only a sent payout can be settled or failed`, result: 'not_sent', payoutStatus: row.status },
        );
        continue;
      }
      const now = this.clock.iso();
      if (result.status === 'settled') {
        const settled = { ...row, status: 'settled' as const, settled_at: now };
        const ok = await this.repositories.payouts.settle(row, now, {
          ledger: [payoutSettledEntry(row)],
          events: [webhookEvent({ kind: 'affiliate', id: row.affiliate_id }, 'payout.settled', payoutOf(settled), this.clock)],
          audit: [payoutAudit(actor, row, 'payout.settled')],
        });
        done.push(ok ? { ...result, outcome: 'settled', result: 'settled' } : { ...result, ...CHANGED_MEANWHILE });
      } else {
        const failed = await this.failOne(row, result.reason!.trim(), actor);
        done.push(failed ? { ...result, outcome: 'failed: its commissions are payable again', result: 'failed' } : { ...result, ...CHANGED_MEANWHILE });
      }
    }
    return done;
  }

  /** Fails a pending or sent payout, returning its commissions to payable; the row as it is now, or undefined when it had moved on. */
  private async failOne(row: PayoutRow, reason: string, actor: Actor): Promise<PayoutRow | undefined> {
    const now = this.clock.iso();
    const failed: PayoutRow = { ...row, status: 'failed', failed_at: now, failure_reason: reason };
    const ok = await this.repositories.payouts.fail(row, reason, now, {
      ledger: row.status === 'sent' ? [payoutFailedEntry(row)] : [],
      events: [webhookEvent({ kind: 'affiliate', id: row.affiliate_id }, 'payout.failed', payoutOf(failed), this.clock)],
      mail: row.status === 'sent' ? await this.ownersMail(row, 'payout-failed', reason) : [],
      audit: [payoutAudit(actor, row, 'payout.failed', reason)],
    });
    return ok ? failed : undefined;
  }

  private async sentEffects(row: PayoutRow, now: string, actor: Actor) {
    const sent: PayoutRow = { ...row, status: 'sent', sent_at: now };
    return {
      audit: [payoutAudit(actor, row, 'payout.sent')],
      ledger: [payoutSentEntry(row)],
      events: [webhookEvent({ kind: 'affiliate', id: row.affiliate_id }, 'payout.sent', payoutOf(sent), this.clock)],
      postbacks: await paidPostbacks(this.repositories, row, now),
      mail: await this.ownersMail(row, 'payout-sent'),
    };
  }

  private async ownersMail(row: PayoutRow, template: 'payout-sent' | 'payout-failed', reason?: string) {
    const name = await this.repositories.affiliates.nameOf(row.affiliate_id);
    const owners = await ownersOf(this.repositories.users, { affiliateId: row.affiliate_id });
    return owners.map((owner) =>
      mailRow({
        to: owner.email,
        template,
        locale: owner.language ?? 'en',
        values: {
          account: name ?? row.affiliate_id,
          amount: Number(row.total),
          currency: row.currency,
          ...(row.method && { method: row.method }),
          ...(reason && { reason }),
          url: `${this.settings.publicUrl}/app/${template === 'payout-sent' ? 'payouts' : 'payee'}`,
        },
      }),
    );
  }

  /** The demo's history: the affiliate's payable commissions of orders created up to `until`, paid and settled at once. */
  async recordPast(affiliateId: string, until: string): Promise<number> {
    const now = this.clock.iso();
    const made = await this.repositories.payouts.recordPast(affiliateId, until, newId(), now, ([payout]) => ({ ledger: payout ? [payoutSentEntry(payout), payoutSettledEntry(payout)] : [] }));
    return made.length;
  }
}

/** Why a suspended affiliate is not paid: the reason's code first, as a dry run shows it. */
function suspendedSkip(suspension: Suspension): string {
  return `affiliate_suspended: the network suspended the affiliate on ${suspension.suspended_at} (${suspension.suspension_reason ?? 'no reason given'}); paid once it is reactivated`;
}

function lineOf(payable: Payable): RunLine {
  return {
    affiliateId: payable.affiliate_id,
    currency: payable.currency,
    commission: payable.commission,
    orders: payable.orders,
    adjustments: payable.adjustments,
    total: payable.commission + payable.adjustments,
  };
}
