// Webhooks: endpoints of affiliates and brands, the outbox of events with a delivery per
// subscribed endpoint, the leased claim of due deliveries (one instance delivers a delivery), and
// the delivery log.
import { randomUUID } from 'node:crypto';
import type { ExpressionBuilder, Kysely, Transaction, Updateable } from 'kysely';
import type { Database } from '../database.js';
import type {
  DB,
  NewWebhookEvent,
  WebhookAttemptRow,
  WebhookDeliveryRow,
  WebhookEndpointRow,
  WebhookEndpointsTable,
  WebhookEventRow,
} from '../tables.js';
import { pageWithTotal, type Page, type PageWindow } from './pages.js';
import { dropMonthPartitionsBefore, prepareMonthPartitions, WEBHOOK_PARTITIONS } from '../month-partitions.js';
import { postbackTriggersOf, writePostbacks } from './postbacks.js';

export type OwnerKind = 'affiliate' | 'brand';

/** A due delivery claimed by this instance, with what sending it needs. */
export interface ClaimedDelivery {
  delivery: WebhookDeliveryRow;
  event: WebhookEventRow;
  endpoint: WebhookEndpointRow;
}

/** What an attempt changed: the delivery's next state, its log entry, the endpoint's health. */
export interface AttemptRecord {
  delivery: Pick<WebhookDeliveryRow, 'status' | 'next_attempt_at'>;
  log: Omit<WebhookAttemptRow, 'id'>;
  /** The endpoint's health; `enabled` and `disabled_reason` only when the network switches it off. */
  endpoint: Pick<WebhookEndpointRow, 'failing_since'> & Partial<Pick<WebhookEndpointRow, 'enabled' | 'disabled_reason'>>;
  /** A second log entry telling the owner the endpoint was switched off, when it was. */
  disabledLog?: Omit<WebhookAttemptRow, 'id'>;
}

/**
 * Writes events into the outbox inside the caller's transaction, with one pending delivery per
 * enabled endpoint of the event's owner subscribed to its type: the change and its events are
 * stored together or not at all. An event no endpoint is subscribed to is not kept: nobody would
 * ever receive it (an endpoint added later gets the events from then on). The affiliate's order
 * events also fire its postbacks (src/storage/repositories/postbacks.ts), whatever its endpoints.
 */
export async function writeOutbox(trx: Transaction<DB>, events: readonly NewWebhookEvent[], now: string): Promise<void> {
  await writePostbacks(trx, postbackTriggersOf(events), now);
  for (const event of events) {
    const endpoints = await trx
      .selectFrom('webhook_endpoints')
      .select('id')
      .where('owner_kind', '=', event.owner_kind)
      .where('owner_id', '=', event.owner_id)
      .where('enabled', '=', 1)
      .where('events', 'like', `% ${event.type} %`)
      .execute();
    if (endpoints.length === 0) continue;
    await trx.insertInto('webhook_events').values({ ...event, created_at: now }).execute();
    await trx
      .insertInto('webhook_deliveries')
      .values(endpoints.map((e) => ({ id: randomUUID(), event_id: event.id, endpoint_id: e.id, status: 'pending', attempts: 0, next_attempt_at: now, lease_owner: null, lease_until: null, created_at: now, updated_at: now })))
      .execute();
  }
}

export class WebhooksRepository {
  constructor(private readonly database: Database) {}

  async createEndpoint(row: WebhookEndpointRow): Promise<void> {
    await this.database.db.insertInto('webhook_endpoints').values(row).execute();
  }

  /** The owner's endpoints, oldest first. */
  listEndpoints(ownerKind: OwnerKind, ownerId: string): Promise<WebhookEndpointRow[]> {
    return this.database.db.selectFrom('webhook_endpoints').selectAll().where('owner_kind', '=', ownerKind).where('owner_id', '=', ownerId).orderBy('created_at').orderBy('id').execute();
  }

  findEndpoint(ownerKind: OwnerKind, ownerId: string, id: string): Promise<WebhookEndpointRow | undefined> {
    return this.database.db.selectFrom('webhook_endpoints').selectAll().where('owner_kind', '=', ownerKind).where('owner_id', '=', ownerId).where('id', '=', id).executeTakeFirst();
  }

  /** Changes one of the owner's endpoints; false when it has none with this id. */
  async updateEndpoint(ownerKind: OwnerKind, ownerId: string, id: string, changes: Updateable<WebhookEndpointsTable>): Promise<boolean> {
    const result = await this.database.db.updateTable('webhook_endpoints').set(changes).where('owner_kind', '=', ownerKind).where('owner_id', '=', ownerId).where('id', '=', id).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Deletes one of the owner's endpoints with its deliveries and log; false when it has none with this id. */
  async deleteEndpoint(ownerKind: OwnerKind, ownerId: string, id: string): Promise<boolean> {
    return this.database.db.transaction().execute(async (trx) => {
      const endpoint = await trx.selectFrom('webhook_endpoints').select('id').where('owner_kind', '=', ownerKind).where('owner_id', '=', ownerId).where('id', '=', id).executeTakeFirst();
      if (!endpoint) return false;
      await trx.deleteFrom('webhook_attempts').where('endpoint_id', '=', id).execute();
      await trx.deleteFrom('webhook_deliveries').where('endpoint_id', '=', id).execute();
      await trx.deleteFrom('webhook_endpoints').where('id', '=', id).execute();
      return true;
    });
  }

  /** The endpoint's delivery log, newest first (id breaks ties), and the total. */
  listAttempts(endpointId: string, page: PageWindow): Promise<Page<WebhookAttemptRow>> {
    const mine = () => this.database.db.selectFrom('webhook_attempts').where('endpoint_id', '=', endpointId);
    return pageWithTotal(
      this.database,
      mine().selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute(),
      mine().select((eb) => eb.fn.countAll<number>().as('n')),
    );
  }

  findDelivery(endpointId: string, deliveryId: string): Promise<WebhookDeliveryRow | undefined> {
    return this.database.db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpointId).where('id', '=', deliveryId).executeTakeFirst();
  }

  /** Sends the delivery's event again: a new pending delivery, due now; the old one keeps its log. */
  async redeliver(delivery: WebhookDeliveryRow, now: string): Promise<WebhookDeliveryRow> {
    const row: WebhookDeliveryRow = { ...delivery, id: randomUUID(), status: 'pending', attempts: 0, next_attempt_at: now, lease_owner: null, lease_until: null, created_at: now, updated_at: now };
    await this.database.db.insertInto('webhook_deliveries').values(row).execute();
    return row;
  }

  /**
   * Claims up to `limit` due deliveries of enabled endpoints for `owner` until `leaseUntil`: a
   * delivery whose lease ran out (its instance died) is due again. A member (the endpoints' owner)
   * has at most `perMember` deliveries under way across instances, so a member whose receivers are
   * slow holds that many workers and nobody else's deliveries wait behind theirs. The update checks
   * the lease again, so two instances never claim the same delivery.
   */
  async claimDue(owner: string, now: string, leaseUntil: string, limit: number, perMember: number): Promise<ClaimedDelivery[]> {
    const { db } = this.database;
    const free = (eb: ExpressionBuilder<DB, 'webhook_deliveries'>) => eb.and([eb('status', '=', 'pending'), eb('next_attempt_at', '<=', now), eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)])]);
    // Read first: on SQLite the UPDATE takes the write lock even when it claims nothing, and the
    // serving thread waits for it synchronously (behind the click writer's steps) once a second.
    const due = await db
      .with('working', (w) =>
        w
          .selectFrom('webhook_deliveries as busy')
          .innerJoin('webhook_endpoints as endpoint', 'endpoint.id', 'busy.endpoint_id')
          .select(['endpoint.owner_kind', 'endpoint.owner_id', (eb) => eb.fn.countAll<number>().as('deliveries')])
          .where('busy.status', '=', 'pending')
          .where('busy.next_attempt_at', '<=', now)
          .where('busy.lease_until', '>=', now)
          .groupBy(['endpoint.owner_kind', 'endpoint.owner_id']),
      )
      .with('waiting', (w) =>
        w
          .selectFrom('webhook_deliveries as delivery')
          .innerJoin('webhook_endpoints as endpoint', 'endpoint.id', 'delivery.endpoint_id')
          .select([
            'delivery.id',
            'delivery.next_attempt_at',
            'endpoint.owner_kind',
            'endpoint.owner_id',
            (eb) => eb.fn.agg<number>('row_number').over((over) => over.partitionBy(['endpoint.owner_kind', 'endpoint.owner_id']).orderBy('delivery.next_attempt_at').orderBy('delivery.id')).as('place'),
          ])
          .where('delivery.status', '=', 'pending')
          .where('delivery.next_attempt_at', '<=', now)
          .where((eb) => eb.or([eb('delivery.lease_until', 'is', null), eb('delivery.lease_until', '<', now)]))
          .where('endpoint.enabled', '=', 1),
      )
      .selectFrom('waiting')
      .leftJoin('working', (join) => join.onRef('working.owner_kind', '=', 'waiting.owner_kind').onRef('working.owner_id', '=', 'waiting.owner_id'))
      .select('waiting.id')
      .where((eb) => eb(eb('waiting.place', '+', eb.fn.coalesce('working.deliveries', eb.lit(0))), '<=', perMember))
      .orderBy('waiting.next_attempt_at')
      .limit(limit)
      .execute();
    if (due.length === 0) return [];
    const deliveries = await db
      .updateTable('webhook_deliveries')
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
    const [events, endpoints] = await Promise.all([
      db.selectFrom('webhook_events').selectAll().where('id', 'in', [...new Set(deliveries.map((d) => d.event_id))]).execute(),
      db.selectFrom('webhook_endpoints').selectAll().where('id', 'in', [...new Set(deliveries.map((d) => d.endpoint_id))]).execute(),
    ]);
    const eventById = new Map(events.map((e) => [e.id, e]));
    const endpointById = new Map(endpoints.map((e) => [e.id, e]));
    // A redelivery can outlive its event on PostgreSQL, where the outbox goes by whole months: it
    // is over, as every delivery of an event past the retention would be.
    const orphans = deliveries.filter((d) => !eventById.has(d.event_id)).map((d) => d.id);
    if (orphans.length > 0) await db.updateTable('webhook_deliveries').set({ status: 'failed', lease_owner: null, lease_until: null, updated_at: now }).where('id', 'in', orphans).execute();
    return deliveries
      .filter((delivery) => eventById.has(delivery.event_id))
      .map((delivery) => ({ delivery, event: eventById.get(delivery.event_id)!, endpoint: endpointById.get(delivery.endpoint_id)! }));
  }

  /**
   * Records an attempt of a claimed delivery, in one transaction: its next state (the lease
   * released), its log entry and the endpoint's health. Nothing is recorded when the lease was
   * lost meanwhile (another instance then owns the delivery); false then.
   */
  async recordAttempt(claimed: WebhookDeliveryRow, record: AttemptRecord, now: string): Promise<boolean> {
    return this.database.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('webhook_deliveries')
        .set({ ...record.delivery, attempts: claimed.attempts + 1, lease_owner: null, lease_until: null, updated_at: now })
        .where('id', '=', claimed.id)
        .where('lease_owner', '=', claimed.lease_owner)
        .where('lease_until', '=', claimed.lease_until)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return false;
      await trx.insertInto('webhook_attempts').values(record.log).execute();
      if (record.disabledLog) await trx.insertInto('webhook_attempts').values(record.disabledLog).execute();
      await trx.updateTable('webhook_endpoints').set({ ...record.endpoint, updated_at: now }).where('id', '=', claimed.endpoint_id).execute();
      return true;
    });
  }

  /** The event behind a delivery (its creation time bounds the retries). */
  findEvent(id: string): Promise<WebhookEventRow | undefined> {
    return this.database.db.selectFrom('webhook_events').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** PostgreSQL: makes sure this month and the next `ahead` have partitions of their own, in the outbox and its log. */
  async prepareMonths(now: number, ahead = 3): Promise<void> {
    if (this.database.dialect !== 'postgres') return;
    for (const spec of WEBHOOK_PARTITIONS) await prepareMonthPartitions(this.database.db as Kysely<unknown>, spec, now, ahead);
  }

  /** PostgreSQL: drops the outbox's and the log's months that ended by `cutoff`; how many rows went. */
  async dropMonthsEndedBy(cutoff: number): Promise<number> {
    if (this.database.dialect !== 'postgres') return 0;
    let dropped = 0;
    for (const spec of WEBHOOK_PARTITIONS) dropped += await dropMonthPartitionsBefore(this.database.db as Kysely<unknown>, spec, cutoff);
    return dropped;
  }

  /**
   * Deletes up to `limit` log entries, deliveries and events each, created before `cutoff`,
   * oldest first; how many rows went. An event goes once no delivery refers to it (a recent
   * redelivery keeps it). Every delivery that old is over: retries end a day after the event. On
   * PostgreSQL only the default partitions are pruned row by row: months go whole.
   */
  async pruneOlderThan(cutoff: number, limit: number): Promise<number> {
    const { db, dialect } = this.database;
    const before = new Date(cutoff).toISOString();
    // The default partitions have the columns of their tables (they are partitions of them).
    const table = <T extends 'webhook_attempts' | 'webhook_deliveries' | 'webhook_events'>(name: T) => (dialect === 'postgres' ? `${name}_default` : name) as T;
    const attempts = await db
      .deleteFrom(table('webhook_attempts'))
      .where('id', 'in', db.selectFrom(table('webhook_attempts')).select('id').where('created_at', '<', before).orderBy('created_at').limit(limit))
      .executeTakeFirst();
    const deliveries = await db
      .deleteFrom(table('webhook_deliveries'))
      .where('id', 'in', db.selectFrom(table('webhook_deliveries')).select('id').where('created_at', '<', before).orderBy('created_at').limit(limit))
      .executeTakeFirst();
    const events = await db
      .deleteFrom(table('webhook_events'))
      .where('id', 'in', (eb) =>
        eb
          .selectFrom(`${table('webhook_events')} as e` as 'webhook_events as e')
          .select('e.id')
          .where('e.created_at', '<', before)
          .where((w) => w.not(w.exists(w.selectFrom('webhook_deliveries as d').select('d.id').whereRef('d.event_id', '=', 'e.id'))))
          .orderBy('e.created_at')
          .limit(limit),
      )
      .executeTakeFirst();
    return Number(attempts.numDeletedRows) + Number(deliveries.numDeletedRows) + Number(events.numDeletedRows);
  }

  /** The outbox as an operator watches it: deliveries still to be sent, and the earliest time one was due. */
  async backlog(): Promise<{ pending: number; earliestDueAt: string | null }> {
    const row = await this.database.db
      .selectFrom('webhook_deliveries')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('next_attempt_at').as('earliest')])
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    return { pending: Number(row.n), earliestDueAt: row.earliest ?? null };
  }
}
