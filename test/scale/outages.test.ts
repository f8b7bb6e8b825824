// What users see when Redis or PostgreSQL goes away while the service is serving, and that it
// recovers by itself when they return. Redis is a real redis-server started by this test on a
// port of its own; PostgreSQL is reached through a TCP proxy the test can cut.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.js';
import { createService, type Service } from '../../src/server.js';
import { buildWorld, BRANDS, type World } from '../helpers/world.js';
import { freshDatabase, type TestDatabase } from '../helpers/databases.js';
import { freePort } from '../helpers/processes.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';
import { pollUntil } from '../helpers/wait.js';
import { BROWSER_UA } from '../helpers/tracking.js';
import { injector, type Inject } from '../helpers/inject.js';
import { servicesFor } from '../helpers/databases.js';

let testDb: TestDatabase;
let proxy: TcpProxy;
let redisPort: number;
let redis: ChildProcess | undefined;
let service: Service;
let world: World;
const spoolDir = mkdtempSync(join(tmpdir(), 'affnet-outage-spool-'));
const spooled = () => readdirSync(spoolDir).filter((name) => !name.startsWith('.'));

function startRedis(): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.once('error', reject);
    child.stdout.on('data', (d: Buffer) => {
      if (d.toString().includes('Ready to accept connections')) resolve(child);
    });
  });
}

function stopRedis(): Promise<void> {
  const child = redis;
  redis = undefined;
  if (!child || child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

before(async () => {
  assert.ok(process.env.TEST_POSTGRES_URL, 'the outage tests need TEST_POSTGRES_URL');
  testDb = await freshDatabase();
  const target = new URL(testDb.url);
  proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
  const viaProxy = new URL(testDb.url);
  viaProxy.hostname = '127.0.0.1';
  viaProxy.port = String(proxy.port);
  redisPort = await freePort();
  redis = await startRedis();
  const config = loadConfig({
    DATABASE_URL: viaProxy.toString(),
    REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    PUBLIC_URL: 'http://go.test',
    CLICK_FLUSH_MS: '50',
    // Small, so an outage's clicks overflow to files within a test.
    CLICK_BUFFER_MB: '1',
    CLICK_SPOOL_DIR: spoolDir,
  });
  service = await createService(config);
  request = injector(service);
  world = await buildWorld(service.database);
});

after(async () => {
  await proxy?.restore();
  await service?.close();
  await stopRedis();
  await proxy?.close();
  await testDb?.drop();
  rmSync(spoolDir, { recursive: true, force: true });
});

let request: Inject;
const inject = (url: string, headers: Record<string, string> = {}) => request({ method: 'GET', url, headers });

async function linkCode(key: string, mdasc: string): Promise<string> {
  const res = await request({ method: 'POST', url: '/affiliate/shortener/url', headers: { 'x-api-key': key }, payload: { organizationId: BRANDS.acme, type: 'Home', mdasc } });
  assert.equal(res.statusCode, 200, res.body);
  return (res.json<Array<{ shortUrls: string[] }>>())[0]!.shortUrls[0]!.split('/').pop()!;
}

describe('Redis goes away and comes back', () => {
  test('requests keep being served (each instance limits keys alone), /readyz says not ready, clicks are kept, and it all recovers', async () => {
    const key = world.keys.aff1;
    const code = await linkCode(key, 'redis-outage');
    assert.equal((await inject('/readyz')).statusCode, 200);

    await stopRedis();
    const down = await pollUntil(() => inject('/readyz'), (r) => r.statusCode === 503);
    assert.equal(down.statusCode, 503);
    assert.equal(down.json<{ code: string }>().code, 'redis_unavailable');

    // Affiliates are still served, and a key keeps its limit: this instance counts it alone, and
    // its headers say so.
    for (let i = 0; i < 5; i++) assert.equal((await inject('/affiliate/brands', { 'x-api-key': key })).statusCode, 200);
    const limited = (await servicesFor(service.database).access.createApiKey({ affiliateId: 'aff-1', rateLimit: 3 })).key;
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await inject('/affiliate/brands', { 'x-api-key': limited }));
    assert.deepEqual(
      answers.map((r) => [r.statusCode, r.headers['x-ratelimit-remaining']]),
      [
        [200, '2'],
        [200, '1'],
        [200, '0'],
        [429, '0'],
      ],
    );
    // Guessing keys is still throttled: this instance counts the address's failures alone.
    const guesses = [];
    for (let i = 0; i < 21; i++) guesses.push((await inject('/affiliate/brands', { 'x-api-key': `afn_guess${String(i).padStart(27, '0')}` })).statusCode);
    assert.deepEqual(guesses, [...Array.from({ length: 20 }, () => 401), 429]);
    assert.equal((await inject('/affiliate/brands', { 'x-api-key': key })).statusCode, 200, 'a valid key from that address is served');

    // Redirects keep working and their clicks reach the database (the local repeat window decides).
    const redirects = 5;
    for (let i = 0; i < redirects; i++) {
      const res = await inject(`/${code}`, { 'user-agent': BROWSER_UA, 'x-forwarded-for': `10.0.0.${i + 1}` });
      assert.equal(res.statusCode, 302);
    }
    const stored = await pollUntil(
      () => service.database.db.selectFrom('clicks').innerJoin('short_links', 'short_links.id', 'clicks.link_id').select('clicks.id').where('short_links.code', '=', code).execute(),
      (rows) => rows.length === redirects,
    );
    assert.equal(stored.length, redirects);

    redis = await startRedis();
    const up = await pollUntil(() => inject('/readyz'), (r) => r.statusCode === 200, { timeoutMs: 10_000 });
    assert.equal(up.statusCode, 200);

    // Limiting is enforced again once Redis is back.
    const fresh = (await servicesFor(service.database).access.createApiKey({ affiliateId: 'aff-1', rateLimit: 3 })).key;
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await inject('/affiliate/brands', { 'x-api-key': fresh })).statusCode);
    assert.deepEqual(statuses, [200, 200, 200, 429]);
  });
});

describe('Redis is away when an instance starts', () => {
  test('it starts and serves, /readyz says Redis is down, and it connects when Redis comes back', async () => {
    await stopRedis();
    // Bounded only so a regression fails instead of hanging the suite: starting used to wait forever.
    const starting = createService(loadConfig({ DATABASE_URL: testDb.url, REDIS_URL: `redis://127.0.0.1:${redisPort}`, PUBLIC_URL: 'http://go.test', CLICK_FLUSH_MS: '50' }));
    const second = await Promise.race([starting, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the instance did not start without Redis')), 20_000).unref())]);
    try {
      const ask = injector(second);
      const down = await ask({ method: 'GET', url: '/readyz' });
      assert.equal(down.statusCode, 503);
      assert.equal(down.json<{ code: string }>().code, 'redis_unavailable');
      assert.equal((await ask({ method: 'GET', url: '/affiliate/brands', headers: { 'x-api-key': world.keys.aff1 } })).statusCode, 200);
      const code = await linkCode(world.keys.aff1, 'started-without-redis');
      assert.equal((await ask({ method: 'GET', url: `/${code}`, headers: { 'user-agent': BROWSER_UA } })).statusCode, 302);

      redis = await startRedis();
      const up = await pollUntil(() => ask({ method: 'GET', url: '/readyz' }), (r) => r.statusCode === 200, { timeoutMs: 10_000 });
      assert.equal(up.statusCode, 200);
    } finally {
      await second.close();
    }
  });
});

describe('PostgreSQL goes away and comes back', () => {
  test('requests that need it answer 503 with a clear body, /readyz says not ready, buffered clicks survive, and service resumes', async () => {
    const key = (await servicesFor(service.database).access.createApiKey({ affiliateId: 'aff-1', rateLimit: 10_000 })).key;
    const code = await linkCode(key, 'postgres-outage');
    // Warm the link cache, then cut the database.
    assert.equal((await inject(`/${code}`, { 'user-agent': 'curl/8' })).statusCode, 302);
    await proxy.cut();

    const ready = await pollUntil(() => inject('/readyz'), (r) => r.statusCode === 503, { timeoutMs: 10_000 });
    assert.equal(ready.statusCode, 503);
    assert.equal(ready.json<{ code: string }>().code, 'database_unavailable');

    service.services.access.forgetKeys(); // the next request must reach the database
    const res = await inject('/affiliate/products', { 'x-api-key': key });
    assert.equal(res.statusCode, 503, res.body);
    const body = res.json<{ code: string; error: string }>();
    assert.deepEqual(Object.keys(body).sort(), ['code', 'error', 'message', 'statusCode', 'success']);
    assert.equal(body.code, 'database_unavailable');
    assert.equal(body.error, 'ServiceUnavailable');
    assert.ok(Number(res.headers['retry-after']) >= 1);

    // A cached link still redirects, after several polls for changed links have failed too; its
    // clicks wait in the buffer while writes fail, and past CLICK_BUFFER_MB (1 MB here, some 4,000
    // clicks) in files.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const during = 6000;
    for (let i = 0; i < during; i++) {
      assert.equal((await inject(`/${code}`, { 'user-agent': BROWSER_UA, 'x-forwarded-for': `10.1.${i >> 8}.${i & 255}` })).statusCode, 302);
    }
    const files = await pollUntil(async () => spooled(), (names) => names.length > 0, { timeoutMs: 20_000 });
    assert.ok(files.length > 0, 'the clicks past the memory bound wait in files');

    await proxy.restore();
    const back = await pollUntil(() => inject('/readyz'), (r) => r.statusCode === 200, { timeoutMs: 10_000 });
    assert.equal(back.statusCode, 200);
    const again = await pollUntil(() => inject('/affiliate/products', { 'x-api-key': key }), (r) => r.statusCode === 200, { timeoutMs: 10_000 });
    assert.equal(again.statusCode, 200);

    const clicks = await pollUntil(
      () => service.database.db.selectFrom('clicks').innerJoin('short_links', 'short_links.id', 'clicks.link_id').select('clicks.id').where('short_links.code', '=', code).execute(),
      (rows) => rows.length === during + 1,
      { timeoutMs: 10_000 },
    );
    assert.equal(clicks.length, during + 1, 'every click answered during the outage is written once the database is back');
    assert.deepEqual(spooled(), [], 'and the files are gone');
  });
});
