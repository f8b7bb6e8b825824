import { Type } from '@sinclair/typebox';
import type { App } from '../context.js';
import type { ServingServices } from '../../services.js';
import { errorBody } from '../errors.js';

const UNAVAILABLE = {
  database: errorBody(503, 'database_unavailable', 'The database is not reachable'),
  redis: errorBody(503, 'redis_unavailable', 'Redis is not reachable'),
};

/**
 * The probes answer a few fixed bodies: plain JSON.stringify, not a compiled serializer, whose
 * first compilation (15 ms) would otherwise delay the first answer after a start.
 */
const serializerCompiler = () => (data: unknown) => JSON.stringify(data);

export function registerHealth(app: App, services: ServingServices): void {
  app.get(
    '/healthz',
    { serializerCompiler, schema: { tags: ['Service'], summary: 'The process is up', response: { 200: Type.Object({ status: Type.Literal('ok') }) } } },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/readyz',
    {
      serializerCompiler,
      schema: {
        tags: ['Service'],
        summary: 'The database (and Redis, when configured) answer',
        response: { 200: Type.Object({ status: Type.Literal('ready') }), 503: Type.Ref('Error') },
      },
    },
    async (_request, reply) => {
      const readiness = await services.health.readiness();
      if (!readiness.ready) return reply.status(503).send(UNAVAILABLE[readiness.down]);
      return { status: 'ready' as const };
    },
  );
}
