// The service's log: JSON lines (pino) on stdout, one line per request at debug level, and no
// secret in any line. Secrets the service issues have recognisable shapes (API keys, postback
// tokens, webhook signing secrets), so each finished line is scrubbed of those shapes whatever
// field or message carries them; credentials that have no shape (what a client sends in x-api-key
// or Authorization, cookies, passwords) are removed by field.
import type { FastifyServerOptions } from 'fastify';

/** API keys (afn_), postback tokens (afp_) and webhook secrets (whsec_, base64). */
const ISSUED_SECRET = /\b(afn_|afp_)[0-9A-Za-z]{8,}|\bwhsec_[0-9A-Za-z+/=]{8,}/g;
/** Query parameters that carry credentials (the postback's token), in logged URLs. */
const SECRET_PARAMETER = /([?&](?:token|key|api_key|apiKey|secret|password)=)[^&#\s"]*/g;

export const REDACTED = '[redacted]';

/** A log line (or any text) without the secrets it held. */
export function scrubSecrets(line: string): string {
  return line.replace(ISSUED_SECRET, (match, prefix: string | undefined) => `${prefix ?? 'whsec_'}${REDACTED}`).replace(SECRET_PARAMETER, `$1${REDACTED}`);
}

/** Pino's options for the service's logger at `level`, writing scrubbed lines to `output`. */
export function loggerOptions(level: string, output: NodeJS.WritableStream = process.stdout): FastifyServerOptions['logger'] {
  return {
    level,
    redact: {
      paths: ['req.headers["x-api-key"]', 'req.headers["x-csrf-token"]', 'req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]', '*.password', '*.secret', '*.token', '*.key', '*.csrfToken', '*.sessionToken'],
      censor: REDACTED,
    },
    stream: { write: (line: string) => output.write(scrubSecrets(line)) },
  };
}

/** Request logging (a line per request and per answer) costs half the throughput: debug and trace only. */
export const logsRequests = (level: string): boolean => level === 'debug' || level === 'trace';
