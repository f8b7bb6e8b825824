// Checks every answer a test receives against the service's own OpenAPI document: the status must
// be one the document declares for the route (so an undocumented 414 or 503 fails the test that
// provoked it), and a JSON body never carries null (fields without a value are omitted). The
// harness applies it to every request, so each test of the suite also tests the contract.
//
// The statuses are read from each route's response schemas, which the document is generated from
// (test/api/service.test.ts holds the two equal for every route): generating the whole document
// took about a tenth of a small test file's CPU (110 ms), in each of the suite's few hundred processes.
import assert from 'node:assert/strict';
import type { Response } from 'light-my-request';
import type { RegisteredRoute } from '../../src/http/app.js';
import type { Service } from '../../src/server.js';

interface Template {
  url: string;
  method: string;
  segments: string[];
  hidden: boolean;
  declared: string[];
  /** Static segments count more: /docs wins over /:code, as in the router. */
  weight: number;
}

/** Whether the OpenAPI document leaves the route out (@fastify/swagger's rule: no schema, or hidden). */
export const undocumented = (route: RegisteredRoute): boolean => Boolean(route.options.schema?.hide) || !route.options.schema;

/** The statuses the OpenAPI document declares for a route, as @fastify/swagger writes them from its response schemas. */
export function declaredStatuses(route: RegisteredRoute): string[] {
  const responses = route.options.schema?.response as Record<string, unknown> | undefined;
  return responses ? Object.keys(responses).map((status) => (status === 'default' ? status : status.toUpperCase())) : ['200'];
}

export type ContractCheck = (method: string, url: string, response: Response) => void;

export function contractChecker(service: Service): ContractCheck {
  const templates: Template[] = service.routes.map((route) => {
    const segments = route.url.split('/').slice(1);
    return {
      url: route.url,
      method: route.method,
      segments,
      hidden: undocumented(route),
      declared: declaredStatuses(route),
      weight: segments.reduce((w, s, i) => w + (s.startsWith(':') ? 0 : 2 ** (segments.length - i)), 0),
    };
  });

  const routeOf = (method: string, path: string): Template | undefined => {
    const parts = path.split('/').slice(1);
    let best: Template | undefined;
    for (const t of templates) {
      if (t.method !== method || t.segments.length !== parts.length) continue;
      if (!t.segments.every((s, i) => (s.startsWith(':') ? parts[i] !== '' : s === parts[i]))) continue;
      if (!best || t.weight > best.weight) best = t;
    }
    return best;
  };

  return (method, url, response) => {
    const path = url.split('?')[0]!.split('#')[0]!;
    const route = routeOf(method.toUpperCase(), path);
    if (route && !route.hidden) {
      const { declared } = route;
      assert.ok(
        declared.includes(String(response.statusCode)) || declared.includes('default'),
        `${method} ${route.url} answered ${response.statusCode}, which the OpenAPI document does not declare for it (declared: ${declared.join(', ')}): ${response.body.slice(0, 300)}`,
      );
      if (/application\/json/.test(String(response.headers['content-type'])) && response.body !== '') {
        const where = nullIn(JSON.parse(response.body), '$');
        assert.equal(where, undefined, `${method} ${path} answered null at ${where}: fields without a value must be omitted`);
      }
    }
  };
}

/** The JSON path of the first null in a value, or undefined. */
function nullIn(value: unknown, path: string): string | undefined {
  if (value === null) return path;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nullIn(value[i], `${path}[${i}]`);
      if (found) return found;
    }
  } else if (typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      const found = nullIn(v, `${path}.${key}`);
      if (found) return found;
    }
  }
  return undefined;
}
