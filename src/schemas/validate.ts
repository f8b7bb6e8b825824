// Validation outside HTTP (imports, seeds) with the same schemas and the same messages as the API.
import type { ValidateFunction } from 'ajv';
import type { Static, TSchema } from '@sinclair/typebox';
import { buildAjv } from './ajv.js';
import { describeValidationError } from './validation-messages.js';

// Imported documents are JSON, like request bodies: no type coercion.
const ajv = buildAjv({ coerceTypes: false });

export type Check<T> = (value: unknown) => { ok: true; value: T } | { ok: false; message: string };

export function compileCheck<S extends TSchema>(schema: S): Check<Static<S>> {
  const validate: ValidateFunction = ajv.compile(schema);
  return (value) => {
    if (validate(value)) return { ok: true, value: value as Static<S> };
    return { ok: false, message: describeValidationError(validate.errors ?? [], 'body') };
  };
}
