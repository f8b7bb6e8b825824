// The migration to monthly click partitions on PostgreSQL keeps every click of an existing table:
// each lands in its month's partition (made for every month that has clicks), odd ids in the
// default one, and the link counts and the click columns are as they were.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql, type Kysely } from 'kysely';
import { openDatabase } from '../../src/storage/database.js';
import { migrateTo, migrateToLatest } from '../../src/storage/migrate.js';
import { freshDatabase } from '../helpers/databases.js';

const idAt = (iso: string, n: number) => Date.parse(iso).toString(16).padStart(12, '0') + n.toString(16).padStart(20, '0');

test('migrating an unpartitioned clicks table keeps every click, each in its month', async (t) => {
  const target = await freshDatabase();
  if (target.dialect !== 'postgres') {
    await target.drop();
    return t.diagnostic('not applicable: SQLite keeps clicks in one table (the migration changes nothing there)');
  }
  const database = openDatabase(target.url);
  try {
    await migrateTo(database, '0025-installation-settings');
    const ids = [idAt('2025-03-15T08:00:00.000Z', 1), idAt('2025-03-31T23:59:59.999Z', 2), idAt('2025-04-01T00:00:00.000Z', 3), idAt(new Date().toISOString(), 4), 'legacy-click-id'];
    const row = (id: string) => ({ id, link_id: 'l-1', affiliate_id: 'aff-1', channel_id: 'ch-1', organization_id: 'b-1', mdasc: null, created_at: '2025-03-15T08:00:00.000Z', is_bot: 0, is_head: 0, is_repeat: 0, is_suspicious: 0, counted: 1, visitor_hash: `v-${id}`, user_agent: 'UA', country: 'BR', device: 'mobile', browser: 'Chrome', os: 'Android', referer_host: '(direct)' });
    // The table as it was at 0025, without the columns later migrations added.
    const atThatTime = database.db as unknown as Kysely<{ clicks: ReturnType<typeof row> }>;
    await atThatTime.insertInto('clicks').values(ids.map(row)).execute();
    const before = await database.db.selectFrom('clicks').selectAll().orderBy('id').execute();

    await migrateToLatest(database);
    const after = await database.db.selectFrom('clicks').selectAll().orderBy('id').execute();
    // Later migrations add columns with their defaults.
    assert.deepEqual(after, before.map((click) => ({ ...click, is_suspended: 0, asn: null, sub_ids: null })), 'every click, every column (those added since empty)');
    const { rows } = await sql<{ id: string; partition: string }>`select id, tableoid::regclass::text as partition from clicks order by id`.execute(database.db);
    const now = new Date();
    const thisMonth = `clicks_p${now.getUTCFullYear()}${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
    assert.deepEqual(
      rows.map((r) => r.partition),
      ['clicks_p202503', 'clicks_p202503', 'clicks_p202504', thisMonth, 'clicks_default'],
    );
    const { rows: partitions } = await sql<{ n: number }>`select count(*)::int as n from pg_inherits where inhparent = 'clicks'::regclass`.execute(database.db);
    const monthsFromMarch2025 = (now.getUTCFullYear() - 2025) * 12 + now.getUTCMonth() - 2 + 1;
    assert.equal(partitions[0]!.n, monthsFromMarch2025 + 3 + 1, 'a partition for every month from the oldest click to three months ahead, and the default');
  } finally {
    await database.close();
    await target.drop();
  }
});
