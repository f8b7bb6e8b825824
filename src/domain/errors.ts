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
 * - `too_many`: too many tries (guesses of a secret): wait `retryAfterMs`.
 */
export type DomainErrorKind = 'invalid' | 'not_found' | 'conflict' | 'unacceptable' | 'not_yet' | 'unavailable' | 'forbidden' | 'too_many';

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    readonly code: string,
    message: string,
    /** How long to wait before trying again (`too_many`). */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const notFound = (message: string, code = 'not_found') => new DomainError('not_found', code, message);
export const invalid = (code: string, message: string) => new DomainError('invalid', code, message);
export const conflict = (code: string, message: string) => new DomainError('conflict', code, message);
export const unacceptable = (code: string, message: string) => new DomainError('unacceptable', code, message);
export const notYet = (code: string, message: string) => new DomainError('not_yet', code, message);
export const unavailable = (code: string, message: string) => new DomainError('unavailable', code, message);
export const forbidden = (code: string, message: string) => new DomainError('forbidden', code, message);

/** Too many tries: the message is told the wait in whole seconds and minutes, rounded up. */
export const tooMany = (code: string, waitMs: number, message: (wait: { seconds: number; minutes: number }) => string) => {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new DomainError('too_many', code, message({ seconds, minutes: Math.ceil(seconds / 60) }), seconds * 1000);
};
