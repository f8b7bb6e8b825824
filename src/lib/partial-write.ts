/** Thrown by a writer of batches when only the first `written` items of a batch were committed. */
export class PartialWriteError extends Error {
  constructor(
    readonly written: number,
    message: string,
  ) {
    super(message);
  }
}
