import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Harness } from '../helpers/harness.js';
import { BRANDS } from '../helpers/world.js';
import { assertError, newKey, qs, startWithKeys } from '../helpers/api.js';

const brandPath = (id: string) => `/affiliate/brands/${id}`;
const SHORTEN = '/affiliate/shortener/url';
const SHORT_URL = /^http:\/\/go\.test\/[0-9A-Za-z]{7,}$/;

interface ChannelView {
  id: string;
  name: string;
  availableChannel: { id: string; name: string };
  shortUrls: string[];
  message?: string | null;
}

interface BrandView {
  id: string;
  name: string;
  network: { active: boolean; isPublic: boolean };
  commission: { value: number; transfer: string };
  channels: ChannelView[];
  [field: string]: unknown;
}

let h: Harness;
let aff1: string;
let aff2: string;
let aff3: string;

before(async () => {
  ({ h, aff1, aff2, aff3 } = await startWithKeys());
});
after(async () => {
  await h.close();
});

async function getBrand(id: string, key: string): Promise<BrandView> {
  const res = await h.get(brandPath(id), key);
  assert.equal(res.statusCode, 200, res.body);
  const body = res.json<{ data: BrandView }>();
  assert.deepEqual(Object.keys(body), ['data']);
  return body.data;
}

async function shorten(body: Record<string, unknown>, key: string): Promise<ChannelView[]> {
  const res = await h.post(SHORTEN, body, key);
  assert.equal(res.statusCode, 200, res.body);
  return res.json<ChannelView[]>();
}

const byId = <T extends { id: string }>(items: T[]) => [...items].sort((a, b) => a.id.localeCompare(b.id));
const urlsById = (channels: ChannelView[]) => byId(channels).map((c) => [c.id, c.shortUrls] as const);

describe('GET /affiliate/brands/{id}: found', () => {
  test('a public brand answers { data: Brand }', async () => {
    const acme = await getBrand(BRANDS.acme, aff1);
    assert.equal(acme.id, BRANDS.acme);
    assert.equal(acme.name, 'Acme');
    assert.equal(acme.slug, 'acme');
    assert.equal(acme.site, 'https://www.acme.com/store');
    assert.equal(acme.logo, 'https://cdn.example.com/acme.png');
    assert.equal(acme.segment, 'Retail');
    assert.equal(acme.createdAt, '2025-01-10T00:00:00.000Z');
    assert.deepEqual(acme.network, {
      active: true,
      isPublic: true,
      trait: { isExclusive: true, isHighlight: true, isFavorite: false },
      rating: { approval: 4.5, commission: 3.2, conversion: 2.75, popularity: 5, validation: 4 },
    });
    assert.deepEqual(acme.commission, { value: 7.5, transfer: 'cps' });
  });

  test('the brand is the same object the list shows', async () => {
    for (const [id, key] of [
      [BRANDS.acme, aff1],
      [BRANDS.globex, aff1],
      [BRANDS.umbrella, aff2],
      [BRANDS.initech, aff2],
      [BRANDS.hooli, aff3],
    ] as const) {
      const one = await getBrand(id, key);
      const res = await h.get(`/affiliate/brands${qs({ search: one.name })}`, key);
      assert.equal(res.statusCode, 200, res.body);
      const listed = (res.json<{ data: BrandView[] }>()).data.find((b) => b.id === id);
      assert.deepEqual(one, listed, one.name);
    }
  });

  test('a private brand the caller is approved for is found', async () => {
    const globex = await getBrand(BRANDS.globex, aff1);
    assert.equal(globex.name, 'Globex');
    assert.equal(globex.network.isPublic, false);
    const initech = await getBrand(BRANDS.initech, aff2);
    assert.equal(initech.name, 'Initech');
  });

  test('a cpa brand shows its commission in cents', async () => {
    assert.deepEqual((await getBrand(BRANDS.umbrella, aff1)).commission, { value: 1500, transfer: 'cpa' });
  });

  test("channels are the caller's own channels", async () => {
    const forAff1 = await getBrand(BRANDS.umbrella, aff1);
    assert.deepEqual(
      byId(forAff1.channels).map((c) => [c.id, c.name, c.availableChannel]),
      [
        [h.world.channels.aff1Instagram, '@aff1', { id: 'instagram', name: 'Instagram' }],
        [h.world.channels.aff1Site, 'My blog', { id: 'site', name: 'Site' }],
      ],
    );
    const forAff2 = await getBrand(BRANDS.acme, aff2);
    assert.deepEqual(forAff2.channels, [
      { id: h.world.channels.aff2Whatsapp, name: 'Deals group', availableChannel: { id: 'whatsapp', name: 'WhatsApp' }, shortUrls: [] },
    ]);
    assert.deepEqual((await getBrand(BRANDS.acme, aff3)).channels, []);
  });

  test('a channel kind the brand does not accept carries a message', async () => {
    const [instagram, site] = byId((await getBrand(BRANDS.umbrella, aff1)).channels);
    assert.equal(typeof instagram!.message, 'string');
    assert.match(instagram!.message!, /instagram/i);
    assert.deepEqual(instagram!.shortUrls, []);
    assert.equal(site!.message ?? null, null);
  });

  test('an inactive brand is found, and every channel carries a message', async () => {
    const hooli = await getBrand(BRANDS.hooli, aff1);
    assert.equal(hooli.network.active, false);
    assert.equal(hooli.channels.length, 2);
    for (const channel of hooli.channels) {
      assert.equal(typeof channel.message, 'string', channel.id);
      assert.ok(channel.message!.length > 0);
      assert.deepEqual(channel.shortUrls, []);
    }
  });
});

describe('GET /affiliate/brands/{id}: not found', () => {
  test('an unknown UUID answers 404 not_found', async () => {
    const body = assertError(await h.get(brandPath(BRANDS.unknown), aff1), 404, 'not_found');
    assert.equal(body.error, 'NotFound');
    assert.equal(body.statusCode, 404);
    assert.equal(body.success, false);
  });

  test('a private brand the caller is not approved for answers 404, exactly like an unknown one', async () => {
    const unknown = assertError(await h.get(brandPath(BRANDS.unknown), aff1), 404, 'not_found');
    for (const [id, key] of [
      [BRANDS.initech, aff1],
      [BRANDS.globex, aff2],
      [BRANDS.globex, aff3],
      [BRANDS.initech, aff3],
    ] as const) {
      const body = assertError(await h.get(brandPath(id), key), 404, 'not_found');
      assert.deepEqual(body, unknown, `${id} must not be told apart from an unknown brand`);
    }
  });

  test('a non-UUID id answers 400 naming the id', async () => {
    for (const id of ['acme', '1234', '11111111-1111-4111-8111-11111111111', '11111111111141118111111111111111', "x'%20or%201=1"]) {
      const body = assertError(await h.get(brandPath(id), aff1), 400);
      assert.match(body.code, /^invalid_/, body.code);
      assert.match(body.message, /\bid\b/, body.message);
    }
  });
});

describe('GET /affiliate/brands/{id}: brand-page links', () => {
  test('before any link is created, channels have no links', async () => {
    for (const channel of (await getBrand(BRANDS.acme, aff1)).channels) assert.deepEqual(channel.shortUrls, [], channel.id);
  });

  test('links created with POST /affiliate/shortener/url type BrandPage show on the brand', async () => {
    const created = await shorten({ organizationId: BRANDS.acme, type: 'BrandPage' }, aff1);
    assert.equal(created.length, 2);
    for (const channel of created) {
      assert.equal(channel.shortUrls.length, 1, channel.id);
      assert.match(channel.shortUrls[0]!, SHORT_URL);
    }
    const acme = await getBrand(BRANDS.acme, aff1);
    assert.deepEqual(urlsById(acme.channels), urlsById(created));
    for (const channel of acme.channels) assert.equal(channel.message ?? null, null);
  });

  test('asking again does not add links', async () => {
    const before = urlsById((await getBrand(BRANDS.acme, aff1)).channels);
    const again = await shorten({ organizationId: BRANDS.acme, type: 'BrandPage' }, aff1);
    assert.deepEqual(urlsById(again), before);
    assert.deepEqual(urlsById((await getBrand(BRANDS.acme, aff1)).channels), before);
  });

  test('another affiliate does not see those links', async () => {
    const forAff2 = await getBrand(BRANDS.acme, aff2);
    assert.deepEqual(forAff2.channels.map((c) => c.shortUrls), [[]]);
    const created = await shorten({ organizationId: BRANDS.acme, type: 'BrandPage' }, aff2);
    assert.equal(created.length, 1);
    const mine = (await getBrand(BRANDS.acme, aff2)).channels;
    assert.deepEqual(urlsById(mine), urlsById(created));
    const aff1Urls = (await getBrand(BRANDS.acme, aff1)).channels.flatMap((c) => c.shortUrls);
    assert.equal(aff1Urls.length, 2);
    for (const url of mine[0]!.shortUrls) assert.ok(!aff1Urls.includes(url));
  });

  test('a brand shows each channel\'s plain brand-page link; links with an mdasc are listed by the shortener only', async () => {
    const plain = new Map(urlsById((await getBrand(BRANDS.acme, aff1)).channels));
    const tagged = await shorten({ organizationId: BRANDS.acme, type: 'BrandPage', mdasc: 'spring' }, aff1);
    const acme = await getBrand(BRANDS.acme, aff1);
    for (const channel of acme.channels) {
      const fresh = tagged.find((c) => c.id === channel.id)!.shortUrls;
      assert.equal(fresh.length, 1);
      assert.deepEqual(channel.shortUrls, plain.get(channel.id), channel.id);
      for (const url of fresh) assert.ok(!channel.shortUrls.includes(url), `${url} has an mdasc and is not listed on the brand`);
    }
    const listed = await h.get(`/affiliate/shortener/urls?type=BrandPage&organizationId=${BRANDS.acme}&limit=100`, aff1);
    const codes = (listed.json<Array<{ data: Array<{ shortUrl: string }> }>>())[0]!.data.map((r) => r.shortUrl);
    for (const channel of tagged) for (const url of channel.shortUrls) assert.ok(codes.includes(url));
  });

  test('links of one brand do not show on another', async () => {
    for (const channel of (await getBrand(BRANDS.globex, aff1)).channels) assert.deepEqual(channel.shortUrls, [], channel.id);
  });

  test('Home links are not brand-page links', async () => {
    const home = await shorten({ organizationId: BRANDS.globex, type: 'Home' }, aff1);
    assert.ok(home.every((c) => c.shortUrls.length === 1));
    for (const channel of (await getBrand(BRANDS.globex, aff1)).channels) assert.deepEqual(channel.shortUrls, [], channel.id);
  });

  test('on a brand that accepts site channels only, the site channel gets its link and Instagram stays blocked', async () => {
    const created = await shorten({ organizationId: BRANDS.umbrella, type: 'BrandPage' }, aff1);
    const [instagram, site] = byId((await getBrand(BRANDS.umbrella, aff1)).channels);
    assert.deepEqual(site!.shortUrls, created.find((c) => c.id === site!.id)!.shortUrls);
    assert.equal(site!.shortUrls.length, 1);
    assert.match(site!.shortUrls[0]!, SHORT_URL);
    assert.deepEqual(instagram!.shortUrls, []);
    assert.equal(typeof instagram!.message, 'string');
  });
});

describe('GET /affiliate/brands/{id}: security', () => {
  test('no key answers 401 unauthorized', async () => {
    assertError(await h.get(brandPath(BRANDS.acme)), 401, 'unauthorized');
  });

  test('a wrong key answers 401 unauthorized', async () => {
    assertError(await h.get(brandPath(BRANDS.acme), 'afn_thisKeyDoesNotExist0000000000000'), 401, 'unauthorized');
  });

  test('authentication comes before the 404 and the 400', async () => {
    assertError(await h.get(brandPath(BRANDS.unknown)), 401, 'unauthorized');
    assertError(await h.get(brandPath('not-a-uuid')), 401, 'unauthorized');
  });

  test('a key without brands:read answers 403 forbidden', async () => {
    const { key } = await newKey(h, 'aff-1', { scopes: ['products:read', 'campaigns:read', 'shortener:write'] });
    const body = assertError(await h.get(brandPath(BRANDS.acme), key), 403, 'forbidden');
    assert.match(body.message, /brands:read/);
  });

  test('a key with brands:read only may read a brand', async () => {
    const res = await h.get(brandPath(BRANDS.globex), h.world.keys.aff1BrandsOnly);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal((res.json<{ data: BrandView }>()).data.id, BRANDS.globex);
  });
});
