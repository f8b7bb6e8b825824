import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../helpers/harness.js';
import { BRANDS } from '../helpers/world.js';
import { assertError, codeOf, newKey, qs } from '../helpers/api.js';
import type { ShortUrl } from '../../src/schemas/short-url.js';

const PATH = '/affiliate/shortener/url';
const APPROVAL_REQUIRED = 'Organization approval is required to generate links';

interface ChannelView {
  id: string;
  name: string;
  availableChannel: { id: string; name: string };
  shortUrls: string[];
  message?: string | null;
}

/** A record of the list, as its schema types it. */
type ShortUrlRecord = ShortUrl;

let h: Harness;
/** aff-1 and aff-2 keys with a high rate limit: this file sends far more than 60 requests. */
let aff1: string;
let aff2: string;

before(async () => {
  h = await startHarness();
  aff1 = (await newKey(h, 'aff-1', { rateLimit: 100_000 })).key;
  aff2 = (await newKey(h, 'aff-2', { rateLimit: 100_000 })).key;
});
after(async () => {
  await h.close();
});

async function shorten(body: unknown, key = aff1): Promise<ChannelView[]> {
  const res = await h.post(PATH, body, key);
  assert.equal(res.statusCode, 200, res.body);
  const channels = res.json<ChannelView[]>();
  assert.ok(Array.isArray(channels), res.body);
  return channels;
}

/** The one link of every channel (all channels must have exactly one). */
function linksOf(channels: ChannelView[]): string[] {
  return channels.map((c) => {
    assert.equal(c.message ?? undefined, undefined, `channel ${c.id} is blocked: ${c.message}`);
    assert.equal(c.shortUrls.length, 1, `channel ${c.id} should carry exactly one link: ${JSON.stringify(c)}`);
    return c.shortUrls[0]!;
  });
}

/** Where a short link sends a visitor, without the click id every redirect adds. */
async function follow(shortUrl: string): Promise<string> {
  const res = await h.request({ method: 'GET', url: `/${codeOf(shortUrl)}` });
  assert.equal(res.statusCode, 302, res.body);
  const location = new URL(String(res.headers.location));
  assert.match(location.searchParams.get('clickId') ?? '', /^[0-9a-f]{32}$/);
  location.searchParams.delete('clickId');
  return location.toString();
}

async function listed(type: string, extra: Record<string, string> = {}, key = aff1): Promise<ShortUrlRecord[]> {
  const res = await h.get(`/affiliate/shortener/urls${qs({ type, limit: 100, ...extra })}`, key);
  assert.equal(res.statusCode, 200, res.body);
  return (res.json<Array<{ data: ShortUrlRecord[] }>>())[0]!.data;
}

function assertBlocked(channels: ChannelView[], message?: string) {
  assert.ok(channels.length > 0);
  for (const c of channels) {
    assert.equal(typeof c.message, 'string', `channel ${c.id} should carry a message: ${JSON.stringify(c)}`);
    assert.ok(c.message!.length > 0);
    if (message) assert.equal(c.message, message);
    assert.deepEqual(c.shortUrls, []);
  }
}

describe('POST /affiliate/shortener/url: links per channel', () => {
  test('answers 200 with one Channel per channel of the caller, each with one short link on PUBLIC_URL', async () => {
    const res = await h.post(PATH, { organizationId: BRANDS.acme, type: 'BrandPage' }, aff1);
    assert.equal(res.statusCode, 200, res.body);
    const channels = res.json<ChannelView[]>();
    const byId = new Map(channels.map((c) => [c.id, c]));
    assert.equal(channels.length, 2);
    assert.deepEqual([...byId.keys()].sort(), [h.world.channels.aff1Instagram, h.world.channels.aff1Site].sort());
    const site = byId.get(h.world.channels.aff1Site)!;
    const insta = byId.get(h.world.channels.aff1Instagram)!;
    assert.equal(site.name, 'My blog');
    assert.deepEqual(site.availableChannel, { id: 'site', name: 'Site' });
    assert.equal(insta.name, '@aff1');
    assert.deepEqual(insta.availableChannel, { id: 'instagram', name: 'Instagram' });
    for (const c of channels) {
      assert.equal(c.message ?? undefined, undefined, JSON.stringify(c));
      assert.equal(c.shortUrls.length, 1, JSON.stringify(c));
      assert.match(c.shortUrls[0]!, /^http:\/\/go\.test\/[0-9A-Za-z]{7,}$/);
    }
    assert.notEqual(site.shortUrls[0], insta.shortUrls[0], 'each channel gets its own link');
  });

  test('aff-2 gets one Channel for its single whatsapp channel', async () => {
    const channels = await shorten({ organizationId: BRANDS.acme, type: 'BrandPage' }, aff2);
    assert.equal(channels.length, 1);
    assert.equal(channels[0]!.id, h.world.channels.aff2Whatsapp);
    assert.deepEqual(channels[0]!.availableChannel, { id: 'whatsapp', name: 'WhatsApp' });
    assert.equal(linksOf(channels).length, 1);
  });

  test('an affiliate without channels gets an empty array', async () => {
    const res = await h.post(PATH, { organizationId: BRANDS.acme, type: 'BrandPage' }, h.world.keys.aff3);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), []);
  });
});

describe('POST /affiliate/shortener/url: destinations', () => {
  test('BrandPage points at the brand site', async () => {
    for (const link of linksOf(await shorten({ organizationId: BRANDS.acme, type: 'BrandPage' }))) {
      assert.equal(await follow(link), 'https://www.acme.com/store');
    }
  });

  test('Home points at the home page of the brand site', async () => {
    for (const link of linksOf(await shorten({ organizationId: BRANDS.acme, type: 'Home' }))) {
      assert.equal(await follow(link), 'https://www.acme.com/');
    }
  });

  test('Coupon points at the campaign url', async () => {
    for (const link of linksOf(await shorten({ organizationId: BRANDS.acme, type: 'Coupon', featureId: 'c-acme-coupon' }))) {
      assert.equal(await follow(link), 'https://www.acme.com/promo');
    }
  });

  test('Offer points at the campaign url (Spreadsheet and Url offers)', async () => {
    for (const link of linksOf(await shorten({ organizationId: BRANDS.acme, type: 'Offer', featureId: 'c-acme-offer-url' }))) {
      assert.equal(await follow(link), 'https://www.acme.com/sale');
    }
    for (const link of linksOf(await shorten({ organizationId: BRANDS.acme, type: 'Offer', featureId: 'c-acme-offer-sheet' }))) {
      assert.equal(await follow(link), 'https://www.acme.com/promo');
    }
  });

  test('a coupon of a private brand the caller is approved for gets links to its url', async () => {
    for (const link of linksOf(await shorten({ organizationId: BRANDS.globex, type: 'Coupon', featureId: 'c-globex-coupon' }))) {
      assert.equal(await follow(link), 'https://globex.com/deal');
    }
  });

  test('Custom points at the given url', async () => {
    const url = 'https://www.acme.com/p/p-acme-1?color=red';
    for (const link of linksOf(await shorten({ organizationId: BRANDS.acme, type: 'Custom', url }))) {
      assert.equal(await follow(link), url);
    }
  });

  test('Custom accepts a subdomain of the brand domain and the bare domain', async () => {
    for (const url of ['https://shop.acme.com/x', 'https://acme.com/y', 'https://deep.shop.acme.com/z']) {
      for (const link of linksOf(await shorten({ organizationId: BRANDS.acme, type: 'Custom', url }))) {
        assert.equal(await follow(link), url);
      }
    }
  });

  test('the list of short URLs shows the destination as originalUrl and the request type as linkType', async () => {
    const channels = await shorten({ organizationId: BRANDS.umbrella, type: 'Home' });
    const links = linksOf(channels.filter((c) => c.id === h.world.channels.aff1Site));
    assert.equal(links.length, 1);
    const records = await listed('Home', { organizationId: BRANDS.umbrella });
    assert.equal(records.length, 1);
    assert.equal(records[0]!.shortUrl, links[0]);
    assert.equal(records[0]!.originalUrl, 'https://umbrella.com/');
    assert.equal(records[0]!.linkType, 'Home');
    assert.equal(records[0]!.organizationId, BRANDS.umbrella);
  });
});

describe('POST /affiliate/shortener/url: mdasc', () => {
  test('mdasc is appended to the destination as the query parameter mdasc', async () => {
    const links = linksOf(await shorten({ organizationId: BRANDS.acme, type: 'BrandPage', mdasc: 'summer-2026' }));
    for (const link of links) {
      const destination = new URL(await follow(link));
      assert.equal(`${destination.origin}${destination.pathname}`, 'https://www.acme.com/store');
      assert.equal(destination.searchParams.get('mdasc'), 'summer-2026');
      assert.deepEqual([...destination.searchParams.keys()], ['mdasc']);
    }
    const records = await listed('BrandPage', { organizationId: BRANDS.acme });
    const mine = records.filter((r) => links.includes(r.shortUrl));
    assert.equal(mine.length, links.length);
    for (const r of mine) assert.equal(new URL(r.originalUrl).searchParams.get('mdasc'), 'summer-2026');
  });

  test('mdasc with characters that need encoding arrives intact, next to the url query', async () => {
    const mdasc = 'a b&c=d/é';
    const url = 'https://www.acme.com/p/p-acme-2?size=42';
    for (const link of linksOf(await shorten({ organizationId: BRANDS.acme, type: 'Custom', url, mdasc }))) {
      const destination = new URL(await follow(link));
      assert.equal(destination.pathname, '/p/p-acme-2');
      assert.equal(destination.searchParams.get('size'), '42');
      assert.equal(destination.searchParams.get('mdasc'), mdasc);
    }
  });

  test('mdasc is appended to coupon destinations too', async () => {
    for (const link of linksOf(await shorten({ organizationId: BRANDS.acme, type: 'Coupon', featureId: 'c-acme-coupon', mdasc: 'nl-7' }))) {
      const destination = new URL(await follow(link));
      assert.equal(`${destination.origin}${destination.pathname}`, 'https://www.acme.com/promo');
      assert.equal(destination.searchParams.get('mdasc'), 'nl-7');
    }
  });
});

describe('POST /affiliate/shortener/url: idempotency and codes', () => {
  test('the same request twice returns the same links and creates no new ones', async () => {
    const body = { organizationId: BRANDS.acme, type: 'Custom', url: 'https://www.acme.com/idem' };
    const first = await shorten(body);
    const before = (await listed('Custom')).length;
    const second = await shorten(body);
    assert.deepEqual(second, first);
    assert.equal((await listed('Custom')).length, before, 'asking again must not create links');
  });

  test('identical requests sent at the same time all get the same links', async () => {
    const body = { organizationId: BRANDS.acme, type: 'Custom', url: 'https://www.acme.com/concurrent', mdasc: 'c' };
    const answers = await Promise.all(Array.from({ length: 6 }, () => shorten(body)));
    for (const answer of answers) assert.deepEqual(answer, answers[0]);
    const records = (await listed('Custom')).filter((r) => r.originalUrl.startsWith('https://www.acme.com/concurrent'));
    assert.equal(records.length, 2, 'one link per channel, however many requests raced');
  });

  test('the same request with another mdasc, type or url gives other links', async () => {
    const base = { organizationId: BRANDS.acme, type: 'Custom', url: 'https://www.acme.com/variants' };
    const plain = linksOf(await shorten(base));
    const withA = linksOf(await shorten({ ...base, mdasc: 'a' }));
    const withB = linksOf(await shorten({ ...base, mdasc: 'b' }));
    const otherUrl = linksOf(await shorten({ ...base, url: 'https://www.acme.com/variants2' }));
    const all = [...plain, ...withA, ...withB, ...otherUrl];
    assert.equal(new Set(all).size, all.length, `links must all differ: ${all.join(' ')}`);
    assert.deepEqual(linksOf(await shorten({ ...base, mdasc: 'a' })), withA, 'same mdasc again → same links');
  });

  test('another affiliate asking for the same thing gets its own links', async () => {
    const body = { organizationId: BRANDS.acme, type: 'Custom', url: 'https://www.acme.com/shared' };
    const mine = linksOf(await shorten(body, aff1));
    const theirs = linksOf(await shorten(body, aff2));
    for (const link of theirs) assert.ok(!mine.includes(link));
  });

  test('codes are unique base62 of at least 7 characters and not sequential', async () => {
    const codes: string[] = [];
    for (let i = 0; i < 15; i++) {
      for (const link of linksOf(await shorten({ organizationId: BRANDS.acme, type: 'Custom', url: `https://www.acme.com/seq/${i}` }))) {
        codes.push(codeOf(link));
      }
    }
    assert.equal(codes.length, 30);
    for (const code of codes) assert.match(code, /^[0-9A-Za-z]{7,}$/);
    assert.equal(new Set(codes).size, codes.length, 'codes must be unique');
    const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
    const value = (code: string) => [...code].reduce((n, ch) => n * 62n + BigInt(ALPHABET.indexOf(ch)), 0n);
    // Consecutive codes of a counter differ by a small amount; random 7-character codes almost
    // never come within 10^6 of each other (62^7 ≈ 3.5·10^12).
    for (let i = 1; i < codes.length; i++) {
      const diff = value(codes[i]!) - value(codes[i - 1]!);
      const distance = diff < 0n ? -diff : diff;
      assert.ok(distance > 1_000_000n, `codes ${codes[i - 1]} and ${codes[i]} look sequential`);
    }
    const prefixes = new Set(codes.map((c) => c.slice(0, 3)));
    assert.ok(prefixes.size > 20, `codes share their leading characters: ${codes.join(' ')}`);
  });
});

describe('POST /affiliate/shortener/url: blocked channels', () => {
  test('a private brand the caller is not approved for: every channel says approval is required', async () => {
    const channels = await shorten({ organizationId: BRANDS.globex, type: 'BrandPage' }, aff2);
    assert.equal(channels.length, 1);
    assert.equal(channels[0]!.id, h.world.channels.aff2Whatsapp);
    assertBlocked(channels, APPROVAL_REQUIRED);
    assert.deepEqual(await listed('BrandPage', { organizationId: BRANDS.globex }, aff2), [], 'no link may be created');
  });

  test("an unapproved affiliate learns nothing of a private brand's domains or campaigns: the same approval message whatever it asks", async () => {
    const asks = [
      { organizationId: BRANDS.globex, type: 'Custom', url: 'https://elsewhere.example/x' },
      { organizationId: BRANDS.globex, type: 'Custom', url: 'https://globex.com/deals' },
      { organizationId: BRANDS.globex, type: 'Offer', featureId: 'no-such-offer' },
    ];
    for (const body of asks) {
      const res = await h.post('/affiliate/shortener/url', body, aff2);
      assert.equal(res.statusCode, 200, res.body);
      assert.doesNotMatch(res.body, /globex\.com/);
      assertBlocked(res.json<ChannelView[]>(), APPROVAL_REQUIRED);
    }
  });

  test('aff-1 is not approved for initech: approval required on both channels', async () => {
    const channels = await shorten({ organizationId: BRANDS.initech, type: 'Home' });
    assert.equal(channels.length, 2);
    assertBlocked(channels, APPROVAL_REQUIRED);
  });

  test('aff-2 is approved for initech: its offer gets a link', async () => {
    const links = linksOf(await shorten({ organizationId: BRANDS.initech, type: 'Offer', featureId: 'c-initech-offer' }, aff2));
    assert.equal(links.length, 1);
    assert.equal(await follow(links[0]!), 'https://initech.com/x');
  });

  test('a private brand the caller is approved for gets links', async () => {
    const links = linksOf(await shorten({ organizationId: BRANDS.globex, type: 'BrandPage' }));
    assert.equal(links.length, 2);
    // The brand site is https://globex.com; with or without the trailing slash it is the same URL.
    for (const link of links) assert.equal(new URL(await follow(link)).href, 'https://globex.com/');
  });

  test('umbrella accepts only site channels: the instagram channel carries a message, the site channel a link', async () => {
    const channels = await shorten({ organizationId: BRANDS.umbrella, type: 'BrandPage' });
    assert.equal(channels.length, 2);
    const site = channels.find((c) => c.id === h.world.channels.aff1Site)!;
    const insta = channels.find((c) => c.id === h.world.channels.aff1Instagram)!;
    assert.ok(site && insta, JSON.stringify(channels));
    assert.equal(linksOf([site]).length, 1);
    assert.equal(new URL(await follow(site.shortUrls[0]!)).href, 'https://umbrella.com/');
    assertBlocked([insta]);
    assert.notEqual(insta.message, APPROVAL_REQUIRED);
  });

  test('umbrella blocks the whatsapp channel of aff-2', async () => {
    assertBlocked(await shorten({ organizationId: BRANDS.umbrella, type: 'BrandPage' }, aff2));
  });

  test('an inactive brand (hooli) gives messages and no links', async () => {
    const channels = await shorten({ organizationId: BRANDS.hooli, type: 'BrandPage' });
    assert.equal(channels.length, 2);
    assertBlocked(channels);
    assert.deepEqual(await listed('BrandPage', { organizationId: BRANDS.hooli }), []);
  });

  test('an expired campaign gives messages and no links', async () => {
    const channels = await shorten({ organizationId: BRANDS.acme, type: 'Coupon', featureId: 'c-acme-expired' });
    assert.equal(channels.length, 2);
    assertBlocked(channels);
    assert.deepEqual(await listed('Coupon', { featureId: 'c-acme-expired' }), []);
  });
});

describe('POST /affiliate/shortener/url: invalid requests', () => {
  const bad = async (body: unknown, code: string, message?: RegExp) => {
    const res = await h.post(PATH, body, aff1);
    const error = assertError(res, 400, code);
    if (message) assert.match(error.message, message);
    return error;
  };

  test('featureId missing for Coupon or Offer → 400 naming featureId', async () => {
    await bad({ organizationId: BRANDS.acme, type: 'Coupon' }, 'invalid_body', /featureId/);
    await bad({ organizationId: BRANDS.acme, type: 'Offer' }, 'invalid_body', /featureId/);
  });

  test('url missing for Custom → 400 naming url', async () => {
    await bad({ organizationId: BRANDS.acme, type: 'Custom' }, 'invalid_body', /url/);
  });

  test('url given for a type other than Custom → 400', async () => {
    await bad({ organizationId: BRANDS.acme, type: 'BrandPage', url: 'https://www.acme.com/x' }, 'invalid_body', /url/);
    await bad({ organizationId: BRANDS.acme, type: 'Home', url: 'https://www.acme.com/x' }, 'invalid_body', /url/);
    await bad({ organizationId: BRANDS.acme, type: 'Coupon', featureId: 'c-acme-coupon', url: 'https://www.acme.com/x' }, 'invalid_body', /url/);
  });

  test('featureId of another brand, of the wrong kind or unknown → 400 feature_not_found', async () => {
    await bad({ organizationId: BRANDS.acme, type: 'Coupon', featureId: 'c-globex-coupon' }, 'feature_not_found', /c-globex-coupon/);
    await bad({ organizationId: BRANDS.acme, type: 'Offer', featureId: 'c-initech-offer' }, 'feature_not_found');
    await bad({ organizationId: BRANDS.acme, type: 'Coupon', featureId: 'c-acme-offer-sheet' }, 'feature_not_found');
    await bad({ organizationId: BRANDS.acme, type: 'Offer', featureId: 'c-acme-coupon' }, 'feature_not_found');
    await bad({ organizationId: BRANDS.acme, type: 'Coupon', featureId: 'no-such-campaign' }, 'feature_not_found');
  });

  test('Custom url that is not https → 400 invalid_url', async () => {
    await bad({ organizationId: BRANDS.acme, type: 'Custom', url: 'http://www.acme.com/x' }, 'invalid_url', /https/);
    await bad({ organizationId: BRANDS.acme, type: 'Custom', url: 'not a url' }, 'invalid_url');
  });

  test('Custom url on another domain → 400 invalid_domain', async () => {
    for (const url of ['https://evil.com/x', 'https://notacme.com/x', 'https://acme.com.evil.com/x', 'https://globex.com/x']) {
      await bad({ organizationId: BRANDS.acme, type: 'Custom', url }, 'invalid_domain');
    }
  });

  test('an unknown body field → 400 naming it', async () => {
    await bad({ organizationId: BRANDS.acme, type: 'BrandPage', channel: 'site' }, 'invalid_body', /channel/);
  });

  test('missing organizationId or type → 400', async () => {
    await bad({ type: 'BrandPage' }, 'invalid_body', /organizationId/);
    await bad({ organizationId: BRANDS.acme }, 'invalid_body', /type/);
  });

  test('organizationId that is not a UUID → 400', async () => {
    await bad({ organizationId: 'acme', type: 'BrandPage' }, 'invalid_body', /organizationId/);
  });

  test('a type outside Coupon, BrandPage, Offer, Custom, Home → 400', async () => {
    await bad({ organizationId: BRANDS.acme, type: 'Banner' }, 'invalid_body', /type/);
    await bad({ organizationId: BRANDS.acme, type: 'brandpage' }, 'invalid_body', /type/);
    await bad({ organizationId: BRANDS.acme, type: 7 }, 'invalid_body', /type/);
  });

  test('a number or boolean where a string is expected → 400 (no silent conversion)', async () => {
    await bad({ organizationId: BRANDS.acme, type: 'BrandPage', mdasc: 12 }, 'invalid_body', /mdasc/);
    await bad({ organizationId: BRANDS.acme, type: 'BrandPage', mdasc: true }, 'invalid_body', /mdasc/);
  });

  test('an array where a string is expected → 400 (no silent unwrapping)', async () => {
    await bad({ organizationId: BRANDS.acme, type: 'Coupon', featureId: ['c-acme-coupon'] }, 'invalid_body', /featureId/);
    await bad({ organizationId: [BRANDS.acme], type: 'BrandPage' }, 'invalid_body', /organizationId/);
    await bad({ organizationId: BRANDS.acme, type: ['BrandPage'] }, 'invalid_body', /type/);
  });

  test('overlong fields → 400', async () => {
    await bad({ organizationId: BRANDS.acme, type: 'Custom', url: `https://www.acme.com/${'a'.repeat(2100)}` }, 'invalid_body', /url/);
    await bad({ organizationId: BRANDS.acme, type: 'BrandPage', mdasc: 'm'.repeat(201) }, 'invalid_body', /mdasc/);
    await bad({ organizationId: BRANDS.acme, type: 'BrandPage', mdasc: '' }, 'invalid_body', /mdasc/);
  });

  test('a Custom url carrying a user name or password → 400 invalid_url', async () => {
    await bad({ organizationId: BRANDS.acme, type: 'Custom', url: 'https://user:pw@www.acme.com/x' }, 'invalid_url');
  });

  test('a body that is not JSON → 415 with the error body', async () => {
    const res = await h.request({ method: 'POST', url: PATH, payload: 'organizationId=x&type=BrandPage', headers: { 'x-api-key': aff1, 'content-type': 'application/x-www-form-urlencoded' } });
    assertError(res, 415);
  });

  test('malformed JSON → 400 invalid_json', async () => {
    const res = await h.request({
      method: 'POST',
      url: PATH,
      payload: '{"organizationId": "11111111-1111-4111-8111-111111111111", "type": ',
      headers: { 'x-api-key': aff1, 'content-type': 'application/json' },
    });
    assertError(res, 400, 'invalid_json');
  });

  test('a body that is not a JSON object → 400', async () => {
    for (const payload of ['[]', '"BrandPage"', '42', 'null', '[{"organizationId":"11111111-1111-4111-8111-111111111111","type":"BrandPage"}]']) {
      const res = await h.request({ method: 'POST', url: PATH, payload, headers: { 'x-api-key': aff1, 'content-type': 'application/json' } });
      assertError(res, 400);
    }
  });

  test('an unknown organizationId → 404', async () => {
    const res = await h.post(PATH, { organizationId: BRANDS.unknown, type: 'BrandPage' }, aff1);
    assertError(res, 404, 'not_found');
  });

  test('invalid requests create no links', async () => {
    await h.post(PATH, { organizationId: BRANDS.acme, type: 'Custom', url: 'https://evil.com/nolink' }, aff1);
    const records = await listed('Custom');
    assert.ok(!records.some((r) => r.originalUrl.includes('evil.com')));
  });
});
