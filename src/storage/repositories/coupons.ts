// Coupon codes brands gave affiliates: putting one (created or replaced), finding one by its
// folded code, each side's list, and removing one.
import type { Database } from '../database.js';
import type { CouponRow, CouponsTable } from '../tables.js';
import { pageWithTotal, type Page, type PageWindow } from './pages.js';

/** Whose codes a list reads: a brand's (optionally one affiliate's among them), or an affiliate's. */
export type CouponOwner = { brandId: string; affiliateId?: string } | { affiliateId: string };

export class CouponsRepository {
  constructor(private readonly database: Database) {}

  /** Stores the brand's code: true when it is new, false when it replaced the code of that folded key. */
  async put(row: CouponsTable): Promise<boolean> {
    const inserted = await this.database.db
      .insertInto('coupons')
      .values(row)
      .onConflict((oc) => oc.columns(['organization_id', 'code_key']).doNothing())
      .returning('code_key')
      .executeTakeFirst();
    if (inserted) return true;
    await this.database.db
      .updateTable('coupons')
      .set({ code: row.code, affiliate_id: row.affiliate_id, campaign_id: row.campaign_id, updated_at: row.updated_at })
      .where('organization_id', '=', row.organization_id)
      .where('code_key', '=', row.code_key)
      .execute();
    return false;
  }

  find(brandId: string, codeKey: string): Promise<CouponRow | undefined> {
    return this.database.db.selectFrom('coupons').selectAll().where('organization_id', '=', brandId).where('code_key', '=', codeKey).executeTakeFirst();
  }

  /** The folded codes (code_key) the brand gave the affiliate, all of them. */
  async keysOf(brandId: string, affiliateId: string): Promise<string[]> {
    const rows = await this.database.db.selectFrom('coupons').select('code_key').where('organization_id', '=', brandId).where('affiliate_id', '=', affiliateId).execute();
    return rows.map((row) => row.code_key);
  }

  /** A page of codes, by code (brand, then code, for an affiliate), and the total. */
  list(owner: CouponOwner, page: PageWindow): Promise<Page<CouponRow>> {
    const filtered = () => {
      let q = this.database.db.selectFrom('coupons');
      if ('brandId' in owner) q = q.where('organization_id', '=', owner.brandId);
      if (owner.affiliateId !== undefined) q = q.where('affiliate_id', '=', owner.affiliateId);
      return q;
    };
    return pageWithTotal(
      this.database,
      filtered().selectAll().orderBy('organization_id').orderBy('code_key').limit(page.limit).offset(page.offset).execute(),
      filtered().select((eb) => eb.fn.countAll<number>().as('n')),
    );
  }

  /** Removes the brand's code: false when it had none with that folded key. */
  async remove(brandId: string, codeKey: string): Promise<boolean> {
    const result = await this.database.db.deleteFrom('coupons').where('organization_id', '=', brandId).where('code_key', '=', codeKey).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
