// BrandsRepository against a real database: the list an affiliate sees (visibility of private
// brands, every filter, order by folded name then id, paging and total), findVisible against find,
// the small lookups (exists, byIds, currenciesOf, approvals), and save (insert, update, categories
// replaced, a slug held by another brand refused with nothing written).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Insertable } from 'kysely';
import type { BrandsTable } from '../../src/storage/tables.js';
import type { BrandFilters } from '../../src/storage/repositories/brands.js';
import { foldText } from '../../src/lib/text-keys.js';
import { servicesFor } from '../helpers/databases.js';
import { brandInput } from '../helpers/world.js';
import { ALL, idsOf, openFixture, type StorageFixture } from './fixture.js';

let f: StorageFixture;

// The brands the list tests see. Private ones: globex (aff-1 approved), initech (aff-2 approved).
// Brands written by the save tests are private and approved to nobody, so the lists never show them.
before(async () => {
  f = await openFixture();
  const services = servicesFor(f.database);
  const trait = (t: Partial<{ isExclusive: boolean; isHighlight: boolean; isFavorite: boolean }> = {}) => ({
    isExclusive: false,
    isHighlight: false,
    isFavorite: false,
    ...t,
  });
  const network = (isPublic: boolean, t: Parameters<typeof trait>[0] = {}) => ({
    active: true,
    isPublic,
    trait: trait(t),
    rating: { approval: 1, commission: 1, conversion: 1, popularity: 1, validation: 1 },
  });
  const brand = (id: string, name: string, createdAt: string, extra: Partial<Parameters<typeof brandInput>[0]> = {}) =>
    services.imports.upsertBrand(brandInput({ id, name, slug: id, site: `https://${id}.example.com`, createdAt, ...extra }));
  await brand('b-acme', 'Acme', '2025-01-10T00:00:00.000Z', { categories: ['Fashion', 'Shoes'], network: network(true, { isExclusive: true, isHighlight: true }) });
  await brand('b-globex', 'Globex', '2025-03-01T00:00:00.000Z', { categories: ['Electronics'], network: network(false, { isFavorite: true }), currency: 'EUR' });
  await brand('b-initech', 'Initech', '2025-04-01T00:00:00.000Z', { categories: ['Software'], network: network(false) });
  await brand('b-zeta', 'Zéta', '2025-05-01T00:00:00.000Z', { categories: ['shoes', 'Outdoor'] });
  // Same folded name: the id breaks the tie (b-twin-1 first, though added second).
  await brand('b-twin-2', 'Twin', '2025-06-01T00:00:00.000Z');
  await brand('b-twin-1', 'twin', '2025-06-02T00:00:00.000Z');
  await brand('b-pct', '100% Natural', '2025-07-01T00:00:00.000Z');
  for (const id of ['aff-1', 'aff-2', 'aff-3']) await services.access.upsertAffiliate(id, id);
  await services.access.approveForBrand('aff-1', 'b-globex');
  await services.access.approveForBrand('aff-2', 'b-initech');
});

after(async () => {
  await f?.close();
});

describe('BrandsRepository.list', () => {
  const list = async (affiliateId: string, filters: BrandFilters = {}) => {
    const page = await f.repos.brands.list(affiliateId, filters, ALL);
    return { ids: idsOf(page.rows), total: page.total };
  };

  test('shows public brands and only the private brands the affiliate is approved for, by folded name then id', async () => {
    assert.deepEqual(await list('aff-1'), { ids: ['b-pct', 'b-acme', 'b-globex', 'b-twin-1', 'b-twin-2', 'b-zeta'], total: 6 });
    assert.deepEqual(await list('aff-2'), { ids: ['b-pct', 'b-acme', 'b-initech', 'b-twin-1', 'b-twin-2', 'b-zeta'], total: 6 });
    assert.deepEqual(await list('aff-3'), { ids: ['b-pct', 'b-acme', 'b-twin-1', 'b-twin-2', 'b-zeta'], total: 5 });
  });

  test('a page holds its window of rows while the total counts every match', async () => {
    const page = await f.repos.brands.list('aff-1', { isPublic: true }, { limit: 2, offset: 2 });
    assert.deepEqual(idsOf(page.rows), ['b-twin-1', 'b-twin-2']);
    assert.equal(page.total, 5);
    const past = await f.repos.brands.list('aff-1', { isPublic: true }, { limit: 2, offset: 10 });
    assert.deepEqual({ ids: idsOf(past.rows), total: past.total }, { ids: [], total: 5 });
  });

  test('search matches the folded name anywhere, and LIKE wildcards in it are literal', async () => {
    assert.deepEqual(await list('aff-1', { search: 'ÉT' }), { ids: ['b-zeta'], total: 1 });
    assert.deepEqual(await list('aff-1', { search: 'lob' }), { ids: ['b-globex'], total: 1 });
    assert.deepEqual(await list('aff-1', { search: '%' }), { ids: ['b-pct'], total: 1 });
    assert.deepEqual(await list('aff-1', { search: '_' }), { ids: [], total: 0 });
    // A private brand the affiliate may not see is not found by name either.
    assert.deepEqual(await list('aff-1', { search: 'initech' }), { ids: [], total: 0 });
  });

  test('categories match case-insensitively, any of them', async () => {
    assert.deepEqual(await list('aff-1', { categories: ['SHOES'] }), { ids: ['b-acme', 'b-zeta'], total: 2 });
    assert.deepEqual(await list('aff-1', { categories: ['shoes', 'electronics', 'software'] }), { ids: ['b-acme', 'b-globex', 'b-zeta'], total: 3 });
  });

  test('each trait filter keeps the brands with that flag, true or false', async () => {
    assert.deepEqual(await list('aff-1', { isExclusive: true }), { ids: ['b-acme'], total: 1 });
    assert.deepEqual(await list('aff-1', { isHighlight: true }), { ids: ['b-acme'], total: 1 });
    assert.deepEqual(await list('aff-1', { isFavorite: true }), { ids: ['b-globex'], total: 1 });
    assert.deepEqual(await list('aff-1', { isPublic: false }), { ids: ['b-globex'], total: 1 });
    assert.deepEqual(await list('aff-1', { isExclusive: false, isFavorite: false }), { ids: ['b-pct', 'b-twin-1', 'b-twin-2', 'b-zeta'], total: 4 });
  });

  test('the creation range includes both of its bounds', async () => {
    assert.deepEqual(await list('aff-1', { createdFrom: '2025-03-01T00:00:00.000Z', createdTo: '2025-06-01T00:00:00.000Z' }), {
      ids: ['b-globex', 'b-twin-2', 'b-zeta'],
      total: 3,
    });
    assert.deepEqual(await list('aff-2', { createdFrom: '2025-06-01T00:00:00.001Z' }), { ids: ['b-pct', 'b-twin-1'], total: 2 });
  });
});

describe('BrandsRepository lookups', () => {
  test('findVisible answers only brands the affiliate may see; find answers any brand', async () => {
    assert.equal((await f.repos.brands.findVisible('aff-1', 'b-globex'))?.name, 'Globex');
    assert.equal(await f.repos.brands.findVisible('aff-2', 'b-globex'), undefined);
    assert.equal((await f.repos.brands.findVisible('aff-3', 'b-acme'))?.id, 'b-acme');
    assert.equal(await f.repos.brands.findVisible('aff-1', 'b-missing'), undefined);
    const globex = await f.repos.brands.find('b-globex');
    assert.equal(globex?.is_public, 0);
    assert.equal(globex?.created_at, '2025-03-01T00:00:00.000Z');
    assert.equal(await f.repos.brands.find('b-missing'), undefined);
  });

  test('exists, byIds and currenciesOf answer for the ids that exist only', async () => {
    assert.equal(await f.repos.brands.exists('b-initech'), true);
    assert.equal(await f.repos.brands.exists('b-missing'), false);
    assert.deepEqual(idsOf(await f.repos.brands.byIds(['b-zeta', 'b-missing', 'b-acme'])).sort(), ['b-acme', 'b-zeta']);
    assert.deepEqual(await f.repos.brands.byIds([]), []);
    const found = await f.repos.brands.currenciesOf(['b-acme', 'b-globex', 'b-missing']);
    assert.deepEqual(
      [...found].map(([id, brand]) => [id, brand.currency]).sort(),
      [
        ['b-acme', 'BRL'],
        ['b-globex', 'EUR'],
      ],
    );
    assert.ok([...found.values()].every((brand) => brand.name.length > 0), 'with their names');
    assert.equal((await f.repos.brands.currenciesOf([])).size, 0);
    assert.deepEqual([...(await f.repos.brands.namesOf(['b-acme', 'b-missing'])).keys()], ['b-acme']);
  });

  test('approve makes isApproved true for that pair only, and approving again changes nothing', async () => {
    assert.equal(await f.repos.brands.isApproved('aff-3', 'b-initech'), false);
    await f.repos.brands.approve({ affiliate_id: 'aff-3', brand_id: 'b-initech', created_at: '2026-01-01T00:00:00.000Z' });
    await f.repos.brands.approve({ affiliate_id: 'aff-3', brand_id: 'b-initech', created_at: '2026-02-01T00:00:00.000Z' });
    assert.equal(await f.repos.brands.isApproved('aff-3', 'b-initech'), true);
    assert.equal(await f.repos.brands.isApproved('aff-3', 'b-globex'), false);
    assert.equal(await f.repos.brands.isApproved('aff-1', 'b-initech'), false);
    const rows = await f.database.db.selectFrom('brand_approvals').selectAll().where('affiliate_id', '=', 'aff-3').execute();
    assert.deepEqual(rows, [{ affiliate_id: 'aff-3', brand_id: 'b-initech', created_at: '2026-01-01T00:00:00.000Z' }]);
    assert.equal((await f.repos.brands.findVisible('aff-3', 'b-initech'))?.id, 'b-initech');
  });
});

describe('BrandsRepository.save', () => {
  /** Every column a write sets, for a private brand nobody is approved for. */
  const columns = (name: string, slug: string, extra: Partial<Insertable<BrandsTable>> = {}) => ({
    name,
    name_key: foldText(name),
    slug,
    logo: `https://cdn.example.com/${slug}.png`,
    site: `https://${slug}.example.com`,
    segment: 'Retail',
    active: 1,
    is_public: 0,
    is_exclusive: 0,
    is_highlight: 0,
    is_favorite: 0,
    rating_approval: 1,
    rating_commission: 2,
    rating_conversion: 3,
    rating_popularity: 4,
    rating_validation: 5,
    commission_transfer: 'cps',
    commission_value: 750,
    allowed_channel_kinds: null,
    click_id_param: 'clickId',
    attribution_window_days: 30,
    updated_at: '2026-01-01T00:00:00.000Z',
    ...extra,
  });
  const cat = (category: string) => ({ category, category_key: category.toLowerCase() });
  const categoriesOf = async (brandId: string) =>
    (await f.database.db.selectFrom('brand_categories').select('category').where('brand_id', '=', brandId).orderBy('category_key').execute()).map((r) => r.category);

  test('inserts a new brand with its insert-only columns, then updates it without touching them', async () => {
    const inserted = await f.repos.brands.save('b-new', columns('New Brand', 'new-brand'), { created_at: '2025-09-01T00:00:00.000Z', currency: 'USD' }, [cat('Garden'), cat('Tools')]);
    assert.equal(inserted, 'inserted');
    const first = await f.repos.brands.find('b-new');
    assert.equal(first?.name, 'New Brand');
    assert.equal(first?.created_at, '2025-09-01T00:00:00.000Z');
    assert.equal(first?.currency, 'USD');
    assert.deepEqual(await categoriesOf('b-new'), ['Garden', 'Tools']);

    const updated = await f.repos.brands.save(
      'b-new',
      columns('Renamed Brand', 'new-brand', { commission_value: 900, updated_at: '2026-02-01T00:00:00.000Z' }),
      { created_at: '2026-02-01T00:00:00.000Z', currency: 'EUR' },
      [cat('Kitchen')],
    );
    assert.equal(updated, 'updated');
    const second = await f.repos.brands.find('b-new');
    assert.equal(second?.name, 'Renamed Brand');
    assert.equal(second?.name_key, 'renamed brand');
    assert.equal(second?.commission_value, 900);
    assert.equal(second?.updated_at, '2026-02-01T00:00:00.000Z');
    assert.equal(second?.created_at, '2025-09-01T00:00:00.000Z', 'creation time is written on insert only');
    assert.equal(second?.currency, 'USD', 'the insert-only currency is not applied to an update');
    assert.deepEqual(await categoriesOf('b-new'), ['Kitchen'], 'categories are replaced, not added to');
    assert.equal((await f.database.db.selectFrom('brands').select('id').where('id', '=', 'b-new').execute()).length, 1);
  });

  test('an update with no categories removes them all; a currency among the columns is written', async () => {
    await f.repos.brands.save('b-bare', columns('Bare', 'bare'), { created_at: '2025-09-02T00:00:00.000Z', currency: 'BRL' }, [cat('One')]);
    assert.equal(await f.repos.brands.save('b-bare', columns('Bare', 'bare', { currency: 'GBP' }), { created_at: '2025-09-02T00:00:00.000Z', currency: 'BRL' }, []), 'updated');
    assert.deepEqual(await categoriesOf('b-bare'), []);
    assert.equal((await f.repos.brands.find('b-bare'))?.currency, 'GBP');
  });

  test("a slug held by another brand is answered with its owner, and neither an insert nor an update writes anything", async () => {
    const taken = await f.repos.brands.save('b-thief', columns('Thief', 'b-acme'), { created_at: '2025-09-03T00:00:00.000Z', currency: 'BRL' }, [cat('Loot')]);
    assert.deepEqual(taken, { slugTakenBy: 'b-acme' });
    assert.equal(await f.repos.brands.find('b-thief'), undefined);
    assert.deepEqual(await categoriesOf('b-thief'), []);

    await f.repos.brands.save('b-keeper', columns('Keeper', 'keeper'), { created_at: '2025-09-04T00:00:00.000Z', currency: 'BRL' }, [cat('Kept')]);
    const before = await f.repos.brands.find('b-keeper');
    const refused = await f.repos.brands.save('b-keeper', columns('Changed', 'b-zeta', { updated_at: '2026-03-01T00:00:00.000Z' }), { created_at: '2025-09-04T00:00:00.000Z', currency: 'BRL' }, [cat('Other')]);
    assert.deepEqual(refused, { slugTakenBy: 'b-zeta' });
    assert.deepEqual(await f.repos.brands.find('b-keeper'), before);
    assert.deepEqual(await categoriesOf('b-keeper'), ['Kept']);
    assert.equal((await f.repos.brands.find('b-acme'))?.name, 'Acme', 'the owner of the slug is untouched');
  });
});
