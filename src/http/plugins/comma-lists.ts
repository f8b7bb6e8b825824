// Query lists may be sent comma-separated (`types=A,B`) or repeated (`types=A&types=B`). Before
// validation, every query parameter whose schema is an array is split on commas, so each value
// is validated on its own.
import type { FastifyRequest } from 'fastify';
import type { App } from '../context.js';

interface ObjectSchema {
  properties?: Record<string, { type?: string }>;
}

export function splitCommaLists(app: App): void {
  app.addHook('preValidation', async (request: FastifyRequest) => {
    const schema = request.routeOptions.schema?.querystring as ObjectSchema | undefined;
    const query = request.query as Record<string, unknown> | undefined;
    if (!schema?.properties || !query) return;
    for (const [name, property] of Object.entries(schema.properties)) {
      if (property.type !== 'array' || query[name] === undefined) continue;
      const raw = Array.isArray(query[name]) ? (query[name] as unknown[]) : [query[name]];
      const values = raw.flatMap((v) => String(v).split(',')).map((v) => v.trim()).filter((v) => v !== '');
      query[name] = [...new Set(values)];
    }
  });
}
