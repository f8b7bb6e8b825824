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
        summary: 'The database answers',
        response: { 200: Type.Object({ status: Type.Literal('ready') }), 503: Type.Ref('Error') },
      },
    },
    async (_request, reply) => {
      try {
        await ctx.database.ping();
        return { status: 'ready' as const };
      } catch {
        return reply.status(503).send(errorBody(503, 'database_unavailable', 'The database is not reachable'));
      }
    },
  );
}
