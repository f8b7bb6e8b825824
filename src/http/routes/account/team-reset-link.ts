import { Type } from '@sinclair/typebox';
import { PasswordLink } from '../../../schemas/account.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { errorResponses } from '../../responses.js';
import { MemberParams } from './team-member-params.js';
import { accountOf, accountPath, SESSION_ONLY, TAG, type Side } from './side.js';

export const teamResetLinkRoute = (side: Side) =>
  function teamResetLinkRoute(app: App, services: ServingServices): void {
    app.post(
      `${accountPath(side, 'team')}/:id/password-link`,
      {
        schema: {
          tags: [TAG],
          summary: 'A new password link for a person of your account',
          description:
            'A one-time link where the user sets a new password (an hour), or their first one if they never did (a week); their current password works until then. The user is also mailed a link of their own. A user of another account answers 404. Owners only.',
          security: SESSION_ONLY,
          params: MemberParams,
          response: { 201: Type.Object({ data: Type.Object({ link: PasswordLink }) }), ...errorResponses(404) },
        },
      },
      async (request, reply) => {
        const link = await services.users.teamResetLink(accountOf(side, request), request.params.id);
        return reply.status(201).send({ data: { link } });
      },
    );
  };
