// Walks every registered route and proves the rules every API route must follow hold for each:
// unknown query parameters refused, both error shapes, keys, the other side's keys and scopes,
// overlong path parameters, bodies that are not JSON or too large. Every answer is also checked
// against the OpenAPI document by the harness (status declared, no null). A route added without a
// sample request (test/helpers/route-samples.ts) fails the first test, so a new route cannot skip
// the rules.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { InjectOptions } from 'light-my-request';
import { startHarness, type Harness } from '../helpers/harness.js';
import { BRANDS } from '../helpers/world.js';
import { assertError, newKey } from '../helpers/api.js';
import { brandKey } from '../helpers/tracking.js';
import { operatorSession } from '../helpers/operators.js';
import { createRouteSamples, credentialHeaders, ownerSession, unique, type Sample, type Side } from '../helpers/route-samples.js';
import { contractChecker } from '../helpers/contract.js';
import { urlOf } from '../helpers/inject.js';
import Fastify from 'fastify';
import { applyRouteRules, isApiRoute, isExempt } from '../../src/http/route-rules.js';
import { hashKey } from '../../src/domain/access/access-service.js';
import { AFFILIATE_SCOPES, BRAND_SCOPES } from '../../src/domain/access/scopes.js';
import type { RegisteredRoute } from '../../src/http/app.js';
import { servicesFor } from '../helpers/databases.js';

const { samples: SAMPLES, credentialOf, start: startSamples } = createRouteSamples();

let h: Harness;
/** Keys and owners' sessions of another affiliate (aff-2) and another brand (Globex), for the isolation rule. */
const otherKeys: Record<Side, string> = { affiliate: '', brand: '', operator: '' };
const otherSessions: Record<Side, string> = { affiliate: '', brand: '', operator: '' };
const otherCredentialOf = (sample: Sample) => (sample.credential === 'session' ? otherSessions : otherKeys)[sample.side];

const nameOf = (route: Pick<RegisteredRoute, 'method' | 'url'>) => `${route.method} ${route.url}`;
const apiRoutes = () => (h.service.routes).filter((r) => r.method !== 'HEAD' && isApiRoute(r.url));

/** Adds a query parameter to a request's URL. */
function withParam(options: InjectOptions, param: string): InjectOptions {
  const url = urlOf(options);
  return { ...options, url: `${url}${url.includes('?') ? '&' : '?'}${param}` };
}

/** The request with query parameter `name` set to `value` (already percent-encoded), replacing any it had. */
function withQueryValue(options: InjectOptions, name: string, value: string): InjectOptions {
  const [path, query = ''] = urlOf(options).split('?');
  const kept = query.split('&').filter((p) => p !== '' && p.split('=')[0] !== name);
  return { ...options, url: `${path}?${[...kept, `${name}=${value}`].join('&')}` };
}

/** The request with its (one) path parameter replaced by `value`. */
function withPathParam(route: RegisteredRoute, options: InjectOptions, value: string): InjectOptions {
  const template = route.url.split('/');
  const actual = urlOf(options).split('?')[0]!.split('/');
  const path = template.map((segment, i) => (segment.startsWith(':') ? value : actual[i])).join('/');
  return { ...options, url: path };
}

/** A key of `side` with every scope but `scope`: inserted as a row, since a brand key has one scope only. */
async function keyWithout(side: Side, scope: string): Promise<string> {
  const key = `afn_walk${Math.random().toString(36).slice(2).padEnd(28, '0')}`;
  await h.service.database.db
    .insertInto('api_keys')
    .values({
      id: `key_${unique('walk')}`,
      key_hash: hashKey(key),
      key_prefix: key.slice(0, 8),
      // Operators have no keys: a member's key with every scope but the route's is what reaches them.
      affiliate_id: side === 'brand' ? null : 'aff-1',
      brand_id: side === 'brand' ? BRANDS.acme : null,
      name: 'walker',
      scopes: [...AFFILIATE_SCOPES, ...BRAND_SCOPES].filter((s) => s !== scope).join(' '),
      rate_limit: 100_000,
      rate_window_seconds: 60,
      created_at: new Date().toISOString(),
      revoked_at: null,
    })
    .execute();
  return key;
}

before(async () => {
  // Webhook endpoints made here point at hooks.example.com: nothing is to be delivered.
  // Walking sends each sample many times: a portal user's own limit would stop it.
  h = await startHarness({ WEBHOOK_POLL_MS: '0', USER_RATE_LIMIT: '1000000' });
  await startSamples(h);
  otherKeys.affiliate = (await newKey(h, 'aff-2', { rateLimit: 100_000 })).key;
  otherKeys.brand = await brandKey(h, BRANDS.globex);
  otherSessions.affiliate = await ownerSession(h, { affiliateId: 'aff-2' });
  otherSessions.brand = await ownerSession(h, { brandId: BRANDS.globex });
});
after(async () => {
  await h.close();
});

test('every registered route is an API route with a sample here, or listed as exempt from the API rules', () => {
  const routes = (h.service.routes).filter((r) => r.method !== 'HEAD');
  const unsampled = routes.filter((r) => isApiRoute(r.url) && !SAMPLES[nameOf(r)]).map(nameOf);
  assert.deepEqual(unsampled, [], 'add a sample request for each new API route to test/helpers/route-samples.ts');
  const unclassified = routes.filter((r) => !isApiRoute(r.url) && !isExempt(r.url)).map(nameOf);
  assert.deepEqual(unclassified, [], 'a route outside the API prefixes must be listed in API_EXEMPTIONS (src/http/route-rules.ts)');
  const stale = Object.keys(SAMPLES).filter((name) => !routes.some((r) => nameOf(r) === name));
  assert.deepEqual(stale, [], 'samples for routes that no longer exist');
});

test('an API route missing from the scope table stops the service from starting', async () => {
  const app = Fastify();
  app.addHook('onRoute', applyRouteRules);
  await assert.rejects(
    (async () => {
      app.get('/affiliate/unscoped', async () => ({}));
      await app.ready();
    })(),
    /GET \/affiliate\/unscoped has no scope in ROUTE_SCOPES/,
  );
  await app.close();
});

test('the contract check itself fails on an undeclared status and on a null (positive control)', () => {
  const check = contractChecker(h.service);
  const fake = (statusCode: number, body: string) => ({ statusCode, body, headers: { 'content-type': 'application/json' } }) as never;
  assert.throws(() => check('GET', `/affiliate/brands/${BRANDS.acme}`, fake(418, '{}')), /does not declare/);
  assert.throws(() => check('GET', `/affiliate/brands/${BRANDS.acme}`, fake(200, '{"data":{"x":null}}')), /null at \$\.data\.x/);
  check('GET', `/affiliate/brands/${BRANDS.acme}`, fake(404, '{"message":"x"}'));
});

describe('the rules, on every API route', () => {
  for (const [name, sample] of Object.entries(SAMPLES)) {
    describe(name, () => {
      const route = () => apiRoutes().find((r) => nameOf(r) === name)!;
      const send = async (key: string | undefined, change: (o: InjectOptions) => InjectOptions = (o) => o) =>
        h.request(change(await sample.request(key)));

      test('declares a scope', () => {
        assert.ok(route().options.config?.scope, `${name} declares no config.scope`);
      });

      test('the sample succeeds with a key of its side, with the rate-limit headers', async () => {
        const res = await send(credentialOf(sample));
        assert.ok(res.statusCode >= 200 && res.statusCode < 300, `${res.statusCode}: ${res.body}`);
        for (const header of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) assert.match(String(res.headers[header]), /^\d+$/, header);
      });

      test('an unknown query parameter → 400 invalid_query naming it', async () => {
        const error = assertError(await send(credentialOf(sample), (o) => withParam(o, 'zzUnknown=1')), 400, 'invalid_query');
        assert.match(error.message, /zzUnknown/);
      });

      test('no credential, an empty or unknown one → 401 in both error shapes, never echoing what was sent', async () => {
        assertError(await send(undefined), 401, 'unauthorized');
        assertError(await send(''), 401, 'unauthorized');
        const sent = 'afn_SecretLookingKeyThatDoesNotExist0';
        const res = await send(sent);
        assertError(res, 401, 'unauthorized');
        assert.ok(!res.body.includes(sent), res.body);
        assertError(await send('not-a-key-at-all'), 401, 'unauthorized');
      });

      test('a valid key elsewhere (Authorization header) does not authenticate', async () => {
        const options = await sample.request(undefined);
        const headers = { ...(options.headers as Record<string, string>), authorization: `Bearer ${credentialOf(sample)}` };
        assertError(await h.request({ ...options, headers }), 401, 'unauthorized');
      });

      test('a revoked key (or ended session) → 401', async () => {
        if (sample.credential === 'session') {
          const session = sample.side === 'operator' ? (await operatorSession(h)).credential : await ownerSession(h, sample.side === 'affiliate' ? { affiliateId: 'aff-1' } : { brandId: BRANDS.acme });
          assert.ok((await send(session)).statusCode < 300, 'the session works before it ends');
          assert.equal((await h.request({ method: 'DELETE', url: '/session', headers: credentialHeaders(session) })).statusCode, 204);
          assertError(await send(session), 401, 'session_expired');
          return;
        }
        const owner = sample.side === 'affiliate' ? { affiliateId: 'aff-1' } : { brandId: BRANDS.acme };
        const { id, key } = await servicesFor(h.service.database).access.createApiKey({ ...owner, rateLimit: 100_000 });
        assert.ok((await send(key)).statusCode < 300, 'the key works before it is revoked');
        await servicesFor(h.service.database).access.revokeApiKey(id);
        h.service.services.access.forgetKeys(); // as the revoking command's announcement does
        assertError(await send(key), 401, 'unauthorized');
      });

      test("another affiliate's or brand's key cannot reach the caller's resource", async (t) => {
        if ('reason' in sample.foreign) return t.diagnostic(`not applicable: ${sample.foreign.reason}`);
        const request = await sample.request(credentialOf(sample));
        const { 'x-api-key': key, cookie: _cookie, 'x-csrf-token': _csrf, ...headers } = (request.headers ?? {}) as Record<string, string>;
        const other = otherCredentialOf(sample);
        const foreign = key !== undefined || sample.credential === 'session' ? { ...request, headers: { ...headers, ...credentialHeaders(other) } } : { ...request, url: urlOf(request).replace(/token=[^&]+/, `token=${encodeURIComponent(other)}`) };
        assertError(await h.request(foreign), sample.foreign.status, sample.foreign.code);
      });

      test('a key of the other side → 403', async () => {
        assertError(await send(credentialOf(sample, sample.side === 'affiliate' ? 'brand' : 'affiliate')), 403, 'forbidden');
      });

      test('a key without the route’s scope → 403 naming the scope', async () => {
        const scope = String(route().options.config?.scope);
        const error = assertError(await send(await keyWithout(sample.side, scope)), 403, 'forbidden');
        assert.ok(error.message.includes(scope), error.message);
      });

      test('a control character in any query parameter, path parameter or body field → 400 naming it', async () => {
        const schema = (route().options.schema ?? {}) as { querystring?: { properties?: object }; body?: { properties?: object } };
        const options = await sample.request(credentialOf(sample));
        // The postback's token is read before anything else: a broken one is an unknown token (401).
        for (const param of Object.keys(schema.querystring?.properties ?? {}).filter((p) => p !== 'token')) {
          const error = assertError(await h.request(withQueryValue(options, param, 'a%00b')), 400, 'invalid_query');
          assert.match(error.message, new RegExp(`^${param} must not contain control characters`), error.message);
        }
        if (name.includes('/:')) assertError(await h.request(withPathParam(route(), options, 'a%1Fb')), 400, 'invalid_params');
        if (options.payload !== undefined && typeof options.payload === 'object') {
          for (const field of Object.keys(schema.body?.properties ?? {})) {
            const error = assertError(await h.request({ ...options, payload: { ...(options.payload as object), [field]: 'a\u0000b' } }), 400, 'invalid_body');
            assert.match(error.message, new RegExp(`^${field} must not contain control characters`), error.message);
          }
        }
      });

      if (name.includes('/:')) test('an overlong path parameter → 414', async () => {
        const options = await sample.request(credentialOf(sample));
        assertError(await h.request(withPathParam(route(), options, 'x'.repeat(600))), 414, 'uri_too_long');
      });

      test('a body over 1 MiB → 413, whether the route takes a body or not', async () => {
        const options = await sample.request(credentialOf(sample));
        const big = JSON.stringify({ padding: 'x'.repeat(1024 * 1024 + 10) });
        assertError(await h.request({ ...options, headers: { ...(options.headers as Record<string, string>), 'content-type': 'application/json' }, payload: big }), 413, 'payload_too_large');
      });

      if (name.startsWith('GET ')) {
        test('a smaller body, JSON or not, is ignored', async () => {
          const options = await sample.request(credentialOf(sample));
          const res = await h.request({ ...options, headers: { ...(options.headers as Record<string, string>), 'content-type': 'text/plain' }, payload: 'hello' });
          assert.ok(res.statusCode >= 200 && res.statusCode < 300, `${res.statusCode}: ${res.body}`);
        });
      } else {
        test('a body that is not JSON → 415, whether the route takes a body or not', async () => {
          const options = await sample.request(credentialOf(sample));
          assertError(await h.request({ ...options, headers: { ...(options.headers as Record<string, string>), 'content-type': 'text/plain' }, payload: 'hello' }), 415, 'unsupported_media_type');
        });
      }
    });
  }
});
