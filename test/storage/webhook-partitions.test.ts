// PostgreSQL keeps the webhook outbox and its log in monthly partitions: the migration moves an
// existing outbox over whole (every row, each in its month; the log's ids keep counting), a month
// past retention is dropped whole, and a redelivery whose event went with its month is marked
// failed when claimed instead of being sent without a body.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { openDatabase } from '../../src/storage/database.js';
import { migrateTo, migrateToLatest } from '../../src/storage/migrate.js';
import { WebhooksRepository } from '../../src/storage/repositories/webhooks.js';
import { freshDatabase } from '../helpers/databases.js';

const tables = ['webhook_events', 'webhook_deliveries', 'webhook_attempts'] as const;

test('the webhook outbox moves into monthly partitions whole, and months past retention are dropped whole', async (t) => {
  const target = await freshDatabase();
  if (target.dialect !== 'postgres') {
    await target.drop();
    return t.diagnostic('not applicable: SQLite keeps the outbox in plain tables (retention deletes rows in batches)');
  }
  const database = openDatabase(target.url);
  try {
    await migrateTo(database, '0027-users-and-sessions');
    const { db } = database;
    const at = (iso: string) => ({ created_at: iso });
    await db.insertInto('webhook_endpoints').values({ id: 'we-1', owner_kind: 'affiliate', owner_id: 'aff-1', url: 'https://hooks.example.com/', description: '', events: ' order.created ', enabled: 1, disabled_reason: null, secret: 's', previous_secret: null, previous_secret_expires_at: null, failing_since: null, created_at: '2025-06-01T00:00:00.000Z', updated_at: '2025-06-01T00:00:00.000Z' }).execute();
    const event = (id: string, iso: string) => ({ id, owner_kind: 'affiliate', owner_id: 'aff-1', type: 'order.created', payload: `{"id":"${id}"}`, ...at(iso) });
    const delivery = (id: string, eventId: string, iso: string, status = 'delivered') => ({ id, event_id: eventId, endpoint_id: 'we-1', status, attempts: 1, next_attempt_at: iso, lease_owner: null, lease_until: null, ...at(iso), updated_at: iso });
    const attempt = (deliveryId: string, eventId: string, iso: string) => ({ delivery_id: deliveryId, endpoint_id: 'we-1', event_id: eventId, event_type: 'order.created', attempt: 1, outcome: 'delivered', response_status: 200, error: null, duration_ms: 12, ...at(iso) });
    const now = new Date().toISOString();
    await db.insertInto('webhook_events').values([event('msg_june', '2025-06-10T12:00:00.000Z'), event('msg_july', '2025-07-31T23:59:59.999Z'), event('msg_now', now)]).execute();
    await db.insertInto('webhook_deliveries').values([delivery('d-june', 'msg_june', '2025-06-10T12:00:00.000Z'), delivery('d-july', 'msg_july', '2025-07-31T23:59:59.999Z'), delivery('d-now', 'msg_now', now)]).execute();
    await db.insertInto('webhook_attempts').values([attempt('d-june', 'msg_june', '2025-06-10T12:00:01.000Z'), attempt('d-july', 'msg_july', '2025-08-01T00:00:00.000Z'), attempt('d-now', 'msg_now', now)]).execute();
    const snapshot = async () => Promise.all(tables.map((table) => db.selectFrom(table).selectAll().orderBy('id').execute()));
    const before = await snapshot();

    await migrateToLatest(database);
    // A column added to the log since (why a delivery got no answer) reads empty on the rows moved.
    const withLaterColumns = before.map((rows, i) => (tables[i] === 'webhook_attempts' ? rows.map((row) => ({ ...row, failure: null })) : rows));
    assert.deepEqual(await snapshot(), withLaterColumns, 'every event, delivery and log entry, every column');
    const partitionOf = async (table: string, id: string | number) => {
      const { rows } = await sql<{ p: string }>`select tableoid::regclass::text as p from ${sql.table(table)} where id = ${id}`.execute(db);
      return rows[0]?.p;
    };
    assert.equal(await partitionOf('webhook_events', 'msg_june'), 'webhook_events_p202506');
    assert.equal(await partitionOf('webhook_deliveries', 'd-july'), 'webhook_deliveries_p202507');
    const julyAttempt = before[2]!.find((a) => a.event_id === 'msg_july') as { id: number };
    assert.equal(await partitionOf('webhook_attempts', julyAttempt.id), 'webhook_attempts_p202508', 'a log entry lives in the month it was written');
    const next = await db.insertInto('webhook_attempts').values(attempt('d-now', 'msg_now', now)).returning('id').executeTakeFirstOrThrow();
    assert.equal(Number(next.id), Math.max(...before[2]!.map((a) => Number((a as { id: number }).id))) + 1, 'the log ids keep counting');

    const repository = new WebhooksRepository(database);
    assert.equal(await repository.dropMonthsEndedBy(Date.parse('2025-07-31T00:00:00.000Z')), 3, 'June whole: its event, delivery and log entry');
    assert.equal(await db.selectFrom('webhook_events').select('id').where('id', '=', 'msg_june').executeTakeFirst(), undefined);
    assert.equal(await repository.dropMonthsEndedBy(Date.parse('2025-08-01T00:00:00.000Z')), 2, 'July: its event and delivery (its log entry was written in August)');
    assert.equal(await partitionOf('webhook_attempts', julyAttempt.id), 'webhook_attempts_p202508');

    // A redelivery made now of the July event, whose month is gone.
    await db.insertInto('webhook_deliveries').values(delivery('d-again', 'msg_july', now, 'pending')).execute();
    const claimed = await repository.claimDue('instance-1', new Date(Date.now() + 1000).toISOString(), new Date(Date.now() + 60_000).toISOString(), 10, 4);
    assert.deepEqual(claimed.map((c) => c.delivery.id), [], 'nothing to send');
    const again = await db.selectFrom('webhook_deliveries').select(['status', 'lease_owner']).where('id', '=', 'd-again').executeTakeFirstOrThrow();
    assert.deepEqual(again, { status: 'failed', lease_owner: null });
  } finally {
    await database.close();
    await target.drop();
  }
});
