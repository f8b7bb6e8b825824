// PostgreSQL: the webhook outbox (events and deliveries) and the delivery log move into tables
// partitioned by month on created_at (see src/storage/month-partitions.ts), so retention drops
// their months whole. A partitioned table's unique keys must hold its partition column, so the
// primary keys become (id, created_at) and deliveries no longer carry a foreign key to their
// event (the repository writes both in one transaction; a redelivery that outlives its event is
// marked failed when claimed). SQLite keeps its tables; retention deletes their rows in batches.
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { partitionExistingTable, WEBHOOK_PARTITIONS } from '../month-partitions.js';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`alter table webhook_deliveries drop constraint if exists webhook_deliveries_event_id_fkey`.execute(db);
  for (const spec of WEBHOOK_PARTITIONS) {
    await partitionExistingTable(db, spec, { now: Date.now(), monthsAhead: 3, monthsBack: 120 });
  }
  await sql`alter table webhook_deliveries add foreign key (endpoint_id) references webhook_endpoints (id) on delete cascade`.execute(db);
  await sql`alter table webhook_attempts add foreign key (endpoint_id) references webhook_endpoints (id) on delete cascade`.execute(db);
  await db.schema.createIndex('webhook_deliveries_due_idx').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute();
  await db.schema.createIndex('webhook_deliveries_endpoint_idx').on('webhook_deliveries').columns(['endpoint_id', 'created_at']).execute();
  await db.schema.createIndex('webhook_attempts_endpoint_idx').on('webhook_attempts').columns(['endpoint_id', 'created_at', 'id']).execute();
}
