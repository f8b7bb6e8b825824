import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../helpers/harness.js';
import { BRANDS, brandInput } from '../helpers/world.js';
import { assertError, newKey, qs, startWithKeys } from '../helpers/api.js';
import { servicesFor } from '../helpers/databases.js';

const PATH = '/affiliate/brands';

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
  logo: string;
  slug: string;
  site: string;
  segment: string;
  network: {
    active: boolean;
    isPublic: boolean;
    trait: { isExclusive: boolean; isHighlight: boolean; isFavorite: boolean };
    rating: { approval: number; commission: number; conversion: number; popularity: number; validation: number };
  };
  createdAt: string;
  channels: ChannelView[];
  commission: { value: number; transfer: string };
}

interface BrandPage {
  data: BrandView[];
  pagination: { total: number; page: number; limit: number; totalPages: number };
}

let h: Harness;
/** Keys with a high rate limit: this file sends far more than 60 requests per affiliate. */
let aff1: string;
let aff2: string;
let aff3: string;

before(async () => {
  ({ h, aff1, aff2, aff3 } = await startWithKeys());
});
after(async () => {
  await h.close();
});

async function list(query: string, key: string): Promise<BrandPage> {
  const res = await h.get(`${PATH}${query}`, key);
  assert.equal(res.statusCode, 200, res.body);
  return res.json<BrandPage>();
}

async function names(query: string, key: string): Promise<string[]> {
  return (await list(query, key)).data.map((b) => b.name);
}

async function brandNamed(name: string, key: string): Promise<BrandView> {
  const brand = (await list(qs({ search: name }), key)).data.find((b) => b.name === name);
  assert.ok(brand, `${name} is not listed`);
  return brand;
}

const byId = (channels: ChannelView[]) => [...channels].sort((a, b) => a.id.localeCompare(b.id));

describe('GET /affiliate/brands', () => {
  test('lists public brands and the private brands the caller is approved for, by name', async () => {
    const res = await h.get('/affiliate/brands', h.world.keys.aff1);
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json<{ data: Array<{ name: string }>; pagination: unknown }>();
    assert.deepEqual(
      body.data.map((b) => b.name),
      ['Acme', 'Globex', 'Hooli', 'Umbrella'],
    );
    assert.deepEqual(body.pagination, { total: 4, page: 1, limit: 20, totalPages: 1 });
  });
});

describe('GET /affiliate/brands: visibility', () => {
  test('aff-2 sees the public brands and Initech, never Globex', async () => {
    const page = await list('', aff2);
    assert.deepEqual(
      page.data.map((b) => b.name),
      ['Acme', 'Hooli', 'Initech', 'Umbrella'],
    );
    assert.deepEqual(page.pagination, { total: 4, page: 1, limit: 20, totalPages: 1 });
  });

  test('aff-1 never sees Initech, whatever the filters', async () => {
    assert.deepEqual(await names(qs({ search: 'initech' }), aff1), []);
    assert.deepEqual(await names(qs({ categories: 'Software' }), aff1), []);
    assert.deepEqual(await names(qs({ isPublic: false }), aff1), ['Globex']);
    assert.deepEqual(await names(qs({ startAt: '2025-04-01T00:00:00Z', endAt: '2025-04-01T00:00:00Z' }), aff1), []);
  });

  test('an affiliate approved for no private brand sees the public brands only', async () => {
    assert.deepEqual(await names('', aff3), ['Acme', 'Hooli', 'Umbrella']);
    assert.deepEqual(await names(qs({ isPublic: false }), aff3), []);
  });

  test('the response is the envelope { data, pagination } and nothing else', async () => {
    const res = await h.get(PATH, aff1);
    assert.equal(res.statusCode, 200, res.body);
    assert.match(String(res.headers['content-type']), /application\/json/);
    assert.deepEqual(Object.keys(res.json()).sort(), ['data', 'pagination']);
  });
});

describe('GET /affiliate/brands: pages', () => {
  test('limit splits the list into pages in name order, without overlap', async () => {
    const first = await list(qs({ limit: 2 }), aff1);
    assert.deepEqual(
      first.data.map((b) => b.name),
      ['Acme', 'Globex'],
    );
    assert.deepEqual(first.pagination, { total: 4, page: 1, limit: 2, totalPages: 2 });
    const second = await list(qs({ limit: 2, page: 2 }), aff1);
    assert.deepEqual(
      second.data.map((b) => b.name),
      ['Hooli', 'Umbrella'],
    );
    assert.deepEqual(second.pagination, { total: 4, page: 2, limit: 2, totalPages: 2 });
  });

  test('a partial last page', async () => {
    const page = await list(qs({ limit: 3, page: 2 }), aff1);
    assert.deepEqual(
      page.data.map((b) => b.name),
      ['Umbrella'],
    );
    assert.deepEqual(page.pagination, { total: 4, page: 2, limit: 3, totalPages: 2 });
  });

  test('a page past the end answers an empty list with correct totals', async () => {
    const page = await list(qs({ limit: 2, page: 3 }), aff1);
    assert.deepEqual(page.data, []);
    assert.deepEqual(page.pagination, { total: 4, page: 3, limit: 2, totalPages: 2 });
    const far = await list(qs({ page: 50 }), aff1);
    assert.deepEqual(far.data, []);
    assert.deepEqual(far.pagination, { total: 4, page: 50, limit: 20, totalPages: 1 });
  });

  test('nothing matching answers zero totals', async () => {
    const page = await list(qs({ search: 'no-such-brand' }), aff1);
    assert.deepEqual(page.data, []);
    assert.deepEqual(page.pagination, { total: 0, page: 1, limit: 20, totalPages: 0 });
  });

  test('limit 20 is accepted; 21 answers 400 invalid_query naming limit', async () => {
    assert.equal((await list(qs({ limit: 20 }), aff1)).pagination.limit, 20);
    const body = assertError(await h.get(`${PATH}?limit=21`, aff1), 400, 'invalid_query');
    assert.match(body.message, /limit/);
  });

  test('limit and page must be positive integers', async () => {
    for (const query of ['limit=0', 'limit=-1', 'limit=abc', 'limit=2.5', 'page=0', 'page=-3', 'page=x', 'page=1.5']) {
      const body = assertError(await h.get(`${PATH}?${query}`, aff1), 400, 'invalid_query');
      assert.match(body.message, new RegExp(query.split('=')[0]!), `${query}: ${body.message}`);
    }
  });
});

describe('GET /affiliate/brands: filters', () => {
  test('search is a case-insensitive substring of the name', async () => {
    assert.deepEqual(await names(qs({ search: 'ACM' }), aff1), ['Acme']);
    assert.deepEqual(await names(qs({ search: 'cme' }), aff1), ['Acme']);
    assert.deepEqual(await names(qs({ search: 'o' }), aff1), ['Globex', 'Hooli']);
    assert.deepEqual(await names(qs({ search: 'o' }), aff2), ['Hooli']);
    assert.deepEqual(await names(qs({ search: 'UMBRELLA' }), aff2), ['Umbrella']);
  });

  test('search treats LIKE wildcards as plain text', async () => {
    assert.deepEqual(await names(qs({ search: '%' }), aff1), []);
    assert.deepEqual(await names(qs({ search: '_' }), aff1), []);
    assert.deepEqual(await names(qs({ search: 'A%e' }), aff1), []);
  });

  test('an empty search answers 400', async () => {
    assertError(await h.get(`${PATH}?search=`, aff1), 400, 'invalid_query');
  });

  test('categories: one category, case-insensitive', async () => {
    assert.deepEqual(await names(qs({ categories: 'fashion' }), aff1), ['Acme']);
    assert.deepEqual(await names(qs({ categories: 'SHOES' }), aff1), ['Acme']);
    assert.deepEqual(await names(qs({ categories: 'Health' }), aff1), ['Umbrella']);
    assert.deepEqual(await names(qs({ categories: 'Software' }), aff2), ['Initech']);
  });

  test('categories: a comma list matches brands in any of them', async () => {
    assert.deepEqual(await names(qs({ categories: 'SHOES,electronics' }), aff1), ['Acme', 'Globex']);
    assert.deepEqual(await names(qs({ categories: 'fashion,shoes' }), aff1), ['Acme']);
    assert.deepEqual(await names(qs({ categories: 'electronics,software,health' }), aff2), ['Initech', 'Umbrella']);
  });

  test('categories: the parameter repeated works like a comma list', async () => {
    assert.deepEqual(await names(qs({ categories: ['Health', 'electronics'] }), aff1), ['Globex', 'Umbrella']);
    assert.deepEqual(await names(qs({ categories: ['fashion', 'health,electronics'] }), aff1), ['Acme', 'Globex', 'Umbrella']);
  });

  test('categories: a category is matched whole, not as a prefix', async () => {
    assert.deepEqual(await names(qs({ categories: 'Shoe' }), aff1), []);
    assert.deepEqual(await names(qs({ categories: 'Unknown' }), aff1), []);
  });

  test('isExclusive', async () => {
    assert.deepEqual(await names(qs({ isExclusive: true }), aff1), ['Acme']);
    assert.deepEqual(await names(qs({ isExclusive: false }), aff1), ['Globex', 'Hooli', 'Umbrella']);
  });

  test('isFavorite', async () => {
    assert.deepEqual(await names(qs({ isFavorite: true }), aff1), ['Globex']);
    assert.deepEqual(await names(qs({ isFavorite: false }), aff1), ['Acme', 'Hooli', 'Umbrella']);
    // Globex is the only favorite, and aff-2 cannot see it.
    assert.deepEqual(await names(qs({ isFavorite: true }), aff2), []);
  });

  test('isHighlight', async () => {
    assert.deepEqual(await names(qs({ isHighlight: true }), aff1), ['Acme']);
    assert.deepEqual(await names(qs({ isHighlight: false }), aff1), ['Globex', 'Hooli', 'Umbrella']);
  });

  test('isPublic true lists public brands, false the private brands the caller is approved for', async () => {
    assert.deepEqual(await names(qs({ isPublic: true }), aff1), ['Acme', 'Hooli', 'Umbrella']);
    assert.deepEqual(await names(qs({ isPublic: false }), aff1), ['Globex']);
    assert.deepEqual(await names(qs({ isPublic: true }), aff2), ['Acme', 'Hooli', 'Umbrella']);
    assert.deepEqual(await names(qs({ isPublic: false }), aff2), ['Initech']);
  });

  test('startAt keeps brands created at or after it', async () => {
    assert.deepEqual(await names(qs({ startAt: '2025-03-01T00:00:00.000Z' }), aff1), ['Globex', 'Hooli', 'Umbrella']);
    assert.deepEqual(await names(qs({ startAt: '2025-03-01T00:00:00.001Z' }), aff1), ['Hooli', 'Umbrella']);
    assert.deepEqual(await names(qs({ startAt: '2025-09-01T00:00:00Z' }), aff1), []);
  });

  test('endAt keeps brands created at or before it', async () => {
    assert.deepEqual(await names(qs({ endAt: '2025-06-01T00:00:00.000Z' }), aff1), ['Acme', 'Globex', 'Umbrella']);
    assert.deepEqual(await names(qs({ endAt: '2025-05-31T23:59:59.999Z' }), aff1), ['Acme', 'Globex']);
    assert.deepEqual(await names(qs({ endAt: '2024-12-31T00:00:00Z' }), aff1), []);
  });

  test('startAt and endAt together bound the creation date, both inclusive', async () => {
    assert.deepEqual(await names(qs({ startAt: '2025-03-01T00:00:00Z', endAt: '2025-06-01T00:00:00Z' }), aff1), ['Globex', 'Umbrella']);
    assert.deepEqual(await names(qs({ startAt: '2025-03-01T00:00:00Z', endAt: '2025-03-01T00:00:00Z' }), aff1), ['Globex']);
    assert.deepEqual(await names(qs({ startAt: '2025-03-01T00:00:00Z', endAt: '2025-06-01T00:00:00Z' }), aff2), ['Initech', 'Umbrella']);
  });

  test('startAt and endAt honour a time-zone offset', async () => {
    // 01:00+01:00 is Globex's creation instant (00:00Z); 00:00-01:00 is an hour after it.
    assert.deepEqual(await names(qs({ startAt: '2025-03-01T01:00:00+01:00', endAt: '2025-03-01T01:00:00+01:00' }), aff1), ['Globex']);
    assert.deepEqual(await names(qs({ startAt: '2025-03-01T00:00:00-01:00', endAt: '2025-05-01T00:00:00Z' }), aff1), []);
  });

  test('a date alone is a whole UTC day: startAt from its first instant, endAt to its last', async () => {
    // Umbrella was created 2025-06-01T00:00:00Z, Globex 2025-03-01T00:00:00Z.
    assert.deepEqual(await names(qs({ endAt: '2025-05-31' }), aff1), ['Acme', 'Globex']);
    assert.deepEqual(await names(qs({ endAt: '2025-06-01' }), aff1), ['Acme', 'Globex', 'Umbrella']);
    assert.deepEqual(await names(qs({ startAt: '2025-03-01', endAt: '2025-03-01' }), aff1), ['Globex']);
    assert.deepEqual(await names(qs({ startAt: '2025-03-02' }), aff1), ['Hooli', 'Umbrella']);
    const body = assertError(await h.get(`${PATH}${qs({ startAt: '2025-06-02', endAt: '2025-06-01' })}`, aff1), 400, 'invalid_query');
    assert.match(body.message, /startAt/);
  });

  test('filters combine (all must hold)', async () => {
    assert.deepEqual(await names(qs({ search: 'o', isPublic: true }), aff1), ['Hooli']);
    assert.deepEqual(await names(qs({ categories: 'fashion,electronics,health', isExclusive: false }), aff1), ['Globex', 'Umbrella']);
    assert.deepEqual(await names(qs({ isPublic: true, isHighlight: false, startAt: '2025-05-01T00:00:00Z' }), aff1), ['Hooli', 'Umbrella']);
    assert.deepEqual(await names(qs({ isFavorite: true, isPublic: true }), aff1), []);
    assert.deepEqual(await names(qs({ search: 'e', categories: 'shoes', isHighlight: true, isExclusive: true, isFavorite: false }), aff1), ['Acme']);
    assert.deepEqual(
      await names(qs({ search: 'e', isPublic: false, endAt: '2025-12-31T00:00:00Z', startAt: '2025-01-01T00:00:00Z' }), aff2),
      ['Initech'],
    );
  });

  test('filters combine with pages: totals count the filtered brands', async () => {
    const page = await list(qs({ isExclusive: false, limit: 2, page: 2 }), aff1);
    assert.deepEqual(
      page.data.map((b) => b.name),
      ['Umbrella'],
    );
    assert.deepEqual(page.pagination, { total: 3, page: 2, limit: 2, totalPages: 2 });
  });
});

describe('GET /affiliate/brands: invalid queries', () => {
  test('a boolean filter other than true or false answers 400 naming it', async () => {
    for (const [name, value] of [
      ['isPublic', 'yes'],
      ['isPublic', '1'],
      ['isExclusive', 'no'],
      ['isFavorite', 'TRUE!'],
      ['isHighlight', ''],
    ] as const) {
      const body = assertError(await h.get(`${PATH}?${name}=${encodeURIComponent(value)}`, aff1), 400, 'invalid_query');
      assert.match(body.message, new RegExp(name), body.message);
    }
  });

  test('a boolean filter given twice answers 400', async () => {
    assertError(await h.get(`${PATH}?isPublic=true&isPublic=false`, aff1), 400, 'invalid_query');
  });

  test('a bad date answers 400 naming the parameter', async () => {
    for (const [name, value] of [
      ['startAt', 'yesterday'],
      ['startAt', '2025-13-01T00:00:00Z'],
      ['endAt', '2025-02-30T00:00:00Z'],
      ['endAt', '1700000000'],
    ] as const) {
      const body = assertError(await h.get(`${PATH}${qs({ [name]: value })}`, aff1), 400, 'invalid_query');
      assert.match(body.message, new RegExp(name), body.message);
    }
  });

  test('a date-time that is not a real instant (leap second) answers 400, not 500', async () => {
    // 23:59:60 passes the date-time format but is no instant JavaScript can represent.
    assertError(await h.get(`${PATH}${qs({ startAt: '2016-12-31T23:59:60Z' })}`, aff1), 400, 'invalid_query');
    assertError(await h.get(`${PATH}${qs({ endAt: '2016-12-31T23:59:60Z' })}`, aff1), 400, 'invalid_query');
  });

  test('startAt after endAt answers 400', async () => {
    const body = assertError(await h.get(`${PATH}${qs({ startAt: '2025-06-02T00:00:00Z', endAt: '2025-06-01T00:00:00Z' })}`, aff1), 400, 'invalid_query');
    assert.match(body.message, /startAt/);
    assert.match(body.message, /endAt/);
  });

  test('an unknown query parameter answers 400 naming it', async () => {
    const body = assertError(await h.get(`${PATH}?foo=1`, aff1), 400, 'invalid_query');
    assert.match(body.message, /foo/);
    // A misspelt filter is not silently ignored.
    const misspelt = assertError(await h.get(`${PATH}?ispublic=true`, aff1), 400, 'invalid_query');
    assert.match(misspelt.message, /ispublic/);
    assertError(await h.get(`${PATH}?name=Acme`, aff1), 400, 'invalid_query');
  });
});

describe('GET /affiliate/brands: the Brand object', () => {
  test('Acme carries every field with its network data and commission', async () => {
    const acme = await brandNamed('Acme', aff1);
    const { channels, ...rest } = acme;
    assert.ok(Array.isArray(channels));
    assert.deepEqual(
      {
        id: rest.id,
        name: rest.name,
        logo: rest.logo,
        slug: rest.slug,
        site: rest.site,
        segment: rest.segment,
        network: rest.network,
        createdAt: rest.createdAt,
        commission: rest.commission,
      },
      {
        id: BRANDS.acme,
        name: 'Acme',
        logo: 'https://cdn.example.com/acme.png',
        slug: 'acme',
        site: 'https://www.acme.com/store',
        segment: 'Retail',
        network: {
          active: true,
          isPublic: true,
          trait: { isExclusive: true, isHighlight: true, isFavorite: false },
          rating: { approval: 4.5, commission: 3.2, conversion: 2.75, popularity: 5, validation: 4 },
        },
        createdAt: '2025-01-10T00:00:00.000Z',
        commission: { value: 7.5, transfer: 'cps' },
      },
    );
  });

  test('a private brand shows isPublic false and its own traits and ratings', async () => {
    const globex = await brandNamed('Globex', aff1);
    assert.equal(globex.id, BRANDS.globex);
    assert.deepEqual(globex.network, {
      active: true,
      isPublic: false,
      trait: { isExclusive: false, isHighlight: false, isFavorite: true },
      rating: { approval: 1, commission: 2, conversion: 3, popularity: 4, validation: 5 },
    });
    assert.equal(globex.createdAt, '2025-03-01T00:00:00.000Z');
  });

  test('a cpa brand shows its fixed commission', async () => {
    const umbrella = await brandNamed('Umbrella', aff1);
    assert.deepEqual(umbrella.commission, { value: 1500, transfer: 'cpa' });
  });

  test('an inactive brand is listed with network.active false', async () => {
    const hooli = await brandNamed('Hooli', aff1);
    assert.equal(hooli.network.active, false);
    assert.equal(hooli.network.isPublic, true);
  });

  test("channels are the caller's own channels, each with its kind as availableChannel", async () => {
    const acme = await brandNamed('Acme', aff1);
    assert.deepEqual(byId(acme.channels), [
      { id: h.world.channels.aff1Instagram, name: '@aff1', availableChannel: { id: 'instagram', name: 'Instagram' }, shortUrls: [] },
      { id: h.world.channels.aff1Site, name: 'My blog', availableChannel: { id: 'site', name: 'Site' }, shortUrls: [] },
    ]);
    const acmeForAff2 = await brandNamed('Acme', aff2);
    assert.deepEqual(acmeForAff2.channels, [
      { id: h.world.channels.aff2Whatsapp, name: 'Deals group', availableChannel: { id: 'whatsapp', name: 'WhatsApp' }, shortUrls: [] },
    ]);
  });

  test('an affiliate without channels gets an empty channels list', async () => {
    const page = await list('', aff3);
    assert.ok(page.data.length > 0);
    for (const brand of page.data) assert.deepEqual(brand.channels, [], brand.name);
  });

  test('Umbrella accepts site channels only: the Instagram channel carries a message and no links', async () => {
    const umbrella = await brandNamed('Umbrella', aff1);
    const [instagram, site] = byId(umbrella.channels);
    assert.equal(instagram!.availableChannel.id, 'instagram');
    assert.equal(typeof instagram!.message, 'string');
    assert.ok(instagram!.message!.length > 0);
    assert.match(instagram!.message!, /instagram/i);
    assert.deepEqual(instagram!.shortUrls, []);
    assert.equal(site!.availableChannel.id, 'site');
    assert.equal(site!.message ?? null, null, 'the site channel is not blocked');
  });

  test('an unblocked channel carries no message', async () => {
    const acme = await brandNamed('Acme', aff1);
    for (const channel of acme.channels) assert.equal(channel.message ?? null, null, channel.id);
  });

  test('the inactive brand Hooli: every channel carries a message and no links', async () => {
    for (const key of [aff1, aff2]) {
      const hooli = await brandNamed('Hooli', key);
      assert.ok(hooli.channels.length > 0);
      for (const channel of hooli.channels) {
        assert.equal(typeof channel.message, 'string', channel.id);
        assert.ok(channel.message!.length > 0);
        assert.deepEqual(channel.shortUrls, []);
      }
    }
  });

  test('the BrandPage links an affiliate created show on its own channels only', async () => {
    const res = await h.post('/affiliate/shortener/url', { organizationId: BRANDS.globex, type: 'BrandPage' }, aff1);
    assert.equal(res.statusCode, 200, res.body);
    const created = res.json<ChannelView[]>();
    assert.equal(created.length, 2);
    for (const channel of created) {
      assert.equal(channel.shortUrls.length, 1, channel.id);
      assert.match(channel.shortUrls[0]!, /^http:\/\/go\.test\/[0-9A-Za-z]{7,}$/);
    }
    const globex = await brandNamed('Globex', aff1);
    assert.deepEqual(
      byId(globex.channels).map((c) => [c.id, c.shortUrls]),
      byId(created).map((c) => [c.id, c.shortUrls]),
    );
    // Other brands keep their channels without links.
    const acme = await brandNamed('Acme', aff1);
    for (const channel of acme.channels) assert.deepEqual(channel.shortUrls, [], channel.id);
  });
});

describe('GET /affiliate/brands: security', () => {
  test('no key answers 401 unauthorized', async () => {
    assertError(await h.get(PATH), 401, 'unauthorized');
  });

  test('a wrong key answers 401 unauthorized', async () => {
    assertError(await h.get(PATH, 'afn_thisKeyDoesNotExist0000000000000'), 401, 'unauthorized');
    assertError(await h.get(PATH, 'not-a-key'), 401, 'unauthorized');
  });

  test('authentication comes before query validation', async () => {
    assertError(await h.get(`${PATH}?limit=500`), 401, 'unauthorized');
  });

  test('a key without brands:read answers 403 forbidden', async () => {
    const { key } = await newKey(h, 'aff-1', { scopes: ['products:read', 'campaigns:read'] });
    const body = assertError(await h.get(PATH, key), 403, 'forbidden');
    assert.match(body.message, /brands:read/);
  });

  test('a key with brands:read only may list brands', async () => {
    const res = await h.get(PATH, h.world.keys.aff1BrandsOnly);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal((res.json<BrandPage>()).pagination.total, 4);
  });
});

describe('GET /affiliate/brands: more brands than one page', () => {
  let big: Harness;
  let key: string;
  const extra = Array.from({ length: 25 }, (_, i) => String(i + 1).padStart(2, '0'));

  before(async () => {
    big = await startHarness();
    for (const n of extra) {
      await servicesFor(big.service.database).imports.upsertBrand(
        brandInput({
          id: `aaaaaaaa-0000-4000-8000-0000000000${n}`,
          name: `Brand ${n}`,
          slug: `brand-${n}`,
          site: `https://brand-${n}.example.com`,
          createdAt: `2024-01-${n}T00:00:00.000Z`,
        }),
      );
    }
    key = (await newKey(big, 'aff-1', { rateLimit: 100_000 })).key;
  });
  after(async () => {
    await big.close();
  });

  const expected = [...extra.map((n) => `Brand ${n}`), 'Acme', 'Globex', 'Hooli', 'Umbrella'].sort();

  test('limit defaults to 20', async () => {
    const res = await big.get(PATH, key);
    assert.equal(res.statusCode, 200, res.body);
    const page = res.json<BrandPage>();
    assert.equal(page.data.length, 20);
    assert.deepEqual(page.pagination, { total: 29, page: 1, limit: 20, totalPages: 2 });
    assert.deepEqual(
      page.data.map((b) => b.name),
      expected.slice(0, 20),
    );
  });

  test('the second default page holds the rest, with no overlap', async () => {
    const res = await big.get(`${PATH}?page=2`, key);
    assert.equal(res.statusCode, 200, res.body);
    const page = res.json<BrandPage>();
    assert.deepEqual(page.pagination, { total: 29, page: 2, limit: 20, totalPages: 2 });
    assert.deepEqual(
      page.data.map((b) => b.name),
      expected.slice(20),
    );
  });

  test('small pages walk the whole list in order, each brand once', async () => {
    const seen: string[] = [];
    for (let p = 1; p <= 6; p++) {
      const res = await big.get(`${PATH}?limit=6&page=${p}`, key);
      assert.equal(res.statusCode, 200, res.body);
      const page = res.json<BrandPage>();
      assert.deepEqual(page.pagination, { total: 29, page: p, limit: 6, totalPages: 5 });
      seen.push(...page.data.map((b) => b.name));
    }
    assert.deepEqual(seen, expected);
  });
});

describe('GET /affiliate/brands: search beyond ASCII', () => {
  let intl: Harness;
  let key: string;

  before(async () => {
    intl = await startHarness();
    await servicesFor(intl.service.database).imports.upsertBrand(
      brandInput({ id: 'bbbbbbbb-0000-4000-8000-000000000001', name: 'Época Cosméticos', slug: 'epoca', site: 'https://epoca.example.com' }),
    );
    key = (await newKey(intl, 'aff-1', { rateLimit: 100_000 })).key;
  });
  after(async () => {
    await intl.close();
  });

  const namesIn = async (query: string) => {
    const res = await intl.get(`${PATH}${query}`, key);
    assert.equal(res.statusCode, 200, res.body);
    return (res.json<BrandPage>()).data.map((b) => b.name);
  };

  test('an ASCII part of a non-ASCII name matches', async () => {
    assert.deepEqual(await namesIn(qs({ search: 'cosm' })), ['Época Cosméticos']);
  });

  test('the name as written matches', async () => {
    assert.deepEqual(await namesIn(qs({ search: 'Época' })), ['Época Cosméticos']);
  });

  test('search ignores the case of accented letters', async () => {
    assert.deepEqual(await namesIn(qs({ search: 'época' })), ['Época Cosméticos']);
    assert.deepEqual(await namesIn(qs({ search: 'ÉPOCA COSMÉTICOS' })), ['Época Cosméticos']);
  });
});
