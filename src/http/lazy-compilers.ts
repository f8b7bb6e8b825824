// Validators and serializers compiled on a route's first use rather than at start. Compiling every
// route's schemas (Ajv for requests, fast-json-stringify for answers) took about half of the
// start-up time; a route costs a few milliseconds the first time it is used instead.
import type { FastifySchemaCompiler } from 'fastify';
import { SerializerSelector, type SerializerFactory, type Serializer } from '@fastify/fast-json-stringify-compiler';

type Validator = ReturnType<FastifySchemaCompiler<unknown>>;

/**
 * Defers a validator compiler. Fastify reads a failed validation's errors from the function's
 * `errors` property (Ajv's convention), so the deferred function carries them over.
 */
export function lazyValidators(compile: FastifySchemaCompiler<unknown>): FastifySchemaCompiler<unknown> {
  return (route) => {
    let validate: Validator | undefined;
    const deferred = ((data: unknown) => {
      validate ??= compile(route);
      const result = validate(data);
      (deferred as { errors?: unknown }).errors = (validate as { errors?: unknown }).errors;
      return result;
    }) as Validator;
    return deferred;
  };
}

/**
 * Fastify's own serializer factory (fast-json-stringify), deferred per route and status, and
 * compiled once per schema: most answers of most routes share one (every route's error answers
 * are the same error body), and each compilation costs milliseconds.
 */
export const lazySerializers: SerializerFactory = (externalSchemas, options) => {
  const compile = SerializerSelector()(externalSchemas, options);
  const bySchema = new Map<string, Serializer>();
  return (route) => {
    let serialize: Serializer | undefined;
    return (data) => {
      if (!serialize) {
        const key = JSON.stringify(route.schema);
        serialize = bySchema.get(key);
        if (!serialize) bySchema.set(key, (serialize = compile(route)));
      }
      return serialize(data);
    };
  };
};
