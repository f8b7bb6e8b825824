// Validation outside HTTP (imports, seeds) with the same schemas and the same messages as the API.
import type { ValidateFunction } from 'ajv';
import type { Static, TSchema } from '@sinclair/typebox';
import { buildAjv } from './ajv.js';
import { describeValidationError } from './validation-messages.js';

// Imported documents are JSON, like request bodies: no type coercion. Made on first use: building
// it and compiling the input schemas took about a tenth of the service's start, and only imports
// and the brand API's writes need them.
let ajv: ReturnType<typeof buildAjv> | undefined;

export type Check<T> = (value: unknown) => { ok: true; value: T } | { ok: false; message: string };

/** A check of `schema`, compiled the first time it is called. */
export function compileCheck<S extends TSchema>(schema: S): Check<Static<S>> {
  let validate: ValidateFunction | undefined;
  return (value) => {
    validate ??= (ajv ??= buildAjv({ coerceTypes: false })).compile(schema);
    if (validate(value)) return { ok: true, value: value as Static<S> };
    return { ok: false, message: describeValidationError(validate.errors ?? [], 'body') };
  };
}
