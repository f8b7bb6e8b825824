// Every answer carries x-request-id, and every log line of its request carries the same id, so an
// operator can find what happened to the request a client reports. A proxy the operator trusts
// (TRUST_PROXY) may hand its own id on; anyone else's is replaced, since a client could otherwise
// plant ids (or text) in the logs.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { TrustProxy } from './client-address.js';

export const REQUEST_ID_HEADER = 'x-request-id';

/** What a forwarded id may look like: short, and nothing a log reader could mistake for structure. */
const FORWARDED_ID = /^[\w.:@/+=-]{1,128}$/;

/** The request's id: the trusted proxy's when it sent a well-formed one, a new UUID otherwise. */
export function requestIdFor(trust: TrustProxy): (request: IncomingMessage) => string {
  return (request) => {
    const forwarded = request.headers[REQUEST_ID_HEADER];
    if (typeof forwarded === 'string' && FORWARDED_ID.test(forwarded) && trust(request.socket.remoteAddress ?? '', 0)) return forwarded;
    return randomUUID();
  };
}
