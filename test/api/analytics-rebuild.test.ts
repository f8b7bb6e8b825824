// The rollups the service keeps as it goes equal the ones `affnet analytics rebuild` computes
// from the stored clicks and orders: after a random stream of clicks (people, bots, HEADs,
// repeats, from several countries and devices, over days) and conversions (approved, canceled,
// corrected). Rebuilding is idempotent, and deleting old clicks cannot erase their figures.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../helpers/harness.js';
import { BRANDS } from '../helpers/world.js';
import { newKey } from '../helpers/api.js';
import { runCli } from '../helpers/cli.js';
import { brandKey, clicksSummed, createLink, item, report } from '../helpers/tracking.js';
import { ManualClock } from '../../src/lib/clock.js';
import { openRepositories } from '../../src/storage/repositories/index.js';
import { mulberry32 } from '../../src/seed/seeded-random.js';

const HOUR = 3_600_000;
const START = Date.parse('2026-05-01T00:00:00.000Z');
const AGENTS = [
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
  'Googlebot/2.1 (+http://www.google.com/bot.html)',
];
const ADDRESSES = ['8.8.8.8', '1.1.1.1', '81.2.69.160', '2.16.0.1', '203.0.113.9', '2001:4860:4860::8888'];
const REFERERS = [undefined, 'https://news.example.com/a', 'https://social.example/p/1'];

const clock = new ManualClock(START);
let h: Harness;

before(async () => {
  h = await startHarness({ CLICK_VELOCITY_LIMIT: '3' }, { clock });
});
after(async () => {
  await h.close();
});

const rollups = () => openRepositories(h.service.database).rollups.everything();

/** Every answered click written and summed by the click writer. */
async function settle(): Promise<void> {
  await h.service.services.tracking.flushClicks();
  await clicksSummed(h);
}

test('rollups kept as clicks and conversions arrive equal a rebuild, which changes nothing when run again', async () => {
  const next = mulberry32(20260501);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const aff1 = (await newKey(h, 'aff-1', { rateLimit: 1_000_000 })).key;
  const aff2 = (await newKey(h, 'aff-2', { rateLimit: 1_000_000 })).key;
  const brands: Record<string, string> = { [BRANDS.acme]: await brandKey(h, BRANDS.acme), [BRANDS.globex]: await brandKey(h, BRANDS.globex), [BRANDS.initech]: await brandKey(h, BRANDS.initech) };
  const links = [
    { code: (await createLink(h, aff1, BRANDS.acme, { channelId: 'ch-aff1-site' })).code, brand: BRANDS.acme },
    { code: (await createLink(h, aff1, BRANDS.acme, { channelId: 'ch-aff1-insta' })).code, brand: BRANDS.acme },
    { code: (await createLink(h, aff1, BRANDS.globex)).code, brand: BRANDS.globex },
    { code: (await createLink(h, aff2, BRANDS.acme)).code, brand: BRANDS.acme },
    { code: (await createLink(h, aff2, BRANDS.initech)).code, brand: BRANDS.initech },
  ];

  let orderNo = 0;
  const pending: Array<{ brand: string; orderId: string }> = [];
  for (let i = 0; i < 400; i++) {
    clock.set(START + Math.floor(next() * 72 * HOUR));
    const link = pick(links);
    const referer = pick(REFERERS);
    const res = await h.request({
      method: next() < 0.1 ? 'HEAD' : 'GET',
      url: `/${link.code}`,
      headers: { 'user-agent': pick(AGENTS), ...(referer ? { referer } : {}) },
      remoteAddress: pick(ADDRESSES),
    });
    assert.equal(res.statusCode, 302, res.body);
    const clickId = new URL(String(res.headers.location)).searchParams.get('clickId')!;
    if (next() < 0.15) {
      const value = 100 + Math.floor(next() * 100_000);
      const orderId = `RB-${++orderNo}`;
      clock.advance(Math.floor(next() * 5 * HOUR));
      const reported = await report(h, brands[link.brand], { clickId, orderId, value, items: [item(value)] });
      assert.equal(reported.statusCode, 201, reported.body);
      pending.push({ brand: link.brand, orderId });
    }
  }
  // Brands settle some orders: approve, cancel, or correct the value of a pending one.
  for (const order of pending) {
    const roll = next();
    const body = roll < 0.3 ? { status: 'approved' } : roll < 0.5 ? { status: 'canceled' } : roll < 0.7 ? { value: 50, items: [item(50)] } : undefined;
    if (!body) continue;
    const res = await h.request({ method: 'PATCH', url: `/advertiser/conversions/${order.orderId}`, payload: body, headers: { 'x-api-key': brands[order.brand]! } });
    assert.equal(res.statusCode, 200, res.body);
  }
  await settle();

  const kept = await rollups();
  assert.ok(kept.clicks.length > 100, `expected many click rollup rows, got ${kept.clicks.length}`);
  assert.ok(kept.orders.some((r) => r.orders > 0) && kept.orders.some((r) => r.commission > 0));
  const uncounted = kept.clicks.filter((r) => r.dimension === 'all' && r.affiliate_id !== '' && r.organization_id === '' && r.link_id === '');
  assert.ok(uncounted.some((r) => r.bots > 0) && uncounted.some((r) => r.heads > 0), 'the stream has bots and HEADs');

  const env = { DATABASE_URL: h.config.databaseUrl };
  const rebuilt = await runCli(['analytics', 'rebuild'], env);
  assert.equal(rebuilt.code, 0, rebuilt.stderr);
  assert.match(rebuilt.stdout, /Click rollups recomputed from 2026-05-01T\d\d:00:00\.000Z on\./);
  assert.deepEqual(await rollups(), kept, 'a rebuild finds what was kept');

  const again = await runCli(['analytics', 'rebuild', '--since', '2026-05-02'], env);
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stdout, /Order rollups recomputed from 2026-05-02T00:00:00\.000Z on\./);
  assert.deepEqual(await rollups(), kept, 'rebuilding again changes nothing');

  // A click arriving after the rebuild is added once.
  clock.set(START + 80 * HOUR);
  await h.request({ method: 'GET', url: `/${links[0]!.code}`, headers: { 'user-agent': AGENTS[1]! }, remoteAddress: '8.8.4.4' });
  await settle();
  const withOneMore = await rollups();
  const total = (rows: typeof kept.clicks) => rows.filter((r) => r.dimension === 'all' && r.affiliate_id === '').reduce((n, r) => n + r.counted, 0);
  assert.equal(total(withOneMore.clicks), total(kept.clicks) + 1);

  // Retention deletes the first day's clicks: a rebuild keeps those hours' figures.
  await h.service.database.db.deleteFrom('clicks').where('created_at', '<', '2026-05-02T00:00:00.000Z').execute();
  const afterRetention = await runCli(['analytics', 'rebuild'], env);
  assert.equal(afterRetention.code, 0, afterRetention.stderr);
  assert.match(afterRetention.stdout, /Click rollups recomputed from 2026-05-02T\d\d:00:00\.000Z on\./);
  assert.deepEqual(await rollups(), withOneMore, 'no figure lost with the deleted clicks');
});

test('a bad --since is refused with what to give', async () => {
  const res = await runCli(['analytics', 'rebuild', '--since', 'yesterday'], { DATABASE_URL: h.config.databaseUrl });
  assert.notEqual(res.code, 0);
  assert.match(res.stderr, /since must be a date \(YYYY-MM-DD\) or an ISO 8601 date-time, got "yesterday"/);
});
