// Failures the domain reports to its callers (HTTP routes, CLI), by what went wrong, not by how a
// protocol says it: src/http/errors.ts maps each kind to a status, the CLI prints the message. The
// code is the stable machine-readable code clients switch on.

/**
 * - `invalid`: the input itself is wrong (a bad value, a rule it breaks);
 * - `not_found`: what it names does not exist, or not for this caller;
 * - `conflict`: it contradicts the current state (already there, a final status);
 * - `unacceptable`: well-formed and consistent, but refused by a business rule (an expired click);
 * - `not_yet`: not possible now, possibly in a moment (a click still waiting to be stored);
 * - `unavailable`: not possible until the operator provides what the installation lacks (a key);
 * - `forbidden`: the credential is unknown or may not be used from where it came;
 * - `too_many`: too many tries (guesses of a secret): wait `retryAfterMs`;
 * - `too_large`: what was sent is larger than the network reads (an uploaded file).
 */
export type DomainErrorKind = 'invalid' | 'not_found' | 'conflict' | 'unacceptable' | 'not_yet' | 'unavailable' | 'forbidden' | 'too_many' | 'too_large';

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    readonly code: string,
    message: string,
    /** How long to wait before trying again (`too_many`). */
    readonly retryAfterMs?: number,
    /** The values the message names, for a client that says it in its own words (the HTTP answer's `details`). */
    readonly details?: Record<string, string | number | string[]>,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const notFound = (message: string, code = 'not_found') => new DomainError('not_found', code, message);
export const invalid = (code: string, message: string, details?: Record<string, string | number | string[]>) => new DomainError('invalid', code, message, undefined, details);
export const conflict = (code: string, message: string, details?: Record<string, string | number | string[]>) => new DomainError('conflict', code, message, undefined, details);
export const unacceptable = (code: string, message: string, details?: Record<string, string | number | string[]>) => new DomainError('unacceptable', code, message, undefined, details);
export const notYet = (code: string, message: string) => new DomainError('not_yet', code, message);
export const unavailable = (code: string, message: string) => new DomainError('unavailable', code, message);
export const forbidden = (code: string, message: string, details?: Record<string, string | number | string[]>) => new DomainError('forbidden', code, message, undefined, details);

/** A wait in whole seconds (at least one, as Retry-After says it) and whole minutes, rounded up. */
export const waitOf = (ms: number): { seconds: number; minutes: number } => {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  return { seconds, minutes: Math.ceil(seconds / 60) };
};

/** Too many tries: the message is told the wait in whole seconds and minutes, rounded up. */
export const tooMany = (code: string, waitMs: number, message: (wait: { seconds: number; minutes: number }) => string) => {
  const wait = waitOf(waitMs);
  return new DomainError('too_many', code, message(wait), wait.seconds * 1000);
};
