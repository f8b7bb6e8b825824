// CategoriesRepository against a real database: ofBrands and ofCampaigns group categories per
// owner, each list in the order of its lower-cased names (not byte order, not insertion order) with
// the names as written; owners without categories and unknown ids are absent; no ids, an empty map.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { servicesFor } from '../helpers/databases.js';
import { brandInput, campaignInput } from '../helpers/world.js';
import { openFixture, type StorageFixture } from './fixture.js';

let f: StorageFixture;

before(async () => {
  f = await openFixture();
  const services = servicesFor(f.database);
  const brand = (id: string, categories: string[]) => services.imports.upsertBrand(brandInput({ id, name: id, slug: id, site: `https://${id}.example.com`, categories }));
  await brand('b-one', ['shoes', 'Accessories', 'Bags', 'apparel']);
  await brand('b-two', ['Zoo', 'alpha']);
  await brand('b-none', []);
  const campaign = (id: string, categories: string[]) => services.imports.upsertCampaign(campaignInput({ id, organizationId: 'b-one', type: 'GenericCoupon', categories, url: 'https://b-one.example.com/promo' }));
  await campaign('c-one', ['beta', 'Alpha', 'Gamma', 'delta']);
  await campaign('c-two', ['Solo']);
  await campaign('c-none', []);
});

after(async () => {
  await f?.close();
});

describe('CategoriesRepository', () => {
  test('ofBrands lists each brand’s categories in the order of their lower-cased names', async () => {
    const categories = await f.repos.categories.ofBrands(['b-two', 'b-one', 'b-none', 'b-missing']);
    assert.deepEqual(
      categories,
      new Map([
        ['b-one', ['Accessories', 'apparel', 'Bags', 'shoes']],
        ['b-two', ['alpha', 'Zoo']],
      ]),
    );
    assert.equal(categories.has('b-none'), false);
  });

  test('ofCampaigns lists each campaign’s categories in the order of their lower-cased names', async () => {
    const of = (id: string) => ({ organization_id: 'b-one', id });
    const categories = await f.repos.categories.ofCampaigns([of('c-one'), of('c-two'), of('c-none'), { organization_id: 'b-two', id: 'c-one' }]);
    assert.deepEqual(
      categories,
      new Map([
        ['b-one|c-one', ['Alpha', 'beta', 'delta', 'Gamma']],
        ['b-one|c-two', ['Solo']],
      ]),
    );
  });

  test('a brand’s categories are not a campaign’s, and one id answers that owner only', async () => {
    assert.deepEqual(await f.repos.categories.ofBrands(['c-one']), new Map());
    assert.deepEqual(await f.repos.categories.ofBrands(['b-two']), new Map([['b-two', ['alpha', 'Zoo']]]));
  });

  test('no ids answer an empty map', async () => {
    const brands = await f.repos.categories.ofBrands([]);
    const campaigns = await f.repos.categories.ofCampaigns([]);
    assert.ok(brands instanceof Map && campaigns instanceof Map);
    assert.equal(brands.size, 0);
    assert.equal(campaigns.size, 0);
  });
});
