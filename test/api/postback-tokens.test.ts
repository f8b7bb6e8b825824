// Postback tokens through HTTP and the command line: the operator creates a brand's token with
// `affnet brands postback-token`, the brand's pixel reports orders with it on GET /postback, and
// the token opens nothing else. Rotating it retires the old one on the running server.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { startHarness, type Harness } from '../helpers/harness.js';
import { BRANDS } from '../helpers/world.js';
import { assertError, newKey } from '../helpers/api.js';
import { runCli } from '../helpers/cli.js';
import { pollUntil } from '../helpers/wait.js';
import { brandKey, conversionOf, eventsOf, freshClick, item, ordersWithBrandOrderId, patchStatus, postback, report, snapshot } from '../helpers/tracking.js';

let h: Harness;
let aff1: string;
let acmeKey: string;
/** The environment the operator's command line runs with: the service's database and Redis. */
let cliEnv: Record<string, string>;

before(async () => {
  h = await startHarness();
  aff1 = (await newKey(h, 'aff-1', { rateLimit: 100_000 })).key;
  acmeKey = await brandKey(h, BRANDS.acme);
  cliEnv = { DATABASE_URL: h.config.databaseUrl, PUBLIC_URL: h.config.publicUrl };
  if (h.config.redisUrl) Object.assign(cliEnv, { REDIS_URL: h.config.redisUrl, REDIS_PREFIX: h.config.redisPrefix });
});
after(async () => {
  await h.close();
});

let seq = 0;
const oid = (label: string) => `PT-${label}-${++seq}`;
const lastLine = (text: string) => text.trim().split('\n').at(-1)!;

/** `affnet brands postback-token --brand ID`: the token printed on the last line. */
async function issueToken(brandId: string): Promise<{ token: string; stdout: string }> {
  const result = await runCli(['brands', 'postback-token', '--brand', brandId], cliEnv);
  assert.equal(result.code, 0, result.stderr);
  const token = lastLine(result.stdout);
  assert.match(token, /^afp_[0-9A-Za-z]{32}$/, `the last line is the token alone: ${result.stdout}`);
  return { token, stdout: result.stdout };
}

/** Runs a request that must be rejected and proves it wrote nothing. */
async function rejected(action: () => Promise<LightMyRequestResponse>, status: number, code?: string) {
  const before = await snapshot(h);
  const res = await action();
  const body = assertError(res, status, code);
  assert.deepEqual(await snapshot(h), before, `a rejected request must write nothing: ${res.body}`);
  return { res, body };
}

describe('GET /postback with a postback token', () => {
  test('the token the CLI prints reports an order: 201, then 200 on a replay; the brand’s rate limit applies', async () => {
    const { token, stdout } = await issueToken(BRANDS.acme);
    assert.equal(stdout.split(token).length - 1, 1, 'the token is printed once, on the last line');
    assert.match(stdout, /\/postback\?clickId=/, 'the output shows the URL the brand fires');

    const clickId = await freshClick(h, aff1, BRANDS.acme);
    const orderId = oid('cli');
    const res = await postback(h, { clickId, orderId, value: 1999, token });
    const created = conversionOf(res, 201);
    assert.equal(created.orderId, orderId);
    assert.equal(created.commission, 150);
    assert.equal(res.headers['x-ratelimit-limit'], '6000', 'a postback token has the brand rate limit');
    assert.deepEqual(conversionOf(await postback(h, { clickId, orderId, value: 1999, token }), 200), created);

    const [row] = await ordersWithBrandOrderId(h, BRANDS.acme, orderId);
    assert.equal(row?.affiliate_id, 'aff-1');
    assert.deepEqual((await eventsOf(h, created.id)).map((e) => e.actor), [`brand:${BRANDS.acme}`]);
  });

  test('a token reports for its own brand only: another brand’s click → 404 click_not_found', async () => {
    const { token } = await issueToken(BRANDS.umbrella);
    const acmeClick = await freshClick(h, aff1, BRANDS.acme);
    await rejected(() => postback(h, { clickId: acmeClick, orderId: oid('foreign'), value: 1000, token }), 404, 'click_not_found');
    // Umbrella accepts site channels only: aff-1's site link.
    const umbrellaClick = await freshClick(h, aff1, BRANDS.umbrella);
    assert.equal(conversionOf(await postback(h, { clickId: umbrellaClick, orderId: oid('own'), value: 1000, token }), 201).commission, 1500);
  });

  test('the brand API key as token still works (kept for compatibility)', async () => {
    const clickId = await freshClick(h, aff1, BRANDS.acme);
    const res = await postback(h, { clickId, orderId: oid('apikey'), value: 1999, token: acmeKey });
    conversionOf(res, 201);
    assert.equal(res.headers['x-ratelimit-limit'], '100000', 'counted against the API key, with its own limit');
  });

  test('an unknown postback token → 401 that says so; a repeated token parameter → 400', async () => {
    const clickId = await freshClick(h, aff1, BRANDS.acme);
    const unknown = 'afp_' + '0'.repeat(32);
    const { res, body } = await rejected(() => postback(h, { clickId, orderId: oid('unknown'), value: 1999, token: unknown }), 401, 'unauthorized');
    assert.match(body.message, /postback token/i);
    assert.ok(!res.body.includes(unknown), 'a 401 never echoes the token');
    const { token } = await issueToken(BRANDS.acme);
    const twice = await rejected(
      () => h.request({ method: 'GET', url: `/postback?clickId=${clickId}&orderId=${oid('twice')}&value=1999&token=${token}&token=${token}` }),
      400,
      'invalid_query',
    );
    assert.match(twice.body.message, /token must be given once/);
  });
});

describe('a postback token anywhere else', () => {
  test('as x-api-key on POST /advertiser/conversions, PATCH, an affiliate endpoint or even GET /postback → 401, nothing written', async () => {
    const { token } = await issueToken(BRANDS.acme);
    // The token works where it belongs (and is now in the server's cache).
    const clickId = await freshClick(h, aff1, BRANDS.acme);
    const first = conversionOf(await postback(h, { clickId, orderId: oid('home'), value: 1999, token }), 201);

    const report401 = await rejected(() => report(h, token, { clickId, orderId: oid('elsewhere'), value: 1999, items: [item(1999)] }), 401, 'unauthorized');
    assert.match(report401.body.message, /only as the token parameter of GET \/postback/, 'the message says where the token belongs');
    await rejected(() => patchStatus(h, token, first.orderId, { status: 'approved' }), 401, 'unauthorized');
    await rejected(() => h.get('/affiliate/orders', token), 401, 'unauthorized');
    await rejected(() => h.request({ method: 'GET', url: `/postback?clickId=${clickId}&orderId=${oid('header')}&value=1999`, headers: { 'x-api-key': token } }), 401, 'unauthorized');
    assert.equal((await ordersWithBrandOrderId(h, BRANDS.acme, first.orderId))[0]?.status, 'pending', 'the PATCH changed nothing');
  });
});

describe('rotating a postback token', () => {
  test('running the command again: the old token → 401 on the running server, the new one works', async () => {
    const { token: old } = await issueToken(BRANDS.globex);
    // Globex is private: aff-1 is approved for it.
    const clickId = await freshClick(h, aff1, BRANDS.globex);
    conversionOf(await postback(h, { clickId, orderId: oid('before'), value: 1000, token: old }), 201);

    const { token: current, stdout } = await issueToken(BRANDS.globex);
    assert.notEqual(current, old);
    assert.match(stdout, new RegExp(`replaces ${old.slice(0, 8)}…, which no longer works`));

    // At once with Redis (the command tells every server); within the 1 s key cache without.
    const refused = await pollUntil(
      () => postback(h, { clickId, orderId: oid('old'), value: 1000, token: old }),
      (res) => res.statusCode === 401,
      { timeoutMs: 3000 },
    );
    const body = assertError(refused, 401, 'unauthorized');
    assert.match(body.message, /replaced by a newer one/);
    conversionOf(await postback(h, { clickId, orderId: oid('new'), value: 1000, token: current }), 201);
  });
});

describe('the OpenAPI document', () => {
  test('describes token as the postback token, and the API key there as discouraged', async () => {
    const res = await h.request({ method: 'GET', url: '/openapi.json' });
    assert.equal(res.statusCode, 200);
    const doc = res.json<{ paths: Record<string, { get?: { parameters?: Array<{ name: string; in: string; description?: string }> } }> }>();
    const token = doc.paths['/postback']?.get?.parameters?.find((p) => p.name === 'token' && p.in === 'query');
    assert.ok(token, 'GET /postback documents its token parameter');
    assert.match(token.description ?? '', /postback token/);
    assert.match(token.description ?? '', /API key .*discouraged/);
  });
});
