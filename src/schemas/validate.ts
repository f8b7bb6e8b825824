// Validation outside HTTP (imports, seeds) with the same schemas and the same messages as the API.
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { Static, TSchema } from '@sinclair/typebox';
import { describeValidationError } from './validation-messages.js';

// ajv-formats is CommonJS; its default export arrives wrapped under ES modules.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;

const ajv = new Ajv({ allErrors: false, verbose: true, strict: false });
addFormats(ajv);

export type Check<T> = (value: unknown) => { ok: true; value: T } | { ok: false; message: string };

export function compileCheck<S extends TSchema>(schema: S): Check<Static<S>> {
  const validate: ValidateFunction = ajv.compile(schema);
  return (value) => {
    if (validate(value)) return { ok: true, value: value as Static<S> };
    return { ok: false, message: describeValidationError(validate.errors ?? [], 'body') };
  };
}
