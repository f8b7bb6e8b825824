// Response schemas shared by the routes.
import { Type } from '@sinclair/typebox';
import { ErrorBody } from '../schemas/common.js';

const DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid input: the message says what to fix',
  401: 'API key missing, invalid or revoked',
  403: 'The API key lacks the scope this endpoint requires',
  404: 'Not found, or not available to the calling affiliate',
  409: 'Conflicts with the current state',
  422: 'Well-formed but not acceptable: the message says why',
  429: 'Rate limit exceeded: see Retry-After',
  503: 'A backing service is unavailable; retry later',
};

/** The error responses of a route, all with the shared error body. */
export function errorResponses(...statuses: number[]) {
  const out: Record<number, ReturnType<typeof Type.Ref>> = {};
  for (const status of statuses) out[status] = Type.Ref(ErrorBody, { description: DESCRIPTIONS[status] ?? 'Error' });
  return out;
}

export const AFFILIATE_ERRORS = [400, 401, 403, 429] as const;
