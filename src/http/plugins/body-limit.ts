// One limit on request bodies for every operation, so each can say the same 413 in the OpenAPI
// document: methods whose bodies Fastify reads (POST, PUT, PATCH, DELETE) are refused by its parser
// past the limit, read or streamed; a GET or HEAD body is never read, so one announced (by
// Content-Length) past the limit is refused here, after the key and scope checks as the others
// are, and a smaller one is ignored.
import type { FastifyRequest } from 'fastify';
import { BODY_LIMIT_BYTES, BODY_TOO_LARGE, HttpError } from '../errors.js';
import type { App } from '../context.js';

/** Methods whose body is never read: only its announced size is checked. */
const UNREAD_BODY_METHODS = new Set(['GET', 'HEAD']);

/** Whether a request announces a body past the limit (what the redirect front hands on to be refused). */
export const announcesTooLargeBody = (headers: { 'content-length'?: string }): boolean => Number(headers['content-length'] ?? 0) > BODY_LIMIT_BYTES;

export function refuseUnreadLargeBodies(app: App): void {
  app.addHook('preValidation', async (request: FastifyRequest) => {
    if (UNREAD_BODY_METHODS.has(request.method) && announcesTooLargeBody(request.headers)) throw new HttpError(413, 'payload_too_large', BODY_TOO_LARGE);
  });
}
