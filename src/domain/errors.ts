// Failures the domain reports to its callers (HTTP routes, CLI). The status is the HTTP status
// the failure maps to; the code is the stable machine-readable code clients switch on.
export class DomainError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const notFound = (message: string, code = 'not_found') => new DomainError(404, code, message);
export const badRequest = (code: string, message: string) => new DomainError(400, code, message);
export const conflict = (code: string, message: string) => new DomainError(409, code, message);
