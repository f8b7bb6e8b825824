import { Type } from '@sinclair/typebox';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { errorResponses } from '../../responses.js';
import { MemberParams } from './team-member-params.js';
import { accountOf, accountPath, SESSION_ONLY, TAG, userIdOf, type Side } from './side.js';

export const removeTeamMemberRoute = (side: Side) =>
  function removeTeamMemberRoute(app: App, services: ServingServices): void {
    app.delete(
      `${accountPath(side, 'team')}/:id`,
      {
        schema: {
          tags: [TAG],
          summary: 'Remove a person from your account',
          description:
            'The user can no longer sign in, and their sessions end at once. You cannot remove yourself (409 cannot_remove_self), nor the last owner (409 last_owner). A user of another account answers 404. Owners only.',
          security: SESSION_ONLY,
          params: MemberParams,
          response: { 204: Type.Null({ description: 'Removed' }), ...errorResponses(404, 409) },
        },
      },
      async (request, reply) => {
        await services.users.remove(accountOf(side, request), request.params.id, userIdOf(request));
        return reply.status(204).send(null);
      },
    );
  };
