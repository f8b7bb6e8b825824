// PostgreSQL: clicks move into a table partitioned by month (see src/storage/month-partitions.ts),
// with a default partition, and partitions for every month that has clicks (as far back as ten
// years) up to three months ahead. The existing rows are copied over in this migration, so on a
// large table it takes a while (about two minutes per ten million clicks): run it before starting
// the new version. SQLite has no partitions; nothing changes there.
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { CLICK_PARTITIONS, ensureMonthPartition, monthStart } from '../month-partitions.js';

const MONTHS_AHEAD = 3;
const MONTHS_BACK_AT_MOST = 120;

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`alter table clicks rename to clicks_unpartitioned`.execute(db);
  await sql`alter table clicks_unpartitioned rename constraint clicks_pkey to clicks_unpartitioned_pkey`.execute(db);
  await sql`create table clicks (like clicks_unpartitioned including defaults) partition by range (id)`.execute(db);
  await sql`alter table clicks add constraint clicks_pkey primary key (id)`.execute(db);
  await sql`create table clicks_default partition of clicks default`.execute(db);

  const { rows } = await sql<{ oldest: string | null }>`select min(id) as oldest from clicks_unpartitioned where id ~ '^[0-9a-f]{12}'`.execute(db);
  const now = Date.now();
  const earliest = monthStart(now, -MONTHS_BACK_AT_MOST);
  const oldest = rows[0]?.oldest ? Number.parseInt(rows[0].oldest.slice(0, 12), 16) : now;
  for (let month = monthStart(Math.max(earliest, Math.min(oldest, now))); month <= monthStart(now, MONTHS_AHEAD); month = monthStart(month, 1)) {
    await ensureMonthPartition(db, CLICK_PARTITIONS, month);
  }
  await sql`insert into clicks select * from clicks_unpartitioned`.execute(db);
  await sql`drop table clicks_unpartitioned`.execute(db);
}
