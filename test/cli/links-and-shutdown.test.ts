// The operator's side of short links and of a stop: `affnet links deactivate|activate CODE`
// against a real database (and a server running on it), and a SIGTERM under a stream of clicks
// that must lose none of them (nor claim success when it could not write them).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import SqliteDriver from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { once } from 'node:events';
import { Agent, get as httpGet } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../helpers/cli.js';
import { BUILT_MAIN, ensureBuilt } from '../helpers/built-cli.js';
import { buildWorld, BRANDS, type World } from '../helpers/world.js';
import { pollUntil } from '../helpers/wait.js';
import { redisEnv } from '../helpers/databases.js';
import { openDatabase, type Database } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrate.js';
import { servicesOver } from '../../src/services.js';
import { systemClock } from '../../src/lib/clock.js';
import { loadConfig } from '../../src/config.js';
import { createService, type Service } from '../../src/server.js';
import { injector } from '../helpers/inject.js';

const PUBLIC_URL = 'http://go.test';
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

let dir: string;

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'affnet-links-'));
});
after(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A migrated database file holding the test world; returns it open. */
async function prepareDatabase(name: string): Promise<{ url: string; database: Database; world: World }> {
  const url = `sqlite:${join(dir, name)}`;
  const database = openDatabase(url);
  await migrateToLatest(database);
  const world = await buildWorld(database);
  return { url, database, world };
}

/** Creates Custom acme links for aff-1; returns the codes of its site and instagram links. */
async function acmeLinks(database: Database, world: World, path: string): Promise<{ site: string; insta: string }> {
  const channels = await servicesOver(database, { clock: systemClock, publicUrl: PUBLIC_URL, publisher: { publish: async () => {} } }).links.createShortLinks('aff-1', {
    organizationId: BRANDS.acme,
    type: 'Custom',
    url: `https://www.acme.com${path}`,
  });
  const codeOf = (channelId: string) => {
    const shortUrl = channels.find((c) => c.id === channelId)?.shortUrls[0];
    assert.ok(shortUrl, JSON.stringify(channels));
    return shortUrl.slice(`${PUBLIC_URL}/`.length);
  };
  return { site: codeOf(world.channels.aff1Site), insta: codeOf(world.channels.aff1Instagram) };
}

async function activeOf(database: Database, code: string): Promise<number> {
  const row = await database.db.selectFrom('short_links').select('active').where('code', '=', code).executeTakeFirstOrThrow();
  return row.active;
}

describe('affnet links deactivate / activate', () => {
  let database: Database;
  let world: World;
  let env: Record<string, string>;
  let service: Service;

  before(async () => {
    const prepared = await prepareDatabase('links.sqlite');
    database = prepared.database;
    world = prepared.world;
    // With TEST_REDIS_URL the CLI tells the server through Redis (at once); without, the
    // server's cache expires on its own (within 2 s).
    env = { DATABASE_URL: prepared.url, PUBLIC_URL, REDIS_URL: '', ...redisEnv() };
    // A server running on the same database, as in production: the CLI is another process.
    service = await createService(loadConfig({ ...env, CLICK_FLUSH_MS: '50' }), { database });
  });
  after(async () => {
    await service.close();
    await database.close();
  });

  const visit = (code: string) => injector(service)({ method: 'GET', url: `/${code}`, headers: { 'user-agent': CHROME } });

  test('deactivate stops a link (only that one), activate brings it back', async () => {
    const { site, insta } = await acmeLinks(database, world, '/cli/toggle');
    assert.equal(await activeOf(database, site), 1);

    const off = await runCli(['links', 'deactivate', site], env);
    assert.equal(off.code, 0, off.stderr);
    assert.match(off.stdout, new RegExp(`Link ${site} deactivated`));
    assert.equal(await activeOf(database, site), 0);
    assert.equal(await activeOf(database, insta), 1, 'the other channel’s link is untouched');

    const offAgain = await runCli(['links', 'deactivate', site], env);
    assert.equal(offAgain.code, 0, `deactivating an inactive link is not an error: ${offAgain.stderr}`);
    assert.equal(await activeOf(database, site), 0);

    const on = await runCli(['links', 'activate', site], env);
    assert.equal(on.code, 0, on.stderr);
    assert.match(on.stdout, new RegExp(`Link ${site} activated`));
    assert.equal(await activeOf(database, site), 1);
  });

  test('a running server sees the change within its cache TTL: 404 while inactive, 302 again after activate', async () => {
    const { site } = await acmeLinks(database, world, '/cli/running');
    assert.equal((await visit(site)).statusCode, 302, 'the link redirects (and is now cached as active)');

    const off = await runCli(['links', 'deactivate', site], env);
    assert.equal(off.code, 0, off.stderr);
    const refused = await pollUntil(() => visit(site), (res) => res.statusCode === 404, { timeoutMs: 3000, everyMs: 100 });
    assert.equal(refused.statusCode, 404, `still redirecting 3 s after deactivation: ${String(refused.headers.location)}`);
    assert.equal((refused.json<{ code: string }>()).code, 'link_not_found');

    const on = await runCli(['links', 'activate', site], env);
    assert.equal(on.code, 0, on.stderr);
    const back = await pollUntil(() => visit(site), (res) => res.statusCode === 302, { timeoutMs: 3000, everyMs: 100 });
    assert.equal(back.statusCode, 302, back.body);
    assert.match(String(back.headers.location), /^https:\/\/www\.acme\.com\/cli\/running\?clickId=[0-9a-f]{32}$/);
  });

  test('an unknown code → non-zero exit and a clear message naming the code; nothing changes', async () => {
    const { site } = await acmeLinks(database, world, '/cli/unknown');
    for (const command of ['deactivate', 'activate']) {
      const result = await runCli(['links', command, 'NoSuchCode9'], env);
      assert.notEqual(result.code, 0, `${command} of an unknown code must fail`);
      assert.match(result.stderr, /no short link with code "NoSuchCode9"/);
      assert.doesNotMatch(result.stdout, /activated|deactivated/);
    }
    // Codes are case-sensitive: the same letters in another case are another code.
    const swapped = [...site].map((ch) => (ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase())).join('');
    if (swapped !== site) {
      const result = await runCli(['links', 'deactivate', swapped], env);
      assert.notEqual(result.code, 0);
      assert.equal(await activeOf(database, site), 1);
    }
    const missing = await runCli(['links', 'deactivate'], env);
    assert.notEqual(missing.code, 0, 'a missing code is a usage error');
  });
});

/** A port nobody listens on right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

interface RunningServer {
  child: ChildProcess;
  base: string;
  /** Everything the server printed so far (stdout and stderr). */
  output(): string;
  /** Waits (bounded) for the process to end; code and signal stay null when it did not. */
  exit(timeoutMs: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Kills it if it still runs (cleanup only). */
  dispose(): Promise<void>;
}

/** `affnet serve` as a child process on a free port; resolves once /healthz answers. */
async function startServer(databaseUrl: string, extraEnv: Record<string, string> = {}): Promise<RunningServer> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  ensureBuilt();
  const child = spawn(process.execPath, [BUILT_MAIN, 'serve'], {
    cwd: ROOT,
    // Flushing at most every minute (the maximum): clicks stay buffered until the stop. The
    // visitors here are distinct user agents from one address, so the velocity limit (which
    // would count five of them) is off: every answered click must count.
    env: { ...process.env, DATABASE_URL: databaseUrl, REDIS_URL: '', PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL, CLICK_FLUSH_MS: '60000', CLICK_VELOCITY_LIMIT: '0', LOG_LEVEL: 'warn', ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const state = () => ({ code: child.exitCode, signal: child.signalCode });
  const running = () => child.exitCode === null && child.signalCode === null;
  const server: RunningServer = {
    child,
    base,
    output: () => output,
    exit: (timeoutMs) => pollUntil(async () => state(), () => !running(), { timeoutMs, everyMs: 50 }),
    async dispose() {
      if (running()) child.kill('SIGKILL');
      await ended;
    },
  };
  const healthy = await pollUntil(
    async () => {
      try {
        return (await fetch(`${base}/healthz`)).status === 200;
      } catch {
        return false;
      }
    },
    (ok) => ok || !running(),
    { timeoutMs: 30_000, everyMs: 100 },
  );
  if (!healthy) {
    await server.dispose();
    assert.fail(`the server did not come up: ${output}`);
  }
  return server;
}

/** One redirect as a browser would ask for it; the click id of a 302, or what happened instead. */
async function click(base: string, code: string, visitor: number): Promise<{ clickId: string } | { other: string }> {
  try {
    const res = await fetch(`${base}/${code}`, { redirect: 'manual', headers: { 'user-agent': `${CHROME} visitor/${visitor}` } });
    await res.arrayBuffer();
    if (res.status !== 302) return { other: `HTTP ${res.status}` };
    const location = res.headers.get('location') ?? '';
    const id = /[?&]clickId=([0-9a-f]{32})$/.exec(location)?.[1];
    assert.ok(id, `302 without a click id: ${location}`);
    return { clickId: id };
  } catch (error) {
    if (error instanceof assert.AssertionError) throw error;
    return { other: (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message };
  }
}

/** A redirect over a kept-alive connection: its click id and whether the answer closes the connection, or the error. */
function keptAliveClick(agent: Agent, base: string, code: string, visitor: number): Promise<{ clickId: string; closing: boolean } | { error: string }> {
  return new Promise((resolve) => {
    const request = httpGet(`${base}/${code}`, { agent, headers: { 'user-agent': `${CHROME} visitor/${visitor}` } }, (response) => {
      response.resume();
      response.on('end', () => {
        const id = /[?&]clickId=([0-9a-f]{32})$/.exec(response.headers.location ?? '')?.[1];
        if (response.statusCode !== 302 || !id) return resolve({ error: `HTTP ${response.statusCode}` });
        resolve({ clickId: id, closing: response.headers.connection === 'close' });
      });
      response.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    });
    request.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
  });
}

async function storedClicks(databaseUrl: string, code: string): Promise<{ ids: string[]; counted: number; linkCount: number }> {
  const database = openDatabase(databaseUrl);
  try {
    const rows = await database.db.selectFrom('clicks').select(['id', 'counted']).execute();
    const link = await database.db.selectFrom('short_links').select('click_count').where('code', '=', code).executeTakeFirstOrThrow();
    return { ids: rows.map((r) => r.id), counted: rows.filter((r) => r.counted === 1).length, linkCount: Number(link.click_count) };
  } finally {
    await database.close();
  }
}

/** A database with the test world and one short link; closed again, ready for a server. */
async function databaseWithOneLink(name: string): Promise<{ url: string; code: string }> {
  const { url, database, world } = await prepareDatabase(name);
  try {
    return { url, code: (await acmeLinks(database, world, `/${name}`)).site };
  } finally {
    await database.close();
  }
}

describe('SIGTERM under a stream of clicks', () => {
  test('the server stops with exit code 0 and every answered redirect is a stored click', { timeout: 90_000 }, async (t) => {
    const { url, code } = await databaseWithOneLink('shutdown');
    const server = await startServer(url);
    try {
      // A few hundred redirects from distinct browser visitors, 20 at a time; SIGTERM goes out
      // while they are still flowing.
      const TOTAL = 300;
      const CONCURRENCY = 20;
      const SIGNAL_AFTER = 150;
      let next = 0;
      let answered = 0;
      const clickIds = new Set<string>();
      const otherOutcomes = new Map<string, number>();
      let signalled = false;
      const worker = async () => {
        while (next < TOTAL) {
          const outcome = await click(server.base, code, next++);
          if ('clickId' in outcome) clickIds.add(outcome.clickId);
          else otherOutcomes.set(outcome.other, (otherOutcomes.get(outcome.other) ?? 0) + 1);
          if (++answered === SIGNAL_AFTER) signalled = server.child.kill('SIGTERM');
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      assert.ok(signalled, 'SIGTERM could not be delivered');
      const redirected = clickIds.size;

      const exit = await server.exit(20_000);
      assert.equal(exit.signal, null, `the server was killed by ${exit.signal} instead of stopping: ${server.output()}`);
      assert.equal(exit.code, 0, `exit code ${exit.code}: ${server.output()}`);
      assert.ok(redirected >= SIGNAL_AFTER - CONCURRENCY, `too few redirects answered before the stop (${redirected}); outcomes: ${JSON.stringify([...otherOutcomes])}`);

      const stored = await storedClicks(url, code);
      const summary = `302 answered: ${redirected}, clicks stored: ${stored.ids.length}, other outcomes: ${JSON.stringify([...otherOutcomes])}`;
      t.diagnostic(summary);
      const diagnostics = `${summary}\n${server.output()}`;
      assert.equal(stored.ids.length, redirected, `clicks lost (or invented) by the stop. ${diagnostics}`);
      assert.deepEqual(stored.ids.filter((id) => !clickIds.has(id)), [], 'every stored click is one that was handed out');
      assert.equal(stored.counted, redirected, `each visitor was distinct and human: all count. ${diagnostics}`);
      assert.equal(stored.linkCount, redirected, `the link’s count includes the flushed clicks. ${diagnostics}`);
    } finally {
      await server.dispose();
    }
  });

  test('under a keep-alive load no connection is reset: answers carry Connection: close, then new connections are refused', { timeout: 90_000 }, async (t) => {
    const { url, code } = await databaseWithOneLink('shutdown-keepalive');
    const server = await startServer(url);
    const agent = new Agent({ keepAlive: true, maxSockets: 16 });
    try {
      // 16 clients on kept-alive connections, each sending its next redirect as soon as the last
      // one is answered, from a second before SIGTERM until the server is no longer there.
      const clickIds = new Set<string>();
      const failures = new Map<string, number>();
      let closingAnswers = 0;
      let visitor = 0;
      let stopped = false;
      const client = async () => {
        while (!stopped) {
          const outcome = await keptAliveClick(agent, server.base, code, visitor++);
          if ('clickId' in outcome) {
            clickIds.add(outcome.clickId);
            if (outcome.closing) closingAnswers++;
          } else if (outcome.error === 'ECONNREFUSED') {
            return; // the listener is closed: a client (or its load balancer) goes elsewhere
          } else failures.set(outcome.error, (failures.get(outcome.error) ?? 0) + 1);
        }
      };
      const clients = Array.from({ length: 16 }, client);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      assert.ok(server.child.kill('SIGTERM'));
      const exit = await server.exit(30_000);
      stopped = true;
      await Promise.all(clients);

      const summary = `302 answered: ${clickIds.size}, of them with Connection: close: ${closingAnswers}, failures: ${JSON.stringify([...failures])}`;
      t.diagnostic(summary);
      assert.equal(exit.code, 0, `exit code ${exit.code}: ${server.output()}`);
      assert.deepEqual([...failures], [], `requests failed other than by a refused new connection. ${summary}`);
      assert.ok(closingAnswers > 0, `no answer told its client to close the connection. ${summary}`);
      const stored = await storedClicks(url, code);
      assert.equal(stored.ids.length, clickIds.size, `every answered redirect is a stored click. ${summary}`);
    } finally {
      agent.destroy();
      await server.dispose();
    }
  });

  test('a request in flight at SIGTERM is answered; one unfinished at SHUTDOWN_TIMEOUT_MS is cut, said in the log, and the server exits', { timeout: 60_000 }, async () => {
    const { url } = await databaseWithOneLink('shutdown-in-flight');
    const server = await startServer(url, { SHUTDOWN_TIMEOUT_MS: '2000' });
    const { port } = new URL(server.base);
    const open = async () => {
      const socket = connect(Number(port), '127.0.0.1');
      await once(socket, 'connect');
      let received = '';
      socket.on('data', (d: Buffer) => (received += d.toString()));
      socket.on('error', () => {});
      return { socket, received: () => received };
    };
    try {
      // Both have begun a request (its first header line) when the stop begins.
      const finishing = await open();
      const stalled = await open();
      for (const { socket } of [finishing, stalled]) socket.write('GET /healthz HTTP/1.1\r\nHost: go.test\r\n');
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.ok(server.child.kill('SIGTERM'));
      await new Promise((resolve) => setTimeout(resolve, 1200)); // past the idle connections' grace
      finishing.socket.write('\r\n');
      await once(finishing.socket, 'close');
      assert.match(finishing.received(), /^HTTP\/1\.1 200 /, finishing.received());
      assert.match(finishing.received(), /\r\nconnection: close\r\n/i, 'the answer tells the client the connection closes');

      const exit = await server.exit(10_000);
      assert.equal(exit.code, 0, `exit code ${exit.code}: ${server.output()}`);
      assert.equal(stalled.received(), '', 'the stalled request got no answer: its connection was closed');
      assert.ok(stalled.socket.destroyed || stalled.socket.readableEnded, 'the stalled connection is closed');
      assert.match(server.output(), /unfinished after SHUTDOWN_TIMEOUT_MS \(2000 ms\)/, server.output());
    } finally {
      await server.dispose();
    }
  });

  test('when the buffered clicks cannot be written at the stop, the server does not exit 0 having lost them', { timeout: 90_000 }, async () => {
    const { url, code } = await databaseWithOneLink('shutdown-locked');
    const server = await startServer(url);
    let lock: SqliteDriver.Database | undefined;
    try {
      const clickIds: string[] = [];
      for (let i = 0; i < 20; i++) {
        const outcome = await click(server.base, code, i);
        assert.ok('clickId' in outcome, JSON.stringify(outcome));
        clickIds.push(outcome.clickId);
      }
      // Another process holds the write lock longer than the server's busy timeout (5 s), e.g. a
      // backup or a long import: the final flush cannot write for a while.
      lock = new SqliteDriver(url.replace(/^sqlite:/, ''));
      lock.exec('BEGIN EXCLUSIVE');
      assert.ok(server.child.kill('SIGTERM'));
      // Held until the server exits or 12 s have passed; then released so a server that waits
      // or retries can finish.
      const early = await server.exit(12_000);
      lock.exec('COMMIT');
      lock.close();
      lock = undefined;
      const exit = early.code !== null || early.signal !== null ? early : await server.exit(20_000);

      const stored = await storedClicks(url, code);
      if (exit.code === 0) {
        assert.equal(
          stored.ids.length,
          clickIds.length,
          `exit code 0 although ${clickIds.length - stored.ids.length} of ${clickIds.length} answered clicks were never written (the database was locked during the stop): ${server.output()}`,
        );
      } else {
        assert.notEqual(exit.code, null, `the server neither wrote the clicks nor exited: ${server.output()}`);
        assert.match(server.output(), /click/i, 'a failed stop says that clicks were not written');
      }
    } finally {
      if (lock?.open) {
        lock.exec('ROLLBACK');
        lock.close();
      }
      await server.dispose();
    }
  });
});

describe('a server that stopped without counting (killed after storing clicks)', () => {
  test('the next start adds every stored but uncounted click to its link’s count, once', async () => {
    const { url, database, world } = await prepareDatabase('uncounted.sqlite');
    const { site } = await acmeLinks(database, world, '/uncounted');
    const link = await database.db.selectFrom('short_links').selectAll().where('code', '=', site).executeTakeFirstOrThrow();
    // What a killed server leaves: clicks stored (two human, one bot), the progress row not moved.
    const click = (id: string, counted: number) => ({
      id,
      link_id: link.id,
      affiliate_id: link.affiliate_id,
      channel_id: link.channel_id,
      organization_id: link.organization_id,
      mdasc: null,
      created_at: new Date().toISOString(),
      is_bot: counted ? 0 : 1,
      is_head: 0,
      is_repeat: 0,
      is_suspicious: 0,
      is_suspended: 0,
      counted,
      visitor_hash: id,
      user_agent: CHROME,
    });
    await database.db.insertInto('clicks').values([click('0'.repeat(32), 1), click('1'.repeat(32), 0), click('2'.repeat(32), 1)]).execute();
    assert.equal(await linkCount(database, site), 0);

    const started = await createService(loadConfig({ DATABASE_URL: url, PUBLIC_URL, REDIS_URL: '', CLICK_FLUSH_MS: '50' }), { database });
    try {
      // The writer thread counts them once it has started, which a busy machine can take seconds for.
      const counted = await pollUntil(() => linkCount(database, site), (n) => n >= 2, { timeoutMs: 15_000 });
      assert.equal(counted, 2, 'the two human clicks count; the bot does not');
    } finally {
      await started.close();
    }
    const again = await createService(loadConfig({ DATABASE_URL: url, PUBLIC_URL, REDIS_URL: '', CLICK_FLUSH_MS: '50' }), { database });
    await again.close();
    assert.equal(await linkCount(database, site), 2, 'a later start does not count them again');
    await database.close();
  });
});

async function linkCount(database: Database, code: string): Promise<number> {
  const row = await database.db.selectFrom('short_links').select('click_count').where('code', '=', code).executeTakeFirstOrThrow();
  return Number(row.click_count);
}
