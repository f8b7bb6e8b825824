import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { listTeamRoute } from './team-list.js';
import { inviteTeamMemberRoute } from './team-invite.js';
import { removeTeamMemberRoute } from './team-remove.js';
import { teamResetLinkRoute } from './team-reset-link.js';
import { teamSecondFactorRoute } from './team-second-factor.js';
import { listKeysRoute } from './keys-list.js';
import { createKeyRoute } from './key-create.js';
import { revokeKeyRoute } from './key-revoke.js';
import { listAccountAuditRoute } from './audit-list.js';
import type { Side } from './side.js';

/** The team and API-key routes of one side, listed in that side's routes. */
export const accountRoutes = (side: Side): Array<(app: App, services: ServingServices) => void> =>
  [listTeamRoute, inviteTeamMemberRoute, removeTeamMemberRoute, teamResetLinkRoute, teamSecondFactorRoute, listKeysRoute, createKeyRoute, revokeKeyRoute, listAccountAuditRoute].map((route) => route(side));
