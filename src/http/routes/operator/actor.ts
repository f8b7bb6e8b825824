// Who an operator request acts as: the signed-in operator, from the client's address; and the
// second factor asked again before money moves.
import type { FastifyRequest } from 'fastify';
import type { Actor } from '../../../domain/audit/audit-entry.js';
import { userIdOf } from '../account/side.js';
import type { SecondFactorsService } from '../../../domain/access/second-factors-service.js';
import { clientOf, SESSION_COOKIE } from '../../session-cookie.js';
export { SESSION_ONLY } from '../account/side.js';

export const TAG = 'Operator';

export const operatorOf = (request: FastifyRequest): Actor => ({ kind: 'operator', userId: userIdOf(request), address: request.ip });

/**
 * Asks the operator for the second factor again before money moves: a current code of the app,
 * unless the session passed its second factor within the last 10 minutes.
 */
export async function confirmAgain(request: FastifyRequest, services: { secondFactors: SecondFactorsService }, code: string | undefined): Promise<void> {
  await services.secondFactors.confirmChange({ userId: userIdOf(request), sessionToken: request.cookies[SESSION_COOKIE] ?? '', client: clientOf(request) }, code === undefined ? {} : { code });
}
