import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { openDatabase, type Database } from '../../src/storage/database.js';
import { freshDatabase, type TestDatabase } from '../helpers/databases.js';
import { hashKey } from '../../src/domain/access/access-service.js';
import { brandInput, campaignInput, productInput } from '../helpers/world.js';
import { servicesFor } from '../helpers/databases.js';

let dir: string;
let env: Record<string, string>;
let database: Database;
let testDb: TestDatabase;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'affnet-cli-'));
  testDb = await freshDatabase();
  env = { DATABASE_URL: testDb.url };
  const migrated = await runCli(['migrate'], env);
  assert.equal(migrated.code, 0, migrated.stderr);
  assert.match(migrated.stdout, /Applied 67 migration\(s\): 0001-initial, 0002-tracking, 0003-plain-links-index, 0004-products-in-added-order, 0005-clicks-append-only, 0006-products-brand-availability-index, 0007-products-price-covering-index, 0008-click-count-progress, 0009-brands-visibility-index, 0010-campaigns-type-order-index, 0011-changed-links-index, 0012-search-prefix-indexes, 0013-brand-key-limits, 0013-postback-tokens, 0014-click-velocity-and-commission-reason, 0015-currencies-payouts-order-facts, 0016-order-link-code, 0017-channels-read-scope, 0018-order-commission-rule, 0019-webhooks, 0020-approval-requests, 0021-catalogue-per-brand, 0022-campaigns-per-brand, 0023-brand-profile, 0024-analytics, 0025-installation-settings, 0026-partitioned-clicks, 0027-users-and-sessions, 0028-partitioned-webhook-outbox, 0029-channel-management, 0030-channel-name-unique, 0031-daily-rollups, 0032-click-facts-rollups, 0033-unrolled-clicks, 0034-campaigns-list-covering-index, 0035-campaigns-type-covering-index, 0036-scheduled-tasks, 0037-mail-messages, 0038-user-language, 0039-applications, 0040-session-devices, 0041-second-factors, 0042-lock-dates, 0043-claims, 0044-payee-details, 0045-money, 0046-operators-and-audit, 0047-fraud-holds, 0048-suspensions, 0049-view-as-sessions, 0050-orders-by-report-time, 0051-coupon-codes, 0052-product-feeds, 0054-first-party-tag, 0055-commission-rules, 0056-affiliate-groups, 0057-terms-notice, 0058-brand-scores, 0059-session-factor-method, 0060-server-reporting, 0061-reconciliations, 0062-tag-tests, 0063-link-script, 0064-sub-ids, 0065-affiliate-postbacks, 0066-webhook-attempt-failures, 0067-links-listed-newest-first/);
  database = openDatabase(env.DATABASE_URL!);
  await servicesFor(database).access.upsertAffiliate('aff-cli', 'CLI affiliate');
});
after(async () => {
  await database.close();
  await testDb.drop();
  rmSync(dir, { recursive: true, force: true });
});

test('affnet migrate on an up-to-date database changes nothing', async () => {
  const result = await runCli(['migrate'], env);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /Database is up to date/);
});

const lastLine = (text: string) => text.trim().split('\n').at(-1)!;

describe('affnet keys', () => {
  test('create prints a working key alone on the last line, stored only as a hash', async () => {
    const result = await runCli(['keys', 'create', '--affiliate', 'aff-cli', '--name', 'ci'], env);
    assert.equal(result.code, 0, result.stderr);
    const key = lastLine(result.stdout);
    assert.match(key, /^afn_[0-9A-Za-z]{32}$/);
    const principal = await servicesFor(database).access.resolveKey(key);
    assert.equal(principal?.affiliateId, 'aff-cli');
    assert.deepEqual([...principal.scopes].sort(), ['analytics:read', 'approvals:write', 'brands:read', 'campaigns:read', 'channels:read', 'channels:write', 'claims:write', 'orders:read', 'products:read', 'shortener:read', 'shortener:write', 'webhooks:read', 'webhooks:write'], 'a key created without --scopes gets every affiliate scope');
    const stored = await database.db.selectFrom('api_keys').selectAll().where('id', '=', principal.keyId).executeTakeFirstOrThrow();
    assert.equal(stored.key_hash, hashKey(key));
    assert.ok(!JSON.stringify(stored).includes(key), 'the key itself is never stored');
  });

  test('--scopes narrows the key and --rate-limit raises its limit', async () => {
    const result = await runCli(['keys', 'create', '--affiliate', 'aff-cli', '--scopes', 'brands:read,orders:read', '--rate-limit', '5000'], env);
    assert.equal(result.code, 0, result.stderr);
    const principal = await servicesFor(database).access.resolveKey(lastLine(result.stdout));
    assert.deepEqual([...principal!.scopes].sort(), ['brands:read', 'orders:read']);
    assert.equal(principal!.rateLimit, 5000);
  });

  test('list shows keys without the secret, revoke disables a key', async () => {
    const created = await runCli(['keys', 'create', '--affiliate', 'aff-cli', '--name', 'to-revoke'], env);
    const key = lastLine(created.stdout);
    const id = (await servicesFor(database).access.resolveKey(key))!.keyId;
    const listed = await runCli(['keys', 'list', '--affiliate', 'aff-cli'], env);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, new RegExp(id));
    assert.ok(!listed.stdout.includes(key));
    const revoked = await runCli(['keys', 'revoke', id], env);
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.equal(await servicesFor(database).access.resolveKey(key), undefined);
    assert.match((await runCli(['keys', 'list', '--affiliate', 'aff-cli'], env)).stdout, new RegExp(`${id}\\t\\S+\\trevoked`));
  });

  test('bad input answers a clear message and a non-zero exit code', async () => {
    const unknownAffiliate = await runCli(['keys', 'create', '--affiliate', 'nobody'], env);
    assert.notEqual(unknownAffiliate.code, 0);
    assert.match(unknownAffiliate.stderr, /affiliate "nobody" does not exist/);
    const badScope = await runCli(['keys', 'create', '--affiliate', 'aff-cli', '--scopes', 'brands:read,brands:write'], env);
    assert.notEqual(badScope.code, 0);
    assert.match(badScope.stderr, /unknown scope "brands:write"/);
    const noOwner = await runCli(['keys', 'create'], env);
    assert.notEqual(noOwner.code, 0);
    const unknownKey = await runCli(['keys', 'revoke', 'key_missing'], env);
    assert.notEqual(unknownKey.code, 0);
    assert.match(unknownKey.stderr, /no key with id "key_missing"/);
  });
});

describe('affnet import', () => {
  const brand = brandInput({ id: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', name: 'Imported', slug: 'imported', site: 'https://imported.example' });

  test('imports NDJSON, reports inserted/updated/rejected and a line number and reason per bad row', async () => {
    const file = join(dir, 'brands.ndjson');
    const badSlug = { ...brand, id: 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', slug: 'Not A Slug' };
    const other = { ...brand, id: 'cccccccc-cccc-4ccc-8ccc-cccccccccccc', slug: 'other', name: 'Other' };
    writeFileSync(file, [JSON.stringify(brand), '{not json', JSON.stringify(badSlug), JSON.stringify({ ...brand, name: 'Imported Again' }), JSON.stringify(other)].join('\n') + '\n');
    const result = await runCli(['import', 'brands', file], env);
    assert.equal(result.code, 2, 'rejected rows make the exit code 2');
    assert.match(result.stdout, /brands: 2 inserted, 1 updated, 2 rejected/);
    assert.match(result.stderr, /line 2: not valid JSON/);
    assert.match(result.stderr, /line 3: slug is malformed/);
    const rows = await database.db.selectFrom('brands').select(['id', 'name']).orderBy('id').execute();
    assert.deepEqual(rows.map((r) => r.name), ['Imported Again', 'Other']);
  });

  test('products and campaigns of unknown brands are rejected, the rest applied', async () => {
    const products = join(dir, 'products.ndjson');
    writeFileSync(
      products,
      [JSON.stringify(productInput('imp-1', brand.id, 'Imported shoe', 1234)), JSON.stringify(productInput('imp-2', '99999999-9999-4999-8999-999999999999', 'Orphan', 1))].join('\n'),
    );
    const p = await runCli(['import', 'products', products], env);
    assert.equal(p.code, 2);
    assert.match(p.stdout, /products: 1 inserted, 0 updated, 1 rejected/);
    assert.match(p.stderr, /line 2: organizationId 99999999-9999-4999-8999-999999999999 is not a known brand/);

    const campaigns = join(dir, 'campaigns.ndjson');
    writeFileSync(campaigns, JSON.stringify(campaignInput({ id: 'imp-c-1', organizationId: brand.id, type: 'GenericCoupon', url: 'https://imported.example/promo' })) + '\n');
    const c = await runCli(['import', 'campaigns', campaigns], env);
    assert.equal(c.code, 0, c.stderr);
    assert.match(c.stdout, /campaigns: 1 inserted, 0 updated, 0 rejected/);
  });

  test('a product line with what matters only and a campaign line with its required fields are imported with the defaults', async () => {
    const products = join(dir, 'short-products.ndjson');
    const short = { organizationId: brand.id, id: 'imp-short', name: 'Short shoe', url: 'https://imported.example/p/short', available: true, price: 2_990 };
    writeFileSync(products, [JSON.stringify(short), JSON.stringify({ ...short, id: 'imp-unpriced', price: undefined })].join('\n'));
    const p = await runCli(['import', 'products', products], env);
    assert.equal(p.code, 2, p.stderr);
    assert.match(p.stdout, /products: 1 inserted, 0 updated, 1 rejected/);
    assert.match(p.stderr, /line 2: a product needs a price/);
    const row = await database.db.selectFrom('products').select(['description', 'images', 'options', 'price_cents']).where('id', '=', 'imp-short').executeTakeFirstOrThrow();
    assert.deepEqual({ ...row, images: JSON.parse(row.images) as unknown, options: JSON.parse(row.options) as unknown }, {
      description: '',
      images: [],
      options: [{ id: 'imp-short', ean: '', name: '', available: true, seller: '', images: [], categories: [], brands: [], pricing: [{ listPrice: 2_990, price: 2_990, metadata: [] }], stocks: [], metadata: [] }],
      price_cents: 2_990,
    });

    const campaigns = join(dir, 'short-campaigns.ndjson');
    writeFileSync(campaigns, JSON.stringify({ organizationId: brand.id, id: 'imp-c-short', name: 'Short deal', type: 'GenericCoupon', code: 'SHORT', period: { startAt: '2026-01-01T00:00:00Z', endAt: '2026-12-31T00:00:00Z' } }) + '\n');
    const c = await runCli(['import', 'campaigns', campaigns], env);
    assert.equal(c.code, 0, c.stderr);
    const campaign = await database.db.selectFrom('campaigns').select(['url', 'description', 'is_highlight']).where('id', '=', 'imp-c-short').executeTakeFirstOrThrow();
    assert.deepEqual(campaign, { url: 'https://imported.example/', description: '', is_highlight: 0 });
  });

  test('a missing file or an unknown kind fails clearly', async () => {
    const missing = await runCli(['import', 'brands', join(dir, 'nope.ndjson')], env);
    assert.notEqual(missing.code, 0);
    assert.match(missing.stderr, /no such file/);
    const kind = await runCli(['import', 'users', join(dir, 'brands.ndjson')], env);
    assert.notEqual(kind.code, 0);
    assert.match(kind.stderr, /users/);
  });
});
