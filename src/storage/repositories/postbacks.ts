// Affiliates' postbacks: their URL templates; the deliveries written in the transaction of the
// change that caused them (as the webhook outbox is), one per event and template; the leased claim
// of due deliveries (one instance sends a delivery); each delivery's last attempt, the log.
import { randomUUID } from 'node:crypto';
import { sql, type ExpressionBuilder, type Transaction, type Updateable } from 'kysely';
import type { Database } from '../database.js';
import type { AffiliatePostbackRow, DB, NewWebhookEvent, PostbackDeliveriesTable, PostbackDeliveryRow } from '../tables.js';
import { POSTBACK_EVENT_OF } from '../../lib/postback-events.js';
import { brandRowIsVisible } from './visibility.js';
import { pageWithTotal, type Page, type PageWindow } from './pages.js';

/** An event a postback may fire on, as the change that caused it writes it. */
export interface PostbackTrigger {
  affiliate_id: string;
  /** The postback event (conversion.created, …). */
  event: string;
  /** Unique per event: a template is sent each key once. */
  event_key: string;
  /** The order's brand, for templates limited to some brands. */
  brand_id: string | null;
  /** `{ type, version, timestamp, data }`: data is the affiliate's view of the order. */
  payload: string;
}

/** A due delivery claimed by this instance, with its template as it is now. */
export interface ClaimedPostback {
  delivery: PostbackDeliveryRow;
  postback: AffiliatePostbackRow;
}

/** What an attempt changed: the delivery's next state and how the attempt went. */
export type PostbackAttempt = Pick<PostbackDeliveryRow, 'status' | 'next_attempt_at' | 'url' | 'response_status' | 'error' | 'failure' | 'duration_ms'>;

/** The affiliate's events among `events` a postback may fire on (order.created → conversion.created, …). */
export function postbackTriggersOf(events: readonly NewWebhookEvent[]): PostbackTrigger[] {
  return events.flatMap((event) => {
    const postbackEvent = POSTBACK_EVENT_OF[event.type];
    if (event.owner_kind !== 'affiliate' || !postbackEvent) return [];
    const { data } = JSON.parse(event.payload) as { data?: { organizationId?: unknown } };
    const brand = typeof data?.organizationId === 'string' ? data.organizationId : null;
    return [{ affiliate_id: event.owner_id, event: postbackEvent, event_key: event.id, brand_id: brand, payload: event.payload }];
  });
}

/**
 * Writes a pending delivery per active template of the event's affiliate that fires on it (and,
 * when limited to some brands, on the order's brand), inside the caller's transaction: the change
 * and its postbacks are stored together or not at all. A key already written to a template is
 * not written again.
 */
export async function writePostbacks(trx: Transaction<DB>, triggers: readonly PostbackTrigger[], now: string): Promise<void> {
  for (const affiliateId of new Set(triggers.map((t) => t.affiliate_id))) {
    const mine = triggers.filter((t) => t.affiliate_id === affiliateId);
    const templates = await trx
      .selectFrom('affiliate_postbacks')
      .select(['id', 'events', 'brand_ids'])
      .where('affiliate_id', '=', affiliateId)
      .where('active', '=', 1)
      .where((eb) => eb.or([...new Set(mine.map((t) => t.event))].map((event) => eb('events', 'like', `% ${event} %`))))
      .execute();
    const rows = mine.flatMap((trigger) =>
      templates
        .filter((t) => t.events.includes(` ${trigger.event} `) && (t.brand_ids === null || (trigger.brand_id !== null && t.brand_ids.includes(` ${trigger.brand_id} `))))
        .map((t) => pendingRow(affiliateId, t.id, trigger, now)),
    );
    if (rows.length === 0) continue;
    await trx
      .insertInto('postback_deliveries')
      .values(rows)
      .onConflict((oc) => oc.columns(['affiliate_id', 'postback_id', 'event_key']).doNothing())
      .execute();
  }
}

const pendingRow = (affiliateId: string, postbackId: string, trigger: PostbackTrigger, now: string): PostbackDeliveryRow => ({
  id: randomUUID(),
  affiliate_id: affiliateId,
  postback_id: postbackId,
  event: trigger.event,
  event_key: trigger.event_key,
  payload: trigger.payload,
  test: 0,
  status: 'pending',
  attempts: 0,
  url: null,
  response_status: null,
  error: null,
  failure: null,
  duration_ms: null,
  next_attempt_at: now,
  lease_owner: null,
  lease_until: null,
  last_attempt_at: null,
  created_at: now,
  updated_at: now,
});

export class PostbacksRepository {
  constructor(private readonly database: Database) {}

  /** The affiliate's templates, oldest first. */
  list(affiliateId: string): Promise<AffiliatePostbackRow[]> {
    return this.database.db.selectFrom('affiliate_postbacks').selectAll().where('affiliate_id', '=', affiliateId).orderBy('created_at').orderBy('id').execute();
  }

  find(affiliateId: string, id: string): Promise<AffiliatePostbackRow | undefined> {
    return this.database.db.selectFrom('affiliate_postbacks').selectAll().where('affiliate_id', '=', affiliateId).where('id', '=', id).executeTakeFirst();
  }

  /**
   * Creates the template, or replaces the affiliate's one with its id (keeping when it was
   * created, and its deliveries); whether it was created.
   */
  async save(row: AffiliatePostbackRow): Promise<boolean> {
    const created = await this.database.db
      .insertInto('affiliate_postbacks')
      .values(row)
      .onConflict((oc) => oc.columns(['affiliate_id', 'id']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (created) return true;
    const { url, events, brand_ids, active, updated_at } = row;
    await this.database.db.updateTable('affiliate_postbacks').set({ url, events, brand_ids, active, updated_at }).where('affiliate_id', '=', row.affiliate_id).where('id', '=', row.id).execute();
    return false;
  }

  /** Deletes one of the affiliate's templates with its deliveries; false when it has none with this id. */
  async delete(affiliateId: string, id: string): Promise<boolean> {
    return this.database.db.transaction().execute(async (trx) => {
      const deleted = await trx.deleteFrom('affiliate_postbacks').where('affiliate_id', '=', affiliateId).where('id', '=', id).executeTakeFirst();
      if (Number(deleted.numDeletedRows) === 0) return false;
      await trx.deleteFrom('postback_deliveries').where('affiliate_id', '=', affiliateId).where('postback_id', '=', id).execute();
      return true;
    });
  }

  /** Whether one of the affiliate's active templates fires on `event`. */
  async subscribed(affiliateId: string, event: string): Promise<boolean> {
    const row = await this.database.db
      .selectFrom('affiliate_postbacks')
      .select('id')
      .where('affiliate_id', '=', affiliateId)
      .where('active', '=', 1)
      .where('events', 'like', `% ${event} %`)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Those of `ids` that are brands the affiliate may promote now, or has orders of. */
  async brandsOf(affiliateId: string, ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const { db } = this.database;
    const rows = await db
      .selectFrom('brands')
      .select('brands.id')
      .where('brands.id', 'in', [...ids])
      .where(sql<boolean>`(${brandRowIsVisible(db, affiliateId)} or exists (select 1 from orders where orders.affiliate_id = ${affiliateId} and orders.organization_id = brands.id))`)
      .execute();
    return new Set(rows.map((r) => r.id));
  }

  /** The template's deliveries, newest first (id breaks ties), and the total. */
  listDeliveries(affiliateId: string, postbackId: string, page: PageWindow): Promise<Page<PostbackDeliveryRow>> {
    const mine = () => this.database.db.selectFrom('postback_deliveries').where('affiliate_id', '=', affiliateId).where('postback_id', '=', postbackId);
    return pageWithTotal(
      this.database,
      mine().selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute(),
      mine().select((eb) => eb.fn.countAll<number>().as('n')),
    );
  }

  /** A delivery made at once (a test), with its one attempt. */
  async insertDelivery(row: PostbackDeliveryRow): Promise<void> {
    await this.database.db.insertInto('postback_deliveries').values(row).execute();
  }

  /**
   * Claims up to `limit` due deliveries of active templates for `owner` until `leaseUntil`: a
   * delivery whose lease ran out (its instance died) is due again. An affiliate has at most
   * `perMember` deliveries under way across instances, so an affiliate whose tracker is slow holds
   * that many workers and nobody else's postbacks wait behind its own. The update checks the lease
   * again, so two instances never claim the same delivery.
   */
  async claimDue(owner: string, now: string, leaseUntil: string, limit: number, perMember: number): Promise<ClaimedPostback[]> {
    const { db } = this.database;
    const free = (eb: ExpressionBuilder<DB, 'postback_deliveries'>) => eb.and([eb('status', '=', 'pending'), eb('next_attempt_at', '<=', now), eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)])]);
    // Read first: on SQLite the UPDATE takes the write lock even when it claims nothing.
    const due = await db
      .with('working', (w) =>
        w
          .selectFrom('postback_deliveries')
          .select(['affiliate_id', (eb) => eb.fn.countAll<number>().as('deliveries')])
          .where('status', '=', 'pending')
          .where('next_attempt_at', '<=', now)
          .where('lease_until', '>=', now)
          .groupBy('affiliate_id'),
      )
      .with('waiting', (w) =>
        w
          .selectFrom('postback_deliveries as delivery')
          .innerJoin('affiliate_postbacks as postback', (join) => join.onRef('postback.affiliate_id', '=', 'delivery.affiliate_id').onRef('postback.id', '=', 'delivery.postback_id'))
          .select([
            'delivery.id',
            'delivery.next_attempt_at',
            'delivery.affiliate_id',
            (eb) => eb.fn.agg<number>('row_number').over((over) => over.partitionBy('delivery.affiliate_id').orderBy('delivery.next_attempt_at').orderBy('delivery.id')).as('place'),
          ])
          .where('delivery.status', '=', 'pending')
          .where('delivery.next_attempt_at', '<=', now)
          .where((eb) => eb.or([eb('delivery.lease_until', 'is', null), eb('delivery.lease_until', '<', now)]))
          .where('postback.active', '=', 1),
      )
      .selectFrom('waiting')
      .leftJoin('working', 'working.affiliate_id', 'waiting.affiliate_id')
      .select('waiting.id')
      .where((eb) => eb(eb('waiting.place', '+', eb.fn.coalesce('working.deliveries', eb.lit(0))), '<=', perMember))
      .orderBy('waiting.next_attempt_at')
      .limit(limit)
      .execute();
    if (due.length === 0) return [];
    const deliveries = await db
      .updateTable('postback_deliveries')
      .set({ lease_owner: owner, lease_until: leaseUntil, updated_at: now })
      .where(
        'id',
        'in',
        due.map((row) => row.id),
      )
      .where(free)
      .returningAll()
      .execute();
    if (deliveries.length === 0) return [];
    const postbacks = await db
      .selectFrom('affiliate_postbacks')
      .selectAll()
      .where((eb) => eb.or(deliveries.map((d) => eb.and([eb('affiliate_id', '=', d.affiliate_id), eb('id', '=', d.postback_id)]))))
      .execute();
    const byKey = new Map(postbacks.map((p) => [`${p.affiliate_id} ${p.id}`, p]));
    // A template deleted meanwhile took its deliveries along: what is left of them is not sent.
    return deliveries.flatMap((delivery) => {
      const postback = byKey.get(`${delivery.affiliate_id} ${delivery.postback_id}`);
      return postback ? [{ delivery, postback }] : [];
    });
  }

  /**
   * Records an attempt of a claimed delivery: its next state (the lease released) and how it went.
   * Nothing is recorded when the lease was lost meanwhile (another instance then owns the
   * delivery, or its template was deleted); false then.
   */
  async recordAttempt(claimed: PostbackDeliveryRow, attempt: PostbackAttempt, now: string): Promise<boolean> {
    const changes: Updateable<PostbackDeliveriesTable> = { ...attempt, attempts: claimed.attempts + 1, last_attempt_at: now, lease_owner: null, lease_until: null, updated_at: now };
    const result = await this.database.db
      .updateTable('postback_deliveries')
      .set(changes)
      .where('id', '=', claimed.id)
      .where('lease_owner', '=', claimed.lease_owner)
      .where('lease_until', '=', claimed.lease_until)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Deliveries are kept in one table: nothing to prepare. */
  async prepareMonths(): Promise<void> {}

  /** Deliveries are kept in one table: pruned row by row. */
  async dropMonthsEndedBy(): Promise<number> {
    return 0;
  }

  /** Deletes up to `limit` deliveries made before `cutoff`, oldest first (every one that old is over: retries end a day after the event); how many went. */
  async pruneOlderThan(cutoff: number, limit: number): Promise<number> {
    const { db } = this.database;
    const before = new Date(cutoff).toISOString();
    const deleted = await db
      .deleteFrom('postback_deliveries')
      .where('id', 'in', db.selectFrom('postback_deliveries').select('id').where('created_at', '<', before).orderBy('created_at').limit(limit))
      .executeTakeFirst();
    return Number(deleted.numDeletedRows);
  }
}
