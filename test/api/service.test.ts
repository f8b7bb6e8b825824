import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import { startHarness, type Harness } from '../helpers/harness.js';
import { assertError } from '../helpers/api.js';
import { buildAjv } from '../../src/schemas/ajv.js';
import { declaredStatuses, undocumented } from '../helpers/contract.js';

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h.close();
});

const AFFILIATE_OPERATIONS: Array<[string, 'get' | 'post']> = [
  ['/affiliate/brands', 'get'],
  ['/affiliate/brands/{id}', 'get'],
  ['/affiliate/products', 'get'],
  ['/affiliate/campaigns', 'get'],
  ['/affiliate/shortener/url', 'post'],
  ['/affiliate/shortener/urls', 'get'],
  ['/affiliate/orders', 'get'],
  ['/affiliate/orders/{id}', 'get'],
];

interface OpenApiDoc {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, { security?: Array<Record<string, string[]>>; responses?: Record<string, unknown>; parameters?: Array<{ name: string; in: string }> }>>;
  components?: { securitySchemes?: Record<string, { type: string; in?: string; name?: string }> };
  security?: Array<Record<string, string[]>>;
}

async function openapi(): Promise<OpenApiDoc> {
  const res = await h.request({ method: 'GET', url: '/openapi.json' });
  assert.equal(res.statusCode, 200, res.body);
  assert.match(String(res.headers['content-type']), /application\/json/);
  return res.json<OpenApiDoc>();
}

describe('health', () => {
  test('GET /healthz → 200 without a key', async () => {
    const res = await h.request({ method: 'GET', url: '/healthz' });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { status: 'ok' });
  });

  test('GET /readyz → 200 while the database answers', async () => {
    const res = await h.request({ method: 'GET', url: '/readyz' });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { status: 'ready' });
  });
});

describe('unknown routes', () => {
  test('an unknown path → 404 route_not_found with the error body', async () => {
    for (const url of ['/affiliate/nothing', '/affiliate/brands/x/y', '/a/b/c', '/affiliate/shortener']) {
      const error = assertError(await h.request({ method: 'GET', url, headers: { 'x-api-key': h.world.keys.aff1 } }), 404, 'route_not_found');
      assert.ok(error.message.length > 0);
    }
  });

  test('an unknown method on a known path → 404 route_not_found', async () => {
    assertError(await h.request({ method: 'DELETE', url: '/affiliate/orders', headers: { 'x-api-key': h.world.keys.aff1 } }), 404, 'route_not_found');
    assertError(await h.request({ method: 'POST', url: '/affiliate/nothing', payload: {} }), 404, 'route_not_found');
  });
});

describe('malformed request lines', () => {
  test('broken percent-encoding in the path → 400 with the error body', async () => {
    for (const url of ['/affiliate/orders/%E0%A4%A', '/%E0%A4%A']) {
      const res = await h.request({ method: 'GET', url, headers: { 'x-api-key': h.world.keys.aff1 } });
      assertError(res, 400, /^[a-z]+(_[a-z]+)*$/);
    }
  });

  test('an overlong path segment → a 4xx with the error body', async () => {
    for (const url of [`/${'a'.repeat(500)}`, `/affiliate/brands/${'b'.repeat(500)}`]) {
      const res = await h.request({ method: 'GET', url, headers: { 'x-api-key': h.world.keys.aff1 } });
      assert.ok(res.statusCode >= 400 && res.statusCode < 500, `${url.slice(0, 30)}…: ${res.statusCode} ${res.body.slice(0, 200)}`);
      assertError(res, res.statusCode, /^[a-z]+(_[a-z]+)*$/);
    }
  });
});

describe('GET /openapi.json', () => {
  test('is an OpenAPI 3.1 document that passes a standard validator', async () => {
    const doc = await openapi();
    assert.match(doc.openapi, /^3\.1\.\d+$/);
    assert.ok(doc.info.title && doc.info.version);
    const validator = new Validator();
    const result = await validator.validate(doc as unknown as Record<string, unknown>);
    assert.ok(result.valid, `OpenAPI document is invalid:\n${JSON.stringify(result.errors, null, 2)}`);
  });

  test('documents every route the service serves, each with the statuses its response schemas declare (what every test checks answers against)', async () => {
    const doc = await openapi();
    const documented = h.service.routes.filter((route) => !undocumented(route));
    assert.ok(documented.length > 100, `only ${documented.length} documented routes`);
    for (const route of documented) {
      const path = doc.paths[route.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')];
      const operation = path?.[route.method.toLowerCase()] ?? (route.method === 'HEAD' ? path?.get : undefined);
      assert.ok(operation, `${route.method} ${route.url} is registered but absent from the OpenAPI document`);
      assert.deepEqual(Object.keys(operation.responses ?? {}).sort(), declaredStatuses(route).sort(), `${route.method} ${route.url}`);
    }
  });

  test('needs no API key', async () => {
    const res = await h.request({ method: 'GET', url: '/openapi.json' });
    assert.equal(res.statusCode, 200);
  });

  test('documents all eight affiliate operations, each secured by the x-api-key header scheme', async () => {
    const doc = await openapi();
    const schemes = doc.components?.securitySchemes ?? {};
    const apiKeySchemes = Object.entries(schemes)
      .filter(([, s]) => s.type === 'apiKey' && s.in === 'header' && s.name === 'x-api-key')
      .map(([name]) => name);
    assert.ok(apiKeySchemes.length > 0, `no apiKey scheme for the x-api-key header: ${JSON.stringify(schemes)}`);
    for (const [path, method] of AFFILIATE_OPERATIONS) {
      const operation = doc.paths[path]?.[method];
      assert.ok(operation, `${method.toUpperCase()} ${path} is not documented; paths: ${Object.keys(doc.paths).join(', ')}`);
      const security = operation.security ?? doc.security ?? [];
      assert.ok(
        security.some((requirement) => Object.keys(requirement).some((name) => apiKeySchemes.includes(name))),
        `${method.toUpperCase()} ${path} does not require the x-api-key scheme: ${JSON.stringify(security)}`,
      );
      assert.ok(operation.responses?.['200'], `${method.toUpperCase()} ${path} documents its 200 answer`);
      assert.ok(operation.responses?.['401'], `${method.toUpperCase()} ${path} documents 401`);
      assert.ok(operation.responses?.['429'], `${method.toUpperCase()} ${path} documents 429`);
    }
  });

  test('documents the query parameters of the spec', async () => {
    const doc = await openapi();
    const names = (path: string) => (doc.paths[path]?.get?.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
    for (const name of ['limit', 'page', 'organizationId', 'featureId', 'type']) assert.ok(names('/affiliate/shortener/urls').includes(name), `shortener/urls ${name}`);
    for (const name of ['limit', 'page', 'organizationId', 'organizationIds', 'mdasc', 'from', 'to']) assert.ok(names('/affiliate/orders').includes(name), `orders ${name}`);
  });
});

describe('GET /openapi.json: what generated clients and viewers read', () => {
  test('a query parameter with a default is optional; a choice among words is an enum', async () => {
    const doc = (await openapi()) as unknown as { paths: Record<string, Record<string, { parameters: Array<{ name: string; required?: boolean; schema: Record<string, unknown> }> }>> };
    const parameter = (path: string, name: string) => doc.paths[path]!.get!.parameters.find((p) => p.name === name)!;
    for (const name of ['page', 'limit']) assert.equal(parameter('/affiliate/brands', name).required, false, `${name} has a default`);
    const type = parameter('/affiliate/shortener/urls', 'type').schema;
    assert.equal(type.anyOf, undefined);
    assert.equal(type.type, 'string');
    assert.ok(Array.isArray(type.enum) && type.enum.includes('BrandPage') && type.enum.length > 1, JSON.stringify(type));
  });
});

describe('GET /openapi.json: example requests', () => {
  test('every operation that takes a body documents an example of it, which the body schema accepts', async () => {
    type Media = { schema: object; example?: unknown; examples?: Record<string, { value: unknown }> };
    const doc = (await openapi()) as unknown as { paths: Record<string, Record<string, { requestBody?: { content: Record<string, Media> } }>>; components: object };
    // The schemas' $refs point into the document's components: each is checked with them beside it.
    const ajv = buildAjv({ coerceTypes: false });
    const writes = Object.entries(doc.paths).flatMap(([path, operations]) => Object.entries(operations).filter(([, op]) => op.requestBody).map(([method, op]) => ({ name: `${method.toUpperCase()} ${path}`, content: op.requestBody!.content })));
    assert.ok(writes.length >= 20, `only ${writes.length} operations take a body`);
    for (const { name, content } of writes) {
      for (const [type, media] of Object.entries(content)) {
        const examples = media.examples ? Object.values(media.examples).map((e) => e.value) : media.example === undefined ? [] : [media.example];
        assert.ok(examples.length > 0, `${name} (${type}) documents no example request`);
        const validate = ajv.compile({ ...media.schema, components: doc.components });
        for (const example of examples) assert.ok(validate(structuredClone(example)), `${name}: its example ${JSON.stringify(example)} does not fit its schema: ${ajv.errorsText(validate.errors)}`);
      }
    }
  });
});

describe('GET /docs', () => {
  test('answers an HTML page (after a redirect, if any)', async () => {
    let res = await h.request({ method: 'GET', url: '/docs' });
    for (let hops = 0; hops < 3 && res.statusCode >= 300 && res.statusCode < 400; hops++) {
      const location = String(res.headers.location);
      const next = new URL(location, 'http://localhost/docs');
      res = await h.request({ method: 'GET', url: `${next.pathname}${next.search}` });
    }
    assert.equal(res.statusCode, 200, res.body.slice(0, 500));
    assert.match(String(res.headers['content-type']), /text\/html/);
    assert.match(res.body, /<html/i);
  });
});
