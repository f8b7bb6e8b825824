// Request validation with two Ajv instances: query strings and path parameters arrive as text, so
// they are coerced to the schema's types ("20" → 20, "a" → ["a"]); JSON bodies are not, so a
// number where a string belongs is an error, not a silent conversion.
import type { FastifySchemaCompiler } from 'fastify';
import { buildAjv } from '../schemas/ajv.js';

export function validatorCompiler(): FastifySchemaCompiler<unknown> {
  const coercing = buildAjv({ coerceTypes: 'array' });
  const strict = buildAjv({ coerceTypes: false });
  return ({ schema, httpPart }) => (httpPart === 'body' ? strict : coercing).compile(schema as object);
}
