// ApiKeysRepository against a real database: insert and list (oldest first, by affiliate, by brand
// or every key), revoke (false for an unknown key, the first revocation time kept) and findActive
// (by hash, never a revoked key).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiKeyRow } from '../../src/storage/tables.js';
import { hashKey } from '../../src/domain/access/access-service.js';
import { servicesFor } from '../helpers/databases.js';
import { brandInput } from '../helpers/world.js';
import { idsOf, openFixture, type StorageFixture } from './fixture.js';

let f: StorageFixture;

const key = (id: string, owner: { affiliateId?: string; brandId?: string }, createdAt: string): ApiKeyRow => ({
  id,
  key_hash: hashKey(`secret-${id}`),
  key_prefix: `afn_${id.slice(0, 4)}`,
  affiliate_id: owner.affiliateId ?? null,
  brand_id: owner.brandId ?? null,
  name: `key ${id}`,
  scopes: 'brands:read orders:read',
  rate_limit: 60,
  rate_window_seconds: 60,
  created_at: createdAt,
  revoked_at: null,
});

const at = (day: string) => `2026-${day}T00:00:00.000Z`;

before(async () => {
  f = await openFixture();
  const services = servicesFor(f.database);
  await services.imports.upsertBrand(brandInput({ id: 'b-acme', name: 'Acme', slug: 'acme', site: 'https://acme.example.com' }));
  await services.access.upsertAffiliate('aff-1', 'One');
  await services.access.upsertAffiliate('aff-2', 'Two');
  // Inserted out of creation order; k-a2 and k-a3 share a creation time.
  await f.repos.apiKeys.insert(key('k-a3', { affiliateId: 'aff-1' }, at('01-03')));
  await f.repos.apiKeys.insert(key('k-a1', { affiliateId: 'aff-1' }, at('01-01')));
  await f.repos.apiKeys.insert(key('k-b1', { brandId: 'b-acme' }, at('01-02')));
  await f.repos.apiKeys.insert(key('k-a2', { affiliateId: 'aff-1' }, at('01-03')));
  await f.repos.apiKeys.insert(key('k-c1', { affiliateId: 'aff-2' }, at('01-04')));
});

after(async () => {
  await f?.close();
});

describe('ApiKeysRepository', () => {
  test('insert stores the row as given', async () => {
    assert.deepEqual(await f.repos.apiKeys.findActive(hashKey('secret-k-b1')), { ...key('k-b1', { brandId: 'b-acme' }, at('01-02')), suspended_at: null });
  });

  test("list answers an owner's keys, or every key, oldest first with the id breaking ties", async () => {
    assert.deepEqual(idsOf(await f.repos.apiKeys.list({ affiliateId: 'aff-1' })), ['k-a1', 'k-a2', 'k-a3']);
    assert.deepEqual(idsOf(await f.repos.apiKeys.list({ brandId: 'b-acme' })), ['k-b1']);
    assert.deepEqual(idsOf(await f.repos.apiKeys.list({})), ['k-a1', 'k-b1', 'k-a2', 'k-a3', 'k-c1']);
    assert.deepEqual(await f.repos.apiKeys.list({ affiliateId: 'aff-nobody' }), []);
  });

  test('revoke answers false for an unknown key and changes nothing', async () => {
    assert.equal(await f.repos.apiKeys.revoke('k-missing', at('02-01')), false);
    const revoked = await f.database.db.selectFrom('api_keys').select('id').where('revoked_at', 'is not', null).execute();
    assert.deepEqual(revoked, []);
  });

  test('a revoked key is no longer found active; revoking it again keeps the first time', async () => {
    assert.equal((await f.repos.apiKeys.findActive(hashKey('secret-k-a2')))?.id, 'k-a2');
    assert.equal(await f.repos.apiKeys.revoke('k-a2', at('02-01')), true);
    assert.equal(await f.repos.apiKeys.findActive(hashKey('secret-k-a2')), undefined);
    assert.equal(await f.repos.apiKeys.revoke('k-a2', at('03-01')), true);
    const rows = await f.database.db.selectFrom('api_keys').select(['id', 'revoked_at']).where('revoked_at', 'is not', null).execute();
    assert.deepEqual(rows, [{ id: 'k-a2', revoked_at: at('02-01') }]);
    // Still listed, with its revocation time; the others still work.
    assert.equal((await f.repos.apiKeys.list({ affiliateId: 'aff-1' })).find((k) => k.id === 'k-a2')?.revoked_at, at('02-01'));
    assert.equal((await f.repos.apiKeys.findActive(hashKey('secret-k-a3')))?.id, 'k-a3');
  });

  test('findActive answers nothing for an unknown hash', async () => {
    assert.equal(await f.repos.apiKeys.findActive(hashKey('never-issued')), undefined);
    assert.equal(await f.repos.apiKeys.findActive('k-a1'), undefined, 'an id is not a hash');
  });
});
