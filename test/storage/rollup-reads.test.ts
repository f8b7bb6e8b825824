// Reads of the rollups against a real database, checked against sums computed here from the
// clicks themselves: ranges cut into whole UTC days (daily rows) and edge hours (hourly rows),
// and the top values of the dimensions with many values (links, brands, referrer hosts), found
// from each period's largest counts, for every depth the search may need.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { NewClickRow } from '../../src/storage/tables.js';
import { openFixture, writeClicks, type StorageFixture } from './fixture.js';
import { mulberry32 } from '../../src/seed/seeded-random.js';

let f: StorageFixture;
const clicks: NewClickRow[] = [];
const START = Date.parse('2026-03-01T00:00:00.000Z');
const DAYS = 10;

/** An index skewed toward the first ones (about Zipf), so tops are steep as in real traffic. */
const skewed = (next: () => number, n: number) => Math.min(n - 1, Math.floor(n ** next()) - 1);

before(async () => {
  f = await openFixture();
  const next = mulberry32(20261124);
  const count = 4000;
  for (let i = 0; i < count; i++) {
    const at = new Date(START + Math.floor((i + next()) * ((DAYS * 86_400_000) / count))).toISOString();
    const roll = next();
    const flags = { is_bot: roll < 0.05 ? 1 : 0, is_head: roll < 0.07 && next() < 0.5 ? 1 : 0, is_repeat: roll > 0.9 ? 1 : 0, is_suspicious: roll > 0.97 ? 1 : 0, is_suspended: roll > 0.5 && roll < 0.52 ? 1 : 0 };
    const counted = flags.is_bot || flags.is_head || flags.is_repeat || flags.is_suspicious || flags.is_suspended ? 0 : 1;
    clicks.push({
      id: `${(START + i).toString(16)}-${i}`,
      link_id: `l-${String(skewed(next, 400)).padStart(3, '0')}`,
      affiliate_id: next() < 0.9 ? 'aff-1' : 'aff-2',
      channel_id: 'ch-site',
      organization_id: `b-${skewed(next, 50)}`,
      created_at: at,
      ...flags,
      counted,
      visitor_hash: `v-${i}`,
      country: 'US',
      device: 'mobile',
      browser: 'Safari',
      os: 'iOS',
      referer_host: next() < 0.2 ? null : `site-${skewed(next, 80)}.example`,
    });
  }
  for (let i = 0; i < clicks.length; i += 500) await writeClicks(f, clicks.slice(i, i + 500));
  await writeClicks(f, steadyAndBursts());
});

/**
 * aff-3: each day 25 links of its own with 5 clicks each, and one link with 4 clicks every day.
 * No day's 20 largest include the steady link, yet over the week it leads (28 against 5).
 */
function steadyAndBursts(): NewClickRow[] {
  const rows: NewClickRow[] = [];
  const add = (link: string, at: number) =>
    rows.push({ ...clicks[0]!, id: `steady-${rows.length}`, affiliate_id: 'aff-3', link_id: link, created_at: new Date(at).toISOString(), is_bot: 0, is_head: 0, is_repeat: 0, is_suspicious: 0, is_suspended: 0, counted: 1 });
  for (let day = 0; day < 7; day++) {
    const midnight = START + day * 86_400_000;
    for (let burst = 0; burst < 25; burst++) for (let n = 0; n < 5; n++) add(`burst-${day}-${burst}`, midnight + 3_600_000 + burst * 60_000 + n);
    for (let n = 0; n < 4; n++) add('steady', midnight + 7_200_000 + n);
  }
  return rows;
}

after(async () => {
  await f?.close();
});

type Counts = { counted: number; bots: number; heads: number; repeats: number; suspicious: number; suspended: number };
// A suspended member's click is counted as suspended whatever else it is.
const reason = (c: NewClickRow): keyof Counts =>
  c.counted ? 'counted' : c.is_suspended ? 'suspended' : c.is_bot ? 'bots' : c.is_head ? 'heads' : c.is_repeat ? 'repeats' : 'suspicious';
const VALUE: Record<string, (c: NewClickRow) => string> = {
  link: (c) => c.link_id,
  brand: (c) => c.organization_id,
  referer: (c) => c.referer_host ?? '(direct)',
};

/** What the rollups should answer, from the clicks: aff-1's values in [from, to), most counted first. */
function expectedTop(dimension: string, from: string, to: string, limit: number, uncounted: boolean) {
  const sums = new Map<string, Counts>();
  for (const c of clicks) {
    if (c.affiliate_id !== 'aff-1' || c.created_at < from || c.created_at >= to) continue;
    const value = VALUE[dimension]!(c);
    const sum = sums.get(value) ?? { counted: 0, bots: 0, heads: 0, repeats: 0, suspicious: 0, suspended: 0 };
    sum[reason(c)]++;
    sums.set(value, sum);
  }
  return [...sums]
    .filter(([, s]) => uncounted || s.counted > 0)
    .sort(([a, x], [b, y]) => y.counted - x.counted || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, limit)
    .map(([value, s]) => ({ value, ...s }));
}

const RANGES: Array<[string, string, string]> = [
  ['whole UTC days', '2026-03-02T00:00:00.000Z', '2026-03-09T00:00:00.000Z'],
  ['days with edge hours on both sides', '2026-03-02T05:00:00.000Z', '2026-03-09T17:00:00.000Z'],
  ['hours within one day', '2026-03-04T03:00:00.000Z', '2026-03-04T20:00:00.000Z'],
  ['everything', '2026-02-01T00:00:00.000Z', '2026-04-01T00:00:00.000Z'],
];

describe('top values of a dimension with many values', () => {
  for (const dimension of ['link', 'brand', 'referer']) {
    for (const [name, from, to] of RANGES) {
      test(`${dimension}, ${name}: the same top as the clicks give, at every limit`, async () => {
        for (const limit of [1, 3, 10, 40, 1000]) {
          for (const uncounted of [false, true]) {
            const got = await f.repos.rollups.clicksByValue({ affiliateId: 'aff-1', organizationId: '', linkId: '', dimension, from, to }, limit, uncounted);
            assert.deepEqual(got, expectedTop(dimension, from, to, limit, uncounted), `limit ${limit}, uncounted ${uncounted}`);
          }
        }
      });
    }
  }

  test('a link never among any day\'s largest counts that leads the week is found (the search reads deeper)', async () => {
    const top = await f.repos.rollups.clicksByValue({ affiliateId: 'aff-3', organizationId: '', linkId: '', dimension: 'link', from: '2026-03-01T00:00:00.000Z', to: '2026-03-08T00:00:00.000Z' }, 2);
    assert.deepEqual(
      top.map((r) => [r.value, r.counted]),
      [
        ['steady', 28],
        ['burst-0-0', 5],
      ],
    );
  });
});

describe('ranges cut into whole days and edge hours', () => {
  test('clicks per period: whole UTC days as one row at 00:00, the edges per hour, the same totals as per hour', async () => {
    const [from, to] = ['2026-03-02T05:00:00.000Z', '2026-03-09T17:00:00.000Z'];
    const key = { affiliateId: 'aff-1', organizationId: '', linkId: '', dimension: 'all', from, to };
    const hourly = await f.repos.rollups.clicksByHour({ ...key, days: false });
    const mixed = await f.repos.rollups.clicksByHour({ ...key, days: true });
    const periodOf = (hour: string) => (hour >= '2026-03-03' && hour < '2026-03-09' ? `${hour.slice(0, 10)}T00:00:00.000Z` : hour);
    const expected = new Map<string, number>();
    for (const c of clicks) {
      if (c.affiliate_id !== 'aff-1' || c.created_at < from || c.created_at >= to || !c.counted) continue;
      const period = periodOf(`${c.created_at.slice(0, 13)}:00:00.000Z`);
      expected.set(period, (expected.get(period) ?? 0) + 1);
    }
    const counted = (rows: Array<{ hour: string; counted: number }>) => new Map(rows.filter((r) => r.counted > 0).map((r) => [r.hour, r.counted]));
    assert.deepEqual(counted(mixed), expected);
    assert.ok([...counted(mixed).keys()].some((h) => h === '2026-03-05T00:00:00.000Z'), 'a whole day read as one row');
    const total = (rows: Array<{ counted: number }>) => rows.reduce((n, r) => n + r.counted, 0);
    assert.equal(total(mixed), total(hourly));
    assert.ok(hourly.length > mixed.length);
  });
});
