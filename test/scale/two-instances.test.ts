// Two real server processes on one PostgreSQL database and one Redis: what one instance does,
// the other sees. Runs only in the PostgreSQL + Redis pass of the suite.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { openDatabase, type Database } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrate.js';
import { buildWorld, BRANDS } from '../helpers/world.js';
import { freshDatabase, redisEnv, type TestDatabase } from '../helpers/databases.js';
import { startServerProcess, type ServerProcess } from '../helpers/processes.js';
import { runCli } from '../helpers/cli.js';
import { pollUntil } from '../helpers/wait.js';
import { BROWSER_UA } from '../helpers/tracking.js';
import { servicesFor } from '../helpers/databases.js';

let testDb: TestDatabase;
let database: Database;
let env: Record<string, string>;
let a: ServerProcess;
let b: ServerProcess;

before(async () => {
  assert.ok(process.env.TEST_POSTGRES_URL && process.env.TEST_REDIS_URL, 'the multi-instance test needs TEST_POSTGRES_URL and TEST_REDIS_URL');
  testDb = await freshDatabase();
  database = openDatabase(testDb.url);
  await migrateToLatest(database);
  await buildWorld(database);
  env = { DATABASE_URL: testDb.url, PUBLIC_URL: 'http://go.test', CLICK_FLUSH_MS: '100', ...redisEnv() };
  [a, b] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
});

after(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await database?.close();
  await testDb?.drop();
});

const get = (server: ServerProcess, path: string, key?: string, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${path}`, { headers: { ...(key ? { 'x-api-key': key } : {}), ...headers }, redirect: 'manual' });

async function createLink(server: ServerProcess, key: string): Promise<string> {
  const res = await fetch(`${server.url}/affiliate/shortener/url`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify({ organizationId: BRANDS.acme, type: 'BrandPage', mdasc: `two-${Math.random()}` }),
  });
  assert.equal(res.status, 200, await res.clone().text());
  const channels = (await res.json()) as Array<{ shortUrls: string[] }>;
  return channels[0]!.shortUrls[0]!.split('/').pop()!;
}

async function countOf(server: ServerProcess, key: string, code: string): Promise<number | undefined> {
  const res = await get(server, '/affiliate/shortener/urls?type=BrandPage&limit=100', key);
  const [page] = (await res.json()) as Array<{ data: Array<{ urlCode: string; count: number }> }>;
  return page!.data.find((r) => r.urlCode === code)?.count;
}

describe('two instances on one PostgreSQL and one Redis', () => {
  test('the per-key rate limit is shared: 60 requests spread over both, the 61st refused on either', async () => {
    const { key } = await servicesFor(database).access.createApiKey({ affiliateId: 'aff-1' });
    for (let i = 0; i < 60; i++) {
      const res = await get(i % 2 ? a : b, '/affiliate/brands', key);
      assert.equal(res.status, 200, `request ${i + 1}`);
    }
    for (const server of [a, b]) {
      const res = await get(server, '/affiliate/brands', key);
      assert.equal(res.status, 429);
      assert.equal(((await res.json()) as { code: string }).code, 'TOO_MANY_REQUESTS');
    }
  });

  test('failed sign-ins are counted across both: past 6 wrong passwords in all, attempts are held on either', async () => {
    await servicesFor(database).users.createWithPassword({ affiliateId: 'aff-1' }, 'held@aff1.example', 'member', 'a long enough password');
    const signIn = (server: ServerProcess, password: string) =>
      fetch(`${server.url}/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'held@aff1.example', password }) });
    // Counted apart, each instance would check 6 before holding any: 12 in all. Shared, 6 (one or
    // two more where a 1 s hold lapses on a slow machine).
    const checked = { a: 0, b: 0 };
    const held = { a: 0, b: 0 };
    for (let i = 0; i < 14; i++) {
      const [name, server] = i % 2 ? (['a', a] as const) : (['b', b] as const);
      const res = await signIn(server, `wrong guess ${i}`);
      if (res.status === 429) {
        held[name]++;
        assert.ok(Number(res.headers.get('retry-after')) >= 1);
      } else {
        assert.equal(res.status, 401);
        checked[name]++;
      }
    }
    assert.ok(checked.a + checked.b <= 8, `${checked.a + checked.b} wrong passwords checked`);
    assert.ok(held.a > 0 && held.b > 0, 'both instances hold attempts back');
  });

  test('a link created through one redirects through the other, and one visitor counts once', async () => {
    const { key } = await servicesFor(database).access.createApiKey({ affiliateId: 'aff-1', rateLimit: 10_000 });
    const code = await createLink(a, key);
    const viaB = await get(b, `/${code}`, undefined, { 'user-agent': BROWSER_UA });
    assert.equal(viaB.status, 302);
    assert.match(viaB.headers.get('location')!, /^https:\/\/www\.acme\.com\/store\?mdasc=.*&clickId=[0-9a-f]{32}$/);
    const viaA = await get(a, `/${code}`, undefined, { 'user-agent': BROWSER_UA });
    assert.equal(viaA.status, 302);
    // Both clicks are stored; the repeat window lives in Redis, so the second does not count.
    const stored = await pollUntil(
      () => database.db.selectFrom('clicks').innerJoin('short_links', 'short_links.id', 'clicks.link_id').select(['clicks.counted']).where('short_links.code', '=', code).execute(),
      (rows) => rows.length === 2,
    );
    assert.deepEqual(stored.map((r) => r.counted).sort(), [0, 1]);
    assert.equal(await pollUntil(() => countOf(a, key, code), (n) => n === 1), 1);
    assert.equal(await countOf(b, key, code), 1);
  });

  test('the click velocity budget of an address is shared: 8 user agents from one address spread over both, 5 count', async () => {
    const { key } = await servicesFor(database).access.createApiKey({ affiliateId: 'aff-1', rateLimit: 10_000 });
    const code = await createLink(a, key);
    for (let i = 0; i < 8; i++) {
      const ua = BROWSER_UA.replace('Chrome/124.0.0.0', `Chrome/${100 + i}.0.0.0`);
      assert.equal((await get(i % 2 ? a : b, `/${code}`, undefined, { 'user-agent': ua })).status, 302);
    }
    const stored = await pollUntil(
      () => database.db.selectFrom('clicks').innerJoin('short_links', 'short_links.id', 'clicks.link_id').select(['clicks.counted', 'clicks.is_suspicious']).where('short_links.code', '=', code).execute(),
      (rows) => rows.length === 8,
    );
    assert.equal(stored.length, 8);
    assert.equal(stored.filter((r) => r.counted === 1).length, 5, 'each instance’s own window would have counted all 8');
    assert.equal(stored.filter((r) => r.is_suspicious === 1).length, 3);
    // The links' counts follow the stored clicks a few flushes later.
    assert.equal(await pollUntil(() => countOf(a, key, code), (n) => n === 5, { timeoutMs: 10_000 }), 5);
    assert.equal(await countOf(b, key, code), 5);
  });

  test('a link deactivated with the CLI stops redirecting on both instances within a second', async () => {
    const { key } = await servicesFor(database).access.createApiKey({ affiliateId: 'aff-1', rateLimit: 10_000 });
    const code = await createLink(a, key);
    for (const server of [a, b]) assert.equal((await get(server, `/${code}`)).status, 302, 'cached as active first');
    const result = await runCli(['links', 'deactivate', code], env);
    assert.equal(result.code, 0, result.stderr);
    for (const server of [a, b]) {
      const status = await pollUntil(async () => (await get(server, `/${code}`)).status, (s) => s === 404, { timeoutMs: 1000 });
      assert.equal(status, 404);
    }
  });

  test("a brand's withdrawal through one instance stops the affiliate's links on the other within a second", async () => {
    const { key } = await servicesFor(database).access.createApiKey({ affiliateId: 'aff-2', rateLimit: 10_000 });
    const brandKey = (await servicesFor(database).access.createApiKey({ brandId: BRANDS.globex, rateLimit: 10_000 })).key;
    const approve = await fetch(`${a.url}/advertiser/affiliates/aff-2/approval`, { method: 'POST', headers: { 'x-api-key': brandKey } });
    assert.equal(approve.status, 200, await approve.clone().text());
    const created = await fetch(`${a.url}/affiliate/shortener/url`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ organizationId: BRANDS.globex, type: 'Home' }),
    });
    const code = ((await created.json()) as Array<{ shortUrls: string[] }>).find((c) => c.shortUrls.length)!.shortUrls[0]!.split('/').pop()!;
    const follow = () => get(b, `/${code}`, undefined, { 'user-agent': BROWSER_UA });
    assert.equal((await follow()).status, 302, 'the other instance redirects while approved');
    const withdrawn = await fetch(`${a.url}/advertiser/affiliates/aff-2/approval`, { method: 'DELETE', headers: { 'x-api-key': brandKey } });
    assert.equal(withdrawn.status, 204);
    const status = await pollUntil(async () => (await follow()).status, (s) => s === 404, { timeoutMs: 1000 });
    assert.equal(status, 404, 'the other instance stops the link within a second');
  });

  test('a key revoked with the CLI is refused by both instances within a second', async () => {
    const { id, key } = await servicesFor(database).access.createApiKey({ affiliateId: 'aff-1', rateLimit: 10_000 });
    for (const server of [a, b]) assert.equal((await get(server, '/affiliate/brands', key)).status, 200);
    const result = await runCli(['keys', 'revoke', id], env);
    assert.equal(result.code, 0, result.stderr);
    for (const server of [a, b]) {
      const status = await pollUntil(async () => (await get(server, '/affiliate/brands', key)).status, (s) => s === 401, { timeoutMs: 1000 });
      assert.equal(status, 401);
    }
  });

  test('a conversion reported to one instance is in the orders served by the other', async () => {
    const affiliateKey = (await servicesFor(database).access.createApiKey({ affiliateId: 'aff-1', rateLimit: 10_000 })).key;
    const brandKey = (await servicesFor(database).access.createApiKey({ brandId: BRANDS.acme, rateLimit: 10_000 })).key;
    const code = await createLink(a, affiliateKey);
    const click = await get(a, `/${code}`, undefined, { 'user-agent': BROWSER_UA });
    const clickId = new URL(click.headers.get('location')!).searchParams.get('clickId')!;
    const orderId = `two-instances-${Date.now()}`;
    // Reported at once to B, while the click may still be in A's buffer: B waits for A's flush.
    const reported = await fetch(`${b.url}/advertiser/conversions`, {
      method: 'POST',
      headers: { 'x-api-key': brandKey, 'content-type': 'application/json' },
      body: JSON.stringify({ clickId, orderId, value: 1999, items: [{ id: 'sku', name: 'Sneakers', quantity: 1, price: 1999, categories: 1 }] }),
    });
    assert.equal(reported.status, 201, await reported.clone().text());
    const res = await get(a, `/affiliate/orders/${orderId}`, affiliateKey);
    assert.equal(res.status, 200);
    const [order] = (await res.json()) as Array<{ data: { orderId: string; commission: number; organizationId: string } }>;
    assert.equal(order!.data.orderId, orderId);
    assert.equal(order!.data.commission, 150);
    assert.equal(order!.data.organizationId, BRANDS.acme);
  });
});
