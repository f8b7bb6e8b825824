// Brand keys from `affnet keys create --brand`, run as a separate process against the database of
// a running service.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../helpers/cli.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { BRANDS } from '../helpers/world.js';
import { assertError, newKey } from '../helpers/api.js';
import { conversionOf, freshClick, item, report } from '../helpers/tracking.js';
import { servicesFor } from '../helpers/databases.js';

let h: Harness;
let env: Record<string, string>;
let aff1: string;

before(async () => {
  h = await startHarness();
  env = { DATABASE_URL: h.config.databaseUrl };
  aff1 = (await newKey(h, 'aff-1', { rateLimit: 100_000 })).key;
});
after(async () => {
  await h.close();
});

const lastLine = (text: string) => text.trim().split('\n').at(-1)!;
let seq = 0;
const oid = (label: string) => `CLI-${label}-${++seq}`;

async function brandKeyCount(): Promise<number> {
  const row = await h.service.database.db
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('brand_id', 'is not', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('affnet keys create --brand', () => {
  test('prints a brand key with every brand scope (and no affiliate one)', async () => {
    const result = await runCli(['keys', 'create', '--brand', BRANDS.acme, '--name', 'shop backend'], env);
    assert.equal(result.code, 0, result.stderr);
    const key = lastLine(result.stdout);
    assert.match(key, /^afn_[0-9A-Za-z]{32}$/);
    const principal = await servicesFor(h.service.database).access.resolveKey(key);
    assert.equal(principal?.brandId, BRANDS.acme);
    assert.equal(principal?.affiliateId, null);
    assert.deepEqual([...principal.scopes].sort(), ['affiliates:read', 'affiliates:write', 'analytics:read', 'catalog:read', 'catalog:write', 'conversions:read', 'conversions:write', 'webhooks:read', 'webhooks:write']);

    const clickId = await freshClick(h, aff1, BRANDS.acme);
    const conv = conversionOf(await report(h, key, { clickId, orderId: oid('key'), value: 1999, items: [item(1999)] }), 201);
    assert.equal(conv.commission, 150);
    assertError(await h.get('/affiliate/orders', key), 403, 'forbidden');
    assertError(await h.get('/affiliate/brands', key), 403, 'forbidden');
  });

  test('a brand key without conversions:write cannot be created: a clear message, a non-zero exit, no key', async () => {
    const before = await brandKeyCount();
    for (const scopes of ['brands:read', 'conversions:write,orders:read', 'orders:read']) {
      const result = await runCli(['keys', 'create', '--brand', BRANDS.acme, '--scopes', scopes], env);
      assert.notEqual(result.code, 0, `--scopes ${scopes} must fail: ${result.stdout}`);
      assert.match(result.stderr, /unknown scope "(brands|orders):read"/);
      assert.match(result.stderr, /allowed scopes: conversions:write/);
      assert.ok(!/afn_/.test(result.stdout), 'no key is printed');
    }
    const empty = await runCli(['keys', 'create', '--brand', BRANDS.acme, '--scopes', ''], env);
    assert.notEqual(empty.code, 0);
    assert.match(empty.stderr, /no scope given/);
    const unknownBrand = await runCli(['keys', 'create', '--brand', BRANDS.unknown], env);
    assert.notEqual(unknownBrand.code, 0);
    assert.match(unknownBrand.stderr, new RegExp(`brand "${BRANDS.unknown}" does not exist`));
    const both = await runCli(['keys', 'create', '--brand', BRANDS.acme, '--affiliate', 'aff-1'], env);
    assert.notEqual(both.code, 0);
    assert.equal(await brandKeyCount(), before);

    // Nor does an affiliate key get the brand scope.
    const affiliate = await runCli(['keys', 'create', '--affiliate', 'aff-1', '--scopes', 'conversions:write'], env);
    assert.notEqual(affiliate.code, 0);
    assert.match(affiliate.stderr, /unknown scope "conversions:write"/);
  });
});
