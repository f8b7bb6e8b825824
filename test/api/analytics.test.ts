// Click and earnings analytics through HTTP: clicks enriched from their request (country of the
// address, device, browser, OS, referrer), hourly rollups read by every grouping, local days
// across a daylight saving change, zeros filled, uncounted clicks explained, money per currency,
// CSV export, and nothing of another affiliate or brand.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../helpers/harness.js';
import { BRANDS } from '../helpers/world.js';
import { assertError, newKey, qs } from '../helpers/api.js';
import { pollUntil } from '../helpers/wait.js';
import { brandKey, clickAs, conversionOf, createLink, item, report } from '../helpers/tracking.js';
import { ManualClock } from '../../src/lib/clock.js';

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const WINDOWS_CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const IPAD = 'Mozilla/5.0 (iPad; CPU OS 16_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.0 Mobile/15E148 Safari/604.1';
// Addresses in ranges the shipped IP database (geo-whois-asn-country) assigns to these countries.
const US = '8.8.8.8';
const AU = '1.1.1.1';
const GB = '81.2.69.160';

// 2026-03-08 is the day New York moves its clocks forward (02:00 EST → 03:00 EDT, 07:00 UTC).
const clock = new ManualClock('2026-03-09T15:30:00.000Z');
let h: Harness;
let aff1: string;
let aff2: string;
let acme: string;
let globex: string;
let linkA: string;
let linkB: string;
let linkOther: string;

type Row = Record<string, unknown>;

async function analytics(key: string, query: Record<string, string | number | undefined>, side: 'affiliate' | 'advertiser' = 'affiliate'): Promise<{ data: Row[]; meta: Row }> {
  const res = await h.get(`/${side}/analytics${qs(query)}`, key);
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

/** Waits until the rollups hold `total` counted clicks of the affiliate over everything (they are written in the background). */
async function settled(key: string, total: number): Promise<void> {
  const sum = async () => (await analytics(key, { interval: 'all', groupBy: 'countries' })).data.reduce((n, r) => n + Number(r.clicks), 0);
  assert.equal(await pollUntil(sum, (n) => n === total, { timeoutMs: 10_000 }), total);
}

async function clickAt(at: string, code: string, visit: Parameters<typeof clickAs>[2] & { referer?: string }): Promise<string> {
  clock.set(Date.parse(at));
  if (visit.referer === undefined) return clickAs(h, code, visit);
  const res = await h.request({ method: 'GET', url: `/${code}`, headers: { 'user-agent': visit.userAgent ?? WINDOWS_CHROME, referer: visit.referer }, remoteAddress: visit.ip ?? US });
  assert.equal(res.statusCode, 302, res.body);
  return new URL(String(res.headers.location)).searchParams.get('clickId')!;
}

before(async () => {
  h = await startHarness({}, { clock });
  aff1 = (await newKey(h, 'aff-1', { rateLimit: 100_000 })).key;
  aff2 = (await newKey(h, 'aff-2', { rateLimit: 100_000 })).key;
  acme = await brandKey(h, BRANDS.acme);
  globex = await brandKey(h, BRANDS.globex);
  linkA = (await createLink(h, aff1, BRANDS.acme, { channelId: 'ch-aff1-insta' })).code;
  linkB = (await createLink(h, aff1, BRANDS.globex, { channelId: 'ch-aff1-site' })).code;
  linkOther = (await createLink(h, aff2, BRANDS.acme)).code;

  // aff-1: three counted clicks on linkA around New York's daylight saving change, one on linkB.
  await clickAt('2026-03-07T12:00:00.000Z', linkA, { ip: US, userAgent: IPHONE, referer: 'https://News.Example.COM/story?id=1' }); // Mar 7 in New York
  await clickAt('2026-03-08T04:30:00.000Z', linkA, { ip: AU, userAgent: WINDOWS_CHROME }); // 23:30 EST: still Mar 7 in New York
  await clickAt('2026-03-08T06:30:00.000Z', linkA, { ip: GB, userAgent: IPAD }); // 01:30 EST: Mar 8
  await clickAt('2026-03-09T15:00:00.000Z', linkB, { ip: US, userAgent: IPHONE });
  // Not counted: a bot, a HEAD, and a repeat of the first US iPhone visitor on linkB.
  await clickAt('2026-03-09T15:05:00.000Z', linkB, { ip: GB, userAgent: 'Googlebot/2.1 (+http://www.google.com/bot.html)' });
  await clickAt('2026-03-09T15:06:00.000Z', linkB, { ip: GB, userAgent: WINDOWS_CHROME, method: 'HEAD' });
  await clickAt('2026-03-09T15:07:00.000Z', linkB, { ip: US, userAgent: IPHONE });
  // aff-2 on the same brand: never in aff-1's figures.
  await clickAt('2026-03-09T15:10:00.000Z', linkOther, { ip: US, userAgent: WINDOWS_CHROME });
  clock.set(Date.parse('2026-03-09T15:30:00.000Z'));
  await settled(aff1, 4);
  await settled(aff2, 1);
});
after(async () => {
  await h.close();
});

describe('clicks are enriched from their request', () => {
  test('country of the address, device, browser and OS of the user agent, referrer host; the address is not stored', async () => {
    const stored = await h.service.database.db.selectFrom('clicks').selectAll().where('created_at', '=', '2026-03-07T12:00:00.000Z').executeTakeFirstOrThrow();
    assert.equal(stored.country, 'US');
    assert.equal(stored.device, 'mobile');
    assert.equal(stored.browser, 'Safari');
    assert.equal(stored.os, 'iOS');
    assert.equal(stored.referer_host, 'news.example.com');
    assert.ok(!Object.values(stored).some((v) => typeof v === 'string' && v.includes('8.8.8.8')), 'no column holds the address');

    const { data: countries } = await analytics(aff1, { interval: 'all', groupBy: 'countries' });
    assert.deepEqual(countries, [
      { country: 'US', clicks: 2 },
      { country: 'AU', clicks: 1 },
      { country: 'GB', clicks: 1 },
    ]);
    const { data: devices } = await analytics(aff1, { interval: 'all', groupBy: 'devices' });
    assert.deepEqual(devices, [
      { device: 'mobile', clicks: 2 },
      { device: 'desktop', clicks: 1 },
      { device: 'tablet', clicks: 1 },
    ]);
    const { data: referers } = await analytics(aff1, { interval: 'all', groupBy: 'referers' });
    assert.deepEqual(referers, [
      { referer: '(direct)', clicks: 3 },
      { referer: 'news.example.com', clicks: 1 },
    ]);
    const { data: browsers } = await analytics(aff1, { interval: 'all', groupBy: 'browsers' });
    assert.deepEqual(browsers, [
      { browser: 'Safari', clicks: 3 },
      { browser: 'Chrome', clicks: 1 },
    ]);
    const { data: os } = await analytics(aff1, { interval: 'all', groupBy: 'os' });
    assert.deepEqual(os, [
      { os: 'iOS', clicks: 3 },
      { os: 'Windows', clicks: 1 },
    ]);
  });
});

describe('timeseries', () => {
  test('local days across a daylight saving change, every bucket present with zeros', async () => {
    const { data, meta } = await analytics(aff1, { start: '2026-03-06', end: '2026-03-09', timezone: 'America/New_York' });
    assert.deepEqual(data, [
      { start: '2026-03-06T05:00:00.000Z', date: '2026-03-06', clicks: 0 },
      { start: '2026-03-07T05:00:00.000Z', date: '2026-03-07', clicks: 2 },
      { start: '2026-03-08T05:00:00.000Z', date: '2026-03-08', clicks: 1 },
      // The 23-hour day ended at 04:00 UTC: the next starts there.
      { start: '2026-03-09T04:00:00.000Z', date: '2026-03-09', clicks: 1 },
    ]);
    assert.deepEqual(meta, { event: 'clicks', groupBy: 'timeseries', timezone: 'America/New_York', start: '2026-03-06T05:00:00.000Z', end: '2026-03-10T04:00:00.000Z', granularity: 'day' });
  });

  test('the same days in UTC put the 04:30 click on March 8', async () => {
    const { data } = await analytics(aff1, { start: '2026-03-07', end: '2026-03-09' });
    assert.deepEqual(data, [
      { start: '2026-03-07T00:00:00.000Z', date: '2026-03-07', clicks: 1 },
      { start: '2026-03-08T00:00:00.000Z', date: '2026-03-08', clicks: 2 },
      { start: '2026-03-09T00:00:00.000Z', date: '2026-03-09', clicks: 1 },
    ]);
    // Two days are 48 hours: answered by the hour.
    const { data: hours, meta } = await analytics(aff1, { start: '2026-03-07', end: '2026-03-08' });
    assert.equal(meta.granularity, 'hour');
    assert.equal(hours.length, 48);
    assert.deepEqual(hours.filter((r) => r.clicks !== 0).map((r) => r.start), ['2026-03-07T12:00:00.000Z', '2026-03-08T04:00:00.000Z', '2026-03-08T06:00:00.000Z']);
  });

  test('24h is hourly: 24 buckets ending with the current hour', async () => {
    const { data, meta } = await analytics(aff1, { interval: '24h' });
    assert.equal(data.length, 24);
    assert.equal(meta.granularity, 'hour');
    assert.deepEqual(data.at(-1), { start: '2026-03-09T15:00:00.000Z', clicks: 1 });
    assert.equal(data.reduce((n, r) => n + Number(r.clicks), 0), 1);
  });

  test('7d has seven local days, today last', async () => {
    const { data } = await analytics(aff1, { interval: '7d' });
    assert.deepEqual(
      data.map((r) => r.date),
      ['2026-03-03', '2026-03-04', '2026-03-05', '2026-03-06', '2026-03-07', '2026-03-08', '2026-03-09'],
    );
    assert.deepEqual(
      data.map((r) => r.clicks),
      [0, 0, 0, 0, 1, 2, 1],
    );
  });
});

describe('breakdowns and filters', () => {
  test('links, channels and brands, with codes and names', async () => {
    const { data: links } = await analytics(aff1, { interval: 'all', groupBy: 'links' });
    assert.equal(links.length, 2);
    assert.deepEqual(links[0], { linkId: links[0]!.linkId, code: linkA, clicks: 3 });
    assert.equal(links[1]!.code, linkB);
    const { data: channels } = await analytics(aff1, { interval: 'all', groupBy: 'channels' });
    assert.deepEqual(channels, [
      { channelId: 'ch-aff1-insta', name: '@aff1', clicks: 3 },
      { channelId: 'ch-aff1-site', name: 'My blog', clicks: 1 },
    ]);
    const { data: brands } = await analytics(aff1, { interval: 'all', groupBy: 'brands' });
    assert.deepEqual(
      brands.map((b) => [b.organizationId, b.clicks]),
      [
        [BRANDS.acme, 3],
        [BRANDS.globex, 1],
      ],
    );
  });

  test('one brand, one link, one device', async () => {
    const { data: acmeCountries } = await analytics(aff1, { interval: 'all', groupBy: 'countries', organizationId: BRANDS.globex });
    assert.deepEqual(acmeCountries, [{ country: 'US', clicks: 1 }]);
    const { data: linkDevices } = await analytics(aff1, { interval: 'all', groupBy: 'devices', linkCode: linkA });
    assert.deepEqual(linkDevices, [
      { device: 'desktop', clicks: 1 },
      { device: 'mobile', clicks: 1 },
      { device: 'tablet', clicks: 1 },
    ]);
    const { data: mobileCountries } = await analytics(aff1, { interval: 'all', groupBy: 'countries', device: 'mobile' });
    assert.deepEqual(mobileCountries, [{ country: 'US', clicks: 2 }]);
    const { data: oneLink } = await analytics(aff1, { interval: 'all', groupBy: 'links', linkCode: linkB });
    assert.deepEqual(oneLink.map((r) => [r.code, r.clicks]), [[linkB, 1]]);
  });

  test('one brand or one link: any breakdown with any filters of country and device together, and timeseries filtered', async () => {
    const { data: tabletCountries } = await analytics(aff1, { interval: 'all', groupBy: 'countries', organizationId: BRANDS.acme, device: 'tablet' });
    assert.deepEqual(tabletCountries, [{ country: 'GB', clicks: 1 }]);
    const { data: usMobileBrowsers } = await analytics(aff1, { interval: 'all', groupBy: 'browsers', organizationId: BRANDS.acme, country: 'US', device: 'mobile' });
    assert.deepEqual(usMobileBrowsers, [{ browser: 'Safari', clicks: 1 }]);
    const { data: channelReferers } = await analytics(aff1, { interval: 'all', groupBy: 'referers', organizationId: BRANDS.acme, channelId: 'ch-aff1-insta', country: 'US' });
    assert.deepEqual(channelReferers, [{ referer: 'news.example.com', clicks: 1 }]);
    const { data: linkOs } = await analytics(aff1, { interval: 'all', groupBy: 'os', linkCode: linkA, device: 'desktop' });
    assert.deepEqual(linkOs, [{ os: 'Windows', clicks: 1 }]);
    const { data: auDays } = await analytics(aff1, { start: '2026-03-07', end: '2026-03-09', organizationId: BRANDS.acme, country: 'AU' });
    assert.deepEqual(
      auDays.map((r) => [r.date, r.clicks]),
      [
        ['2026-03-07', 0],
        ['2026-03-08', 1],
        ['2026-03-09', 0],
      ],
    );
    // The brand's view: its countries, and its countries on one device.
    const { data: brandCountries } = await analytics(acme, { interval: 'all', groupBy: 'countries' }, 'advertiser');
    assert.deepEqual(brandCountries, [
      { country: 'US', clicks: 2 },
      { country: 'AU', clicks: 1 },
      { country: 'GB', clicks: 1 },
    ]);
    const { data: brandDesktop } = await analytics(acme, { interval: 'all', groupBy: 'countries', device: 'desktop' }, 'advertiser');
    assert.deepEqual(brandDesktop, [
      { country: 'AU', clicks: 1 },
      { country: 'US', clicks: 1 },
    ]);
  });

  test('one link\'s totals over time and since its first click', async () => {
    const { data, meta } = await analytics(aff1, { interval: 'all', linkCode: linkA });
    assert.equal(meta.start, '2026-03-07T00:00:00.000Z');
    assert.deepEqual(
      data.map((r) => [r.date, r.clicks]),
      [
        ['2026-03-07', 1],
        ['2026-03-08', 2],
        ['2026-03-09', 0],
      ],
    );
  });

  test('a combination the rollups do not keep answers 400 with what they keep', async () => {
    const res = await h.get(`/affiliate/analytics${qs({ groupBy: 'browsers', country: 'US' })}`, aff1);
    const body = assertError(res, 400, 'unsupported_combination');
    assert.match(body.message, /device with country/);
    assertError(await h.get(`/affiliate/analytics${qs({ event: 'sales', groupBy: 'devices' })}`, aff1), 400, 'unsupported_combination');
  });
});

describe('clicks that did not count, explained', () => {
  test('include=uncounted gives bot, head, repeat, suspicious and suspended beside the counted clicks', async () => {
    const { data } = await analytics(aff1, { interval: 'all', groupBy: 'links', linkCode: linkB, include: 'uncounted' });
    assert.deepEqual(data.map((r) => [r.clicks, r.uncounted]), [[1, { bot: 1, head: 1, repeat: 1, suspicious: 0, suspended: 0 }]]);
    const { data: series } = await analytics(aff1, { interval: '24h', include: 'uncounted' });
    assert.deepEqual(series.at(-1), { start: '2026-03-09T15:00:00.000Z', clicks: 1, uncounted: { bot: 1, head: 1, repeat: 1, suspicious: 0, suspended: 0 } });
  });
});

describe('orders, sales and commission', () => {
  test('by the country of the click, in integer cents per currency, for the affiliate and the brand', async () => {
    clock.set(Date.parse('2026-03-09T15:40:00.000Z'));
    const clickId = await clickAs(h, linkA, { ip: GB, userAgent: WINDOWS_CHROME });
    await settled(aff1, 5);
    const conversion = conversionOf(await report(h, acme, { clickId, orderId: 'AN-1', value: 12345, items: [item(12345)] }), 201);
    const { data: sales } = await analytics(aff1, { interval: '7d', event: 'sales', groupBy: 'countries' });
    assert.deepEqual(sales, [{ country: 'GB', currency: conversion.currency, sales: 12345 }]);
    const { data: commission } = await analytics(aff1, { interval: '7d', event: 'commission', groupBy: 'brands' });
    assert.deepEqual(commission.map((r) => [r.organizationId, r.commission]), [[BRANDS.acme, conversion.commission]]);
    const { data: series } = await analytics(aff1, { interval: '7d', event: 'orders' });
    assert.deepEqual(series.map((r) => r.orders), [0, 0, 0, 0, 0, 0, 1]);
    assert.ok(series.every((r) => r.currency === conversion.currency));
    const { data: brandView } = await analytics(acme, { interval: '7d', event: 'sales', groupBy: 'affiliates' }, 'advertiser');
    assert.deepEqual(brandView, [{ affiliateId: 'aff-1', name: 'Affiliate One', currency: conversion.currency, sales: 12345 }]);
    // A canceled order leaves the figures.
    const res = await h.request({ method: 'PATCH', url: '/advertiser/conversions/AN-1', payload: { status: 'canceled' }, headers: { 'x-api-key': acme } });
    assert.equal(res.statusCode, 200, res.body);
    const { data: after } = await analytics(aff1, { interval: '7d', event: 'sales', groupBy: 'countries' });
    assert.deepEqual(after, []);
    const { data: afterSeries } = await analytics(aff1, { interval: '7d', event: 'orders' });
    assert.deepEqual(afterSeries.map((r) => r.orders), [0, 0, 0, 0, 0, 0, 0]);
  });

  test('a money timeseries with no order at all still has every bucket', async () => {
    const { data } = await analytics(aff2, { interval: '7d', event: 'commission' });
    assert.equal(data.length, 7);
    assert.ok(data.every((r) => r.commission === 0 && !('currency' in r)));
  });
});

describe("nobody sees another's figures", () => {
  test("an affiliate's figures leave out another affiliate's clicks on the same brand", async () => {
    const { data } = await analytics(aff2, { interval: 'all', groupBy: 'links' });
    assert.deepEqual(data.map((r) => [r.code, r.clicks]), [[linkOther, 1]]);
  });

  test("another affiliate's link answers 404, as an unknown one does", async () => {
    assertError(await h.get(`/affiliate/analytics${qs({ linkCode: linkA })}`, aff2), 404, 'link_not_found');
    assertError(await h.get(`/affiliate/analytics${qs({ linkCode: 'nope123' })}`, aff2), 404, 'link_not_found');
  });

  test("a brand sees every affiliate's clicks on its own links, and nothing of another brand", async () => {
    const { data: acmeAffiliates } = await analytics(acme, { interval: 'all', groupBy: 'affiliates' }, 'advertiser');
    assert.deepEqual(acmeAffiliates, [
      { affiliateId: 'aff-1', name: 'Affiliate One', clicks: 4 },
      { affiliateId: 'aff-2', name: 'Affiliate Two', clicks: 1 },
    ]);
    const { data: globexAffiliates } = await analytics(globex, { interval: 'all', groupBy: 'affiliates' }, 'advertiser');
    assert.deepEqual(globexAffiliates, [{ affiliateId: 'aff-1', name: 'Affiliate One', clicks: 1 }]);
    assertError(await h.get(`/advertiser/analytics${qs({ linkCode: linkA })}`, globex), 404, 'link_not_found');
  });
});

describe('bad requests', () => {
  test('a bad groupBy, interval or timezone answers 400 with both error shapes', async () => {
    const bad = async (query: Record<string, string>, code: string, message: RegExp) => {
      const body = assertError(await h.get(`/affiliate/analytics${qs(query)}`, aff1), 400, code);
      assert.match(body.message, message);
    };
    await bad({ groupBy: 'planets' }, 'invalid_query', /groupBy/);
    await bad({ interval: '2w' }, 'invalid_query', /interval/);
    await bad({ timezone: 'Mars/Olympus' }, 'invalid_timezone', /IANA/);
    await bad({ timezone: 'Asia/Kolkata' }, 'invalid_timezone', /30 minutes off a whole hour/);
    await bad({ interval: '7d', start: '2026-03-01' }, 'invalid_query', /either interval or start/);
    await bad({ start: '2026-03-05', end: '2026-03-01' }, 'invalid_query', /must be after start/);
    await bad({ event: 'sales', include: 'uncounted' }, 'invalid_query', /event=clicks/);
    await bad({ currency: 'EUR' }, 'invalid_query', /currency applies to orders, sales and commission/);
    await bad({ currency: 'eur', event: 'sales' }, 'invalid_query', /currency/);
    await bad({ start: '2010-01-01', end: '2026-01-01' }, 'invalid_query', /longer than 3660 days/);
    await bad({ groupBy: 'countries', limit: '1001' }, 'invalid_query', /limit/);
    await bad({ groupBy: 'affiliates' }, 'invalid_query', /groupBy/);
    const brandBody = assertError(await h.get(`/advertiser/analytics${qs({ groupBy: 'brands' })}`, acme), 400, 'invalid_query');
    assert.match(brandBody.message, /groupBy/);
  });
});

describe('export', () => {
  test('the same rows as CSV, with a header even when empty', async () => {
    const res = await h.get(`/affiliate/analytics/export${qs({ interval: 'all', groupBy: 'channels' })}`, aff1);
    assert.equal(res.statusCode, 200, res.body);
    assert.match(String(res.headers['content-type']), /^text\/csv/);
    // A name starting with @ would be a formula in a spreadsheet: it starts with a quote.
    assert.equal(res.body, "channelId,name,clicks\r\nch-aff1-insta,'@aff1,4\r\nch-aff1-site,My blog,1\r\n");
    const empty = await h.get(`/affiliate/analytics/export${qs({ start: '2025-01-01', end: '2025-01-02', groupBy: 'countries', include: 'uncounted' })}`, aff1);
    assert.equal(empty.body, 'country,clicks,uncounted_bot,uncounted_head,uncounted_repeat,uncounted_suspicious,uncounted_suspended\r\n');
  });
});


describe("a brand's affiliates list", () => {
  test('counts the clicks of the range, not of all time', async () => {
    const res = await h.get(`/advertiser/affiliates${qs({ from: '2026-03-08', to: '2026-03-08' })}`, acme);
    assert.equal(res.statusCode, 200, res.body);
    const clicks = res.json<{ data: Array<{ affiliateId: string; clicks: number }> }>().data.map((a) => [a.affiliateId, a.clicks]);
    assert.deepEqual(clicks, [
      ['aff-1', 2],
      ['aff-2', 0],
    ]);
    const all = await h.get('/advertiser/affiliates', acme);
    assert.deepEqual(
      all.json<{ data: Array<{ affiliateId: string; clicks: number }> }>().data.map((a) => [a.affiliateId, a.clicks]),
      [
        ['aff-1', 4],
        ['aff-2', 1],
      ],
    );
  });
});
