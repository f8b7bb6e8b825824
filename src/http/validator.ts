// Request validation with two Ajv instances: query strings and path parameters arrive as text, so
// they are coerced to the schema's types ("20" → 20, "a" → ["a"]); JSON bodies are not, so a
// number where a string belongs is an error, not a silent conversion.
import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;

const common: Options = {
  // Unknown fields are errors (additionalProperties: false), not silently dropped.
  removeAdditional: false,
  useDefaults: true,
  allErrors: false,
  // Gives each error its schema and value, for messages that say what to fix.
  verbose: true,
  strict: false,
};

function build(options: Options): Ajv {
  const ajv = new Ajv({ ...common, ...options });
  addFormats(ajv);
  return ajv;
}

export function validatorCompiler(): FastifySchemaCompiler<unknown> {
  const coercing = build({ coerceTypes: 'array' });
  const strict = build({ coerceTypes: false });
  return ({ schema, httpPart }) => (httpPart === 'body' ? strict : coercing).compile(schema as object);
}
