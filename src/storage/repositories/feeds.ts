// Brands' product feeds, their runs' reports, and the products a run writes: the leased claim of
// the feeds due (one instance runs a feed at a time), a batch of products written in one
// transaction, and the feed's products a complete run no longer listed made unavailable.
import type { ExpressionBuilder, Insertable, Updateable } from 'kysely';
import type { Database } from '../database.js';
import type { DB, FeedRunRow, FeedRunsTable, ProductFeedRow, ProductsTable } from '../tables.js';
import type { Page, PageWindow } from './pages.js';

/** A product's stored columns that a feed writes (all but seq, id and created_at). */
export type FeedProductColumns = Omit<Insertable<ProductsTable>, 'seq' | 'id' | 'created_at'>;

/** What a run compares a product against: its stored columns. */
export type StoredFeedProduct = Pick<
  ProductsTable,
  'id' | 'organization_id' | 'integration' | 'available' | 'name' | 'description' | 'url' | 'images' | 'options' | 'metadata' | 'price_cents' | 'feed_id' | 'feed_run_id'
> & { seq: number };

/** One batch of a run: new products, changed ones, and the ones only seen again. */
export interface FeedBatch {
  inserts: Array<{ id: string; columns: FeedProductColumns }>;
  updates: Array<{ seq: number; columns: Updateable<ProductsTable> }>;
  /** Products unchanged: only marked as seen by the run. */
  seen: number[];
}

export class FeedsRepository {
  constructor(private readonly database: Database) {}

  find(brandId: string, id: string): Promise<ProductFeedRow | undefined> {
    return this.database.db.selectFrom('product_feeds').selectAll().where('organization_id', '=', brandId).where('id', '=', id).executeTakeFirst();
  }

  listOfBrand(brandId: string): Promise<ProductFeedRow[]> {
    return this.database.db.selectFrom('product_feeds').selectAll().where('organization_id', '=', brandId).orderBy('id').execute();
  }

  async countOfBrand(brandId: string): Promise<number> {
    const row = await this.database.db.selectFrom('product_feeds').select((eb) => eb.fn.countAll<number>().as('n')).where('organization_id', '=', brandId).executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** Inserts or changes the brand's feed; `dueNow` makes it due at once (new, or a new URL). */
  async save(brandId: string, id: string, columns: Pick<ProductFeedRow, 'url' | 'format' | 'schedule'>, now: string, dueNow: boolean): Promise<void> {
    const { db } = this.database;
    const updated = await db
      .updateTable('product_feeds')
      .set({ ...columns, ...(dueNow && { next_run_at: now }), updated_at: now })
      .where('organization_id', '=', brandId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) > 0) return;
    await db.insertInto('product_feeds').values({ organization_id: brandId, id, ...columns, next_run_at: now, created_at: now, updated_at: now }).execute();
  }

  /** Deletes the brand's feed and its runs; its products stay, as the brand's own. False when it has none. */
  delete(brandId: string, id: string): Promise<boolean> {
    return this.database.db.transaction().execute(async (trx) => {
      const result = await trx.deleteFrom('product_feeds').where('organization_id', '=', brandId).where('id', '=', id).executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) return false;
      await trx.deleteFrom('feed_runs').where('organization_id', '=', brandId).where('feed_id', '=', id).execute();
      await trx.updateTable('products').set({ feed_id: null, feed_run_id: null }).where('organization_id', '=', brandId).where('feed_id', '=', id).execute();
      return true;
    });
  }

  /**
   * Claims up to `limit` feeds due at `now` whose lease is free or ran out, for `owner` until
   * `leaseUntil`: at most one of a brand's, and none of a brand with a run under way (on any
   * instance, uploads included), so a brand whose feed server is slow holds one worker and other
   * brands' feeds go on. The update checks the lease again, so two instances never both claim a feed.
   */
  async claimDue(owner: string, now: string, leaseUntil: string, limit: number): Promise<ProductFeedRow[]> {
    const { db } = this.database;
    const free = (eb: ExpressionBuilder<DB, 'product_feeds'>) => eb.and([eb('next_run_at', '<=', now), eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)])]);
    const running = db.selectFrom('product_feeds as running').select('running.organization_id').where('running.lease_until', '>=', now);
    // Read first: on SQLite an UPDATE takes the write lock even when it claims nothing.
    const found = await db
      .selectFrom((from) =>
        from
          .selectFrom('product_feeds')
          .select(['organization_id', 'id', 'next_run_at', (eb) => eb.fn.agg<number>('row_number').over((over) => over.partitionBy('organization_id').orderBy('next_run_at').orderBy('id')).as('place')])
          .where(free)
          .where('organization_id', 'not in', running)
          .as('due'),
      )
      .select(['due.organization_id', 'due.id'])
      .where('due.place', '=', 1)
      .orderBy('due.next_run_at')
      .limit(limit)
      .execute();
    if (found.length === 0) return [];
    return db
      .updateTable('product_feeds')
      .set({ lease_owner: owner, lease_until: leaseUntil })
      .where((eb) => eb.or(found.map((row) => eb.and([eb('organization_id', '=', row.organization_id), eb('id', '=', row.id)]))))
      .where(free)
      .returningAll()
      .execute();
  }

  /** Claims the brand's feed whatever its schedule (an uploaded run); undefined when a run of it holds the lease. */
  claimNow(brandId: string, id: string, owner: string, now: string, leaseUntil: string): Promise<ProductFeedRow | undefined> {
    return this.database.db
      .updateTable('product_feeds')
      .set({ lease_owner: owner, lease_until: leaseUntil })
      .where('organization_id', '=', brandId)
      .where('id', '=', id)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
      .returningAll()
      .executeTakeFirst();
  }

  /** Frees a claimed feed with what its run left; false when the lease was lost meanwhile. */
  async release(claimed: ProductFeedRow, changes: Partial<Pick<ProductFeedRow, 'next_run_at' | 'failures' | 'last_run_id' | 'last_complete_items'>>): Promise<boolean> {
    const { next_run_at: nextRunAt, ...rest } = changes;
    const result = await this.database.db
      .updateTable('product_feeds')
      .set((eb) => ({
        ...rest,
        // A feed changed during the run (a new URL is due at once) keeps the time its change set.
        ...(nextRunAt !== undefined && { next_run_at: eb.case().when('updated_at', '=', claimed.updated_at).then(nextRunAt).else(eb.ref('next_run_at')).end() }),
        lease_owner: null,
        lease_until: null,
      }))
      .where('organization_id', '=', claimed.organization_id)
      .where('id', '=', claimed.id)
      .where('lease_owner', '=', claimed.lease_owner)
      .where('lease_until', '=', claimed.lease_until)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Starts a run's report; runs of the feed still marked running were cut off (their instance stopped). */
  async startRun(run: Pick<FeedRunRow, 'id' | 'organization_id' | 'feed_id' | 'source' | 'started_at'>): Promise<void> {
    const { db } = this.database;
    await db
      .updateTable('feed_runs')
      .set({ status: 'failed', reason: 'the run was cut off before its end (its instance stopped)', finished_at: run.started_at })
      .where('organization_id', '=', run.organization_id)
      .where('feed_id', '=', run.feed_id)
      .where('status', '=', 'running')
      .execute();
    await db.insertInto('feed_runs').values({ ...run, status: 'running', reason: null, bytes: 0, items: 0, added: 0, updated: 0, unchanged: 0, made_unavailable: 0, refused: 0, refusals: '[]', finished_at: null }).execute();
  }

  /** Deletes the feed's run reports but the newest `keep`; how many went. */
  async forgetRunsBeyond(brandId: string, feedId: string, keep: number): Promise<number> {
    const { db } = this.database;
    const oldestKept = await db
      .selectFrom('feed_runs')
      .select(['started_at', 'id'])
      .where('organization_id', '=', brandId)
      .where('feed_id', '=', feedId)
      .orderBy('started_at', 'desc')
      .orderBy('id', 'desc')
      .offset(keep - 1)
      .limit(1)
      .executeTakeFirst();
    if (!oldestKept) return 0;
    const result = await db
      .deleteFrom('feed_runs')
      .where('organization_id', '=', brandId)
      .where('feed_id', '=', feedId)
      .where((eb) => eb.or([eb('started_at', '<', oldestKept.started_at), eb.and([eb('started_at', '=', oldestKept.started_at), eb('id', '<', oldestKept.id)])]))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async finishRun(id: string, report: Omit<Updateable<FeedRunsTable>, 'id' | 'organization_id' | 'feed_id' | 'source' | 'started_at'>): Promise<void> {
    await this.database.db.updateTable('feed_runs').set(report).where('id', '=', id).execute();
  }

  /** A running run's counts so far (a finished one's report is left as it is). */
  async recordProgress(id: string, counts: Pick<Updateable<FeedRunsTable>, 'items' | 'bytes' | 'refused' | 'added' | 'updated' | 'unchanged'>): Promise<void> {
    await this.database.db.updateTable('feed_runs').set(counts).where('id', '=', id).where('status', '=', 'running').execute();
  }

  findRun(brandId: string, feedId: string, runId: string): Promise<FeedRunRow | undefined> {
    return this.database.db.selectFrom('feed_runs').selectAll().where('organization_id', '=', brandId).where('feed_id', '=', feedId).where('id', '=', runId).executeTakeFirst();
  }

  /** The feed's runs, newest first, and their exact total (counted from the feed's index entries, never remembered: a run just made is in it). */
  async listRuns(brandId: string, feedId: string, page: PageWindow): Promise<Page<FeedRunRow>> {
    const q = this.database.db.selectFrom('feed_runs').where('organization_id', '=', brandId).where('feed_id', '=', feedId);
    const [rows, count] = await Promise.all([
      q.selectAll().orderBy('started_at', 'desc').orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    ]);
    return { rows, total: Number(count?.n ?? 0) };
  }

  /** The brand's products with these ids, as stored. */
  storedProducts(brandId: string, ids: readonly string[]): Promise<StoredFeedProduct[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.database.db
      .selectFrom('products')
      .select(['seq', 'id', 'organization_id', 'integration', 'available', 'name', 'description', 'url', 'images', 'options', 'metadata', 'price_cents', 'feed_id', 'feed_run_id'])
      .where('organization_id', '=', brandId)
      .where('id', 'in', ids)
      .execute();
  }

  /** Writes one batch of a run in one transaction: a batch is stored whole or not at all. */
  async writeBatch(brandId: string, feedId: string, runId: string, batch: FeedBatch, now: string): Promise<void> {
    await this.database.db.transaction().execute(async (trx) => {
      if (batch.inserts.length > 0) {
        await trx
          .insertInto('products')
          .values(batch.inserts.map(({ id, columns }) => ({ ...columns, id, created_at: now, feed_id: feedId, feed_run_id: runId })))
          .execute();
      }
      for (const { seq, columns } of batch.updates) {
        await trx.updateTable('products').set({ ...columns, feed_id: feedId, feed_run_id: runId }).where('seq', '=', seq).where('organization_id', '=', brandId).execute();
      }
      if (batch.seen.length > 0) await trx.updateTable('products').set({ feed_id: feedId, feed_run_id: runId }).where('organization_id', '=', brandId).where('seq', 'in', batch.seen).execute();
    });
  }

  /** Up to `limit` of the feed's available products that run `runId` did not list. */
  missingFromRun(brandId: string, feedId: string, runId: string, limit: number): Promise<Array<{ seq: number; options: string }>> {
    return this.database.db
      .selectFrom('products')
      .select(['seq', 'options'])
      .where('organization_id', '=', brandId)
      .where('feed_id', '=', feedId)
      .where('available', '=', 1)
      .where((eb) => eb.or([eb('feed_run_id', 'is', null), eb('feed_run_id', '!=', runId)]))
      .orderBy('seq')
      .limit(limit)
      .execute();
  }

  /** Makes these products unavailable, with the options given (each unavailable too). */
  async makeUnavailable(brandId: string, products: ReadonlyArray<{ seq: number; options: string }>, now: string): Promise<void> {
    await this.database.db.transaction().execute(async (trx) => {
      for (const { seq, options } of products) {
        await trx.updateTable('products').set({ available: 0, options, updated_at: now }).where('organization_id', '=', brandId).where('seq', '=', seq).execute();
      }
    });
  }
}
