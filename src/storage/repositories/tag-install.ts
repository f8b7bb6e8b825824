// The tag's install: a brand's publishable key (replaced, found by its value) and the reports the
// tag and the pixel sent with it.
import type { Database } from '../database.js';
import type { PublishableKeyRow, TagReportRow, TagTestRow } from '../tables.js';
import { retriedOnUniqueRace } from '../../lib/unique-violation.js';

/** What a publishable key resolves to: its brand, and what the tag's rules read of it. */
export interface PublishableKeyOwner {
  brand_id: string;
  domains: string;
  site: string;
  currency: string;
  suspended_at: string | null;
}

export class TagInstallRepository {
  constructor(private readonly database: Database) {}

  /**
   * Makes `key` the brand's only active publishable key, revoking the one it had, in one
   * transaction; two replacements at once: the later one runs again, so the last one wins.
   */
  async replaceKey(key: Omit<PublishableKeyRow, 'revoked_at' | 'replaced_by'>): Promise<void> {
    await retriedOnUniqueRace(() =>
      this.database.db.transaction().execute(async (trx) => {
        await trx.updateTable('publishable_keys').set({ revoked_at: key.created_at, replaced_by: key.id }).where('brand_id', '=', key.brand_id).where('revoked_at', 'is', null).execute();
        await trx.insertInto('publishable_keys').values({ ...key, revoked_at: null, replaced_by: null }).execute();
      }),
    );
  }

  /** The brand's active publishable key, if it has one. */
  async activeKeyOf(brandId: string): Promise<string | undefined> {
    const row = await this.database.db.selectFrom('publishable_keys').select('key').where('brand_id', '=', brandId).where('revoked_at', 'is', null).executeTakeFirst();
    return row?.key;
  }

  /** The brand an active publishable key belongs to. */
  ownerOf(key: string): Promise<PublishableKeyOwner | undefined> {
    return this.database.db
      .selectFrom('publishable_keys as k')
      .innerJoin('brands as b', 'b.id', 'k.brand_id')
      .select(['k.brand_id', 'b.domains', 'b.site', 'b.currency', 'b.suspended_at'])
      .where('k.key', '=', key)
      .where('k.revoked_at', 'is', null)
      .executeTakeFirst();
  }

  async addReport(report: TagReportRow): Promise<void> {
    await this.database.db.insertInto('tag_reports').values(report).execute();
  }

  /** The brand's latest reports, newest first. */
  latestReports(brandId: string, limit: number): Promise<TagReportRow[]> {
    return this.database.db.selectFrom('tag_reports').selectAll().where('brand_id', '=', brandId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  }

  /**
   * The brand's orders only its pages reported (the tag, the pixel) still waiting for its
   * confirmation: pending, not held (a held one never locks) and not locked by `now`; how many, and
   * the earliest lock date among them.
   */
  async awaitingConfirmation(brandId: string, now: string): Promise<{ orders: number; firstLockAt: string | null }> {
    const row = await this.database.db
      .selectFrom('orders')
      .select((eb) => [eb.fn.countAll<number>().as('orders'), eb.fn.min('lock_at').as('first_lock_at')])
      .where('organization_id', '=', brandId)
      .where('status', '=', 'pending')
      .where('source', 'in', ['tag', 'pixel'])
      .where('commission_status', '<>', 'held')
      .where('lock_at', '>', now)
      .executeTakeFirst();
    return { orders: Number(row?.orders ?? 0), firstLockAt: row?.first_lock_at ?? null };
  }

  /** Forgets reports and tests made before `before`; how many reports. */
  async deleteReportsBefore(before: string): Promise<number> {
    const result = await this.database.db.deleteFrom('tag_reports').where('created_at', '<', before).executeTakeFirst();
    await this.database.db.deleteFrom('tag_tests').where('created_at', '<', before).execute();
    return Number(result.numDeletedRows);
  }

  async addTest(test: TagTestRow): Promise<void> {
    await this.database.db.insertInto('tag_tests').values(test).execute();
  }

  /** How many tests the brand made since `since`. */
  async testsSince(brandId: string, since: string): Promise<number> {
    const row = await this.database.db.selectFrom('tag_tests').select((eb) => eb.fn.countAll<number>().as('tests')).where('brand_id', '=', brandId).where('created_at', '>=', since).executeTakeFirst();
    return Number(row?.tests ?? 0);
  }

  /** One of the brand's tests, by its id (another brand's is none). */
  testOf(brandId: string, id: string): Promise<TagTestRow | undefined> {
    return this.database.db.selectFrom('tag_tests').selectAll().where('id', '=', id).where('brand_id', '=', brandId).executeTakeFirst();
  }

  /** Notes the visit the tag announced from the test link: the first one only. */
  async markVisit(brandId: string, id: string, at: string, origin: string | null): Promise<void> {
    await this.database.db.updateTable('tag_tests').set({ visited_at: at, visit_origin: origin }).where('id', '=', id).where('brand_id', '=', brandId).where('visited_at', 'is', null).execute();
  }

  /** A test's reports, oldest first. */
  reportsOfTest(testId: string, limit: number): Promise<TagReportRow[]> {
    return this.database.db.selectFrom('tag_reports').selectAll().where('test_id', '=', testId).orderBy('created_at').orderBy('id').limit(limit).execute();
  }

  /** The brand's refused reports of no test since `since`, oldest first: orders a test may have sent without its click. */
  refusedSince(brandId: string, since: string, limit: number): Promise<TagReportRow[]> {
    return this.database.db
      .selectFrom('tag_reports')
      .selectAll()
      .where('brand_id', '=', brandId)
      .where('created_at', '>=', since)
      .where('outcome', '=', 'refused')
      .where('test_id', 'is', null)
      .orderBy('created_at')
      .orderBy('id')
      .limit(limit)
      .execute();
  }
}
