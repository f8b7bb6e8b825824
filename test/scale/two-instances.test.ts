// Two real server processes on one PostgreSQL database and one Redis: what one instance does,
// the other sees. Runs only in the PostgreSQL + Redis pass of the suite.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { openDatabase, type Database } from '../../src/storage/database.js';
import { buildWorld, BRANDS } from '../helpers/world.js';
import { freshDatabase, redisEnv, type TestDatabase } from '../helpers/databases.js';
import { startServerProcess, type ServerProcess } from '../helpers/processes.js';
import { runCli } from '../helpers/cli.js';
import { pollUntil } from '../helpers/wait.js';
import { BROWSER_UA } from '../helpers/tracking.js';
import { servicesFor } from '../helpers/databases.js';
import { TEST_PAYEE_KEY } from '../helpers/harness.js';
import { releasePayeeHold } from '../helpers/money.js';
import { previousMonth } from '../../src/domain/time.js';
import { CLI } from '../../src/domain/audit/audit-entry.js';
import { totpCode } from '../helpers/operators.js';

let testDb: TestDatabase;
let database: Database;
let env: Record<string, string>;
let a: ServerProcess;
let b: ServerProcess;

before(async () => {
  assert.ok(process.env.TEST_POSTGRES_URL && process.env.TEST_REDIS_URL, 'the multi-instance test needs TEST_POSTGRES_URL and TEST_REDIS_URL');
  testDb = await freshDatabase({ migrated: true });
  database = openDatabase(testDb.url);
  await buildWorld(database);
  // Scheduled work (the lock dates) looked for every second on both.
  env = { DATABASE_URL: testDb.url, PUBLIC_URL: 'http://go.test', CLICK_FLUSH_MS: '100', SCHEDULE_POLL_MS: '200', LOCK_POLL_MS: '1000', PAYEE_ENCRYPTION_KEY: TEST_PAYEE_KEY, ...redisEnv() };
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

  test('wrong second-factor codes are counted across both: ten on one, then the other refuses even the right code', async () => {
    const services = servicesFor(database);
    const email = 'coded@aff1.example';
    const password = 'a long enough password';
    await services.users.createWithPassword({ affiliateId: 'aff-1' }, email, 'member', password);
    const session = (await services.users.signIn(email, password))!;
    const who = { userId: session.user.id, email, sessionToken: session.sessionToken };
    const { secret } = await services.secondFactors.startTotp(who);
    await services.secondFactors.confirmTotp(who, totpCode(secret));
    const post = (server: ServerProcess, path: string, body: object) => fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const ticket = async (server: ServerProcess) => ((await (await post(server, '/session', { email, password })).json()) as { data: { secondFactor: { ticket: string } } }).data.secondFactor.ticket;
    const wrong = String((Number(totpCode(secret)) + 500_000) % 1_000_000).padStart(6, '0');
    // Two tickets of five wrong codes each (a ticket takes five), all through the first instance.
    for (let tickets = 0; tickets < 2; tickets++) {
      const current = await ticket(a);
      for (let guess = 0; guess < 5; guess++) {
        const res = await post(a, '/session/second-factor', { ticket: current, code: wrong });
        assert.equal(res.status, 401, await res.clone().text());
      }
    }
    const refused = await post(b, '/session/second-factor', { ticket: await ticket(b), code: totpCode(secret) });
    assert.equal(refused.status, 429, await refused.clone().text());
    assert.equal(((await refused.json()) as { code: string }).code, 'too_many_codes');
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

  test('an affiliate suspended with the CLI: both instances refuse its keys and count none of its clicks at once; reactivated, both serve it again', async () => {
    const { key } = await servicesFor(database).access.createApiKey({ affiliateId: 'aff-2', rateLimit: 10_000 });
    const code = await createLink(a, key);
    const visitor = (i: number) => ({ 'user-agent': BROWSER_UA.replace('Chrome/124.0.0.0', `Chrome/${80 + i}.0.0.0`) });
    for (const [i, server] of [a, b].entries()) assert.equal((await get(server, `/${code}`, undefined, visitor(i))).status, 302, 'cached while active');
    const suspended = await runCli(['affiliates', 'suspend', 'aff-2', '--reason', 'Fake traffic'], env);
    assert.equal(suspended.code, 0, suspended.stderr);
    for (const server of [a, b]) {
      assert.equal(await pollUntil(async () => (await get(server, '/affiliate/brands', key)).status, (s) => s === 403, { timeoutMs: 1000 }), 403);
    }
    for (const [i, server] of [a, b].entries()) {
      const res = await get(server, `/${code}`, undefined, visitor(10 + i));
      assert.equal(res.status, 302, 'the link still redirects');
      assert.match(res.headers.get('location')!, /^https:\/\/www\.acme\.com\/store\?mdasc=.*&clickId=[0-9a-f]{32}$/);
    }
    const stored = await pollUntil(
      () => database.db.selectFrom('clicks').innerJoin('short_links', 'short_links.id', 'clicks.link_id').select(['clicks.counted', 'clicks.is_suspended']).where('short_links.code', '=', code).orderBy('clicks.id').execute(),
      (rows) => rows.length === 4,
    );
    assert.deepEqual(stored.map((r) => [r.counted, r.is_suspended]), [[1, 0], [1, 0], [0, 1], [0, 1]], 'both instances learned it: neither counted a click after the suspension');
    const reactivated = await runCli(['affiliates', 'reactivate', 'aff-2', '--reason', 'Traffic checked'], env);
    assert.equal(reactivated.code, 0, reactivated.stderr);
    for (const server of [a, b]) {
      assert.equal(await pollUntil(async () => (await get(server, '/affiliate/brands', key)).status, (s) => s === 200, { timeoutMs: 1000 }), 200);
    }
  });

  test("a brand suspended with the CLI: both instances send its links to its home page at once; reactivated, where they led", async () => {
    const { key } = await servicesFor(database).access.createApiKey({ affiliateId: 'aff-1', rateLimit: 10_000 });
    const created = await fetch(`${a.url}/affiliate/shortener/url`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ organizationId: BRANDS.umbrella, type: 'Custom', url: 'https://umbrella.com/vitamins' }),
    });
    assert.equal(created.status, 200, await created.clone().text());
    const code = ((await created.json()) as Array<{ shortUrls: string[] }>).find((c) => c.shortUrls.length)!.shortUrls[0]!.split('/').pop()!;
    const follow = async (server: ServerProcess) => (await get(server, `/${code}`, undefined, { 'user-agent': BROWSER_UA })).headers.get('location')!;
    for (const server of [a, b]) assert.match(await follow(server), /^https:\/\/umbrella\.com\/vitamins\?clickId=/);
    const suspended = await runCli(['brands', 'suspend', BRANDS.umbrella, '--reason', 'Statements unpaid'], env);
    assert.equal(suspended.code, 0, suspended.stderr);
    for (const server of [a, b]) assert.equal(await pollUntil(() => follow(server), (l) => l === 'https://umbrella.com/', { timeoutMs: 1000 }), 'https://umbrella.com/');
    const reactivated = await runCli(['brands', 'reactivate', BRANDS.umbrella, '--reason', 'Statements paid'], env);
    assert.equal(reactivated.code, 0, reactivated.stderr);
    for (const server of [a, b]) assert.match(await pollUntil(() => follow(server), (l) => l !== 'https://umbrella.com/', { timeoutMs: 1000 }), /^https:\/\/umbrella\.com\/vitamins\?clickId=/);
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

  test('both instances run the lock work and two payout runs go at once: each commission is approved once and paid once', async () => {
    const services = servicesFor(database, undefined, { payeeKey: TEST_PAYEE_KEY });
    const lastMonth = previousMonth(new Date().toISOString());
    const now = new Date().toISOString();
    const ids = Array.from({ length: 40 }, (_, i) => `two-lock-${i}`);
    for (const id of ids) {
      await database.db
        .insertInto('orders')
        .values({
          id, order_id: id, organization_id: BRANDS.acme, affiliate_id: 'aff-2', link_id: null, click_id: null, channel_id: null, mdasc: null,
          status: 'pending', commission_status: 'pending', commission_reason: null, value: 10_000, commission: 750, commission_transfer: 'cps', commission_value: 750,
          currency: 'BRL', items: '[]', click_created_at: null, click_country: null, link_code: null, paid_at: null, payout_id: null, statement_id: null, payable_at: null,
          // Locked last month: the brand never answered.
          lock_at: `${lastMonth}-10T00:00:00.000Z`, auto_approved: 0, created_at: now, updated_at: now,
        })
        .execute();
    }
    const left = await pollUntil(async () => (await database.db.selectFrom('orders').select('id').where('id', 'in', ids).where('status', '=', 'pending').execute()).length, (n) => n === 0, { timeoutMs: 20_000, everyMs: 200 });
    assert.equal(left, 0, 'the network approved every order past its lock date');
    const approvals = await database.db.selectFrom('order_events').select(['order_id', 'actor']).where('order_id', 'in', ids).where('field', '=', 'status').execute();
    assert.equal(approvals.length, ids.length, 'each order approved once');
    assert.ok(approvals.every((e) => e.actor === 'network'));
    const entries = await database.db.selectFrom('ledger_lines').select('order_id').where('order_id', 'in', ids).where('kind', '=', 'approval').execute();
    assert.equal(entries.length, ids.length * 2, 'one balanced approval entry (two lines) each');

    const cli = { DATABASE_URL: testDb.url, PAYEE_ENCRYPTION_KEY: TEST_PAYEE_KEY, PAYOUT_MINIMUM: 'BRL:100' };
    assert.equal((await runCli(['statements', 'issue', '--month', lastMonth], cli)).code, 0);
    for (const s of await services.statements.listAll(true)) await services.statements.recordPayment(s.id, s.total, 'TX', CLI);
    await services.users.createWithPassword({ affiliateId: 'aff-2' }, 'owner@two.example', 'owner', 'a long enough password');
    const ownerId = (await database.db.selectFrom('users').select('id').where('email', '=', 'owner@two.example').executeTakeFirstOrThrow()).id;
    await services.payees.save({ affiliateId: 'aff-2', userId: ownerId, sessionToken: '' }, { legalName: 'Bia', country: 'BR', taxId: '529.982.247-25', method: { type: 'pix', keyType: 'email', key: 'bia@example.com' }, password: 'a long enough password' } as never);
    await releasePayeeHold(database, 'aff-2');

    const runs = await Promise.all([runCli(['payouts', 'run', '--affiliate', 'aff-2'], cli), runCli(['payouts', 'run', '--affiliate', 'aff-2'], cli)]);
    for (const run of runs) assert.equal(run.code, 0, run.stderr);
    const paid = await database.db.selectFrom('orders').select(['id', 'payout_id']).where('id', 'in', ids).execute();
    const payouts = new Set(paid.map((o) => o.payout_id));
    assert.equal(payouts.size, 1, 'every commission in the same, single payout');
    const [payout] = await database.db.selectFrom('payouts').selectAll().where('affiliate_id', '=', 'aff-2').execute();
    assert.equal(Number(payout!.total), ids.length * 750);
    const check = await runCli(['ledger', 'check'], cli);
    assert.equal(check.code, 0, check.stdout + check.stderr);
  });
});

