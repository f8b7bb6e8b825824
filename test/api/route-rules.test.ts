// Walks every registered route and proves the rules every API route must follow hold for each:
// unknown query parameters refused, both error shapes, keys, the other side's keys and scopes,
// overlong path parameters, bodies that are not JSON or too large. Every answer is also checked
// against the OpenAPI document by the harness (status declared, no null). A route added without a
// sample request here fails the first test, so a new route cannot skip the rules.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { InjectOptions } from 'light-my-request';
import { startHarness, type Harness } from '../helpers/harness.js';
import { BRANDS, campaignInput, productInput } from '../helpers/world.js';
import { assertError, newKey } from '../helpers/api.js';
import { brandKey, createLink, freshClick, item, report } from '../helpers/tracking.js';
import { contractChecker } from '../helpers/contract.js';
import { urlOf } from '../helpers/inject.js';
import Fastify from 'fastify';
import { applyRouteRules, isApiRoute, isExempt } from '../../src/http/route-rules.js';
import { hashKey } from '../../src/domain/access/access-service.js';
import { AFFILIATE_SCOPES, BRAND_SCOPES } from '../../src/domain/access/scopes.js';
import type { RegisteredRoute } from '../../src/http/app.js';
import { servicesFor } from '../helpers/databases.js';

type Side = 'affiliate' | 'brand';

interface Sample {
  side: Side;
  /** A request that succeeds with `key`; `key` undefined sends no credential at all. */
  request(key: string | undefined): Promise<InjectOptions> | InjectOptions;
  /**
   * Isolation: the same request with another affiliate's (or brand's) key. `status` where the
   * request names something of the caller's (another caller gets that status, learning nothing);
   * otherwise why there is nothing of the caller's to reach (its own tests prove the lists).
   */
  foreign: { status: number; code: string } | { reason: string };
}

const OWN_LIST = { reason: "lists the caller's own only (its test file proves another caller's never appear)" };
const CATALOGUE = { reason: 'the catalogue: the same public brands for every affiliate, private ones by approval (brands.test.ts)' };

let h: Harness;
let payoutId = '';
const keys: Record<Side, string> = { affiliate: '', brand: '' };
/** Keys of another affiliate (aff-2) and another brand (Globex), for the isolation rule. */
const otherKeys: Record<Side, string> = { affiliate: '', brand: '' };
let seq = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++seq}`;
const withKey = (key: string | undefined): Record<string, string> => (key === undefined ? {} : { 'x-api-key': key });

/** A product as a brand puts it: the test world's shape without organizationId and id. */
function walkProduct() {
  const { organizationId: _o, id: _i, ...rest } = productInput('walk-sku', BRANDS.acme, 'Walk shoe', 1_000);
  return rest;
}

/** A campaign as a brand puts it: the test world's shape without organizationId and id. */
function walkCampaign() {
  const { organizationId: _o, id: _i, ...rest } = campaignInput({ id: 'walk-camp', organizationId: BRANDS.acme, type: 'GenericCoupon' });
  return rest;
}

/** One succeeding request per API route: the walker's starting point for every rule. */
const SAMPLES: Record<string, Sample> = {
  'GET /affiliate/brands': { side: 'affiliate', foreign: CATALOGUE, request: (key) => ({ method: 'GET', url: '/affiliate/brands', headers: withKey(key) }) },
  // Globex is private and approved for aff-1 only.
  'GET /affiliate/brands/:id': { side: 'affiliate', foreign: { status: 404, code: 'not_found' }, request: (key) => ({ method: 'GET', url: `/affiliate/brands/${BRANDS.globex}`, headers: withKey(key) }) },
  'GET /affiliate/products': { side: 'affiliate', foreign: CATALOGUE, request: (key) => ({ method: 'GET', url: '/affiliate/products', headers: withKey(key) }) },
  'GET /affiliate/campaigns': { side: 'affiliate', foreign: CATALOGUE, request: (key) => ({ method: 'GET', url: '/affiliate/campaigns', headers: withKey(key) }) },
  'POST /affiliate/shortener/url': {
    side: 'affiliate',
    foreign: { reason: "creates the caller's own links; another affiliate gets links of its own channels (shortener-create.test.ts)" },
    request: (key) => ({ method: 'POST', url: '/affiliate/shortener/url', headers: withKey(key), payload: { organizationId: BRANDS.acme, type: 'BrandPage' } }),
  },
  'GET /affiliate/shortener/urls': { side: 'affiliate', foreign: OWN_LIST, request: (key) => ({ method: 'GET', url: '/affiliate/shortener/urls?type=BrandPage', headers: withKey(key) }) },
  'GET /affiliate/orders': { side: 'affiliate', foreign: OWN_LIST, request: (key) => ({ method: 'GET', url: '/affiliate/orders', headers: withKey(key) }) },
  'GET /affiliate/orders/:id': { side: 'affiliate', foreign: { status: 404, code: 'not_found' }, request: (key) => ({ method: 'GET', url: '/affiliate/orders/o-aff1-1', headers: withKey(key) }) },
  'GET /affiliate/balance': { side: 'affiliate', foreign: OWN_LIST, request: (key) => ({ method: 'GET', url: '/affiliate/balance', headers: withKey(key) }) },
  'GET /affiliate/payouts': { side: 'affiliate', foreign: OWN_LIST, request: (key) => ({ method: 'GET', url: '/affiliate/payouts', headers: withKey(key) }) },
  'GET /affiliate/payouts/:id': { side: 'affiliate', foreign: { status: 404, code: 'payout_not_found' }, request: (key) => ({ method: 'GET', url: `/affiliate/payouts/${payoutId}`, headers: withKey(key) }) },
  'GET /affiliate/channels': { side: 'affiliate', foreign: OWN_LIST, request: (key) => ({ method: 'GET', url: '/affiliate/channels', headers: withKey(key) }) },
  'GET /affiliate/analytics': { side: 'affiliate', foreign: OWN_LIST, request: (key) => ({ method: 'GET', url: '/affiliate/analytics?groupBy=countries&interval=all', headers: withKey(key) }) },
  'GET /affiliate/analytics/export': { side: 'affiliate', foreign: OWN_LIST, request: (key) => ({ method: 'GET', url: '/affiliate/analytics/export?groupBy=links', headers: withKey(key) }) },
  'GET /advertiser/analytics': { side: 'brand', foreign: OWN_LIST, request: (key) => ({ method: 'GET', url: '/advertiser/analytics?groupBy=affiliates&interval=all', headers: withKey(key) }) },
  'GET /advertiser/analytics/export': { side: 'brand', foreign: OWN_LIST, request: (key) => ({ method: 'GET', url: '/advertiser/analytics/export?interval=7d', headers: withKey(key) }) },
  'POST /advertiser/conversions': {
    side: 'brand',
    foreign: { status: 404, code: 'click_not_found' },
    request: async (key) => ({
      method: 'POST',
      url: '/advertiser/conversions',
      headers: withKey(key),
      payload: { clickId: await freshClick(h, keys.affiliate, BRANDS.acme), orderId: unique('walk'), value: 1000, items: [item(1000)] },
    }),
  },
  'PATCH /advertiser/conversions/:orderId': {
    side: 'brand',
    foreign: { status: 404, code: 'not_found' },
    request: async (key) => {
      const orderId = unique('walk-patch');
      const created = await report(h, keys.brand, { clickId: await freshClick(h, keys.affiliate, BRANDS.acme), orderId, value: 1000, items: [item(1000)] });
      assert.equal(created.statusCode, 201, created.body);
      return { method: 'PATCH', url: `/advertiser/conversions/${orderId}`, headers: withKey(key), payload: { status: 'approved' } };
    },
  },
  'GET /advertiser/conversions': { side: 'brand', foreign: OWN_LIST, request: (key) => ({ method: 'GET', url: '/advertiser/conversions', headers: withKey(key) }) },
  'GET /advertiser/conversions/:orderId': {
    side: 'brand',
    foreign: { status: 404, code: 'not_found' },
    request: async (key) => {
      const orderId = unique('walk-get');
      const created = await report(h, keys.brand, { clickId: await freshClick(h, keys.affiliate, BRANDS.acme), orderId, value: 1000, items: [item(1000)] });
      assert.equal(created.statusCode, 201, created.body);
      return { method: 'GET', url: `/advertiser/conversions/${orderId}`, headers: withKey(key) };
    },
  },
  'POST /affiliate/brands/:id/approval-request': {
    side: 'affiliate',
    foreign: { reason: "asks on the caller's own behalf (approvals.test.ts)" },
    request: (key) => ({ method: 'POST', url: `/affiliate/brands/${BRANDS.globex}/approval-request`, headers: withKey(key) }),
  },
  'GET /advertiser/affiliates': { side: 'brand', foreign: OWN_LIST, request: (key) => ({ method: 'GET', url: '/advertiser/affiliates', headers: withKey(key) }) },
  'POST /advertiser/affiliates/:id/approval': {
    side: 'brand',
    foreign: { reason: "approves for the caller's own brand (approvals.test.ts)" },
    request: (key) => ({ method: 'POST', url: '/advertiser/affiliates/aff-2/approval', headers: withKey(key) }),
  },
  'DELETE /advertiser/affiliates/:id/approval': {
    side: 'brand',
    foreign: { reason: "withdraws for the caller's own brand (approvals.test.ts)" },
    request: async (key) => {
      await h.service.services.approvals.approve(BRANDS.acme, 'aff-2');
      return { method: 'DELETE', url: '/advertiser/affiliates/aff-2/approval', headers: withKey(key) };
    },
  },
  'PUT /advertiser/products/:id': {
    side: 'brand',
    foreign: { reason: "puts the caller's own product: another brand's id is its own (brand-catalogue.test.ts)" },
    request: (key) => ({ method: 'PUT', url: '/advertiser/products/walk-sku', headers: withKey(key), payload: walkProduct() }),
  },
  'PATCH /advertiser/products/:id': {
    side: 'brand',
    foreign: { status: 404, code: 'product_not_found' },
    request: async (key) => {
      await h.service.services.imports.putProduct(BRANDS.acme, 'walk-sku', walkProduct());
      return { method: 'PATCH', url: '/advertiser/products/walk-sku', headers: withKey(key), payload: { name: 'Walked' } };
    },
  },
  'DELETE /advertiser/products/:id': {
    side: 'brand',
    foreign: { status: 404, code: 'product_not_found' },
    request: async (key) => {
      await h.service.services.imports.putProduct(BRANDS.acme, 'walk-sku', walkProduct());
      return { method: 'DELETE', url: '/advertiser/products/walk-sku', headers: withKey(key) };
    },
  },
  'POST /advertiser/products/bulk': {
    side: 'brand',
    foreign: { reason: "puts the caller's own products (brand-catalogue.test.ts)" },
    request: (key) => ({
      method: 'POST',
      url: '/advertiser/products/bulk',
      headers: { ...withKey(key), 'content-type': 'application/x-ndjson' },
      payload: JSON.stringify({ ...walkProduct(), id: 'walk-bulk' }),
    }),
  },
  'GET /advertiser/brand': { side: 'brand', foreign: OWN_LIST, request: (key) => ({ method: 'GET', url: '/advertiser/brand', headers: withKey(key) }) },
  'PATCH /advertiser/brand': {
    side: 'brand',
    foreign: { reason: "changes the caller's own brand (brand-catalogue.test.ts)" },
    request: (key) => ({ method: 'PATCH', url: '/advertiser/brand', headers: withKey(key), payload: { clickIdParam: 'clickId' } }),
  },
  'PUT /advertiser/campaigns/:id': {
    side: 'brand',
    foreign: { reason: "puts the caller's own campaign: another brand's id is its own (brand-catalogue.test.ts)" },
    request: (key) => ({ method: 'PUT', url: '/advertiser/campaigns/walk-camp', headers: withKey(key), payload: walkCampaign() }),
  },
  'PATCH /advertiser/campaigns/:id': {
    side: 'brand',
    foreign: { status: 404, code: 'campaign_not_found' },
    request: async (key) => {
      await h.service.services.imports.putCampaign(BRANDS.acme, 'walk-camp', walkCampaign());
      return { method: 'PATCH', url: '/advertiser/campaigns/walk-camp', headers: withKey(key), payload: { name: 'Walked' } };
    },
  },
  'DELETE /advertiser/campaigns/:id': {
    side: 'brand',
    foreign: { status: 404, code: 'campaign_not_found' },
    request: async (key) => {
      await h.service.services.imports.putCampaign(BRANDS.acme, 'walk-camp', walkCampaign());
      return { method: 'DELETE', url: '/advertiser/campaigns/walk-camp', headers: withKey(key) };
    },
  },
  'GET /postback': {
    side: 'brand',
    foreign: { status: 404, code: 'click_not_found' },
    request: async (key) => {
      const clickId = await freshClick(h, keys.affiliate, BRANDS.acme);
      const token = key === undefined ? '' : `&token=${encodeURIComponent(key)}`;
      return { method: 'GET', url: `/postback?clickId=${clickId}&orderId=${unique('walk-pb')}&value=1000${token}` };
    },
  },
};

/** The side's own id in the test world: aff-1, or the Acme brand. */
const ownerOf = (side: Side) => ({ kind: side, id: side === 'affiliate' ? 'aff-1' : BRANDS.acme });

/**
 * A webhook endpoint of the side's caller, made afresh (the walker sends each sample many times and
 * an owner may have 20 endpoints): its id, and, with `delivered`, a delivery of an event to it.
 */
async function freshEndpoint(side: Side, delivered = false): Promise<{ id: string; deliveryId?: string }> {
  const owner = ownerOf(side);
  const { db } = h.service.database;
  await db.deleteFrom('webhook_endpoints').where('owner_kind', '=', owner.kind).where('owner_id', '=', owner.id).execute();
  const events = side === 'affiliate' ? ['order.created'] : ['conversion.created'];
  // Never delivered here: the endpoint is switched off once its delivery exists.
  const { endpoint } = await h.service.services.webhooks.create(owner, { url: 'https://hooks.example.com/walk', events });
  if (!delivered) return { id: endpoint.id };
  const created = await report(h, keys.brand, { clickId: await freshClick(h, keys.affiliate, BRANDS.acme), orderId: unique('walk-hook'), value: 1000, items: [item(1000)] });
  assert.equal(created.statusCode, 201, created.body);
  await h.service.services.webhooks.update(owner, endpoint.id, { enabled: false });
  const delivery = await db.selectFrom('webhook_deliveries').select('id').where('endpoint_id', '=', endpoint.id).executeTakeFirstOrThrow();
  return { id: endpoint.id, deliveryId: delivery.id };
}

for (const [side, prefix] of [
  ['affiliate', '/affiliate'],
  ['brand', '/advertiser'],
] as const) {
  const events = side === 'affiliate' ? ['order.created'] : ['conversion.created'];
  const mine = { status: 404, code: 'webhook_not_found' };
  Object.assign(SAMPLES, {
    [`POST ${prefix}/webhooks`]: {
      side,
      foreign: { reason: "creates the caller's own endpoint (webhooks.test.ts)" },
      request: async (key: string | undefined) => {
        await h.service.database.db.deleteFrom('webhook_endpoints').where('owner_id', '=', ownerOf(side).id).execute();
        return { method: 'POST', url: `${prefix}/webhooks`, headers: withKey(key), payload: { url: 'https://hooks.example.com/walk', events } };
      },
    },
    [`GET ${prefix}/webhooks`]: { side, foreign: OWN_LIST, request: (key: string | undefined) => ({ method: 'GET', url: `${prefix}/webhooks`, headers: withKey(key) }) },
    [`GET ${prefix}/webhooks/:id`]: { side, foreign: mine, request: async (key: string | undefined) => ({ method: 'GET', url: `${prefix}/webhooks/${(await freshEndpoint(side)).id}`, headers: withKey(key) }) },
    [`PATCH ${prefix}/webhooks/:id`]: {
      side,
      foreign: mine,
      request: async (key: string | undefined) => ({ method: 'PATCH', url: `${prefix}/webhooks/${(await freshEndpoint(side)).id}`, headers: withKey(key), payload: { description: 'walked' } }),
    },
    [`DELETE ${prefix}/webhooks/:id`]: { side, foreign: mine, request: async (key: string | undefined) => ({ method: 'DELETE', url: `${prefix}/webhooks/${(await freshEndpoint(side)).id}`, headers: withKey(key) }) },
    [`POST ${prefix}/webhooks/:id/rotate-secret`]: {
      side,
      foreign: mine,
      request: async (key: string | undefined) => ({ method: 'POST', url: `${prefix}/webhooks/${(await freshEndpoint(side)).id}/rotate-secret`, headers: withKey(key) }),
    },
    [`GET ${prefix}/webhooks/:id/deliveries`]: {
      side,
      foreign: mine,
      request: async (key: string | undefined) => ({ method: 'GET', url: `${prefix}/webhooks/${(await freshEndpoint(side)).id}/deliveries`, headers: withKey(key) }),
    },
    [`POST ${prefix}/webhooks/:id/deliveries/:deliveryId/redeliver`]: {
      side,
      foreign: mine,
      request: async (key: string | undefined) => {
        const { id, deliveryId } = await freshEndpoint(side, true);
        return { method: 'POST', url: `${prefix}/webhooks/${id}/deliveries/${deliveryId!}/redeliver`, headers: withKey(key) };
      },
    },
  } satisfies Record<string, Sample>);
}

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
      affiliate_id: side === 'affiliate' ? 'aff-1' : null,
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
  h = await startHarness({ WEBHOOK_POLL_MS: '0' });
  keys.affiliate = (await newKey(h, 'aff-1', { rateLimit: 100_000 })).key;
  keys.brand = await brandKey(h, BRANDS.acme);
  otherKeys.affiliate = (await newKey(h, 'aff-2', { rateLimit: 100_000 })).key;
  otherKeys.brand = await brandKey(h, BRANDS.globex);
  await createLink(h, keys.affiliate, BRANDS.acme); // so the brand has a link to click
  // The world's o-aff1-2 is approved: paying it gives aff-1 a payout to read.
  payoutId = (await servicesFor(h.service.database).payouts.pay('aff-1')).payouts[0]!.id!;
});
after(async () => {
  await h.close();
});

test('every registered route is an API route with a sample here, or listed as exempt from the API rules', () => {
  const routes = (h.service.routes).filter((r) => r.method !== 'HEAD');
  const unsampled = routes.filter((r) => isApiRoute(r.url) && !SAMPLES[nameOf(r)]).map(nameOf);
  assert.deepEqual(unsampled, [], 'add a sample request for each new API route to SAMPLES');
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
        const res = await send(keys[sample.side]);
        assert.ok(res.statusCode >= 200 && res.statusCode < 300, `${res.statusCode}: ${res.body}`);
        for (const header of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) assert.match(String(res.headers[header]), /^\d+$/, header);
      });

      test('an unknown query parameter → 400 invalid_query naming it', async () => {
        const error = assertError(await send(keys[sample.side], (o) => withParam(o, 'zzUnknown=1')), 400, 'invalid_query');
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
        const headers = { ...(options.headers as Record<string, string>), authorization: `Bearer ${keys[sample.side]}` };
        assertError(await h.request({ ...options, headers }), 401, 'unauthorized');
      });

      test('a revoked key → 401', async () => {
        const owner = sample.side === 'affiliate' ? { affiliateId: 'aff-1' } : { brandId: BRANDS.acme };
        const { id, key } = await servicesFor(h.service.database).access.createApiKey({ ...owner, rateLimit: 100_000 });
        assert.ok((await send(key)).statusCode < 300, 'the key works before it is revoked');
        await servicesFor(h.service.database).access.revokeApiKey(id);
        h.service.services.access.forgetKeys(); // as the revoking command's announcement does
        assertError(await send(key), 401, 'unauthorized');
      });

      test("another affiliate's or brand's key cannot reach the caller's resource", async (t) => {
        if ('reason' in sample.foreign) return t.diagnostic(`not applicable: ${sample.foreign.reason}`);
        const request = await sample.request(keys[sample.side]);
        const headers = { ...(request.headers as Record<string, string>) };
        const other = otherKeys[sample.side];
        const foreign = 'x-api-key' in headers ? { ...request, headers: { ...headers, 'x-api-key': other } } : { ...request, url: urlOf(request).replace(/token=[^&]+/, `token=${encodeURIComponent(other)}`) };
        assertError(await h.request(foreign), sample.foreign.status, sample.foreign.code);
      });

      test('a key of the other side → 403', async () => {
        assertError(await send(keys[sample.side === 'affiliate' ? 'brand' : 'affiliate']), 403, 'forbidden');
      });

      test('a key without the route’s scope → 403 naming the scope', async () => {
        const scope = String(route().options.config?.scope);
        const error = assertError(await send(await keyWithout(sample.side, scope)), 403, 'forbidden');
        assert.ok(error.message.includes(scope), error.message);
      });

      test('a control character in any query parameter, path parameter or body field → 400 naming it', async () => {
        const schema = (route().options.schema ?? {}) as { querystring?: { properties?: object }; body?: { properties?: object } };
        const options = await sample.request(keys[sample.side]);
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
        const options = await sample.request(keys[sample.side]);
        assertError(await h.request(withPathParam(route(), options, 'x'.repeat(600))), 414, 'uri_too_long');
      });

      if (/^(POST|PUT|PATCH) /.test(name)) test('a body that is not JSON → 415, one over 1 MiB → 413', async () => {
        const options = await sample.request(keys[sample.side]);
        const headers = { ...(options.headers as Record<string, string>) };
        assertError(await h.request({ ...options, headers: { ...headers, 'content-type': 'text/plain' }, payload: 'hello' }), 415, 'unsupported_media_type');
        const big = JSON.stringify({ padding: 'x'.repeat(1024 * 1024 + 10) });
        assertError(await h.request({ ...options, headers: { ...headers, 'content-type': 'application/json' }, payload: big }), 413, 'payload_too_large');
      });
    });
  }
});
