// With STATEMENTS_AUTO=true the scheduled work issues the previous month's statements from the 1st
// (once, however often it runs) and reminds brands of overdue ones; without it, only reminders.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../helpers/harness.js';
import { BRANDS } from '../helpers/world.js';
import { ManualClock } from '../../src/lib/clock.js';

const DAY = 86_400_000;
// Just after February 2026 ended: the world's approved o-aff1-2 locked in it.
const clock = new ManualClock('2026-03-01T00:30:00.000Z');
let h: Harness;

before(async () => {
  h = await startHarness({ STATEMENTS_AUTO: 'true' }, { clock });
});
after(() => h?.close());

const scheduled = () => h.service.services.jobs.runOnce('scheduled');
const statements = () => h.service.services.statements.listAll(false);

test("the 1st's scheduled work issues the previous month's statements once; an unpaid one past due is reminded once", async () => {
  await scheduled();
  const [february, ...others] = await statements();
  assert.deepEqual(others, []);
  assert.deepEqual([february?.brandId, february?.month, february?.total], [BRANDS.acme, '2026-02', 975]);
  clock.advance(3_600_000);
  await h.service.database.db.updateTable('scheduled_tasks').set({ next_run_at: clock.iso() }).execute();
  await scheduled();
  assert.equal((await statements()).length, 1, 'issued once');

  clock.advance(16 * DAY);
  await h.service.database.db.updateTable('scheduled_tasks').set({ next_run_at: clock.iso() }).execute();
  await scheduled();
  const [overdue] = await statements();
  assert.equal(overdue?.status, 'overdue');
  assert.ok(await h.service.database.db.selectFrom('statements').select('overdue_notified_at').where('overdue_notified_at', 'is not', null).executeTakeFirst(), 'reminded');
});
