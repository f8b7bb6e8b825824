import { Type } from '@sinclair/typebox';
import { Invitation, TeamMemberInput } from '../../../schemas/account.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { errorResponses } from '../../responses.js';
import { accountOf, accountPath, SESSION_ONLY, TAG, userIdOf, type Side } from './side.js';

export const inviteTeamMemberRoute = (side: Side) =>
  function inviteTeamMemberRoute(app: App, services: ServingServices): void {
    app.post(
      accountPath(side, 'team'),
      {
        schema: {
          tags: [TAG],
          summary: 'Add a person to your account',
          description:
            'Creates a user of your account and answers a one-time link, valid for a week, where they set their password, to hand over yourself; they are also mailed an invitation with a link of their own (either works, once). 409 email_taken when the address has a user already. Owners only.',
          security: SESSION_ONLY,
          body: TeamMemberInput,
          response: { 201: Type.Object({ data: Invitation }), ...errorResponses(409) },
        },
      },
      async (request, reply) => {
        // Written in the inviting owner's language: the person's own is not known yet.
        const data = await services.users.create(accountOf(side, request), request.body.email, request.body.role, await services.users.languageOf(userIdOf(request)));
        return reply.status(201).send({ data });
      },
    );
  };
