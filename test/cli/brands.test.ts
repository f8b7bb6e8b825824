// The operator's side of brand access: brand keys (their own rate limit), the migration that
// raised the limit of brand keys made before it, and brands' postback tokens.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Kysely } from 'kysely';
import { runCli } from '../helpers/cli.js';
import { openDatabase, type Database } from '../../src/storage/database.js';
import { freshDatabase, type TestDatabase } from '../helpers/databases.js';
import { hashKey } from '../../src/domain/access/access-service.js';
import { up as raiseBrandKeyLimits } from '../../src/storage/migrations/0013-brand-key-limits.js';
import { brandInput } from '../helpers/world.js';
import { servicesFor } from '../helpers/databases.js';

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
  await servicesFor(database).imports.upsertBrand(brandInput({ id: BRAND, name: 'Brandy', slug: 'brandy', site: 'https://brandy.example' }));
  await servicesFor(database).access.upsertAffiliate('aff-brands', 'Affiliate');
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
    const principal = await servicesFor(database).access.resolveKey(lastLine(plain.stdout));
    assert.equal(principal?.brandId, BRAND);
    assert.equal(principal?.rateLimit, 6000);
    assert.equal(principal?.rateWindowMs, 60_000);

    const limited = await runCli(['keys', 'create', '--brand', BRAND, '--rate-limit', '5'], env);
    assert.equal(limited.code, 0, limited.stderr);
    assert.equal((await servicesFor(database).access.resolveKey(lastLine(limited.stdout)))?.rateLimit, 5);

    const affiliate = await runCli(['keys', 'create', '--affiliate', 'aff-brands'], env);
    assert.equal(affiliate.code, 0, affiliate.stderr);
    assert.equal((await servicesFor(database).access.resolveKey(lastLine(affiliate.stdout)))?.rateLimit, 60, 'affiliate keys keep 60 per 60 s');

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
    assert.equal((await servicesFor(database).access.resolveKey('afn_key_mig_brand_default'))?.rateLimit, 6000);
  });
});

describe('affnet brands postback-token', () => {
  const tokensOf = (brandId: string) => database.db.selectFrom('postback_tokens').selectAll().where('brand_id', '=', brandId).orderBy('created_at').orderBy('id').execute();

  test('prints a new token alone on the last line, stored only as a hash; it resolves to conversions:write for the brand', async () => {
    const result = await runCli(['brands', 'postback-token', '--brand', BRAND], env);
    assert.equal(result.code, 0, result.stderr);
    const token = lastLine(result.stdout);
    assert.match(token, /^afp_[0-9A-Za-z]{32}$/);
    assert.equal(result.stdout.split(token).length - 1, 1, 'the token appears once, on its own line');
    assert.equal(result.stderr, '');

    const principal = await servicesFor(database).access.resolvePostbackToken(token);
    assert.ok(principal);
    assert.equal(principal.credential, 'postback_token');
    assert.equal(principal.brandId, BRAND);
    assert.equal(principal.affiliateId, null);
    assert.deepEqual([...principal.scopes], ['conversions:write']);
    assert.equal(principal.rateLimit, 6000);
    assert.equal(principal.rateWindowMs, 60_000);
    assert.equal(await servicesFor(database).access.resolveKey(token), undefined, 'a postback token is not an API key');

    const active = (await tokensOf(BRAND)).filter((t) => t.revoked_at === null);
    assert.equal(active.length, 1);
    assert.equal(active[0]!.id, principal.keyId);
    assert.equal(active[0]!.token_hash, hashKey(token));
    assert.equal(active[0]!.token_prefix, token.slice(0, 8));
    assert.match(active[0]!.created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    assert.ok(!JSON.stringify(await tokensOf(BRAND)).includes(token), 'the token itself is never stored');
  });

  test('running it again rotates: the new token replaces the old one, which stops resolving', async () => {
    const first = lastLine((await runCli(['brands', 'postback-token', '--brand', BRAND], env)).stdout);
    const firstId = (await servicesFor(database).access.resolvePostbackToken(first))!.keyId;
    const again = await runCli(['brands', 'postback-token', '--brand', BRAND], env);
    assert.equal(again.code, 0, again.stderr);
    const second = lastLine(again.stdout);
    assert.match(second, /^afp_[0-9A-Za-z]{32}$/);
    assert.notEqual(second, first);
    assert.match(again.stdout, new RegExp(`replaces ${first.slice(0, 8)}…, which no longer works`));

    assert.equal(await servicesFor(database).access.resolvePostbackToken(first), undefined, 'the old token no longer resolves');
    const secondId = (await servicesFor(database).access.resolvePostbackToken(second))?.keyId;
    assert.ok(secondId);
    const rows = await tokensOf(BRAND);
    const old = rows.find((r) => r.id === firstId)!;
    assert.ok(old.revoked_at, 'the old token records when it stopped working');
    assert.equal(old.replaced_by, secondId, 'and which token replaced it');
    assert.deepEqual(rows.filter((r) => r.revoked_at === null).map((r) => r.id), [secondId], 'one active token per brand');
  });

  test('an unknown or missing brand fails clearly and creates nothing', async () => {
    const before = await database.db.selectFrom('postback_tokens').select('id').execute();
    const unknown = await runCli(['brands', 'postback-token', '--brand', 'nobody'], env);
    assert.notEqual(unknown.code, 0);
    assert.match(unknown.stderr, /brand "nobody" does not exist/);
    assert.doesNotMatch(unknown.stdout, /afp_/);
    const missing = await runCli(['brands', 'postback-token'], env);
    assert.notEqual(missing.code, 0);
    assert.match(missing.stderr, /--brand/);
    assert.deepEqual(await database.db.selectFrom('postback_tokens').select('id').execute(), before);
  });
});
