// `affnet serve --workers 2`: two processes on one port, on SQLite (one file, both writing) and
// on PostgreSQL, sharing Redis. Each new connection goes to the next worker, so requests on fresh
// connections alternate between them: the per-key limit and the repeat window must hold across
// both, and a stop must write what each buffered. Runs in the PostgreSQL + Redis pass.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrate.js';
import { buildWorld, BRANDS } from '../helpers/world.js';
import { freshDatabase, redisEnv, servicesFor, type TestDatabase } from '../helpers/databases.js';
import { startServerProcess } from '../helpers/processes.js';
import { runCli } from '../helpers/cli.js';
import { pollUntil } from '../helpers/wait.js';
import { BROWSER_UA } from '../helpers/tracking.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request on a connection of its own (no keep-alive), so the next worker takes it. */
function fresh(url: string, path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { method: options.method ?? 'GET', agent: false, headers: { connection: 'close', ...options.headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

const listenable = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

/**
 * Two free ports in a row: worker i answers metrics on the first port + i. Taken below the
 * ephemeral range (32768 and up), where the workers' own outgoing connections to the databases
 * could take the second port between this check and the workers' start.
 */
async function freePortPair(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if ((await listenable(port)) && (await listenable(port + 1))) return port;
  }
}

/** The redirects one worker has written, from its own metrics. */
async function redirectsOf(metricsPort: number): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  return [...text.matchAll(/^affnet_redirects_total\{outcome="(?!not_found)[^"]+"\} (\d+)/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
}

const databases: Array<[string, () => Promise<TestDatabase>]> = [
  [
    'SQLite',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'affnet-workers-'));
      return { url: `sqlite:${join(dir, 'test.sqlite')}`, dialect: 'sqlite', drop: async () => rmSync(dir, { recursive: true, force: true }) };
    },
  ],
  ['PostgreSQL', freshDatabase],
];

for (const [name, open] of databases) {
  describe(`serve --workers 2 on ${name} and Redis`, () => {
    test('both workers serve; the key limit and the repeat window hold across them; a stop writes every buffered click', async () => {
      assert.ok(process.env.TEST_REDIS_URL, 'the workers test needs TEST_REDIS_URL');
      const testDb = await open();
      const database = openDatabase(testDb.url);
      try {
        await migrateToLatest(database);
        await buildWorld(database);
        const services = servicesFor(database);
        const metricsPort = await freePortPair();
        // Clicks stay buffered until the stop, unless written for the metrics below.
        const env = { DATABASE_URL: testDb.url, PUBLIC_URL: 'http://go.test', CLICK_FLUSH_MS: '100', METRICS_PORT: String(metricsPort), ...redisEnv() };
        const server = await startServerProcess(env, { args: ['--workers', '2'] });
        let stopped = false;
        try {
          // /healthz answers once the first worker listens; the second starts after it.
          const output = await pollUntil(async () => server.output(), (text) => text.includes('serving with 2 workers'), { timeoutMs: 60_000, everyMs: 100 });
          assert.match(output, /serving with 2 workers/);
          // Six requests allowed per minute, on six connections: three to each worker.
          const { key } = await services.access.createApiKey({ affiliateId: 'aff-1', rateLimit: 6 });
          for (let i = 0; i < 6; i++) assert.equal((await fresh(server.url, '/affiliate/brands', { headers: { 'x-api-key': key } })).status, 200, `request ${i + 1}`);
          for (let i = 0; i < 2; i++) {
            const refused = await fresh(server.url, '/affiliate/brands', { headers: { 'x-api-key': key } });
            assert.equal(refused.status, 429, 'the seventh and eighth requests are refused by whichever worker takes them');
          }

          const { key: linkKey } = await services.access.createApiKey({ affiliateId: 'aff-1', rateLimit: 1000 });
          const created = await fresh(server.url, '/affiliate/shortener/url', {
            method: 'POST',
            headers: { 'x-api-key': linkKey, 'content-type': 'application/json' },
            body: JSON.stringify({ organizationId: BRANDS.acme, type: 'BrandPage', mdasc: 'workers' }),
          });
          assert.equal(created.status, 200, created.body);
          const code = (JSON.parse(created.body) as Array<{ shortUrls: string[] }>)[0]!.shortUrls[0]!.split('/').pop()!;
          // One visitor (same address and browser) six times, on six connections.
          for (let i = 0; i < 6; i++) assert.equal((await fresh(server.url, `/${code}`, { headers: { 'user-agent': BROWSER_UA } })).status, 302);
          const served = await pollUntil(
            async () => {
              try {
                return [await redirectsOf(metricsPort), await redirectsOf(metricsPort + 1)];
              } catch (error) {
                throw new Error(`reading the workers' metrics failed (${String(error)}); the server said:\n${server.output()}`, { cause: error });
              }
            },
            ([first, second]) => first! + second! === 6,
          );
          assert.ok(served[0]! > 0 && served[1]! > 0, `both workers answered redirects: ${served.join(' and ')}`);

          // Clicks answered now stay buffered in both workers until the stop writes them.
          for (let i = 0; i < 4; i++) assert.equal((await fresh(server.url, `/${code}`, { headers: { 'user-agent': BROWSER_UA } })).status, 302);
          assert.equal(await server.stop(), 0, server.output());
          stopped = true;
          const clicks = await database.db
            .selectFrom('clicks')
            .innerJoin('short_links', 'short_links.id', 'clicks.link_id')
            .where('short_links.code', '=', code)
            .select((eb) => [eb.fn.countAll<number>().as('stored'), eb.fn.sum<number>('clicks.counted').as('counted')])
            .executeTakeFirstOrThrow();
          assert.deepEqual({ stored: Number(clicks.stored), counted: Number(clicks.counted) }, { stored: 10, counted: 1 }, 'every click stored; the visitor counted once, whichever worker answered');
          const link = await database.db.selectFrom('short_links').select('click_count').where('code', '=', code).executeTakeFirstOrThrow();
          assert.equal(Number(link.click_count), 1, "the link's count, added up by both workers' writers, counts the visitor once");
        } finally {
          if (!stopped) await server.stop();
        }
      } finally {
        await database.close();
        await testDb.drop();
      }
    });
  });
}

test('--workers above one without REDIS_URL is refused, saying why', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'affnet-workers-'));
  try {
    const result = await runCli(['serve', '--workers', '2'], { DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`, REDIS_URL: '', PORT: '0' });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /--workers with more than one process needs REDIS_URL/);
    const zero = await runCli(['serve', '--workers', '0'], { DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`, REDIS_URL: '', PORT: '0' });
    assert.notEqual(zero.code, 0);
    assert.match(zero.stderr, /a whole number from 1 to 64/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
