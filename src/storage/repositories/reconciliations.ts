// A brand's reconciliations: the shop's order export read against its orders, the preview kept
// line by line (written in batches as the file is read), and its application: every change of
// the preview, the reconciliation marked applied and its audit entry, in one transaction.
import type { Database } from '../database.js';
import type { OrderRow, ReconciliationLineRow, ReconciliationRow } from '../tables.js';
import { changeOrderIn, type PlannedOrderChange } from './orders.js';
import { writeAudit, type NewAuditEntry } from './audit.js';

/** Lines per insert (bound-parameter limits: 7 columns a line). */
const LINES_PER_INSERT = 500;

export class ReconciliationsRepository {
  constructor(private readonly database: Database) {}

  /** Starts a reconciliation: its row, counts to come. */
  async create(row: ReconciliationRow): Promise<void> {
    await this.database.db.insertInto('reconciliations').values(row).execute();
  }

  /** Adds lines of its preview. */
  async addLines(lines: readonly ReconciliationLineRow[]): Promise<void> {
    for (let i = 0; i < lines.length; i += LINES_PER_INSERT) {
      await this.database.db.insertInto('reconciliation_lines').values(lines.slice(i, i + LINES_PER_INSERT)).execute();
    }
  }

  /** The preview read whole: its range, rows and counts. */
  async finish(id: string, facts: Pick<ReconciliationRow, 'range_from' | 'range_to' | 'rows' | 'counts'>): Promise<void> {
    await this.database.db.updateTable('reconciliations').set(facts).where('id', '=', id).execute();
  }

  /** A reconciliation whose file could not be read: it and its lines are gone. */
  async discard(id: string): Promise<void> {
    await this.database.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('reconciliation_lines').where('reconciliation_id', '=', id).execute();
      await trx.deleteFrom('reconciliations').where('id', '=', id).execute();
    });
  }

  find(brandId: string, id: string): Promise<ReconciliationRow | undefined> {
    return this.database.db.selectFrom('reconciliations').selectAll().where('organization_id', '=', brandId).where('id', '=', id).executeTakeFirst();
  }

  /** The next `limit` lines of these kinds, in the preview's order, after `afterSeq`. */
  linesOf(id: string, kinds: readonly string[], limit: number, afterSeq = -1): Promise<ReconciliationLineRow[]> {
    return this.database.db
      .selectFrom('reconciliation_lines')
      .selectAll()
      .where('reconciliation_id', '=', id)
      .where('kind', 'in', kinds)
      .where('seq', '>', afterSeq)
      .orderBy('seq')
      .limit(limit)
      .execute();
  }

  /**
   * The next `limit` of the brand's orders placed in [from, to] that no line of the reconciliation
   * names, in time order (then id), after the order `after`.
   */
  ordersNotInFile(brandId: string, id: string, from: string, to: string, after: { created_at: string; id: string } | undefined, limit: number): Promise<OrderRow[]> {
    let q = this.database.db
      .selectFrom('orders')
      .selectAll('orders')
      .where('orders.organization_id', '=', brandId)
      .where('orders.created_at', '>=', from)
      .where('orders.created_at', '<=', to)
      .where((eb) =>
        eb.not(eb.exists(eb.selectFrom('reconciliation_lines').select('reconciliation_lines.seq').where('reconciliation_lines.reconciliation_id', '=', id).whereRef('reconciliation_lines.order_id', '=', 'orders.order_id'))),
      );
    if (after) q = q.where((eb) => eb.or([eb('orders.created_at', '>', after.created_at), eb.and([eb('orders.created_at', '=', after.created_at), eb('orders.id', '>', after.id)])]));
    return q.orderBy('orders.created_at').orderBy('orders.id').limit(limit).execute();
  }

  /** Which of these order ids a line of the reconciliation already names (its bad rows left aside). */
  async namedIn(id: string, orderIds: readonly string[]): Promise<Set<string>> {
    if (orderIds.length === 0) return new Set();
    const rows = await this.database.db
      .selectFrom('reconciliation_lines')
      .select('order_id')
      .where('reconciliation_id', '=', id)
      .where('order_id', 'in', orderIds)
      .where('kind', '<>', 'invalid')
      .execute();
    return new Set(rows.map((row) => row.order_id!));
  }

  /** The brand's orders with these brand order ids. */
  ordersByIds(brandId: string, orderIds: readonly string[]): Promise<OrderRow[]> {
    if (orderIds.length === 0) return Promise.resolve([]);
    return this.database.db.selectFrom('orders').selectAll().where('organization_id', '=', brandId).where('order_id', 'in', orderIds).execute();
  }

  /**
   * Applies a preview in one transaction: marks it applied (only once: undefined when it already
   * was), makes each change that still finds its order as the preview read it, and records the
   * outcome and the audit entry made of it. Which changes were made, in order.
   */
  async apply(
    brandId: string,
    id: string,
    changes: readonly PlannedOrderChange[],
    applied: { at: string; by: string | null },
    outcome: (made: boolean[]) => { outcome: string; audit: NewAuditEntry },
  ): Promise<boolean[] | undefined> {
    return this.database.db.transaction().execute(async (trx) => {
      const marked = await trx
        .updateTable('reconciliations')
        .set({ applied_at: applied.at, applied_by: applied.by })
        .where('organization_id', '=', brandId)
        .where('id', '=', id)
        .where('applied_at', 'is', null)
        .executeTakeFirst();
      if (Number(marked.numUpdatedRows) === 0) return undefined;
      const made: boolean[] = [];
      for (const change of changes) made.push(await changeOrderIn(trx, change));
      const result = outcome(made);
      await trx.updateTable('reconciliations').set({ outcome: result.outcome }).where('id', '=', id).execute();
      await writeAudit(trx, [result.audit], applied.at);
      return made;
    });
  }
}
