// What a browser is told: nosniff, no framing and no referrer on pages and API answers, but none of
// that on redirects (the referrer is the brand's); who may cache what; HSTS only on https; CORS
// only for the origins the operator names.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../helpers/harness.js';
import { BRANDS } from '../helpers/world.js';
import { newKey } from '../helpers/api.js';
import { BROWSER_UA, createLink } from '../helpers/tracking.js';

let h: Harness;
let key: string;
let code: string;

before(async () => {
  h = await startHarness();
  key = (await newKey(h, 'aff-1', { rateLimit: 100_000 })).key;
  code = (await createLink(h, key, BRANDS.acme)).code;
});
after(async () => {
  await h.close();
});

const BROWSER_HEADERS = ['x-content-type-options', 'x-frame-options', 'referrer-policy', 'content-security-policy'];

describe('security headers', () => {
  test('API answers, errors and the reference page: nosniff, no framing, no referrer; no HSTS on http', async () => {
    for (const res of [await h.get('/affiliate/brands', key), await h.get('/affiliate/brands'), await h.get('/docs/'), await h.get('/openapi.json')]) {
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
      assert.equal(res.headers['x-frame-options'], 'DENY');
      assert.equal(res.headers['referrer-policy'], 'no-referrer');
      assert.match(String(res.headers['content-security-policy']), /frame-ancestors 'none'/);
      // Images from https addresses (banners the portal previews), never from plain http.
      assert.match(String(res.headers['content-security-policy']), /img-src 'self' data: https:;/);
      assert.equal(res.headers['strict-transport-security'], undefined);
    }
  });

  test('redirects carry none of them, on either path', async () => {
    // A percent-encoded code is left by the redirect front to the Fastify route behind it.
    const encoded = `/%${code.charCodeAt(0).toString(16).toUpperCase()}${code.slice(1)}`;
    for (const url of [`/${code}`, `/${code}/`, encoded]) {
      const res = await h.request({ method: 'GET', url, headers: { 'user-agent': BROWSER_UA } });
      assert.equal(res.statusCode, 302, res.body);
      for (const name of BROWSER_HEADERS) assert.equal(res.headers[name], undefined, `${url}: ${name}`);
    }
  });

  test('HSTS when PUBLIC_URL is https', async () => {
    const secure = await startHarness({ PUBLIC_URL: 'https://go.example.com' });
    try {
      assert.match(String((await secure.get('/healthz')).headers['strict-transport-security']), /max-age=31536000/);
    } finally {
      await secure.close();
    }
  });
});

describe('caching', () => {
  test('catalogue reads 60 s in the client only; other authenticated answers and errors never', async () => {
    assert.equal((await h.get('/affiliate/brands', key)).headers['cache-control'], 'private, max-age=60');
    assert.equal((await h.get('/affiliate/products', key)).headers['cache-control'], 'private, max-age=60');
    assert.equal((await h.get('/affiliate/orders', key)).headers['cache-control'], 'no-store');
    assert.equal((await h.get('/affiliate/brands')).headers['cache-control'], 'no-store', 'a 401');
    assert.equal((await h.get('/affiliate/brands/00000000-0000-4000-8000-000000000000', key)).headers['cache-control'], 'no-store', 'a 404');
  });
});

describe('CORS', () => {
  test('no origin is allowed by default: no CORS headers, a preflight gets no allowance', async () => {
    const res = await h.get('/affiliate/brands', key);
    assert.equal(res.headers['access-control-allow-origin'], undefined);
    const preflight = await h.request({
      method: 'OPTIONS',
      url: '/affiliate/brands',
      headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-api-key' },
    });
    assert.ok(preflight.statusCode < 500, preflight.body);
    assert.equal(preflight.headers['access-control-allow-origin'], undefined);
  });

  test('an origin named in CORS_ORIGINS is allowed, with the API key header and the rate-limit headers exposed', async () => {
    const portal = await startHarness({ CORS_ORIGINS: 'https://portal.example.com' });
    try {
      const preflight = await portal.request({
        method: 'OPTIONS',
        url: '/affiliate/brands',
        headers: { origin: 'https://portal.example.com', 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-api-key' },
      });
      assert.equal(preflight.statusCode, 204, preflight.body);
      assert.equal(preflight.headers['access-control-allow-origin'], 'https://portal.example.com');
      assert.match(String(preflight.headers['access-control-allow-headers']), /x-api-key/);
      const other = await portal.request({ method: 'GET', url: '/healthz', headers: { origin: 'https://elsewhere.example' } });
      assert.equal(other.headers['access-control-allow-origin'], undefined);
      const allowed = await portal.request({ method: 'GET', url: '/healthz', headers: { origin: 'https://portal.example.com' } });
      assert.equal(allowed.headers['access-control-allow-origin'], 'https://portal.example.com');
      assert.match(String(allowed.headers['access-control-expose-headers']), /x-ratelimit-remaining/);
    } finally {
      await portal.close();
    }
  });
});
