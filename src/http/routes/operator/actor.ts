// Who an operator request acts as: the signed-in operator, from the client's address.
import type { FastifyRequest } from 'fastify';
import type { Actor } from '../../../domain/audit/audit-entry.js';
import { userIdOf } from '../account/side.js';
export { SESSION_ONLY } from '../account/side.js';

export const TAG = 'Operator';

export const operatorOf = (request: FastifyRequest): Actor => ({ kind: 'operator', userId: userIdOf(request), address: request.ip });
