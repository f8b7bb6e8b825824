// Rules that depend on what time it is, checked by moving the service's clock instead of waiting:
// a campaign's status over its period, and the attribution window of a click.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../src/lib/clock.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { assertError } from '../helpers/api.js';
import { BRANDS, campaignInput } from '../helpers/world.js';
import { servicesFor } from '../helpers/databases.js';
import { brandKey, clickLink, createLink, item, report } from '../helpers/tracking.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
let h: Harness;
const clock = new ManualClock();

before(async () => {
  h = await startHarness({}, { clock });
});
after(async () => {
  await h.close();
});

async function statusOf(campaignId: string): Promise<string | undefined> {
  const res = await h.get(`/affiliate/campaigns?name=${campaignId}&limit=20`, h.world.keys.aff1);
  assert.equal(res.statusCode, 200, res.body);
  return res.json<{ data: Array<{ id: string; status: string }> }>().data.find((c) => c.id === campaignId)?.status;
}

test("a campaign's status follows the clock through its period: scheduled, onTime, expired", async () => {
  const start = clock.now() + DAY;
  await servicesFor(h.service.database).imports.upsertCampaign(
    campaignInput({ id: 'clock-campaign', name: 'clock-campaign', organizationId: BRANDS.acme, type: 'GenericCoupon', period: { startAt: new Date(start).toISOString(), endAt: new Date(start + DAY).toISOString() } }),
  );
  assert.equal(await statusOf('clock-campaign'), 'scheduled');
  clock.advance(DAY + 12 * HOUR);
  assert.equal(await statusOf('clock-campaign'), 'onTime');
  clock.advance(DAY);
  assert.equal(await statusOf('clock-campaign'), 'expired');
  const expired = await h.get('/affiliate/campaigns?name=clock-campaign&status=expired', h.world.keys.aff1);
  assert.deepEqual(expired.json<{ data: Array<{ id: string }> }>().data.map((c) => c.id), ['clock-campaign']);
});

test('a conversion reported 29 days after its click is attributed; 31 days after, it is refused as outside the window', async () => {
  const brand = await brandKey(h, BRANDS.acme);
  const { code } = await createLink(h, h.world.keys.aff1, BRANDS.acme);
  const early = await clickLink(h, code);
  const late = await clickLink(h, code);

  clock.advance(29 * DAY);
  const inWindow = await report(h, brand, { clickId: early.clickId, orderId: 'clock-29', value: 1000, items: [item(1000)] });
  assert.equal(inWindow.statusCode, 201, inWindow.body);

  clock.advance(2 * DAY);
  const outside = await report(h, brand, { clickId: late.clickId, orderId: 'clock-31', value: 1000, items: [item(1000)] });
  const error = assertError(outside, 422, 'click_expired');
  assert.match(error.message, /30 days/);
});
