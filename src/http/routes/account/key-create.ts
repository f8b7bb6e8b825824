import { Type } from '@sinclair/typebox';
import { ApiKey, ApiKeyInput } from '../../../schemas/account.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { accountOf, accountPath, keyView, SESSION_ONLY, TAG, type Side } from './side.js';

export const createKeyRoute = (side: Side) =>
  function createKeyRoute(app: App, services: ServingServices): void {
    app.post(
      accountPath(side, 'keys'),
      {
        schema: {
          tags: [TAG],
          summary: 'Create an API key',
          description:
            'A key for your programs, with the scopes you choose (all of your side when left out) and the standard rate limit (an operator can raise it). The answer carries the key, shown this once: store it now. Owners only.',
          security: SESSION_ONLY,
          body: ApiKeyInput(side),
          response: { 201: Type.Object({ data: Type.Intersect([Type.Ref(ApiKey), Type.Object({ key: Type.String({ description: 'The key: send it in the x-api-key header. Shown only now.' }) })]) }) },
        },
      },
      async (request, reply) => {
        const { id, key } = await services.access.createApiKey({ ...accountOf(side, request), name: request.body.name, ...(request.body.scopes && { scopes: request.body.scopes }) });
        const created = (await services.access.listApiKeys(accountOf(side, request))).find((k) => k.id === id)!;
        return reply.status(201).send({ data: { ...keyView(created), key } });
      },
    );
  };
