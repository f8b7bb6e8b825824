// ProductsRepository against a real database: the list an affiliate sees (visibility of private
// brands, newest added first, price range, availability, brands), full-text search as prefixes on
// both dialects (every word must match, a search without words matches nothing, an updated product
// is found by its new words only), and save (insert, update, 'brand_missing' writing nothing).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ProductFilters } from '../../src/storage/repositories/products.js';
import { productColumns } from '../../src/domain/catalog/catalog-writer.js';
import { servicesFor } from '../helpers/databases.js';
import { productInput } from '../helpers/world.js';
import { ALL, idsOf, openFixture, saveBrand, type StorageFixture } from './fixture.js';

let f: StorageFixture;

// Products in the order they are added; creation times deliberately in another order. The save
// tests write to b-writes, a private brand only aff-w is approved for.
before(async () => {
  f = await openFixture();
  const services = servicesFor(f.database);
  const brand = (id: string, isPublic: boolean) => saveBrand(f.database, id, isPublic);
  await brand('b-acme', true);
  await brand('b-umbrella', true);
  await brand('b-globex', false);
  await brand('b-writes', false);
  for (const id of ['aff-1', 'aff-2', 'aff-w']) await services.access.upsertAffiliate(id, id);
  await services.access.approveForBrand('aff-1', 'b-globex');
  await services.access.approveForBrand('aff-w', 'b-writes');
  const product = (id: string, brandId: string, name: string, price: number, createdAt: string, extra: Parameters<typeof productInput>[4] = {}) =>
    services.imports.upsertProduct(productInput(id, brandId, name, price, { createdAt, ...extra }));
  await product('p-sneakers', 'b-acme', 'Red running sneakers', 5_000, '2025-02-05T00:00:00.000Z');
  await product('p-boots', 'b-acme', 'Blue leather boots', 12_000, '2025-02-04T00:00:00.000Z', { available: false });
  await product('p-phones', 'b-globex', 'Wireless headphones', 25_000, '2025-02-03T00:00:00.000Z');
  await product('p-stapler', 'b-umbrella', 'Red stapler', 900, '2025-02-02T00:00:00.000Z');
  await product('p-unpriced', 'b-umbrella', 'Mystery sneaker box', 0, '2025-02-01T00:00:00.000Z', { options: [] });
});

after(async () => {
  await f?.close();
});

const list = async (affiliateId: string, filters: ProductFilters = {}) => {
  const page = await f.repos.products.list(affiliateId, filters, ALL);
  return { ids: idsOf(page.rows), total: page.total };
};

describe('ProductsRepository.list', () => {
  test('shows products of visible brands, most recently added first, with the total', async () => {
    assert.deepEqual(await list('aff-1'), { ids: ['p-unpriced', 'p-stapler', 'p-phones', 'p-boots', 'p-sneakers'], total: 5 });
    assert.deepEqual(await list('aff-2'), { ids: ['p-unpriced', 'p-stapler', 'p-boots', 'p-sneakers'], total: 4 });
  });

  test('pages do not overlap and together hold every row', async () => {
    const first = await f.repos.products.list('aff-1', { isAvailable: true }, { limit: 2, offset: 0 });
    const second = await f.repos.products.list('aff-1', { isAvailable: true }, { limit: 2, offset: 2 });
    assert.deepEqual(idsOf(first.rows), ['p-unpriced', 'p-stapler']);
    assert.deepEqual(idsOf(second.rows), ['p-phones', 'p-sneakers']);
    assert.equal(first.total, 4);
    assert.equal(second.total, 4);
  });

  test('the price range compares the lowest price, both bounds included, and leaves out unpriced products', async () => {
    assert.deepEqual(await list('aff-1', { priceFrom: 5_000, priceTo: 12_000 }), { ids: ['p-boots', 'p-sneakers'], total: 2 });
    assert.deepEqual(await list('aff-1', { priceFrom: 12_001 }), { ids: ['p-phones'], total: 1 });
    assert.deepEqual(await list('aff-1', { priceTo: 900 }), { ids: ['p-stapler'], total: 1 });
  });

  test('availability and brands filter, and a private brand stays hidden even when asked for', async () => {
    assert.deepEqual(await list('aff-1', { isAvailable: false }), { ids: ['p-boots'], total: 1 });
    assert.deepEqual(await list('aff-1', { organizationIds: ['b-globex', 'b-umbrella'] }), { ids: ['p-unpriced', 'p-stapler', 'p-phones'], total: 3 });
    assert.deepEqual(await list('aff-2', { organizationIds: ['b-globex'] }), { ids: [], total: 0 });
    assert.deepEqual(await list('aff-1', { organizationIds: ['b-acme'], isAvailable: true }), { ids: ['p-sneakers'], total: 1 });
  });
});

describe('ProductsRepository.list search', () => {
  test('a word matches as a prefix, folded for case and accents', async () => {
    assert.deepEqual(await list('aff-1', { search: 'sneak' }), { ids: ['p-unpriced', 'p-sneakers'], total: 2 });
    assert.deepEqual(await list('aff-1', { search: 'SNÉAKERS' }), { ids: ['p-sneakers'], total: 1 });
    assert.deepEqual(await list('aff-1', { search: 'eakers' }), { ids: [], total: 0 }, 'the middle of a word is not a prefix');
  });

  test('every word must match, and the other filters still apply', async () => {
    assert.deepEqual(await list('aff-1', { search: 'red sneak' }), { ids: ['p-sneakers'], total: 1 });
    assert.deepEqual(await list('aff-1', { search: 'red' }), { ids: ['p-stapler', 'p-sneakers'], total: 2 });
    assert.deepEqual(await list('aff-1', { search: 'red', priceTo: 1_000 }), { ids: ['p-stapler'], total: 1 });
    assert.deepEqual(await list('aff-2', { search: 'wireless' }), { ids: [], total: 0 });
    assert.deepEqual(await list('aff-1', { search: 'wireless' }), { ids: ['p-phones'], total: 1 });
  });

  test('the visible text of the description is searched; its markup is not', async () => {
    assert.deepEqual(await list('aff-2', { search: 'descr' }), { ids: ['p-unpriced', 'p-stapler', 'p-boots', 'p-sneakers'], total: 4 });
    // productInput wraps descriptions in <p>…</p>.
    assert.deepEqual(await list('aff-2', { search: 'p' }), { ids: [], total: 0 });
  });

  test('a search with no word in it matches nothing rather than everything', async () => {
    assert.deepEqual(await list('aff-1', { search: '' }), { ids: [], total: 0 });
    assert.deepEqual(await list('aff-1', { search: '  !!! "*" -- ' }), { ids: [], total: 0 });
  });

  test('query syntax in a search is only text: quotes, stars and operators cannot widen it', async () => {
    assert.deepEqual(await list('aff-1', { search: 'red" OR "blue' }), { ids: [], total: 0 });
    assert.deepEqual(await list('aff-1', { search: 'red | blue & !boots' }), { ids: [], total: 0 });
    assert.deepEqual(await list('aff-1', { search: 'sta*pler' }), { ids: [], total: 0 });
  });
});

describe('ProductsRepository.save', () => {
  const now = '2026-01-01T00:00:00.000Z';

  test('inserts a product, then updates it keeping its creation time; search follows its new words', async () => {
    const input = productInput('p-write', 'b-writes', 'Zanzibar lantern', 4_200);
    assert.equal(await f.repos.products.save('p-write', productColumns(input, now), '2025-12-01T00:00:00.000Z'), 'inserted');
    assert.deepEqual(await list('aff-w', { search: 'zanzi' }), { ids: ['p-write'], total: 1 });

    const renamed = productInput('p-write', 'b-writes', 'Quokka lamp', 3_900, { available: false });
    assert.equal(await f.repos.products.save('p-write', productColumns(renamed, '2026-02-01T00:00:00.000Z'), '2026-02-01T00:00:00.000Z'), 'updated');
    const rows = await f.database.db.selectFrom('products').selectAll().where('id', '=', 'p-write').execute();
    assert.equal(rows.length, 1);
    assert.equal(rows[0]?.name, 'Quokka lamp');
    assert.equal(rows[0]?.price_cents, 3_900);
    assert.equal(rows[0]?.available, 0);
    assert.equal(rows[0]?.created_at, '2025-12-01T00:00:00.000Z');
    assert.equal(rows[0]?.updated_at, '2026-02-01T00:00:00.000Z');
    assert.deepEqual(await list('aff-w', { search: 'quokk' }), { ids: ['p-write'], total: 1 });
    assert.deepEqual(await list('aff-w', { search: 'lantern' }), { ids: [], total: 0 }, 'the old words are no longer indexed');
  });

  test("a product of an unknown brand is answered 'brand_missing' and nothing is written", async () => {
    const input = productInput('p-orphan', 'b-missing', 'Orphan product', 100);
    assert.equal(await f.repos.products.save('p-orphan', productColumns(input, now), now), 'brand_missing');
    assert.equal(await f.database.db.selectFrom('products').select('id').where('id', '=', 'p-orphan').executeTakeFirst(), undefined);

    // Moving an existing product to an unknown brand is refused the same way and changes nothing.
    const before = await f.database.db.selectFrom('products').selectAll().where('id', '=', 'p-sneakers').executeTakeFirstOrThrow();
    const moved = productInput('p-sneakers', 'b-missing', 'Moved sneakers', 1);
    assert.equal(await f.repos.products.save('p-sneakers', productColumns(moved, now), now), 'brand_missing');
    assert.deepEqual(await f.database.db.selectFrom('products').selectAll().where('id', '=', 'p-sneakers').executeTakeFirstOrThrow(), before);
  });
});

// A price-range page is found either by walking the products in list order or through the price
// index, whichever reads fewer rows for the range's share of the products: wide and narrow ranges,
// first and later pages, a hidden brand's products among them, must all list exactly the matching
// visible products, newest first.
describe('ProductsRepository.list: price-range pages, whichever way they are found', () => {
  let many: StorageFixture;
  const expected: Array<{ id: string; price: number; visible: boolean }> = [];

  before(async () => {
    many = await openFixture();
    const services = servicesFor(many.database);
    await saveBrand(many.database, 'b-open', true);
    await saveBrand(many.database, 'b-closed', false);
    await services.access.upsertAffiliate('aff-p', 'aff-p');
    // 120 products, added in this order: every fifth of the hidden brand, prices spread so that
    // one range holds most of them and another only two.
    for (let i = 0; i < 120; i++) {
      const id = `p-${String(i).padStart(3, '0')}`;
      const price = i === 31 || i === 91 ? 77_777 : 1_000 + (i % 7) * 500;
      const brandId = i % 5 === 0 ? 'b-closed' : 'b-open';
      await services.imports.upsertProduct(productInput(id, brandId, `Product ${i}`, price, { createdAt: '2025-03-01T00:00:00.000Z' }));
      expected.unshift({ id, price, visible: brandId === 'b-open' });
    }
  });
  after(async () => {
    await many?.close();
  });

  test('each page holds exactly the visible products in the range, newest first, and the total counts them all', async () => {
    for (const [from, to] of [
      [1_000, 4_000],
      [1_000, 1_000],
      [77_777, 77_777],
      [0, 999],
    ] as const) {
      const matching = expected.filter((p) => p.visible && p.price >= from && p.price <= to).map((p) => p.id);
      for (const window of [
        { limit: 10, offset: 0 },
        { limit: 10, offset: 10 },
        { limit: 7, offset: 63 },
      ]) {
        const page = await many.repos.products.list('aff-p', { priceFrom: from, priceTo: to }, window);
        assert.deepEqual(
          { ids: idsOf(page.rows), total: page.total },
          { ids: matching.slice(window.offset, window.offset + window.limit), total: matching.length },
          `${from}:${to} at ${window.offset}`,
        );
      }
    }
  });
});
