// Error responses a route declares in its schema. The statuses every API route shares (400, 401,
// 403, 429, 500, 503, and 413/414/415 where they apply) are added by route-rules.ts; a route file
// names only the ones of its own (404, 409, 422…).
import { Type } from '@sinclair/typebox';
import { ErrorBody } from '../schemas/common.js';

export const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid input: the message says what to fix',
  401: 'API key missing, invalid or revoked',
  403: 'The API key lacks the scope this endpoint requires, or belongs to the other side (affiliate/brand)',
  404: 'Not found, or not available to the caller',
  409: 'Conflicts with the current state',
  413: 'Request body too large (over 1 MiB; 10 MB for the NDJSON upload): refused on every operation, whether it takes a body or not (a GET by its Content-Length)',
  414: 'A path parameter is too long',
  415: 'The request body is not JSON: refused by every POST, PUT, PATCH and DELETE, whether it takes a body or not (a GET ignores its body)',
  422: 'Well-formed but not acceptable: the message says why',
  429: 'Rate limit exceeded: wait Retry-After seconds',
  500: 'Internal error: a bug on our side, reported with the same body',
  503: 'The database is unavailable; retry after Retry-After seconds',
};

/** The error responses of a route, all with the shared error body. */
export function errorResponses(...statuses: number[]) {
  const out: Record<number, ReturnType<typeof Type.Ref>> = {};
  for (const status of statuses) out[status] = Type.Ref(ErrorBody, { description: ERROR_DESCRIPTIONS[status] ?? 'Error' });
  return out;
}
