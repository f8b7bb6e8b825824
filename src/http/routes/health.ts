import { Type } from '@sinclair/typebox';
import type { App, AppContext } from '../context.js';
import { errorBody } from '../errors.js';

export function registerHealth(app: App, ctx: AppContext): void {
  app.get(
    '/healthz',
    { schema: { tags: ['Service'], summary: 'The process is up', response: { 200: Type.Object({ status: Type.Literal('ok') }) } } },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        tags: ['Service'],
        summary: 'The database (and Redis, when configured) answer',
        response: { 200: Type.Object({ status: Type.Literal('ready') }), 503: Type.Ref('Error') },
      },
    },
    async (_request, reply) => {
      try {
        await ctx.database.ping();
      } catch {
        return reply.status(503).send(errorBody(503, 'database_unavailable', 'The database is not reachable'));
      }
      if (ctx.redis) {
        try {
          await ctx.redis.ping();
        } catch {
          return reply.status(503).send(errorBody(503, 'redis_unavailable', 'Redis is not reachable'));
        }
      }
      return { status: 'ready' as const };
    },
  );
}
