// The query planner's statistics on the pass's database. SQLite: the tables with rows and no
// statistics are analyzed, on the click writer's thread when the service has one, and the serving
// connection plans with the result at once; each instance does it a minute after its start, then
// hourly, on the job runner. PostgreSQL analyzes its tables by itself.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDriver from 'better-sqlite3';
import { sql } from 'kysely';
import { openFixture, type StorageFixture } from './fixture.js';
import { openClickSink } from '../../src/storage/click-sink.js';
import { ManualClock } from '../../src/lib/clock.js';
import { JobRunner } from '../../src/domain/jobs/job-runner.js';
import { InstanceTasks, type InstanceTask } from '../../src/domain/jobs/instance-tasks.js';
import { analyzeWhereStale, reloadStatistics } from '../../src/storage/sqlite-statistics.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
let fixture: StorageFixture;

before(async () => {
  fixture = await openFixture();
});
after(async () => {
  await fixture?.close();
});

/**
 * A table where one equality matches half the rows and a range on the other column a handful:
 * without statistics SQLite prefers the equality's index, with them the range's.
 */
const SKEWED = 'select id from skewed where half = 1 and spread between 100 and 110';

/** The statements that make and fill such a table named `table`. */
const skewedTable = (table: string): string[] => [
  `create table ${table} (id integer primary key, half integer not null, spread integer not null)`,
  `create index ${table}_half on ${table} (half)`,
  `create index ${table}_spread on ${table} (spread)`,
  `insert into ${table} (half, spread) with recursive n(value) as (select 1 union all select value + 1 from n where value < 20000) select value % 2, value from n`,
];

async function fillSkewed(table: string): Promise<void> {
  for (const statement of skewedTable(table)) await sql.raw(statement).execute(fixture.database.db);
}

/** The index the serving connection would read `query` by. */
function servingPlan(query: string): string {
  const { rows } = fixture.database.readHere!(`explain query plan ${query}`, [])!;
  return (rows as Array<{ detail: string }>).map((row) => row.detail).join('; ');
}

test('PostgreSQL keeps its statistics itself; SQLite analyzes tables without them, and the serving connection plans by them at once', async (t) => {
  if (fixture.database.dialect === 'postgres') {
    assert.ok(!('refreshStatistics' in fixture.database), 'autovacuum analyzes PostgreSQL tables');
    return;
  }
  await fillSkewed('skewed');
  assert.match(servingPlan(SKEWED), /skewed_half/, 'without statistics the equality looks as good as any');

  await t.test('on the serving connection, where no writer thread was lent', async () => {
    const analyzed = await fixture.database.refreshStatistics!();
    assert.ok(analyzed.includes('ANALYZE "main"."skewed"'), `the table was analyzed: ${analyzed.join(', ')}`);
    assert.match(servingPlan(SKEWED), /skewed_spread/, 'the range on the selective column is read first');
    assert.ok(!(await fixture.database.refreshStatistics!()).includes('ANALYZE "main"."skewed"'), 'not analyzed again while its statistics hold');
  });

  await t.test("on the click writer's thread, the serving connection planning by what it wrote", async () => {
    const sink = openClickSink(fixture.database, { countEveryMs: 60_000, ipDatabase: null });
    try {
      await fillSkewed('skewed_too');
      const query = SKEWED.replace('from skewed', 'from skewed_too');
      assert.match(servingPlan(query), /skewed_too_half/);
      const analyzed = await fixture.database.refreshStatistics!();
      assert.ok(analyzed.includes('ANALYZE "main"."skewed_too"'), `the new table was analyzed: ${analyzed.join(', ')}`);
      assert.ok(!analyzed.includes('ANALYZE "main"."skewed"'), 'the table analyzed before was not');
      assert.match(servingPlan(query), /skewed_too_spread/);
    } finally {
      await sink.close();
    }
  });
});

test("the serving connection reads the statistics again without waiting for another connection's write lock", () => {
  const dir = mkdtempSync(join(tmpdir(), 'affnet-statistics-'));
  const file = join(dir, 'reload.sqlite');
  const serving = new SqliteDriver(file);
  const writer = new SqliteDriver(file);
  try {
    serving.pragma('journal_mode = WAL');
    // A wait for the lock would last these 20 s: far beyond any host's slowness for a refusal.
    serving.pragma('busy_timeout = 20000');
    for (const statement of skewedTable('skewed')) serving.exec(statement);
    const plan = () => (serving.prepare(`explain query plan ${SKEWED}`).all() as Array<{ detail: string }>).map((row) => row.detail).join('; ');
    assert.deepEqual(analyzeWhereStale(writer), ['ANALYZE "main"."skewed"']);
    writer.exec('begin immediate');
    const asked = performance.now();
    assert.equal(reloadStatistics(serving), false, 'refused while the writer holds the lock');
    assert.ok(performance.now() - asked < 10_000, 'refused without waiting out the busy timeout');
    assert.equal(serving.pragma('busy_timeout', { simple: true }), 20_000, 'its busy timeout as it was');
    assert.match(plan(), /skewed_half/, 'still planning without the statistics');
    writer.exec('rollback');
    assert.equal(reloadStatistics(serving), true);
    assert.match(plan(), /skewed_spread/, 'planning by them once read');
  } finally {
    serving.close();
    writer.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("an instance's own task runs a minute after its runner starts, then every hour, in every instance", async () => {
  const clock = new ManualClock('2026-03-01T00:00:00.000Z');
  const runs: string[] = [];
  let failing = false;
  const runner = (id: string) => {
    const task: InstanceTask = {
      name: 'statistics',
      firstAfterMs: MINUTE,
      everyMs: HOUR,
      run: async () => {
        runs.push(id);
        if (failing) throw new Error('the database is locked');
      },
    };
    return new JobRunner(clock, { instanceId: id, onError: (_queue, error) => assert.fail(String(error)) }).add(new InstanceTasks([task]), 0);
  };
  const [a, b] = [runner('a'), runner('b')];
  const both = () => Promise.all([a.runOnce('instance'), b.runOnce('instance')]);
  await both();
  assert.deepEqual(runs, [], 'not at the start');
  clock.advance(MINUTE);
  await both();
  assert.deepEqual(runs.sort(), ['a', 'b'], 'a minute later, in each instance');
  clock.advance(HOUR - 1);
  await both();
  assert.equal(runs.length, 2, 'not before the hour');
  clock.advance(1);
  failing = true;
  await a.runOnce('instance');
  assert.equal(runs.length, 3, 'hourly');
  assert.equal(a.outcomes.instance!.retrying, 1, 'a failed run is retried');
  clock.advance(5_000);
  failing = false;
  await a.runOnce('instance');
  assert.equal(runs.length, 4, 'within seconds of the failure, not an hour');
  assert.equal(a.outcomes.instance!.done, 2);
  clock.advance(HOUR - 1);
  await a.runOnce('instance');
  assert.equal(runs.length, 4, 'then hourly again from the success');
});
