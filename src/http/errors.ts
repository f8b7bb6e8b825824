// One error shape for every failure, carrying the fields of both shapes clients of this API
// know: { statusCode, error, message } and { success: false, message, code }.
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorBody, ErrorDetails } from '../schemas/common.js';
import type { Static } from '@sinclair/typebox';
import { DomainError, waitOf, type DomainErrorKind } from '../domain/errors.js';
import { describeValidationError, validationDetails } from '../schemas/validation-messages.js';
import { NameTaken } from '../lib/unique-violation.js';

const STATUS_NAMES: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  406: 'NotAcceptable',
  408: 'RequestTimeout',
  409: 'Conflict',
  413: 'PayloadTooLarge',
  414: 'URITooLong',
  415: 'UnsupportedMediaType',
  422: 'UnprocessableEntity',
  429: 'TooManyRequests',
  431: 'RequestHeaderFieldsTooLarge',
  500: 'InternalServerError',
  503: 'ServiceUnavailable',
};

/** The largest request body any operation reads (see plugins/body-limit.ts), and what a larger one is told. */
export const BODY_LIMIT_BYTES = 1024 * 1024;
export const BODY_TOO_LARGE = 'Request body is too large (limit 1 MiB)';

export function errorBody(statusCode: number, code: string, message: string, details?: Static<typeof ErrorDetails>): ErrorBody {
  return { statusCode, error: STATUS_NAMES[statusCode] ?? 'Error', message, success: false, code, ...(details && { details }) };
}

/** The status each kind of domain failure answers with. */
const STATUS_OF_KIND: Record<DomainErrorKind, number> = { invalid: 400, not_found: 404, conflict: 409, unacceptable: 422, not_yet: 503, unavailable: 503, forbidden: 403, too_many: 429, too_large: 413 };

/** An error raised by the HTTP layer itself (authentication, scopes). */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    /** Headers the answer carries (Retry-After on a 429). */
    readonly headers: Record<string, string> = {},
    /** The values the message names (see ErrorDetails). */
    readonly details?: Static<typeof ErrorDetails>,
  ) {
    super(message);
  }
}

/** 429 after `waitMs`: Retry-After in whole seconds, and a message told the wait (seconds and whole minutes, rounded up). */
export function tooManyRequests(code: string, waitMs: number, message: (wait: { seconds: number; minutes: number }) => string): HttpError {
  const wait = waitOf(waitMs);
  return new HttpError(429, code, message(wait), { 'retry-after': String(wait.seconds) }, wait);
}

const VALIDATION_CODES: Record<string, string> = {
  querystring: 'invalid_query',
  body: 'invalid_body',
  params: 'invalid_params',
  headers: 'invalid_headers',
};

/** Fastify's own request errors, mapped to a status, a code and a message that says what to fix. */
function frameworkError(error: FastifyError): ErrorBody | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return errorBody(400, 'invalid_json', 'Request body is not valid JSON: check its syntax (double quotes, commas, braces)');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return errorBody(400, 'invalid_json', 'Request body is empty but content-type is application/json: send a JSON object');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return errorBody(415, 'unsupported_media_type', 'Send the request body as JSON with content-type: application/json');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return errorBody(413, 'payload_too_large', BODY_TOO_LARGE);
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return errorBody(400, 'invalid_body', 'Content-Length does not match the body sent');
    default:
      return undefined;
  }
}

// Network failures of the database connection, and PostgreSQL's "server going away" classes:
// the request did nothing, and may be retried once the database is back.
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', '57P01', '57P02', '57P03', '08000', '08003', '08006', '08001', '08004', 'SQLITE_BUSY', 'SQLITE_CANTOPEN', 'SQLITE_IOERR']);

function isUnavailable(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown };
  if (typeof e?.code === 'string' && UNAVAILABLE_CODES.has(e.code)) return true;
  return typeof e?.message === 'string' && /Connection terminated|not queryable|timeout exceeded when trying to connect|connect ECONNREFUSED/i.test(e.message);
}

export function toErrorBody(error: unknown): ErrorBody {
  if (isUnavailable(error)) return errorBody(503, 'database_unavailable', 'The database is not reachable right now; retry in a few seconds');
  if (error instanceof DomainError) {
    const details = { ...error.details, ...(error.retryAfterMs !== undefined && waitOf(error.retryAfterMs)) };
    return errorBody(STATUS_OF_KIND[error.kind], error.code, error.message, Object.keys(details).length ? details : undefined);
  }
  if (error instanceof HttpError) return errorBody(error.statusCode, error.code, error.message, error.details);
  // A unique index refused a name another request took first: what the service's check answers.
  if (error instanceof NameTaken) return errorBody(409, `${error.kind}_name_taken`, error.message);
  const fastifyError = error as FastifyError & { validationContext?: string };
  if (fastifyError.validation) {
    const context = fastifyError.validationContext ?? 'body';
    return errorBody(400, VALIDATION_CODES[context] ?? 'invalid_request', describeValidationError(fastifyError.validation, context), validationDetails(fastifyError.validation, context));
  }
  const known = frameworkError(fastifyError);
  if (known) return known;
  if (error instanceof SyntaxError && (error as { statusCode?: number }).statusCode === 400) {
    return errorBody(400, 'invalid_json', `Request body is not valid JSON: ${error.message}`);
  }
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return errorBody(status, 'bad_request', fastifyError.message);
  }
  return errorBody(500, 'internal_error', 'Internal server error');
}

export function handleError(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  // The rate limiter throws the body it built (already in our shape).
  const thrown = error as Partial<ErrorBody>;
  if (thrown && !(error instanceof HttpError) && thrown.statusCode === 429 && thrown.code === 'TOO_MANY_REQUESTS') {
    return reply.status(429).send(thrown);
  }
  let body: ErrorBody;
  try {
    body = toErrorBody(error);
  } catch (failure) {
    // Describing the error failed (a body too strange to describe): still the service's shape.
    request.log.error({ err: failure, cause: error }, 'describing a failed request failed');
    body = errorBody(500, 'internal_error', 'Internal server error');
  }
  if (error instanceof HttpError) reply.headers(error.headers);
  if (error instanceof DomainError && error.retryAfterMs !== undefined) reply.header('retry-after', String(Math.ceil(error.retryAfterMs / 1000)));
  if (body.statusCode === 503) reply.header('retry-after', '5');
  else if (body.statusCode >= 500) request.log.error({ err: error }, 'request failed');
  return reply.status(body.statusCode).send(body);
}

/**
 * Requests Node's HTTP parser refuses before any handler runs (bad characters in the path,
 * Content-Length with Transfer-Encoding, headers over the size limit) get the service's error
 * shape too, then the connection is closed.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const body =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? errorBody(431, 'headers_too_large', 'Request headers are too large: send fewer or shorter headers')
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? errorBody(408, 'request_timeout', 'The request took too long to arrive: send its headers and body without pausing')
        : errorBody(400, 'bad_request', 'The request is malformed HTTP (bad characters in the request line or headers, or conflicting Content-Length and Transfer-Encoding)');
  const json = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${body.statusCode} ${body.error}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(json)}\r\nConnection: close\r\n\r\n${json}`,
  );
}
