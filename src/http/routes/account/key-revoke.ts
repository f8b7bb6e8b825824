import { Type } from '@sinclair/typebox';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { errorResponses } from '../../responses.js';
import { accountOf, accountPath, SESSION_ONLY, TAG, type Side } from './side.js';

const KeyParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100, description: 'The key id (key_…)' }) });

export const revokeKeyRoute = (side: Side) =>
  function revokeKeyRoute(app: App, services: ServingServices): void {
    app.delete(
      `${accountPath(side, 'keys')}/:id`,
      {
        schema: {
          tags: [TAG],
          summary: 'Revoke an API key',
          description: 'The key stops working on every instance at once; it stays listed with revokedAt. Revoking it again changes nothing. Another account\'s key answers 404. Owners only.',
          security: SESSION_ONLY,
          params: KeyParams,
          response: { 204: Type.Null({ description: 'Revoked' }), ...errorResponses(404) },
        },
      },
      async (request, reply) => {
        await services.access.revokeOwnApiKey(accountOf(side, request), request.params.id);
        return reply.status(204).send(null);
      },
    );
  };
