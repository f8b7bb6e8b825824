import { Type } from '@sinclair/typebox';
import { TeamSecondFactor } from '../../../schemas/second-factors.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { errorResponses } from '../../responses.js';
import { accountOf, accountPath, SESSION_ONLY, TAG, userIdOf, type Side } from './side.js';

export const teamSecondFactorRoute = (side: Side) =>
  function teamSecondFactorRoute(app: App, services: ServingServices): void {
    app.put(
      `${accountPath(side, 'team')}/second-factor-required`,
      {
        schema: {
          tags: [TAG],
          summary: 'Require a second factor of every member',
          description:
            'When required, a member without an authenticator app or a passkey can still sign in, but is answered 403 second_factor_required everywhere but the session routes until they set one up on their Security page. The owner needs a second factor of their own first (409 second_factor_missing). Signed-in owners only.',
          security: SESSION_ONLY,
          body: TeamSecondFactor,
          response: { 200: Type.Object({ data: TeamSecondFactor }), ...errorResponses(409) },
        },
      },
      async (request) => ({ data: await services.secondFactors.setTeamRequirement(accountOf(side, request), userIdOf(request), request.body.required) }),
    );
  };
