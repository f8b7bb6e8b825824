// Which affiliates may promote which private brands: their requests, the brand's answer, and the
// brand's view of the affiliates that promote it with what they earned.
import { sql } from 'kysely';
import type { Database } from '../database.js';
import { hourOf } from '../../lib/rollup-layout.js';
import type { ApprovalRequestRow, NewMailMessage, NewWebhookEvent } from '../tables.js';
import { writeMail } from './mail.js';
import { pageWithTotal, type Page, type PageWindow } from './pages.js';
import { writeOutbox } from './webhooks.js';
import { writeAudit, type NewAuditEntry } from './audit.js';

/** An affiliate as its brand sees it, with its figures over a range. */
export interface PromotingAffiliate {
  affiliate_id: string;
  name: string;
  approved_at: string | null;
  request_status: string | null;
  requested_at: string | null;
  request_message: string | null;
  /** Counted clicks on the affiliate's links to the brand, in the hours the range covers. */
  clicks: number;
  orders: number;
  sales: number;
  commission: number;
}

/** Which of a brand's affiliates: approved or asking only; those whose id or name contains `search`; with `network`, any active affiliate so found too. */
export interface PromoterFilter {
  status?: 'approved' | 'pending' | undefined;
  search?: string | undefined;
  network?: boolean;
}

/** Contains `text`, case aside (lower() on both sides: LIKE is case-sensitive on PostgreSQL), its wildcards taken as they are. */
const containing = (text: string) => sql<string>`${`%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`} escape '\\'`;

export class ApprovalsRepository {
  constructor(private readonly database: Database) {}

  findRequest(affiliateId: string, brandId: string): Promise<ApprovalRequestRow | undefined> {
    return this.database.db.selectFrom('approval_requests').selectAll().where('affiliate_id', '=', affiliateId).where('brand_id', '=', brandId).executeTakeFirst();
  }

  /**
   * Records a pending request (again pending when it was declined), with its webhook events in the
   * same transaction; the request as stored, and whether it is new or renewed.
   */
  request(row: ApprovalRequestRow, events: readonly NewWebhookEvent[]): Promise<ApprovalRequestRow> {
    return this.database.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('approval_requests')
        .values(row)
        .onConflict((oc) => oc.columns(['affiliate_id', 'brand_id']).doUpdateSet({ status: 'pending', message: row.message, updated_at: row.updated_at }))
        .execute();
      await writeOutbox(trx, events, row.updated_at);
      return (await trx.selectFrom('approval_requests').selectAll().where('affiliate_id', '=', row.affiliate_id).where('brand_id', '=', row.brand_id).executeTakeFirst())!;
    });
  }

  /**
   * Approves the affiliate for the brand (its pending request, if any, is answered), and marks
   * the brand changed so every instance's redirect cache reads its links afresh. `mail` (telling
   * the affiliate) and the `audit` entries (given the request's status before: pending, declined,
   * or null without one) are written only when it was not approved already; whether it was not.
   */
  async approve(affiliateId: string, brandId: string, now: string, mail: readonly NewMailMessage[] = [], audit: (request: string | null) => readonly NewAuditEntry[] = () => []): Promise<boolean> {
    return this.database.db.transaction().execute(async (trx) => {
      const added = await trx.insertInto('brand_approvals').values({ affiliate_id: affiliateId, brand_id: brandId, created_at: now }).onConflict((oc) => oc.columns(['affiliate_id', 'brand_id']).doNothing()).executeTakeFirst();
      const request = await trx.selectFrom('approval_requests').select('status').where('affiliate_id', '=', affiliateId).where('brand_id', '=', brandId).executeTakeFirst();
      await trx.deleteFrom('approval_requests').where('affiliate_id', '=', affiliateId).where('brand_id', '=', brandId).execute();
      await trx.updateTable('brands').set({ updated_at: now }).where('id', '=', brandId).execute();
      if (Number(added.numInsertedOrUpdatedRows ?? 0n) === 0) return false;
      await writeMail(trx, mail, now);
      await writeAudit(trx, audit(request?.status ?? null), now);
      return true;
    });
  }

  /**
   * Withdraws the approval (or declines the pending request); false when there was neither. The
   * brand is marked changed, so redirects of the affiliate's links stop on every instance; the
   * `audit` entries (given what the affiliate was: approved, or pending) are written with it.
   */
  async revoke(affiliateId: string, brandId: string, now: string, audit: (was: 'approved' | 'pending') => readonly NewAuditEntry[] = () => []): Promise<boolean> {
    return this.database.db.transaction().execute(async (trx) => {
      const approval = await trx.deleteFrom('brand_approvals').where('affiliate_id', '=', affiliateId).where('brand_id', '=', brandId).executeTakeFirst();
      const request = await trx.updateTable('approval_requests').set({ status: 'declined', updated_at: now }).where('affiliate_id', '=', affiliateId).where('brand_id', '=', brandId).where('status', '=', 'pending').executeTakeFirst();
      const withdrawn = Number(approval.numDeletedRows) > 0;
      const changed = withdrawn || Number(request.numUpdatedRows) > 0;
      if (!changed) return false;
      await trx.updateTable('brands').set({ updated_at: now }).where('id', '=', brandId).execute();
      await writeAudit(trx, audit(withdrawn ? 'approved' : 'pending'), now);
      return true;
    });
  }

  /** The ids of the brand's affiliates: approved, asking, with links to it, or with orders of it (as promoters lists them). */
  async programmeOf(brandId: string): Promise<string[]> {
    return (await this.programmeIds(brandId).execute()).map((row) => row.affiliate_id).sort();
  }

  /** The brand's affiliates' ids as a query: approved, asking, with links, or with orders (any status, at any time). */
  private programmeIds(brandId: string) {
    const { db } = this.database;
    return db
      .selectFrom('brand_approvals')
      .select('affiliate_id')
      .where('brand_id', '=', brandId)
      .union(db.selectFrom('approval_requests').select('affiliate_id').where('brand_id', '=', brandId).where('status', '=', 'pending'))
      .union(db.selectFrom('short_links').select('affiliate_id').where('organization_id', '=', brandId))
      .union(db.selectFrom('orders').select('affiliate_id').where('organization_id', '=', brandId));
  }

  /**
   * The affiliates of the brand: approved, asking, with links to it, or with orders of it (any
   * status, at any time: links may be gone, and a public brand approves no one); each with its orders,
   * sales and commission of orders created in [from, to] and its counted clicks in the hours
   * of that range (from the hourly rollups, so a bound inside an hour takes that whole hour).
   * `filter` narrows them, or with `network` and a search widens them to any active affiliate
   * found. Ordered by affiliate id.
   */
  promoters(brandId: string, range: { from?: string; to?: string }, filter: PromoterFilter, page: PageWindow): Promise<Page<PromotingAffiliate>> {
    const { db } = this.database;
    const ids = () => {
      const approved = db.selectFrom('brand_approvals').select('affiliate_id').where('brand_id', '=', brandId);
      const requested = db.selectFrom('approval_requests').select('affiliate_id').where('brand_id', '=', brandId).where('status', '=', 'pending');
      if (filter.status === 'approved') return approved;
      if (filter.status === 'pending') return requested;
      // Orders too: an affiliate whose links to the brand are gone still earned what it earned.
      return this.programmeIds(brandId);
    };
    const members = () => {
      const all = db.selectFrom('affiliates as a');
      // The whole network, active affiliates only, when searching for a public brand's affiliates.
      const among = filter.network && filter.status === undefined ? all.where((eb) => eb.or([eb('a.id', 'in', ids()), eb('a.suspended_at', 'is', null)])) : all.where('a.id', 'in', ids());
      const search = filter.search;
      return search ? among.where((eb) => eb.or([eb(eb.fn('lower', ['a.id']), 'like', containing(search)), eb(eb.fn('lower', ['a.name']), 'like', containing(search))])) : among;
    };
    // The affiliate's orders of the brand created in the range, canceled ones left out.
    const inRange = sql.join(
      [
        sql`o.affiliate_id = a.id`,
        sql`o.organization_id = ${brandId}`,
        sql`o.status <> 'canceled'`,
        ...(range.from !== undefined ? [sql`o.created_at >= ${range.from}`] : []),
        ...(range.to !== undefined ? [sql`o.created_at <= ${range.to}`] : []),
      ],
      sql` and `,
    );
    const orderFigure = (figure: string) => sql<number>`(select ${sql.raw(figure)} from orders o where ${inRange})`;
    const rows = members()
      .leftJoin('brand_approvals as ap', (join) => join.onRef('ap.affiliate_id', '=', 'a.id').on('ap.brand_id', '=', brandId))
      .leftJoin('approval_requests as r', (join) => join.onRef('r.affiliate_id', '=', 'a.id').on('r.brand_id', '=', brandId))
      .select((eb) => [
        'a.id as affiliate_id',
        'a.name',
        'ap.created_at as approved_at',
        'r.status as request_status',
        'r.created_at as requested_at',
        'r.message as request_message',
        eb
          .selectFrom('click_rollups as r')
          .select((inner) => inner.fn.coalesce(inner.fn.sum<number>('r.counted'), sql<number>`0`).as('n'))
          .whereRef('r.affiliate_id', '=', 'a.id')
          .where('r.organization_id', '=', brandId)
          .where('r.link_id', '=', '')
          .where('r.dimension', '=', 'all')
          .$if(range.from !== undefined, (q) => q.where('r.hour', '>=', hourOf(range.from!)))
          .$if(range.to !== undefined, (q) => q.where('r.hour', '<=', hourOf(range.to!)))
          .as('clicks'),
        orderFigure('count(*)').as('orders'),
        orderFigure('coalesce(sum(o.value), 0)').as('sales'),
        orderFigure('coalesce(sum(o.commission), 0)').as('commission'),
      ])
      .orderBy('a.id')
      .limit(page.limit)
      .offset(page.offset);
    return pageWithTotal(
      this.database,
      rows.execute().then((list) => list.map((r) => ({ ...r, clicks: Number(r.clicks), orders: Number(r.orders), sales: Number(r.sales), commission: Number(r.commission) }))),
      members().select((eb) => eb.fn.countAll<number>().as('n')),
    );
  }
}
