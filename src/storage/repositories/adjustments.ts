// Operators' adjustments of what affiliates are owed: append-only (the table refuses changes to
// amounts and reasons, and deletions), each written with its ledger entry.
import type { Database } from '../database.js';
import type { AdjustmentRow } from '../tables.js';
import { writeEffects, type Effects } from './effects.js';
import { pageWithTotal, type Page, type PageWindow } from './pages.js';

export class AdjustmentsRepository {
  constructor(private readonly database: Database) {}

  async create(row: AdjustmentRow, effects: Effects): Promise<void> {
    await this.database.db.transaction().execute(async (trx) => {
      await trx.insertInto('adjustments').values(row).execute();
      await writeEffects(trx, effects, row.created_at);
    });
  }

  /** The affiliate's adjustments, newest first. */
  listOf(affiliateId: string): Promise<AdjustmentRow[]> {
    return this.database.db.selectFrom('adjustments').selectAll().where('affiliate_id', '=', affiliateId).orderBy('created_at', 'desc').orderBy('id').execute();
  }

  /** A page of adjustments, newest first: every affiliate's, or one's. */
  list(affiliateId: string | undefined, page: PageWindow): Promise<Page<AdjustmentRow>> {
    const q = () => (affiliateId ? this.database.db.selectFrom('adjustments').where('affiliate_id', '=', affiliateId) : this.database.db.selectFrom('adjustments'));
    return pageWithTotal(
      this.database,
      q().selectAll().orderBy('created_at', 'desc').orderBy('id').limit(page.limit).offset(page.offset).execute(),
      q().select((eb) => eb.fn.countAll<number>().as('n')),
    );
  }
}
