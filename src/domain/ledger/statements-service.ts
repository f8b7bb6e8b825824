// Brands pay before affiliates are paid. Each month's statement bills a brand, per currency, for
// its approved commissions that locked by the month's end and were not billed yet, with the
// network's fee on each line (basis points of the commission, rounded half up to the cent per
// line; the total is the sum of the lines). Payments are recorded against it, in parts or at
// once; when it is paid in full its commissions become payable. An unpaid statement past its due
// date is reminded once, by webhook and mail.
import { ownersOf } from '../access/owners.js';
import type { Clock } from '../../lib/clock.js';
import type { Statement, StatementLine as StatementLineSchema } from '../../schemas/statement.js';
import type { BrandsRepository } from '../../storage/repositories/brands.js';
import type { StatementLine, StatementsRepository } from '../../storage/repositories/statements.js';
import type { UsersRepository } from '../../storage/repositories/users.js';
import type { NewWebhookEvent, OrderRow, StatementRow } from '../../storage/tables.js';
import type { AffiliatesRepository } from '../../storage/repositories/affiliates.js';
import { channelRefsOf, orderOf } from '../orders/orders.js';
import { invalid, notFound, conflict } from '../errors.js';
import { offsetOf, type PageRequest, type Paged } from '../paging.js';
import { newId } from '../random.js';
import { MONTH, monthRange } from '../time.js';
import { webhookEvent } from '../webhooks/events.js';
import { mailRow } from '../mail/mail-queue.js';
import { formatMinor } from '../money.js';
import { paymentEntry, payableEntry, statementEntry } from './entries.js';
import { actorName, auditEntry, NETWORK, type Actor } from '../audit/audit-entry.js';
import { checkedReason } from '../access/suspensions.js';
import type { NetworkTerms, NetworkTermsChanged } from '../../schemas/network-terms.js';
import type { Effects } from '../../storage/repositories/effects.js';

const DAY_MS = 86_400_000;

/** The fee on one line: basis points of the commission, rounded half up to the cent. */
export function lineFee(commission: number, basisPoints: number): number {
  return Number((BigInt(commission) * BigInt(basisPoints) + 5_000n) / 10_000n);
}

export type { Statement };
/** One line of a statement as the brand reads it. */
export type StatementLineView = StatementLineSchema;

export function statementOf(row: StatementRow, now: string): Statement {
  const paid = row.paid_at !== null;
  return {
    id: row.id,
    brandId: row.brand_id,
    month: row.month,
    currency: row.currency,
    lineCount: row.line_count,
    commission: Number(row.commission),
    fee: Number(row.fee),
    feeBasisPoints: row.fee_basis_points,
    total: Number(row.total),
    paidAmount: Number(row.paid_amount),
    status: paid ? 'paid' : row.due_at <= now ? 'overdue' : 'open',
    issuedAt: row.issued_at,
    dueAt: row.due_at,
    ...(row.paid_at !== null && { paidAt: row.paid_at }),
  };
}

export const lineOf = (line: StatementLine): StatementLineView => ({
  orderId: line.order_id,
  affiliateId: line.affiliate_id,
  value: Number(line.value),
  orderedAt: line.created_at,
  lockAt: line.lock_at,
  autoApproved: line.auto_approved === 1,
  commission: Number(line.commission),
  fee: Number(line.fee),
});

export interface StatementRepositories {
  affiliates: AffiliatesRepository;
  brands: BrandsRepository;
  statements: StatementsRepository;
  users: UsersRepository;
}

export class StatementsService {
  constructor(
    private readonly repositories: StatementRepositories,
    private readonly clock: Clock,
    private readonly settings: { publicUrl: string; approveLocked: () => Promise<unknown> },
  ) {}

  /**
   * Issues the month's statements (YYYY-MM, a month that has ended): one per brand and currency
   * with commissions to bill. Issuing again makes only those still missing.
   */
  async issue(month: string, actor: Actor = NETWORK): Promise<Statement[]> {
    if (!MONTH.test(month)) throw invalid('invalid_month', `month must be YYYY-MM, got "${month}"`);
    const { to } = monthRange(month);
    const now = this.clock.iso();
    if (to > now) throw invalid('month_not_ended', `${month} has not ended yet: its statements can be issued from ${to}`);
    // Orders still pending past their lock date are approved first, so the month bills them.
    await this.settings.approveLocked();
    const issued: Statement[] = [];
    for (const { brand_id: brandId, currency } of await this.repositories.statements.billable(to)) {
      const brand = await this.repositories.brands.find(brandId);
      if (!brand) continue;
      const orders = await this.repositories.statements.unbilled(brandId, currency, to);
      const lines = orders.map((order) => ({ order_id: order.id, commission: order.commission, fee: lineFee(order.commission, brand.fee_basis_points) }));
      const commission = lines.reduce((sum, line) => sum + line.commission, 0);
      const fee = lines.reduce((sum, line) => sum + line.fee, 0);
      const row: StatementRow = {
        id: newId(),
        brand_id: brandId,
        currency,
        month,
        line_count: lines.length,
        commission,
        fee,
        total: commission + fee,
        paid_amount: 0,
        fee_basis_points: brand.fee_basis_points,
        issued_at: now,
        due_at: new Date(Date.parse(now) + brand.statement_due_days * DAY_MS).toISOString(),
        paid_at: null,
        overdue_notified_at: null,
      };
      const view = statementOf(row, now);
      const events = [webhookEvent({ kind: 'brand', id: brandId }, 'statement.issued', view, this.clock)];
      const mail = await this.ownersMail(brandId, 'statement-issued', view);
      const audit = [
        auditEntry(actor, {
          action: 'statement.issued',
          subject: { kind: 'statement', id: row.id },
          members: { brandId },
          after: { month, currency, lineCount: row.line_count, commission, fee, total: row.total, dueAt: row.due_at },
        }),
      ];
      if (await this.repositories.statements.issue(row, lines, { ledger: [statementEntry(row)], events, mail, audit })) issued.push(view);
    }
    return issued;
  }

  /**
   * Changes the network's terms for a brand's statements (its fee, in basis points of each
   * commission billed, and the days it has to pay), with a reason: the change is audited before →
   * after, the brand's owners are mailed and its webhooks get statement.terms_changed, all in one
   * transaction. The CLI (`affnet brands terms`) and the operator's console both come here. The
   * next statement issued bills with the new terms; those issued already keep theirs.
   */
  async setTerms(actor: Actor, brandId: string, change: { feeBasisPoints?: number | undefined; dueDays?: number | undefined; reason: string }): Promise<NetworkTermsChanged> {
    const { feeBasisPoints, dueDays } = change;
    if (feeBasisPoints === undefined && dueDays === undefined) throw invalid('terms_missing', 'give the fee (feeBasisPoints), the due days (dueDays) or both');
    if (feeBasisPoints !== undefined && (!Number.isInteger(feeBasisPoints) || feeBasisPoints < 0 || feeBasisPoints > 10_000)) {
      throw invalid('invalid_fee', `the fee must be 0 to 10000 basis points of the commission (3000 is 30 %), got ${feeBasisPoints}`);
    }
    if (dueDays !== undefined && (!Number.isInteger(dueDays) || dueDays < 0 || dueDays > 365)) throw invalid('invalid_due_days', `the due days must be 0 to 365, got ${dueDays}`);
    const reason = checkedReason(change.reason);
    const brand = await this.repositories.brands.find(brandId);
    if (!brand) throw notFound(`brand "${brandId}" not found`, 'brand_not_found');
    const before: NetworkTerms = { feeBasisPoints: brand.fee_basis_points, dueDays: brand.statement_due_days };
    const after: NetworkTerms = { feeBasisPoints: feeBasisPoints ?? before.feeBasisPoints, dueDays: dueDays ?? before.dueDays };
    if (after.feeBasisPoints === before.feeBasisPoints && after.dueDays === before.dueDays) {
      throw conflict('terms_unchanged', `brand ${brandId} has these terms already (fee ${before.feeBasisPoints} basis points, ${before.dueDays} days to pay): nothing to change`);
    }
    const now = this.clock.iso();
    const changed: NetworkTermsChanged = { brandId, ...after, previous: before, reason, changedAt: now };
    const owners = await ownersOf(this.repositories.users, { brandId });
    const values = { account: brand.name, reason, fee: after.feeBasisPoints, previousFee: before.feeBasisPoints, dueDays: after.dueDays, previousDueDays: before.dueDays, url: `${this.settings.publicUrl}/app/statements` };
    const effects: Effects = {
      audit: [auditEntry(actor, { action: 'brand.terms_changed', subject: { kind: 'brand', id: brandId }, members: { brandId }, before, after, reason })],
      mail: owners.map((owner) => mailRow({ to: owner.email, template: 'network-terms-changed', locale: owner.language ?? 'en', values })),
      events: [webhookEvent({ kind: 'brand', id: brandId }, 'statement.terms_changed', changed, this.clock)],
    };
    if (!(await this.repositories.brands.setNetworkTerms(brandId, { fee_basis_points: before.feeBasisPoints, statement_due_days: before.dueDays }, { fee_basis_points: after.feeBasisPoints, statement_due_days: after.dueDays }, now, effects))) {
      throw conflict('concurrent_update', `the terms of brand ${brandId} were changed by someone else meanwhile: read them again`);
    }
    return changed;
  }

  /** Records a payment by the brand (cents, at most what is left); a payment completing the statement makes its commissions payable. */
  async recordPayment(id: string, amount: number, reference: string, actor: Actor): Promise<Statement> {
    if (!Number.isSafeInteger(amount) || amount <= 0) throw invalid('invalid_amount', `amount must be a positive number of cents, got ${amount}`);
    if (!reference.trim()) throw invalid('invalid_reference', 'give the reference of the payment (a bank transfer id, a receipt)');
    for (;;) {
      const row = await this.repositories.statements.find(id);
      if (!row) throw notFound(`statement "${id}" not found`, 'statement_not_found');
      const left = Number(row.total) - Number(row.paid_amount);
      if (left === 0) throw conflict('statement_paid', `statement ${id} is paid in full already`);
      if (amount > left) throw conflict('overpayment', `statement ${id} has ${formatMinor(left, row.currency)} left to pay (${left} cents); ${amount} cents is more`);
      const now = this.clock.iso();
      const payment = { id: newId(), amount, reference: reference.trim(), recorded_by: actorName(actor), created_at: now };
      const completes = amount === left;
      const paidAmount = Number(row.paid_amount) + amount;
      const audit = [
        auditEntry(actor, {
          action: 'statement.payment_recorded',
          subject: { kind: 'statement', id },
          members: { brandId: row.brand_id },
          before: { paidAmount: Number(row.paid_amount), status: statementOf(row, now).status },
          after: { paidAmount, amount, currency: row.currency, reference: payment.reference, status: completes ? 'paid' : statementOf(row, now).status },
        }),
      ];
      const orders = completes ? await this.repositories.statements.approvedOrdersOf(id) : [];
      const whenPaid = { ledger: orders.map((order) => payableEntry({ ...order, commission: Number(order.commission) })), events: await this.payableEvents(orders, now) };
      if (await this.repositories.statements.recordPayment(row, payment, { ledger: [paymentEntry(row, amount)], audit }, whenPaid)) {
        return statementOf((await this.repositories.statements.find(id))!, now);
      }
      // Another payment was recorded meanwhile: read the statement again.
    }
  }

  /** Tells each brand whose statement is past due and unpaid, once. How many were told. */
  async remindOverdue(): Promise<number> {
    const now = this.clock.iso();
    let told = 0;
    for (const row of await this.repositories.statements.overdue(now)) {
      const view = statementOf(row, now);
      const events = [webhookEvent({ kind: 'brand', id: row.brand_id }, 'statement.overdue', view, this.clock)];
      const mail = await this.ownersMail(row.brand_id, 'statement-overdue', view);
      if (await this.repositories.statements.markOverdue(row.id, now, { events, mail })) told++;
    }
    return told;
  }

  /** The brand's statements, newest month first. */
  async list(brandId: string, page: PageRequest): Promise<Paged<Statement>> {
    const { rows, total } = await this.repositories.statements.list(brandId, offsetOf(page));
    const now = this.clock.iso();
    return { items: rows.map((row) => statementOf(row, now)), total };
  }

  /** Every statement (the operator's view), or only those not paid in full. */
  async listAll(unpaidOnly: boolean): Promise<Statement[]> {
    const now = this.clock.iso();
    return (await this.repositories.statements.listAll(unpaidOnly)).map((row) => statementOf(row, now));
  }

  /** The operators' search: statements of every brand, by status, brand and month, newest month first, each with its brand's name. */
  async search(filters: { status?: 'unpaid' | 'overdue' | 'paid' | undefined; brandId?: string | undefined; month?: string | undefined }, page: PageRequest): Promise<Paged<Statement & { brandName: string }>> {
    if (filters.month !== undefined && !MONTH.test(filters.month)) throw invalid('invalid_month', `month must be YYYY-MM, got "${filters.month}"`);
    const now = this.clock.iso();
    const { rows, total } = await this.repositories.statements.search({ ...filters, now }, offsetOf(page));
    return { items: rows.map((row) => ({ ...statementOf(row, now), brandName: row.brand_name })), total };
  }

  /** One of the brand's statements with a page of its lines. */
  async get(brandId: string, id: string, page: PageRequest): Promise<{ statement: Statement; lines: Paged<StatementLineView> }> {
    const row = await this.repositories.statements.findForBrand(brandId, id);
    if (!row) throw notFound(`statement "${id}" not found among your statements`, 'statement_not_found');
    const { rows, total } = await this.repositories.statements.lines(id, offsetOf(page));
    return { statement: statementOf(row, this.clock.iso()), lines: { items: rows.map(lineOf), total } };
  }

  /** Every line of one of the brand's statements, batch by batch (for the CSV and PDF). */
  async *allLines(brandId: string, id: string): AsyncGenerator<StatementLineView[]> {
    const batch = 500;
    for (let offset = 0; ; offset += batch) {
      const { rows } = await this.repositories.statements.lines(id, { limit: batch, offset });
      if (rows.length > 0) yield rows.map(lineOf);
      if (rows.length < batch) return;
    }
  }

  /** Each affiliate hears that its order's commission is payable, with its view of the order. */
  private async payableEvents(orders: readonly OrderRow[], now: string): Promise<NewWebhookEvent[]> {
    const channels = new Map<string, Awaited<ReturnType<typeof channelRefsOf>>>();
    const events: NewWebhookEvent[] = [];
    for (const order of orders) {
      let refs = channels.get(order.affiliate_id);
      if (!refs) channels.set(order.affiliate_id, (refs = await channelRefsOf(this.repositories.affiliates, order.affiliate_id)));
      const view = orderOf({ ...order, commission_status: 'payable', payable_at: now, updated_at: now }, refs);
      events.push(webhookEvent({ kind: 'affiliate', id: order.affiliate_id }, 'commission.payable', view, this.clock));
    }
    return events;
  }

  private async ownersMail(brandId: string, template: 'statement-issued' | 'statement-overdue', statement: Statement) {
    const owners = await ownersOf(this.repositories.users, { brandId });
    const brandName = (await this.repositories.brands.find(brandId))?.name ?? brandId;
    return owners.map((owner) =>
      mailRow({
        to: owner.email,
        template,
        locale: owner.language ?? 'en',
        values: { account: brandName, month: statement.month, amount: statement.total - statement.paidAmount, currency: statement.currency, due: statement.dueAt.slice(0, 10), url: `${this.settings.publicUrl}/app/statements/${statement.id}` },
      }),
    );
  }
}
