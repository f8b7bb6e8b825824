// How many brands an affiliate may see, counted in parts (visibleBrandCount: public, plus private
// approved, less suspended), against the rule applied brand by brand (brandRowIsVisible), on a
// real database: public, private approved or not, approvals of public brands, suspended ones of
// each kind. Through the API: an unfiltered brands list's total.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { brandRowIsVisible, visibleBrandCount } from '../../src/storage/repositories/visibility.js';
import { servicesFor } from '../helpers/databases.js';
import { openFixture, saveBrand, type StorageFixture } from './fixture.js';

let f: StorageFixture;
const NOW = '2026-01-01T00:00:00.000Z';

before(async () => {
  f = await openFixture();
  const brands: Array<[string, boolean]> = [
    ['b-public', true],
    ['b-public-approved', true],
    ['b-public-suspended', true],
    ['b-private', false],
    ['b-private-approved', false],
    ['b-private-approved-suspended', false],
    ['b-private-suspended', false],
  ];
  for (const [id, isPublic] of brands) await saveBrand(f.database, id, isPublic);
  for (const id of ['aff-1', 'aff-2', 'aff-none']) await servicesFor(f.database).access.upsertAffiliate(id, id);
  for (const id of ['b-public-approved', 'b-private-approved', 'b-private-approved-suspended']) await f.repos.brands.approve({ affiliate_id: 'aff-1', brand_id: id, created_at: NOW });
  await f.repos.brands.approve({ affiliate_id: 'aff-2', brand_id: 'b-private', created_at: NOW });
  await f.database.db.updateTable('brands').set({ suspended_at: NOW }).where('id', 'like', '%-suspended').execute();
});
after(() => f.close());

async function counts(affiliateId: string): Promise<{ parts: number; rule: number }> {
  const { db } = f.database;
  const parts = await db.selectNoFrom(visibleBrandCount(db, affiliateId).as('n')).executeTakeFirstOrThrow();
  const rule = await db.selectFrom('brands').where(brandRowIsVisible(db, affiliateId)).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return { parts: Number(parts.n), rule: Number(rule.n) };
}

test('counted in parts, the visible brands are those the rule shows, for each affiliate; the list gives that total', async () => {
  // aff-1: the two public brands not suspended, and its one approved private brand not suspended.
  assert.deepEqual(await counts('aff-1'), { parts: 3, rule: 3 });
  assert.deepEqual(await counts('aff-2'), { parts: 3, rule: 3 });
  assert.deepEqual(await counts('aff-none'), { parts: 2, rule: 2 });
  // Each list's total counted once here: a count that took long is remembered a few seconds (totals.ts).
  const catalog = servicesFor(f.database).catalog;
  const listed = await Promise.all(['aff-1', 'aff-2', 'aff-none'].map(async (id) => (await catalog.listBrands(id, {}, { page: 1, limit: 20 })).total));
  assert.deepEqual(listed, [3, 3, 2]);
});

test('a brand suspended, or reactivated, changes the count', async () => {
  await f.database.db.updateTable('brands').set({ suspended_at: NOW }).where('id', '=', 'b-public').execute();
  assert.deepEqual(await counts('aff-1'), { parts: 2, rule: 2 });
  await f.database.db.updateTable('brands').set({ suspended_at: null }).where('id', 'in', ['b-public', 'b-private-approved-suspended']).execute();
  assert.deepEqual(await counts('aff-1'), { parts: 4, rule: 4 });
});
