import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../helpers/harness.js';
import { BRANDS, productInput } from '../helpers/world.js';
import { assertError, newKey, qs, startWithKeys } from '../helpers/api.js';
import { servicesFor } from '../helpers/databases.js';

const PATH = '/affiliate/products';

interface ProductView {
  organizationId: string;
  id: string;
  available: boolean;
  createdAt: string;
  updatedAt: string;
  name: string;
  description: string;
  url: string;
  images: Array<{ url: string }>;
  options: Array<{
    id: string;
    ean: string;
    name: string;
    available: boolean;
    seller: string;
    images: Array<{ url: string }>;
    categories: unknown[];
    brands: unknown[];
    pricing: Array<{ listPrice: number; price: number; metadata: unknown[] }>;
    stocks: Array<{ value: number; metadata: unknown[] }>;
    metadata: unknown[];
  }>;
  metadata: unknown[];
}

interface ProductList {
  data: ProductView[];
  count: number;
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

async function list(query: string, key: string, harness: Harness = h): Promise<ProductList> {
  const res = await harness.get(`${PATH}${query}`, key);
  assert.equal(res.statusCode, 200, res.body);
  return res.json<ProductList>();
}

/** Ids of the page, and the count, for compact assertions. */
async function ids(query: string, key: string): Promise<{ ids: string[]; count: number }> {
  const body = await list(query, key);
  return { ids: body.data.map((p) => p.id), count: body.count };
}

const ALL_AFF1 = ['p-globex-1', 'p-acme-2', 'p-acme-1'];
const ALL_AFF2 = ['p-initech-1', 'p-acme-2', 'p-acme-1'];

describe('GET /affiliate/products: envelope, order and visibility', () => {
  test('answers { data, count } with no page metadata', async () => {
    const res = await h.get(PATH, aff1);
    assert.equal(res.statusCode, 200, res.body);
    assert.match(String(res.headers['content-type']), /application\/json/);
    const body = res.json<Record<string, unknown>>();
    assert.deepEqual(Object.keys(body).sort(), ['count', 'data']);
    assert.ok(Array.isArray(body.data));
    assert.ok(Number.isInteger(body.count));
  });

  test('lists products of visible brands, newest first', async () => {
    assert.deepEqual(await ids('', aff1), { ids: ALL_AFF1, count: 3 });
    assert.deepEqual(await ids('', aff2), { ids: ALL_AFF2, count: 3 });
  });

  test('an affiliate approved for no private brand sees the products of public brands only', async () => {
    assert.deepEqual(await ids('', aff3), { ids: ['p-acme-2', 'p-acme-1'], count: 2 });
  });

  test('products of a brand the caller cannot see stay hidden, even when asked for by organizationIds', async () => {
    assert.deepEqual(await ids(qs({ organizationIds: BRANDS.initech }), aff1), { ids: [], count: 0 });
    assert.deepEqual(await ids(qs({ organizationIds: BRANDS.globex }), aff2), { ids: [], count: 0 });
    assert.deepEqual(await ids(qs({ organizationIds: `${BRANDS.acme},${BRANDS.initech}` }), aff1), { ids: ['p-acme-2', 'p-acme-1'], count: 2 });
    assert.deepEqual(await ids(qs({ search: 'stapler' }), aff1), { ids: [], count: 0 });
    assert.deepEqual(await ids(qs({ price: '900:900' }), aff1), { ids: [], count: 0 });
    assert.deepEqual(await ids(qs({ search: 'stapler' }), aff2), { ids: ['p-initech-1'], count: 1 });
  });
});

describe('GET /affiliate/products: limit and page', () => {
  test('limit cuts the page; count stays the total', async () => {
    assert.deepEqual(await ids(qs({ limit: 1 }), aff1), { ids: ['p-globex-1'], count: 3 });
    assert.deepEqual(await ids(qs({ limit: 2 }), aff1), { ids: ['p-globex-1', 'p-acme-2'], count: 3 });
    assert.deepEqual(await ids(qs({ limit: 100 }), aff1), { ids: ALL_AFF1, count: 3 });
  });

  test('page walks the list without overlap', async () => {
    assert.deepEqual(await ids(qs({ limit: 1, page: 1 }), aff1), { ids: ['p-globex-1'], count: 3 });
    assert.deepEqual(await ids(qs({ limit: 1, page: 2 }), aff1), { ids: ['p-acme-2'], count: 3 });
    assert.deepEqual(await ids(qs({ limit: 1, page: 3 }), aff1), { ids: ['p-acme-1'], count: 3 });
    assert.deepEqual(await ids(qs({ limit: 2, page: 2 }), aff1), { ids: ['p-acme-1'], count: 3 });
  });

  test('a page past the end answers an empty list with the total count', async () => {
    assert.deepEqual(await ids(qs({ limit: 1, page: 4 }), aff1), { ids: [], count: 3 });
    assert.deepEqual(await ids(qs({ page: 99 }), aff1), { ids: [], count: 3 });
  });

  test('limit 0 and limit 101 answer 400 saying limit must be between 1 and 100', async () => {
    for (const limit of ['0', '101', '-5', '1000']) {
      const body = assertError(await h.get(`${PATH}?limit=${limit}`, aff1), 400, 'invalid_query');
      assert.match(body.message, /limit must be between 1 and 100/, body.message);
    }
  });

  test('a limit or page that is not a positive integer answers 400 naming it', async () => {
    for (const query of ['limit=abc', 'limit=2.5', 'page=0', 'page=-1', 'page=two']) {
      const body = assertError(await h.get(`${PATH}?${query}`, aff1), 400, 'invalid_query');
      assert.match(body.message, new RegExp(query.split('=')[0]!), body.message);
    }
  });
});

describe('GET /affiliate/products: search', () => {
  test('matches words of the name, case-insensitively', async () => {
    assert.deepEqual(await ids(qs({ search: 'boots' }), aff1), { ids: ['p-acme-2'], count: 1 });
    assert.deepEqual(await ids(qs({ search: 'BOOTS' }), aff1), { ids: ['p-acme-2'], count: 1 });
    assert.deepEqual(await ids(qs({ search: 'Wireless' }), aff1), { ids: ['p-globex-1'], count: 1 });
  });

  test('a word matches as a prefix', async () => {
    assert.deepEqual(await ids(qs({ search: 'sneak' }), aff1), { ids: ['p-acme-1'], count: 1 });
    assert.deepEqual(await ids(qs({ search: 'HEADPH' }), aff1), { ids: ['p-globex-1'], count: 1 });
  });

  test('a word shared by several products finds them all, newest first', async () => {
    assert.deepEqual(await ids(qs({ search: 'red' }), aff2), { ids: ['p-initech-1', 'p-acme-1'], count: 2 });
    assert.deepEqual(await ids(qs({ search: 'red' }), aff1), { ids: ['p-acme-1'], count: 1 });
  });

  test('matches words of the description', async () => {
    // Every description reads "<p>{name} description</p>".
    assert.deepEqual(await ids(qs({ search: 'descrip' }), aff1), { ids: ALL_AFF1, count: 3 });
  });

  test('several words must all match', async () => {
    assert.deepEqual(await ids(qs({ search: 'red sneak' }), aff1), { ids: ['p-acme-1'], count: 1 });
    assert.deepEqual(await ids(qs({ search: 'red boots' }), aff1), { ids: [], count: 0 });
  });

  test('search syntax characters are plain text, never an error', async () => {
    for (const search of ['"', 'red"', '*', 'red OR blue', 'NEAR(red boots)', "boots'; drop table products; --", '(', '-red', 'a:b']) {
      const res = await h.get(`${PATH}${qs({ search })}`, aff1);
      assert.equal(res.statusCode, 200, `${search}: ${res.body}`);
    }
    assert.deepEqual(await ids(qs({ search: '"boots"' }), aff1), { ids: ['p-acme-2'], count: 1 });
  });

  test('an empty search answers 400', async () => {
    assertError(await h.get(`${PATH}?search=`, aff1), 400, 'invalid_query');
  });
});

describe('GET /affiliate/products: price', () => {
  test('from:to in cents, both bounds inclusive', async () => {
    assert.deepEqual(await ids(qs({ price: '5000:12000' }), aff1), { ids: ['p-acme-2', 'p-acme-1'], count: 2 });
    assert.deepEqual(await ids(qs({ price: '5000:5000' }), aff1), { ids: ['p-acme-1'], count: 1 });
    assert.deepEqual(await ids(qs({ price: '12000:25000' }), aff1), { ids: ['p-globex-1', 'p-acme-2'], count: 2 });
    assert.deepEqual(await ids(qs({ price: '5001:11999' }), aff1), { ids: [], count: 0 });
    assert.deepEqual(await ids(qs({ price: '0:4999' }), aff1), { ids: [], count: 0 });
    assert.deepEqual(await ids(qs({ price: '0:999999999' }), aff1), { ids: ALL_AFF1, count: 3 });
    assert.deepEqual(await ids(qs({ price: '0:900' }), aff2), { ids: ['p-initech-1'], count: 1 });
  });

  test('a price not in from:to form answers 400 invalid_query naming price', async () => {
    for (const price of ['10-20', '1:x', ':5', '5:', '-1:5', '1.5:3', '1:2:3', '5', 'a:b', ' 1:2', '1 : 2', '']) {
      const body = assertError(await h.get(`${PATH}?price=${encodeURIComponent(price)}`, aff1), 400, 'invalid_query');
      assert.match(body.message, /price/, `${JSON.stringify(price)}: ${body.message}`);
    }
  });

  test('from greater than to answers 400', async () => {
    const body = assertError(await h.get(`${PATH}${qs({ price: '12000:5000' })}`, aff1), 400, 'invalid_query');
    assert.match(body.message, /price/);
  });

  test('bounds too large to be cents answer 400, not 500', async () => {
    assertError(await h.get(`${PATH}${qs({ price: '0:99999999999999999999' })}`, aff1), 400, 'invalid_query');
  });
});

describe('GET /affiliate/products: organizationIds and isAvailable', () => {
  test('organizationIds takes one brand', async () => {
    assert.deepEqual(await ids(qs({ organizationIds: BRANDS.acme }), aff1), { ids: ['p-acme-2', 'p-acme-1'], count: 2 });
    assert.deepEqual(await ids(qs({ organizationIds: BRANDS.globex }), aff1), { ids: ['p-globex-1'], count: 1 });
    assert.deepEqual(await ids(qs({ organizationIds: BRANDS.umbrella }), aff1), { ids: [], count: 0 });
  });

  test('organizationIds takes a comma list', async () => {
    assert.deepEqual(await ids(qs({ organizationIds: `${BRANDS.globex},${BRANDS.acme}` }), aff1), { ids: ALL_AFF1, count: 3 });
    assert.deepEqual(await ids(qs({ organizationIds: `${BRANDS.globex},${BRANDS.umbrella}` }), aff1), { ids: ['p-globex-1'], count: 1 });
  });

  test('organizationIds may be repeated', async () => {
    assert.deepEqual(await ids(qs({ organizationIds: [BRANDS.globex, BRANDS.acme] }), aff1), { ids: ALL_AFF1, count: 3 });
    assert.deepEqual(await ids(qs({ organizationIds: [BRANDS.initech, BRANDS.acme] }), aff2), { ids: ALL_AFF2, count: 3 });
  });

  test('a bad UUID in organizationIds answers 400 invalid_query', async () => {
    for (const value of ['acme', `${BRANDS.acme},nope`, '1234']) {
      const body = assertError(await h.get(`${PATH}${qs({ organizationIds: value })}`, aff1), 400, 'invalid_query');
      assert.match(body.message, /organizationIds/, body.message);
    }
    assertError(await h.get(`${PATH}${qs({ organizationIds: [BRANDS.acme, 'nope'] })}`, aff1), 400, 'invalid_query');
  });

  test('isAvailable true and false', async () => {
    assert.deepEqual(await ids(qs({ isAvailable: true }), aff1), { ids: ['p-globex-1', 'p-acme-1'], count: 2 });
    assert.deepEqual(await ids(qs({ isAvailable: false }), aff1), { ids: ['p-acme-2'], count: 1 });
    assert.deepEqual(await ids(qs({ isAvailable: true }), aff2), { ids: ['p-initech-1', 'p-acme-1'], count: 2 });
  });

  test('isAvailable other than true or false answers 400', async () => {
    for (const value of ['yes', '1', '']) {
      const body = assertError(await h.get(`${PATH}?isAvailable=${value}`, aff1), 400, 'invalid_query');
      assert.match(body.message, /isAvailable/);
    }
  });

  test('an unknown query parameter answers 400 naming it', async () => {
    for (const name of ['organizationId', 'available', 'sort']) {
      const body = assertError(await h.get(`${PATH}?${name}=1`, aff1), 400, 'invalid_query');
      assert.match(body.message, new RegExp(name));
    }
  });
});

describe('GET /affiliate/products: combined filters', () => {
  test('every filter must hold', async () => {
    assert.deepEqual(await ids(qs({ search: 'red', isAvailable: true, organizationIds: BRANDS.acme, price: '0:5000' }), aff1), {
      ids: ['p-acme-1'],
      count: 1,
    });
    assert.deepEqual(await ids(qs({ search: 'red', price: '5001:99999' }), aff1), { ids: [], count: 0 });
    assert.deepEqual(await ids(qs({ organizationIds: BRANDS.acme, isAvailable: false }), aff1), { ids: ['p-acme-2'], count: 1 });
    assert.deepEqual(await ids(qs({ organizationIds: BRANDS.acme, isAvailable: true, price: '10000:20000' }), aff1), { ids: [], count: 0 });
    assert.deepEqual(await ids(qs({ isAvailable: true, price: '0:10000' }), aff2), { ids: ['p-initech-1', 'p-acme-1'], count: 2 });
    assert.deepEqual(await ids(qs({ search: 'description', organizationIds: [BRANDS.globex, BRANDS.acme], price: '10000:30000' }), aff1), {
      ids: ['p-globex-1', 'p-acme-2'],
      count: 2,
    });
  });

  test('filters combine with pages: count is the filtered total', async () => {
    assert.deepEqual(await ids(qs({ price: '5000:25000', limit: 2, page: 2 }), aff1), { ids: ['p-acme-1'], count: 3 });
    assert.deepEqual(await ids(qs({ isAvailable: true, limit: 1, page: 2 }), aff1), { ids: ['p-acme-1'], count: 2 });
  });
});

describe('GET /affiliate/products: the Product object', () => {
  test('carries every field, with prices as integer cents', async () => {
    const product = (await list(qs({ search: 'sneakers' }), aff1)).data[0];
    assert.ok(product);
    const { updatedAt, ...rest } = product;
    assert.ok(!Number.isNaN(Date.parse(updatedAt)), updatedAt);
    assert.deepEqual(rest, {
      organizationId: BRANDS.acme,
      brandName: 'Acme',
      id: 'p-acme-1',
      available: true,
      createdAt: '2025-02-01T00:00:00.000Z',
      name: 'Red running sneakers',
      description: '<p>Red running sneakers description</p>',
      url: 'https://www.acme.com/p/p-acme-1',
      images: [{ url: 'https://cdn.example.com/p-acme-1.jpg' }],
      options: [
        {
          id: 'p-acme-1-opt',
          ean: '7891234567895',
          name: 'Red running sneakers M',
          available: true,
          seller: 'seller-1',
          images: [],
          categories: ['Shoes'],
          brands: ['Acme'],
          pricing: [{ listPrice: 6000, price: 5000, metadata: [] }],
          stocks: [{ value: 10, metadata: [] }],
          metadata: [],
        },
      ],
      metadata: [{ key: 'gender', value: 'unisex' }],
      currency: 'BRL',
    });
  });

  test('every listed price is an integer', async () => {
    for (const product of (await list(qs({ limit: 100 }), aff2)).data) {
      assert.equal(typeof product.available, 'boolean');
      for (const option of product.options) {
        for (const pricing of option.pricing) {
          assert.ok(Number.isInteger(pricing.price), `${product.id} price ${pricing.price}`);
          assert.ok(Number.isInteger(pricing.listPrice), `${product.id} listPrice ${pricing.listPrice}`);
        }
      }
    }
  });

  test('an unavailable product says so', async () => {
    const [boots] = (await list(qs({ search: 'boots' }), aff1)).data;
    assert.equal(boots!.available, false);
    assert.equal(boots!.options[0]!.pricing[0]!.price, 12000);
  });
});

describe('GET /affiliate/products: security', () => {
  test('no key answers 401 unauthorized', async () => {
    assertError(await h.get(PATH), 401, 'unauthorized');
  });

  test('a wrong key answers 401 unauthorized', async () => {
    assertError(await h.get(PATH, 'afn_thisKeyDoesNotExist0000000000000'), 401, 'unauthorized');
  });

  test('a key without products:read answers 403 forbidden', async () => {
    const body = assertError(await h.get(PATH, h.world.keys.aff1BrandsOnly), 403, 'forbidden');
    assert.match(body.message, /products:read/);
  });

  test('the scope is checked before the query', async () => {
    assertError(await h.get(`${PATH}?limit=0`, h.world.keys.aff1BrandsOnly), 403, 'forbidden');
    assertError(await h.get(`${PATH}?limit=0`), 401, 'unauthorized');
  });

  test('a key with products:read only may list products', async () => {
    const { key } = await newKey(h, 'aff-1', { scopes: ['products:read'] });
    assert.deepEqual(await ids('', key), { ids: ALL_AFF1, count: 3 });
  });
});

describe('GET /affiliate/products: a larger catalogue', () => {
  let big: Harness;
  let key: string;
  /**
   * p-extra-01 … p-extra-12, with createdAt dates older than the world's products: the list is in
   * the order products were added to the network, newest first, whatever createdAt they carry.
   */
  const extra = Array.from({ length: 12 }, (_, i) => `p-extra-${String(i + 1).padStart(2, '0')}`);
  const newestFirst = ['p-jacket', 'p-tie-b', 'p-tie-a', ...[...extra].reverse(), ...ALL_AFF1];

  before(async () => {
    big = await startHarness();
    const db = big.service.database;
    for (const [i, id] of extra.entries()) {
      await servicesFor(db).imports.upsertProduct(productInput(id, BRANDS.acme, `Catalogue item ${i + 1}`, 1000 + i, { createdAt: `2024-01-${String(i + 1).padStart(2, '0')}T00:00:00.000Z` }));
    }
    // Two products created at the same instant: the id breaks the tie.
    await servicesFor(db).imports.upsertProduct(productInput('p-tie-a', BRANDS.umbrella, 'Tie alpha', 100, { createdAt: '2023-06-01T00:00:00.000Z' }));
    await servicesFor(db).imports.upsertProduct(productInput('p-tie-b', BRANDS.umbrella, 'Tie beta', 100, { createdAt: '2023-06-01T00:00:00.000Z' }));
    await servicesFor(db).imports.upsertProduct(
      productInput('p-jacket', BRANDS.umbrella, 'Trail jacket', 30000, {
        createdAt: '2023-01-01T00:00:00.000Z',
        description: '<div class="specs"><strong>Waterproof</strong> shell with taped seams</div>',
      }),
    );
    key = (await newKey(big, 'aff-1', { rateLimit: 100_000 })).key;
  });
  after(async () => {
    await big.close();
  });

  const TOTAL = 18;

  test('limit defaults to 5', async () => {
    const body = await list('', key, big);
    assert.equal(body.count, TOTAL);
    assert.deepEqual(
      body.data.map((p) => p.id),
      newestFirst.slice(0, 5),
    );
  });

  test('default pages walk the whole list, each product once', async () => {
    const seen: string[] = [];
    for (let page = 1; page <= 4; page++) {
      const body = await list(qs({ page }), key, big);
      assert.equal(body.count, TOTAL);
      assert.equal(body.data.length, page < 4 ? 5 : 3);
      seen.push(...body.data.map((p) => p.id));
    }
    assert.equal(new Set(seen).size, TOTAL);
    assert.deepEqual(seen, newestFirst);
    assert.deepEqual((await list(qs({ page: 5 }), key, big)).data, []);
  });

  test('products created at the same instant never repeat or vanish across pages', async () => {
    const pages = [];
    for (let page = 1; page <= 3; page++) pages.push(...(await list(qs({ organizationIds: BRANDS.umbrella, limit: 1, page }), key, big)).data);
    assert.deepEqual(pages.map((p) => p.id), ['p-jacket', 'p-tie-b', 'p-tie-a']);
  });

  test('a word only in the description is found', async () => {
    assert.deepEqual((await list(qs({ search: 'waterproof' }), key, big)).data.map((p) => p.id), ['p-jacket']);
    assert.deepEqual((await list(qs({ search: 'seams' }), key, big)).data.map((p) => p.id), ['p-jacket']);
  });

  test('tag and attribute names of the description markup are not found', async () => {
    for (const search of ['strong', 'class', 'specs', 'div']) {
      assert.deepEqual(await list(qs({ search }), key, big), { data: [], count: 0 }, search);
    }
  });
});
