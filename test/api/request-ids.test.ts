// Every answer carries x-request-id: the API's, its errors, unknown routes, malformed paths and the
// redirects. A proxy the operator trusts may hand its own id on; anyone else's is replaced.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { InjectOptions } from 'light-my-request';
import { startHarness, type Harness } from '../helpers/harness.js';
import { BRANDS } from '../helpers/world.js';
import { createLink } from '../helpers/tracking.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const PROXY = '10.0.0.7';

let h: Harness;
let code: string;
before(async () => {
  h = await startHarness({ TRUST_PROXY: PROXY });
  code = (await createLink(h, h.world.keys.aff1, BRANDS.acme)).code;
});
after(async () => {
  await h.close();
});

describe('x-request-id', () => {
  const requests: Array<[string, () => InjectOptions]> = [
    ['an API answer', () => ({ method: 'GET', url: '/affiliate/brands', headers: { 'x-api-key': h.world.keys.aff1 } })],
    ['a 401', () => ({ method: 'GET', url: '/affiliate/brands' })],
    ['a 400', () => ({ method: 'GET', url: '/affiliate/brands?limit=0', headers: { 'x-api-key': h.world.keys.aff1 } })],
    ['an unknown route', () => ({ method: 'GET', url: '/nowhere/at/all' })],
    ['a malformed path', () => ({ method: 'GET', url: '/affiliate/brands/%E0%A4%A' })],
    ['a redirect', () => ({ method: 'GET', url: `/${code}` })],
    ['an unknown short link', () => ({ method: 'GET', url: '/zzzzzzzz' })],
    ['a health check', () => ({ method: 'GET', url: '/healthz' })],
  ];
  for (const [what, request] of requests) {
    test(`${what} carries a new UUID, a different one each time`, async () => {
      const first = await h.request(request());
      const second = await h.request(request());
      assert.match(String(first.headers['x-request-id']), UUID, `${first.statusCode} ${first.body}`);
      assert.notEqual(first.headers['x-request-id'], second.headers['x-request-id']);
    });
  }

  test('the id a trusted proxy sends is kept, on the API and on redirects', async () => {
    for (const url of ['/affiliate/brands', `/${code}`]) {
      const res = await h.request({ method: 'GET', url, remoteAddress: PROXY, headers: { 'x-api-key': h.world.keys.aff1, 'x-request-id': 'lb-4f2a.91' } });
      assert.equal(res.headers['x-request-id'], 'lb-4f2a.91', url);
    }
  });

  test('an id from anyone else, or one that is not a plain token, is replaced', async () => {
    const sent = [
      { remoteAddress: '198.51.100.9', id: 'client-chosen-id' },
      { remoteAddress: PROXY, id: 'has spaces and "quotes"' },
      { remoteAddress: PROXY, id: 'x'.repeat(129) },
    ];
    for (const { remoteAddress, id } of sent) {
      const res = await h.request({ method: 'GET', url: '/affiliate/brands', remoteAddress, headers: { 'x-api-key': h.world.keys.aff1, 'x-request-id': id } });
      assert.match(String(res.headers['x-request-id']), UUID, `${remoteAddress} sent ${id}`);
    }
  });
});
