// The per-key rate limit: 60 requests per 60 s, shared across endpoints, with its headers.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { startHarness, type Harness } from '../helpers/harness.js';
import { BRANDS } from '../helpers/world.js';
import { assertError, newKey } from '../helpers/api.js';
import type { Scope } from '../../src/domain/access/scopes.js';

interface Endpoint {
  name: string;
  method: 'GET' | 'POST';
  url: string;
  body?: unknown;
  scope: Scope;
}

/**
 * Affiliate requests to spend the limit on (each succeeds for aff-1). Authentication, scopes and
 * isolation are proven on every route by the route walker (route-rules.test.ts).
 */
const ENDPOINTS: Endpoint[] = [
  { name: 'GET /affiliate/brands', method: 'GET', url: '/affiliate/brands', scope: 'brands:read' },
  { name: 'GET /affiliate/brands/{id}', method: 'GET', url: `/affiliate/brands/${BRANDS.acme}`, scope: 'brands:read' },
  { name: 'GET /affiliate/products', method: 'GET', url: '/affiliate/products', scope: 'products:read' },
  { name: 'GET /affiliate/campaigns', method: 'GET', url: '/affiliate/campaigns', scope: 'campaigns:read' },
  { name: 'POST /affiliate/shortener/url', method: 'POST', url: '/affiliate/shortener/url', body: { organizationId: BRANDS.acme, type: 'BrandPage' }, scope: 'shortener:write' },
  { name: 'GET /affiliate/shortener/urls', method: 'GET', url: '/affiliate/shortener/urls?type=BrandPage', scope: 'shortener:read' },
  { name: 'GET /affiliate/orders', method: 'GET', url: '/affiliate/orders', scope: 'orders:read' },
  { name: 'GET /affiliate/orders/{id}', method: 'GET', url: '/affiliate/orders/o-aff1-1', scope: 'orders:read' },
];

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h.close();
});

function call(endpoint: Endpoint, key?: string, extraHeaders: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { ...extraHeaders };
  if (key !== undefined) headers['x-api-key'] = key;
  return h.request({ method: endpoint.method, url: endpoint.url, headers, ...(endpoint.body === undefined ? {} : { payload: endpoint.body as object }) });
}

function assertRateHeaders(res: LightMyRequestResponse, limit = 60) {
  assert.equal(res.headers['x-ratelimit-limit'], String(limit), `X-RateLimit-Limit on ${res.statusCode}`);
  assert.match(String(res.headers['x-ratelimit-remaining']), /^\d+$/, 'X-RateLimit-Remaining');
  assert.match(String(res.headers['x-ratelimit-reset']), /^\d+$/, 'X-RateLimit-Reset');
  const reset = Number(res.headers['x-ratelimit-reset']);
  assert.ok(reset >= 0 && reset <= 60, `X-RateLimit-Reset ${reset} is seconds within the 60 s window`);
}

describe('rate limit: 60 requests per 60 s per key', () => {
  test('60 requests pass with decreasing X-RateLimit-Remaining; the 61st → 429 TOO_MANY_REQUESTS with Retry-After', async () => {
    const { key } = await newKey(h, 'aff-1');
    const endpoint = ENDPOINTS[0]!;
    let previous = Infinity;
    for (let i = 0; i < 60; i++) {
      const res = await call(endpoint, key);
      assert.equal(res.statusCode, 200, `request ${i + 1}: ${res.body}`);
      assertRateHeaders(res);
      const remaining = Number(res.headers['x-ratelimit-remaining']);
      assert.ok(remaining < previous, `remaining must decrease: ${previous} → ${remaining}`);
      previous = remaining;
    }
    assert.equal(previous, 0, 'after 60 requests nothing remains');

    const res = await call(endpoint, key);
    const error = assertError(res, 429, 'TOO_MANY_REQUESTS');
    assert.match(String(res.headers['retry-after']), /^\d+$/, 'Retry-After is whole seconds');
    const retryAfter = Number(res.headers['retry-after']);
    assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
    assert.equal(res.headers['x-ratelimit-limit'], '60');
    assert.equal(res.headers['x-ratelimit-remaining'], '0');
    assert.ok(error.message.length > 0);

    assertError(await call(endpoint, key), 429, 'TOO_MANY_REQUESTS');
  });

  test('another key of the same affiliate is unaffected', async () => {
    const { key: exhausted } = await newKey(h, 'aff-1');
    const { key: other } = await newKey(h, 'aff-1');
    const endpoint = ENDPOINTS[6]!;
    for (let i = 0; i < 60; i++) assert.equal((await call(endpoint, exhausted)).statusCode, 200);
    assertError(await call(endpoint, exhausted), 429, 'TOO_MANY_REQUESTS');
    const res = await call(endpoint, other);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['x-ratelimit-remaining'], '59');
    assert.equal((await call(endpoint, h.world.keys.aff2)).statusCode, 200, 'another affiliate is unaffected too');
  });

  test('the limit is shared across the endpoints of one key, and applies to every endpoint', async () => {
    const { key } = await newKey(h, 'aff-1');
    for (let i = 0; i < 60; i++) {
      const endpoint = ENDPOINTS[i % ENDPOINTS.length]!;
      const res = await call(endpoint, key);
      assert.equal(res.statusCode, 200, `${endpoint.name} (request ${i + 1}): ${res.body}`);
      assert.equal(res.headers['x-ratelimit-remaining'], String(59 - i), endpoint.name);
    }
    for (const endpoint of ENDPOINTS) {
      const res = await call(endpoint, key);
      assertError(res, 429, 'TOO_MANY_REQUESTS');
      assert.ok(Number(res.headers['retry-after']) >= 1, endpoint.name);
    }
  });

  test('rejected requests (400, 404) count against the key and carry the headers too', async () => {
    const { key } = await newKey(h, 'aff-1');
    const bad = await h.get('/affiliate/orders?limit=101', key);
    assertError(bad, 400);
    assert.equal(bad.headers['x-ratelimit-remaining'], '59');
    const missing = await h.get('/affiliate/orders/o-nope', key);
    assertError(missing, 404);
    assert.equal(missing.headers['x-ratelimit-remaining'], '58');
    const ok = await h.get('/affiliate/orders', key);
    assert.equal(ok.statusCode, 200);
    assert.equal(ok.headers['x-ratelimit-remaining'], '57');
  });
});
