// CampaignsRepository against a real database: the list an affiliate sees (visibility of private
// brands, newest first with id breaking ties, total), the status filter judged at the `now` passed
// in (bounds included), the other filters, find, and save (insert, update with categories
// replaced, 'brand_missing', a campaign id held by another brand refused with nothing written).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { CampaignFilters } from '../../src/storage/repositories/campaigns.js';
import { foldText } from '../../src/lib/text-keys.js';
import { servicesFor } from '../helpers/databases.js';
import { campaignInput } from '../helpers/world.js';
import { ALL, idsOf, openFixture, saveBrand, type StorageFixture } from './fixture.js';

let f: StorageFixture;

// Periods: c-past in early January 2025, c-now Feb 1–10, c-globex Feb 5–Mar 5, c-future Mar 1–10.
// The save tests write to b-writes, a private brand nobody is approved for.
before(async () => {
  f = await openFixture();
  const services = servicesFor(f.database);
  const brand = (id: string, isPublic: boolean) => saveBrand(f.database, id, isPublic);
  await brand('b-acme', true);
  await brand('b-globex', false);
  await brand('b-writes', false);
  for (const id of ['aff-1', 'aff-2']) await services.access.upsertAffiliate(id, id);
  await services.access.approveForBrand('aff-1', 'b-globex');
  const period = (startAt: string, endAt: string) => ({ startAt: `2025-${startAt}T00:00:00.000Z`, endAt: `2025-${endAt}T00:00:00.000Z` });
  const campaign = (input: Parameters<typeof campaignInput>[0]) => services.imports.upsertCampaign(campaignInput({ url: `https://${input.organizationId}.example.com/promo`, ...input }));
  await campaign({ id: 'c-past', organizationId: 'b-acme', type: 'GenericCoupon', period: period('01-01', '01-10'), isHighlight: true, categories: ['Shoes'], createdAt: '2024-12-01T00:00:00.000Z' });
  await campaign({ id: 'c-future', organizationId: 'b-acme', type: 'PersonalCoupon', period: period('03-01', '03-10'), categories: [], createdAt: '2024-12-02T00:00:00.000Z' });
  await campaign({
    id: 'c-now',
    organizationId: 'b-acme',
    type: 'Offer',
    offerType: 'Url',
    name: 'Winter Sale Único',
    period: period('02-01', '02-10'),
    categories: ['Summer', 'shoes'],
    createdAt: '2024-12-03T00:00:00.000Z',
  });
  // Same creation time as c-now: the id breaks the tie (descending, so c-now comes first).
  await campaign({ id: 'c-globex', organizationId: 'b-globex', type: 'Offer', offerType: 'Spreadsheet', period: period('02-05', '03-05'), categories: ['Electronics'], createdAt: '2024-12-03T00:00:00.000Z' });
});

after(async () => {
  await f?.close();
});

const NOW = '2025-02-07T12:00:00.000Z';
const list = async (affiliateId: string, filters: CampaignFilters = {}, now = NOW) => {
  const page = await f.repos.campaigns.list(affiliateId, filters, ALL, now);
  return { ids: idsOf(page.rows), total: page.total };
};

describe('CampaignsRepository.list', () => {
  test('shows campaigns of visible brands, newest first with the id breaking ties, and the total', async () => {
    assert.deepEqual(await list('aff-1'), { ids: ['c-now', 'c-globex', 'c-future', 'c-past'], total: 4 });
    assert.deepEqual(await list('aff-2'), { ids: ['c-now', 'c-future', 'c-past'], total: 3 });
    const page = await f.repos.campaigns.list('aff-1', {}, { limit: 2, offset: 1 }, NOW);
    assert.deepEqual({ ids: idsOf(page.rows), total: page.total }, { ids: ['c-globex', 'c-future'], total: 4 });
  });

  test('the status filter is judged at the time passed in', async () => {
    assert.deepEqual(await list('aff-1', { statuses: ['onTime'] }), { ids: ['c-now', 'c-globex'], total: 2 });
    assert.deepEqual(await list('aff-1', { statuses: ['expired'] }), { ids: ['c-past'], total: 1 });
    assert.deepEqual(await list('aff-1', { statuses: ['scheduled'] }), { ids: ['c-future'], total: 1 });
    assert.deepEqual(await list('aff-1', { statuses: ['expired', 'scheduled'] }), { ids: ['c-future', 'c-past'], total: 2 });
    // A month later the same filters answer differently.
    assert.deepEqual(await list('aff-1', { statuses: ['onTime'] }, '2025-03-07T12:00:00.000Z'), { ids: ['c-future'], total: 1 });
    assert.deepEqual(await list('aff-1', { statuses: ['expired'] }, '2025-03-07T12:00:00.000Z'), { ids: ['c-now', 'c-globex', 'c-past'], total: 3 });
  });

  test('a campaign is on time from its first instant to its last one, both included', async () => {
    assert.deepEqual((await list('aff-2', { statuses: ['onTime'] }, '2025-02-01T00:00:00.000Z')).ids, ['c-now']);
    assert.deepEqual((await list('aff-2', { statuses: ['scheduled'] }, '2025-01-31T23:59:59.999Z')).ids, ['c-now', 'c-future']);
    assert.deepEqual((await list('aff-2', { statuses: ['onTime', 'scheduled'] }, '2025-02-10T00:00:00.000Z')).ids, ['c-now', 'c-future']);
    assert.deepEqual((await list('aff-2', { statuses: ['expired'] }, '2025-02-10T00:00:00.001Z')).ids, ['c-now', 'c-past']);
  });

  test('type, offer type, brand, name, highlight and category filters', async () => {
    assert.deepEqual(await list('aff-1', { types: ['Offer', 'PersonalCoupon'] }), { ids: ['c-now', 'c-globex', 'c-future'], total: 3 });
    assert.deepEqual(await list('aff-1', { offerType: 'Spreadsheet' }), { ids: ['c-globex'], total: 1 });
    assert.deepEqual(await list('aff-1', { organizationIds: ['b-globex'] }), { ids: ['c-globex'], total: 1 });
    assert.deepEqual(await list('aff-2', { organizationIds: ['b-globex'] }), { ids: [], total: 0 });
    assert.deepEqual(await list('aff-1', { name: 'UNICO' }), { ids: ['c-now'], total: 1 });
    assert.deepEqual(await list('aff-1', { name: '%' }), { ids: [], total: 0 });
    assert.deepEqual(await list('aff-1', { isHighlight: true }), { ids: ['c-past'], total: 1 });
    assert.deepEqual(await list('aff-1', { categories: ['SHOES'] }), { ids: ['c-now', 'c-past'], total: 2 });
  });

  test('the period filter keeps campaigns overlapping it, touching bounds included', async () => {
    assert.deepEqual(await list('aff-1', { periodFrom: '2025-02-10T00:00:00.000Z', periodTo: '2025-03-01T00:00:00.000Z' }), { ids: ['c-now', 'c-globex', 'c-future'], total: 3 });
    assert.deepEqual(await list('aff-1', { periodFrom: '2025-03-05T00:00:00.001Z' }), { ids: ['c-future'], total: 1 });
    assert.deepEqual(await list('aff-1', { periodTo: '2025-01-31T00:00:00.000Z' }), { ids: ['c-past'], total: 1 });
  });

  test("find answers the brand's campaign by id, visible or not, and nothing of another brand", async () => {
    const found = await f.repos.campaigns.find('b-globex', 'c-globex');
    assert.equal(found?.organization_id, 'b-globex');
    assert.equal(found?.start_at, '2025-02-05T00:00:00.000Z');
    assert.equal(await f.repos.campaigns.find('b-acme', 'c-globex'), undefined);
    assert.equal(await f.repos.campaigns.find('b-globex', 'c-missing'), undefined);
  });
});

describe('CampaignsRepository.save', () => {
  const columns = (organizationId: string, name: string, updatedAt = '2026-01-01T00:00:00.000Z') => ({
    organization_id: organizationId,
    name,
    name_key: foldText(name),
    type: 'GenericCoupon',
    offer_type: null,
    description: 'A campaign',
    code: 'SAVE10',
    url: `https://${organizationId}.example.com/promo`,
    is_highlight: 0,
    start_at: '2026-01-01T00:00:00.000Z',
    end_at: '2026-02-01T00:00:00.000Z',
    banners: '[]',
    email_marketing: null,
    updated_at: updatedAt,
  });
  const cat = (category: string) => ({ category, category_key: category.toLowerCase() });
  const categoriesOf = async (campaignId: string, brandId = 'b-writes') =>
    (await f.database.db.selectFrom('campaign_categories').select('category').where('organization_id', '=', brandId).where('campaign_id', '=', campaignId).orderBy('category_key').execute()).map((r) => r.category);

  test('inserts a campaign, then updates it keeping its creation time and replacing its categories', async () => {
    assert.equal(await f.repos.campaigns.save('c-write', columns('b-writes', 'First name'), '2025-12-01T00:00:00.000Z', [cat('Garden'), cat('Tools')]), 'inserted');
    assert.deepEqual(await categoriesOf('c-write'), ['Garden', 'Tools']);
    assert.equal(await f.repos.campaigns.save('c-write', columns('b-writes', 'Second name', '2026-03-01T00:00:00.000Z'), '2026-03-01T00:00:00.000Z', [cat('Kitchen')]), 'updated');
    const row = await f.repos.campaigns.find('b-writes', 'c-write');
    assert.equal(row?.name, 'Second name');
    assert.equal(row?.updated_at, '2026-03-01T00:00:00.000Z');
    assert.equal(row?.created_at, '2025-12-01T00:00:00.000Z');
    assert.deepEqual(await categoriesOf('c-write'), ['Kitchen']);
  });

  test("a campaign of an unknown brand is answered 'brand_missing' and nothing is written", async () => {
    assert.equal(await f.repos.campaigns.save('c-orphan', columns('b-missing', 'Orphan'), '2026-01-01T00:00:00.000Z', [cat('Lost')]), 'brand_missing');
    assert.equal(await f.repos.campaigns.find('b-missing', 'c-orphan'), undefined);
    assert.deepEqual(await categoriesOf('c-orphan', 'b-missing'), []);
  });

  test("a campaign id another brand uses is this brand's own campaign: the other brand's is untouched", async () => {
    const before = await f.repos.campaigns.find('b-acme', 'c-now');
    const outcome = await f.repos.campaigns.save('c-now', columns('b-writes', 'Its own'), '2026-01-01T00:00:00.000Z', [cat('Own')]);
    assert.equal(outcome, 'inserted');
    assert.deepEqual(await f.repos.campaigns.find('b-acme', 'c-now'), before);
    assert.deepEqual(await categoriesOf('c-now', 'b-acme'), ['shoes', 'Summer']);
    assert.equal((await f.repos.campaigns.find('b-writes', 'c-now'))?.name, 'Its own');
    assert.deepEqual(await categoriesOf('c-now', 'b-writes'), ['Own']);
    assert.equal(await f.repos.campaigns.delete('b-writes', 'c-now'), true);
    assert.equal(await f.repos.campaigns.delete('b-writes', 'c-now'), false);
    assert.deepEqual(await categoriesOf('c-now', 'b-writes'), [], 'its categories went with it');
    assert.ok(await f.repos.campaigns.find('b-acme', 'c-now'));
  });
});
