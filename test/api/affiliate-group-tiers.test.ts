// Volume tiers of affiliate groups, with a clock the test moves: a tier places the affiliates with
// at least its minimum of approved orders at the brand in the last calendar month (UTC), computed
// when saved and again by the hourly group-tiers work once the month has changed (once a month).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../helpers/harness.js';
import { newKey } from '../helpers/api.js';
import { BRANDS } from '../helpers/world.js';
import { brandKey, conversionOf, freshClick, item, patchStatus, report } from '../helpers/tracking.js';
import { ManualClock } from '../../src/lib/clock.js';
import { AffiliateGroupsRepository } from '../../src/storage/repositories/affiliate-groups.js';

const clock = new ManualClock('2026-03-20T10:00:00.000Z');

let h: Harness;
let acme: string;
let aff1: string;
let aff2: string;
let seq = 0;

before(async () => {
  h = await startHarness({}, { clock });
  acme = await brandKey(h, BRANDS.acme);
  aff1 = (await newKey(h, 'aff-1', { rateLimit: 100_000 })).key;
  aff2 = (await newKey(h, 'aff-2', { rateLimit: 100_000 })).key;
});
after(async () => {
  await h.close();
});

async function approvedOrder(affiliateKey: string, status: 'approved' | 'pending' = 'approved'): Promise<void> {
  const orderId = `TIER-${++seq}`;
  conversionOf(await report(h, acme, { clickId: await freshClick(h, affiliateKey, BRANDS.acme), orderId, value: 1000, items: [item(1000)] }), 201);
  if (status === 'approved') conversionOf(await patchStatus(h, acme, orderId, { status: 'approved' }), 200);
}

test("a tier places affiliates by last month's approved orders, and is recomputed once after the month ends", async () => {
  const groups = h.service.services.affiliateGroups;
  // March: aff-1 two approved orders, aff-2 one approved and one pending.
  await approvedOrder(aff1);
  await approvedOrder(aff1);
  await approvedOrder(aff2);
  await approvedOrder(aff2, 'pending');
  const saved = await groups.put(BRANDS.acme, 'top', { name: 'Top sellers', members: [], tier: { minApprovedOrders: 2 } });
  // Saved in March: February counts, and it had no orders.
  assert.deepEqual(saved.group.tier, { minApprovedOrders: 2, month: '2026-03', members: [] });
  clock.set('2026-03-31T23:30:00.000Z');
  assert.equal(await groups.recomputeTiers(), 0, 'same month: nothing to recompute');
  clock.set('2026-04-01T00:30:00.000Z');
  assert.equal(await groups.recomputeTiers(), 1);
  const [top] = await groups.list(BRANDS.acme);
  assert.deepEqual(top!.tier, { minApprovedOrders: 2, month: '2026-04', members: ['aff-1'] });
  clock.set('2026-04-01T01:30:00.000Z');
  assert.equal(await groups.recomputeTiers(), 0, 'the next hourly run finds the month done');
  // The tier member is in the group for the commission rules.
  const stored = new AffiliateGroupsRepository(h.service.database);
  assert.deepEqual(await stored.groupsOf(BRANDS.acme, 'aff-1'), ['top']);
  assert.deepEqual(await stored.groupsOf(BRANDS.acme, 'aff-2'), []);
});
