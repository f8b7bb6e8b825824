import type { ApiError } from '../../packages/client/index.js';

/** An answer that is not a success, as the page shows it. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiError | undefined,
  ) {
    super(body?.message ?? `HTTP ${status}`);
  }
}
