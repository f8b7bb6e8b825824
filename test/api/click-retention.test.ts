// Raw clicks past CLICK_RETENTION_DAYS are deleted; what they added up to stays: the link's count,
// the analytics hours, and the orders with the facts of their click.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../helpers/harness.js';
import { BRANDS } from '../helpers/world.js';
import { allAffiliateOrders, brandKey, clickAs, createLink, item, report } from '../helpers/tracking.js';
import { pollUntil } from '../helpers/wait.js';
import { newKey } from '../helpers/api.js';
import { ManualClock } from '../../src/lib/clock.js';

// Old clicks in a month that has wholly passed the retention: PostgreSQL drops whole months.
const clock = new ManualClock('2025-12-05T10:00:00.000Z');
let h: Harness;
before(async () => {
  h = await startHarness({ CLICK_RETENTION_DAYS: '30' }, { clock });
  // The prune the service starts with must be over before the clock moves (see webhook-retention.test.ts).
  await h.service.services.retention.clicks.prune();
});
after(async () => {
  await h.close();
});

const storedClickIds = async () => (await h.service.database.db.selectFrom('clicks').select('id').execute()).map((r) => r.id).sort();

test('a prune deletes the clicks past the retention and changes no count, no analytics figure and no order', async () => {
  const key = (await newKey(h, 'aff-1', { rateLimit: 100_000 })).key; // the figures are polled
  const { code } = await createLink(h, key, BRANDS.acme);
  const visit = (n: number) => clickAs(h, code, { userAgent: `Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/124.0 visitor-${n}`, ip: `198.51.100.${n}` });
  const old: string[] = [];
  for (let n = 1; n <= 5; n++) old.push(await visit(n));
  const orderId = 'retained-order';
  assert.equal((await report(h, await brandKey(h, BRANDS.acme), { clickId: old[0], orderId, value: 5000, items: [item(5000)] })).statusCode, 201);
  clock.set('2026-03-01T10:00:00.000Z');
  const recent: string[] = [];
  for (let n = 6; n <= 8; n++) recent.push(await visit(n));

  const figures = async () => ({
    count: (await h.get('/affiliate/shortener/urls?type=Home', key)).json<Array<{ data: Array<{ urlCode: string; count: number }> }>>()[0]!.data.find((l) => l.urlCode === code)?.count,
    clicksByDay: (await h.get('/affiliate/analytics?event=clicks&groupBy=timeseries&start=2025-12-01&end=2026-03-07', key)).json<unknown>(),
    commissionByDay: (await h.get('/affiliate/analytics?event=commission&groupBy=timeseries&start=2025-12-01&end=2026-03-07', key)).json<unknown>(),
    order: (await allAffiliateOrders(h, key)).find((o) => o.clickId === old[0]),
  });
  // Everything written and added up: counts and rollups follow the write a moment later, each in
  // steps of its own, so one may be complete before the other.
  const addedUp = (f: Awaited<ReturnType<typeof figures>>) => f.count === 8 && /"date":"2025-12-05","clicks":5\b/.test(JSON.stringify(f.clicksByDay)) && /"date":"2026-03-01","clicks":3\b/.test(JSON.stringify(f.clicksByDay));
  const before = await pollUntil(figures, addedUp, { timeoutMs: 10_000 });
  assert.equal(before.count, 8);
  assert.ok(before.order, 'the order of the old click is listed');
  const analytics = JSON.stringify(before.clicksByDay);
  assert.match(analytics, /"date":"2025-12-05","clicks":5\b/, analytics.slice(0, 300));
  assert.match(analytics, /"date":"2026-03-01","clicks":3\b/);
  assert.match(JSON.stringify(before.commissionByDay), /"date":"2025-12-05","currency":"[A-Z]{3}","commission":[1-9]/);
  assert.deepEqual(await storedClickIds(), [...old, ...recent].sort());

  assert.equal(await h.service.services.retention.clicks.prune(), 5);
  assert.deepEqual(await storedClickIds(), recent.sort(), 'only the clicks of the last 30 days are left');
  assert.deepEqual(await figures(), before, 'the link count, the analytics and the order are as they were');
});
