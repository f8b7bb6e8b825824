import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../helpers/harness.js';
import { BRANDS } from '../helpers/world.js';
import { assertError, codeOf, newKey, qs, sleep } from '../helpers/api.js';
import type { ShortUrl } from '../../src/schemas/short-url.js';

const PATH = '/affiliate/shortener/urls';

/** A record of the list, as its schema types it. */
type ShortUrlRecord = ShortUrl;
interface Meta {
  total: number;
  page: number;
  limit: number;
  totalPages: number;
}

let h: Harness;
let aff1: string;
let aff2: string;
/** Short URLs created for aff-1, by what they were created for, in creation order. */
const made: Record<string, string[]> = {};
let aff2Links: string[] = [];

async function create(key: string, body: Record<string, unknown>): Promise<string[]> {
  const res = await h.post('/affiliate/shortener/url', body, key);
  assert.equal(res.statusCode, 200, res.body);
  // A few ms apart so "newest first" is decided by creation time.
  await sleep(5);
  return (res.json<Array<{ shortUrls: string[] }>>()).flatMap((c) => c.shortUrls);
}

before(async () => {
  h = await startHarness();
  aff1 = (await newKey(h, 'aff-1', { rateLimit: 100_000 })).key;
  aff2 = (await newKey(h, 'aff-2', { rateLimit: 100_000 })).key;
  made.acmeBrandPage = await create(aff1, { organizationId: BRANDS.acme, type: 'BrandPage' }); // 2 links (site, instagram)
  made.umbrellaBrandPage = await create(aff1, { organizationId: BRANDS.umbrella, type: 'BrandPage' }); // 1 link (site only)
  made.coupon = await create(aff1, { organizationId: BRANDS.acme, type: 'Coupon', featureId: 'c-acme-coupon' }); // 2
  made.offerSheet = await create(aff1, { organizationId: BRANDS.acme, type: 'Offer', featureId: 'c-acme-offer-sheet', mdasc: 'x1' }); // 2
  made.globexCoupon = await create(aff1, { organizationId: BRANDS.globex, type: 'Coupon', featureId: 'c-globex-coupon' }); // 2
  aff2Links = await create(aff2, { organizationId: BRANDS.acme, type: 'BrandPage' }); // 1 (whatsapp)
});
after(async () => {
  await h.close();
});

async function list(query: Record<string, string | number | undefined>, key = aff1): Promise<{ data: ShortUrlRecord[]; meta: Meta }> {
  const res = await h.get(`${PATH}${qs(query)}`, key);
  assert.equal(res.statusCode, 200, res.body);
  const body = res.json<Array<{ data: ShortUrlRecord[]; meta: Meta }>>();
  assert.ok(Array.isArray(body), res.body);
  assert.equal(body.length, 1, `the answer is an array with one { data, meta } element: ${res.body}`);
  assert.deepEqual(Object.keys(body[0]!).sort(), ['data', 'meta']);
  return body[0]!;
}

describe('GET /affiliate/shortener/urls: shape', () => {
  test('the world has what this file expects', () => {
    assert.equal(made.acmeBrandPage!.length, 2);
    assert.equal(made.umbrellaBrandPage!.length, 1);
    assert.equal(made.coupon!.length, 2);
    assert.equal(made.offerSheet!.length, 2);
    assert.equal(made.globexCoupon!.length, 2);
    assert.equal(aff2Links.length, 1);
  });

  test('answers an array with one { data, meta } element; records carry every field of a Shortened URL record, plus channel and createdAt', async () => {
    const { data, meta } = await list({ type: 'BrandPage' });
    assert.deepEqual(meta, { total: 3, page: 1, limit: 20, totalPages: 1 });
    assert.equal(data.length, 3);
    for (const record of data) {
      assert.deepEqual(Object.keys(record).sort(), ['active', 'brandName', 'channel', 'count', 'createdAt', 'linkType', 'organizationId', 'originalUrl', 'shortUrl', 'urlCode']);
      assert.equal(record.urlCode, codeOf(record.shortUrl));
      assert.match(record.urlCode, /^[0-9A-Za-z]{7,}$/);
      assert.equal(record.active, true);
      assert.equal(record.count, 0);
      assert.equal(record.linkType, 'BrandPage');
    }
    const byUrl = new Map(data.map((r) => [r.shortUrl, r]));
    assert.deepEqual([...byUrl.keys()].sort(), [...made.acmeBrandPage!, ...made.umbrellaBrandPage!].sort());
    for (const url of made.acmeBrandPage!) {
      assert.equal(byUrl.get(url)!.organizationId, BRANDS.acme);
      assert.equal(byUrl.get(url)!.originalUrl, 'https://www.acme.com/store');
    }
    const umbrella = byUrl.get(made.umbrellaBrandPage![0]!)!;
    assert.equal(umbrella.organizationId, BRANDS.umbrella);
    assert.equal(new URL(umbrella.originalUrl).href, 'https://umbrella.com/');
  });

  test('newest first', async () => {
    const { data } = await list({ type: 'BrandPage' });
    assert.equal(data[0]!.shortUrl, made.umbrellaBrandPage![0], 'the umbrella link was created after the acme links');
  });

  test('an empty result is one element with empty data and zero totals', async () => {
    const { data, meta } = await list({ type: 'Custom' });
    assert.deepEqual(data, []);
    assert.equal(meta.total, 0);
    assert.equal(meta.totalPages, 0);
  });
});

describe('GET /affiliate/shortener/urls: type and featureId', () => {
  test('type is required', async () => {
    const error = assertError(await h.get(PATH, aff1), 400, 'invalid_query');
    assert.match(error.message, /type/);
    assertError(await h.get(`${PATH}?organizationId=${BRANDS.acme}`, aff1), 400, 'invalid_query');
  });

  test('an unknown type → 400', async () => {
    const error = assertError(await h.get(`${PATH}?type=Banner`, aff1), 400, 'invalid_query');
    assert.match(error.message, /type/);
  });

  test('featureId is required for Coupon and Offer', async () => {
    for (const type of ['Coupon', 'Offer']) {
      const error = assertError(await h.get(`${PATH}?type=${type}`, aff1), 400, 'invalid_query');
      assert.match(error.message, /featureId/);
    }
  });

  test('Coupon with featureId lists the links of that coupon only', async () => {
    const { data, meta } = await list({ type: 'Coupon', featureId: 'c-acme-coupon' });
    assert.equal(meta.total, 2);
    assert.deepEqual(data.map((r) => r.shortUrl).sort(), [...made.coupon!].sort());
    for (const r of data) {
      assert.equal(r.linkType, 'Coupon');
      assert.equal(r.originalUrl, 'https://www.acme.com/promo');
      assert.equal(r.organizationId, BRANDS.acme);
    }
    const globex = await list({ type: 'Coupon', featureId: 'c-globex-coupon' });
    assert.deepEqual(globex.data.map((r) => r.shortUrl).sort(), [...made.globexCoupon!].sort());
  });

  test('Offer with featureId lists the links of that offer; its mdasc is in originalUrl', async () => {
    const { data } = await list({ type: 'Offer', featureId: 'c-acme-offer-sheet' });
    assert.deepEqual(data.map((r) => r.shortUrl).sort(), [...made.offerSheet!].sort());
    for (const r of data) {
      assert.equal(r.linkType, 'Offer');
      const url = new URL(r.originalUrl);
      assert.equal(`${url.origin}${url.pathname}`, 'https://www.acme.com/promo');
      assert.equal(url.searchParams.get('mdasc'), 'x1');
    }
    assert.deepEqual((await list({ type: 'Offer', featureId: 'c-acme-offer-url' })).data, []);
    assert.deepEqual((await list({ type: 'Offer', featureId: 'c-acme-coupon' })).data, [], 'the coupon links are not offers');
  });

  test('links of one type never appear under another', async () => {
    const { data } = await list({ type: 'Home' });
    assert.deepEqual(data, []);
  });
});

describe('GET /affiliate/shortener/urls: organizationId filter', () => {
  test('filters by brand', async () => {
    const acme = await list({ type: 'BrandPage', organizationId: BRANDS.acme });
    assert.deepEqual(acme.data.map((r) => r.shortUrl).sort(), [...made.acmeBrandPage!].sort());
    assert.equal(acme.meta.total, 2);
    const umbrella = await list({ type: 'BrandPage', organizationId: BRANDS.umbrella });
    assert.deepEqual(umbrella.data.map((r) => r.shortUrl), made.umbrellaBrandPage);
    const globex = await list({ type: 'BrandPage', organizationId: BRANDS.globex });
    assert.deepEqual(globex.data, []);
    assert.equal(globex.meta.total, 0);
  });

  test('combined with type and featureId', async () => {
    assert.equal((await list({ type: 'Coupon', featureId: 'c-acme-coupon', organizationId: BRANDS.acme })).data.length, 2);
    assert.deepEqual((await list({ type: 'Coupon', featureId: 'c-acme-coupon', organizationId: BRANDS.globex })).data, []);
  });

  test('organizationId that is not a UUID → 400', async () => {
    const error = assertError(await h.get(`${PATH}?type=BrandPage&organizationId=acme`, aff1), 400, 'invalid_query');
    assert.match(error.message, /organizationId/);
  });
});

describe('GET /affiliate/shortener/urls: pages', () => {
  test('pages of one cover every link exactly once, with correct meta', async () => {
    const seen: string[] = [];
    for (let page = 1; page <= 3; page++) {
      const { data, meta } = await list({ type: 'BrandPage', limit: 1, page });
      assert.deepEqual(meta, { total: 3, page, limit: 1, totalPages: 3 });
      assert.equal(data.length, 1);
      seen.push(data[0]!.shortUrl);
    }
    assert.deepEqual([...seen].sort(), [...made.acmeBrandPage!, ...made.umbrellaBrandPage!].sort());
    const all = await list({ type: 'BrandPage' });
    assert.deepEqual(seen, all.data.map((r) => r.shortUrl), 'pages follow the order of the full list');
  });

  test('limit 2: page 2 has the rest', async () => {
    const page2 = await list({ type: 'BrandPage', limit: 2, page: 2 });
    assert.deepEqual(page2.meta, { total: 3, page: 2, limit: 2, totalPages: 2 });
    assert.equal(page2.data.length, 1);
  });

  test('a page past the end answers empty data with correct totals', async () => {
    const { data, meta } = await list({ type: 'BrandPage', limit: 2, page: 5 });
    assert.deepEqual(data, []);
    assert.deepEqual(meta, { total: 3, page: 5, limit: 2, totalPages: 2 });
  });

  test('limit and page out of range or not integers → 400', async () => {
    for (const query of ['limit=0', 'limit=101', 'limit=abc', 'page=0', 'page=-1', 'page=1.5']) {
      const error = assertError(await h.get(`${PATH}?type=BrandPage&${query}`, aff1), 400, 'invalid_query');
      assert.match(error.message, /limit|page/);
    }
    assert.equal((await list({ type: 'BrandPage', limit: 100 })).meta.limit, 100);
  });

  test('an unknown query parameter → 400', async () => {
    const error = assertError(await h.get(`${PATH}?type=BrandPage&sort=asc`, aff1), 400, 'invalid_query');
    assert.match(error.message, /sort/);
  });
});

describe('GET /affiliate/shortener/urls: only the caller’s links', () => {
  test('aff-2 sees its own link and none of aff-1’s', async () => {
    const { data, meta } = await list({ type: 'BrandPage' }, aff2);
    assert.equal(meta.total, 1);
    assert.deepEqual(data.map((r) => r.shortUrl), aff2Links);
    for (const url of [...made.acmeBrandPage!, ...made.umbrellaBrandPage!]) assert.ok(!data.some((r) => r.shortUrl === url));
  });

  test('aff-2 sees none of aff-1’s coupon links, even when naming the coupon and the brand', async () => {
    assert.deepEqual((await list({ type: 'Coupon', featureId: 'c-acme-coupon', organizationId: BRANDS.acme }, aff2)).data, []);
    assert.deepEqual((await list({ type: 'Coupon', featureId: 'c-globex-coupon' }, aff2)).data, []);
  });

  test('aff-1 does not see aff-2’s link', async () => {
    const { data } = await list({ type: 'BrandPage', organizationId: BRANDS.acme });
    assert.ok(!data.some((r) => r.shortUrl === aff2Links[0]));
  });

  test('an affiliate without links gets an empty page', async () => {
    const { data, meta } = await list({ type: 'BrandPage' }, h.world.keys.aff3);
    assert.deepEqual(data, []);
    assert.equal(meta.total, 0);
  });
});
