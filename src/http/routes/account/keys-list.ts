import { Type } from '@sinclair/typebox';
import { ApiKey } from '../../../schemas/account.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { accountOf, accountPath, keyView, SESSION_ONLY, TAG, type Side } from './side.js';

export const listKeysRoute = (side: Side) =>
  function listKeysRoute(app: App, services: ServingServices): void {
    app.get(
      accountPath(side, 'keys'),
      {
        schema: {
          tags: [TAG],
          summary: 'Your API keys',
          description: 'Every API key of your account, oldest first, revoked ones included (with revokedAt). The keys themselves are never shown again: only their first characters. Owners only.',
          security: SESSION_ONLY,
          response: { 200: Type.Object({ data: Type.Array(Type.Ref(ApiKey)) }) },
        },
      },
      async (request) => {
        const keys = await services.access.listApiKeys(accountOf(side, request));
        return { data: keys.map(keyView) };
      },
    );
  };
