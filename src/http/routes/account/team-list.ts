import { Type } from '@sinclair/typebox';
import { User } from '../../../schemas/session.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { accountOf, accountPath, SESSION_ONLY, TAG, type Side } from './side.js';

export const listTeamRoute = (side: Side) =>
  function listTeamRoute(app: App, services: ServingServices): void {
    app.get(
      accountPath(side, 'team'),
      {
        schema: {
          tags: [TAG],
          summary: 'The people of your account',
          description: 'Every user of your affiliate or brand, oldest first, with their role and whether they have set a password yet. Signed-in users only.',
          security: SESSION_ONLY,
          response: { 200: Type.Object({ data: Type.Array(Type.Ref(User)) }) },
        },
      },
      async (request) => ({ data: await services.users.team(accountOf(side, request)) }),
    );
  };
