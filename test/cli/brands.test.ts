// The operator's side of brand access: brand keys (their own rate limit) and the migration that
// raised the limit of brand keys made before it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Kysely } from 'kysely';
import { runCli } from '../helpers/cli.js';
import { openDatabase, type Database } from '../../src/storage/database.js';
import { freshDatabase, type TestDatabase } from '../helpers/databases.js';
import { upsertAffiliate } from '../../src/domain/access/affiliates.js';
import { upsertBrand } from '../../src/domain/catalog/catalog-writer.js';
import { findPrincipal, hashKey } from '../../src/domain/access/api-keys.js';
import { up as raiseBrandKeyLimits } from '../../src/storage/migrations/0013-brand-key-limits.js';
import { brandInput } from '../helpers/world.js';

const BRAND = 'dddddddd-dddd-4ddd-8ddd-dddddddddddd';

let env: Record<string, string>;
let database: Database;
let testDb: TestDatabase;

before(async () => {
  testDb = await freshDatabase();
  env = { DATABASE_URL: testDb.url };
  const migrated = await runCli(['migrate'], env);
  assert.equal(migrated.code, 0, migrated.stderr);
  database = openDatabase(env.DATABASE_URL!);
  await upsertBrand(database, brandInput({ id: BRAND, name: 'Brandy', slug: 'brandy', site: 'https://brandy.example' }));
  await upsertAffiliate(database, 'aff-brands', 'Affiliate');
});
after(async () => {
  await database.close();
  await testDb.drop();
});

const lastLine = (text: string) => text.trim().split('\n').at(-1)!;

describe('affnet keys create --brand', () => {
  test('a brand key allows 6000 requests per 60 s unless --rate-limit says otherwise', async () => {
    const plain = await runCli(['keys', 'create', '--brand', BRAND], env);
    assert.equal(plain.code, 0, plain.stderr);
    const principal = await findPrincipal(database, lastLine(plain.stdout));
    assert.equal(principal?.brandId, BRAND);
    assert.equal(principal?.rateLimit, 6000);
    assert.equal(principal?.rateWindowMs, 60_000);

    const limited = await runCli(['keys', 'create', '--brand', BRAND, '--rate-limit', '5'], env);
    assert.equal(limited.code, 0, limited.stderr);
    assert.equal((await findPrincipal(database, lastLine(limited.stdout)))?.rateLimit, 5);

    const affiliate = await runCli(['keys', 'create', '--affiliate', 'aff-brands'], env);
    assert.equal(affiliate.code, 0, affiliate.stderr);
    assert.equal((await findPrincipal(database, lastLine(affiliate.stdout)))?.rateLimit, 60, 'affiliate keys keep 60 per 60 s');

    const listed = await runCli(['keys', 'list', '--brand', BRAND], env);
    assert.match(listed.stdout, /\t6000\/60s\t/);
    assert.match(listed.stdout, /\t5\/60s\t/);
  });
});

describe('migration 0013-brand-key-limits', () => {
  test('raises brand keys still at the old default of 60 to 6000; other limits and affiliate keys stay', async () => {
    const { db } = database;
    const row = (id: string, owner: { brand_id?: string; affiliate_id?: string }, rateLimit: number, revoked = false) => ({
      id,
      key_hash: hashKey(`afn_${id}`),
      key_prefix: 'afn_test',
      affiliate_id: owner.affiliate_id ?? null,
      brand_id: owner.brand_id ?? null,
      name: id,
      scopes: owner.brand_id ? 'conversions:write' : 'brands:read',
      rate_limit: rateLimit,
      rate_window_seconds: 60,
      created_at: '2026-01-01T00:00:00.000Z',
      revoked_at: revoked ? '2026-01-02T00:00:00.000Z' : null,
    });
    // Keys as the service made them before brand keys had a limit of their own.
    await db
      .insertInto('api_keys')
      .values([
        row('key_mig_brand_default', { brand_id: BRAND }, 60),
        row('key_mig_brand_revoked', { brand_id: BRAND }, 60, true),
        row('key_mig_brand_custom', { brand_id: BRAND }, 500),
        row('key_mig_brand_low', { brand_id: BRAND }, 5),
        row('key_mig_affiliate', { affiliate_id: 'aff-brands' }, 60),
      ])
      .execute();

    await raiseBrandKeyLimits(db as unknown as Kysely<unknown>);

    const limits = Object.fromEntries(
      (await db.selectFrom('api_keys').select(['id', 'rate_limit']).where('id', 'like', 'key_mig_%').execute()).map((r) => [r.id, r.rate_limit]),
    );
    assert.deepEqual(limits, {
      key_mig_brand_default: 6000,
      key_mig_brand_revoked: 6000,
      key_mig_brand_custom: 500,
      key_mig_brand_low: 5,
      key_mig_affiliate: 60,
    });
    // The service resolves the raised key with its new limit.
    assert.equal((await findPrincipal(database, 'afn_key_mig_brand_default'))?.rateLimit, 6000);
  });
});
