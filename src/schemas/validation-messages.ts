// Turns schema validation failures into one sentence that says what to fix, e.g.
// "limit must be between 1 and 100 (got 500)". Ajv runs with verbose on, so each error carries
// the schema it failed and the offending value.
import type { FastifySchemaValidationError } from 'fastify';

interface VerboseError extends FastifySchemaValidationError {
  parentSchema?: Record<string, unknown>;
  schema?: unknown;
  data?: unknown;
}

const WHERE: Record<string, string> = {
  querystring: 'query parameter',
  body: 'body field',
  params: 'path parameter',
  headers: 'header',
};

/** "/options/0/price" → "options[0].price"; query array items are named by their list. */
function fieldName(instancePath: string, context: string): string {
  const parts = instancePath.split('/').filter(Boolean);
  if (context === 'querystring') return parts[0] ?? 'query';
  let name = '';
  for (const part of parts) name += /^\d+$/.test(part) ? `[${part}]` : name ? `.${part}` : part;
  return name || context;
}

function shown(value: unknown): string {
  const text = typeof value === 'string' ? `"${value}"` : JSON.stringify(value);
  return text === undefined ? '' : text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

const got = (error: VerboseError) => (error.data === undefined ? '' : ` (got ${shown(error.data)})`);

const FORMATS: Record<string, string> = {
  uuid: 'a UUID such as 3f2b8c1e-5d4a-4f6b-9c0d-1e2f3a4b5c6d',
  'date-time': 'an ISO 8601 date-time such as 2026-01-31T12:00:00Z',
  date: 'a date such as 2026-01-31',
  uri: 'an absolute URL such as https://example.com/page',
};

const TYPES: Record<string, string> = {
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  string: 'a string',
  array: 'a list',
  object: 'a JSON object',
  null: 'null',
};

function literalChoices(schema: unknown): string[] | undefined {
  if (!Array.isArray(schema)) return undefined;
  const values = schema.map((branch) => (branch as { const?: unknown }).const);
  return values.every((v) => typeof v === 'string') ? (values) : undefined;
}

/** "a date such as … or an ISO 8601 date-time such as …" for a union of formats and types. */
function describeBranches(schema: unknown): string | undefined {
  if (!Array.isArray(schema)) return undefined;
  const parts = schema.map((branch: { format?: string; type?: string }) =>
    branch.format ? FORMATS[branch.format] : branch.type ? TYPES[branch.type] : undefined,
  );
  return parts.every(Boolean) ? parts.join(' or ') : undefined;
}

function describeOne(error: VerboseError, context: string): string {
  const field = fieldName(error.instancePath, context);
  const parent = error.parentSchema ?? {};
  const params = error.params;
  const isListItem = context === 'querystring' && /\/\d+$/.test(error.instancePath);
  const subject = isListItem ? `each value of ${field}` : field;
  switch (error.keyword) {
    case 'required': {
      const prefix = error.instancePath ? `${fieldName(error.instancePath, context)}.` : '';
      return `${WHERE[context] ?? 'field'} ${prefix}${String(params.missingProperty)} is required`;
    }
    case 'additionalProperties': {
      const allowed = Object.keys((parent.properties as Record<string, unknown>) ?? {});
      const where = error.instancePath ? ` in ${fieldName(error.instancePath, context)}` : '';
      return `unknown ${WHERE[context] ?? 'field'} "${String(params.additionalProperty)}"${where}; allowed: ${allowed.join(', ') || 'none'}`;
    }
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      if (typeof parent.minimum === 'number' && typeof parent.maximum === 'number') {
        return `${subject} must be between ${parent.minimum} and ${parent.maximum}${got(error)}`;
      }
      return `${subject} must be ${error.keyword.endsWith('inimum') ? '>=' : '<='} ${String(params.limit)}${got(error)}`;
    case 'type': {
      const expected = String(params.type).split(',').map((t) => TYPES[t] ?? t).join(' or ');
      return `${subject} must be ${expected}${got(error)}`;
    }
    case 'format':
      return `${subject} must be ${FORMATS[String(params.format)] ?? `in ${String(params.format)} format`}${got(error)}`;
    case 'minLength':
      return params.limit === 1 ? `${subject} must not be empty` : `${subject} must be at least ${String(params.limit)} characters long`;
    case 'maxLength':
      return `${subject} must be at most ${String(params.limit)} characters long`;
    case 'minItems':
      return `${subject} must have at least ${String(params.limit)} value(s)`;
    case 'maxItems':
      return `${subject} must have at most ${String(params.limit)} values`;
    case 'pattern':
      return `${subject} is malformed${got(error)}: ${typeof parent.description === 'string' ? parent.description : `it must match ${String(params.pattern)}`}`;
    case 'const':
      return `${subject} must be ${shown(params.allowedValue)}${got(error)}`;
    case 'enum':
      return `${subject} must be one of ${(params.allowedValues as unknown[]).map(String).join(', ')}${got(error)}`;
    case 'anyOf': {
      const choices = literalChoices(error.schema);
      if (choices) return `${subject} must be one of ${choices.join(', ')}${got(error)}`;
      const branches = describeBranches(error.schema);
      if (branches) return `${subject} must be ${branches}${got(error)}`;
      return `${subject} has an invalid value${got(error)}`;
    }
    case 'discriminator': {
      // A oneOf chosen by a property (e.g. method.type): the property is missing or names no branch.
      const tag = String(params.tag);
      const branches = (parent.oneOf as Array<{ properties?: Record<string, { const?: unknown }> }> | undefined) ?? [];
      const values = branches.map((b) => b.properties?.[tag]?.const).filter((v) => typeof v === 'string');
      const value = (error.data as Record<string, unknown> | undefined)?.[tag];
      return `${error.instancePath ? `${field}.` : ''}${tag} must be one of ${values.join(', ')}${value === undefined ? '' : ` (got ${shown(value)})`}`;
    }
    default:
      return `${subject} ${error.message ?? 'is invalid'}`;
  }
}

export function describeValidationError(errors: FastifySchemaValidationError[], context: string): string {
  // For a union, Ajv reports each failed branch and then the anyOf itself; the anyOf says it best.
  const union = errors.find((e) => e.keyword === 'anyOf');
  const first = union ?? errors[0];
  if (!first) return `invalid ${context}`;
  return describeOne(first, context);
}

const RULES: Record<string, string> = {
  required: 'required',
  additionalProperties: 'unknown',
  type: 'type',
  format: 'format',
  minimum: 'minimum',
  exclusiveMinimum: 'minimum',
  maximum: 'maximum',
  exclusiveMaximum: 'maximum',
  minLength: 'minLength',
  maxLength: 'maxLength',
  minItems: 'minItems',
  maxItems: 'maxItems',
  pattern: 'pattern',
  const: 'oneOf',
  enum: 'oneOf',
  discriminator: 'oneOf',
};

/** The same failure as values (see ErrorDetails): the field's path, the rule it breaks and its bound or choices. */
export function validationDetails(errors: FastifySchemaValidationError[], context: string): { field: string; rule: string; limit?: number; format?: string; allowed?: string[] } | undefined {
  const error: VerboseError | undefined = errors.find((e) => e.keyword === 'anyOf') ?? errors[0];
  if (!error) return undefined;
  const params = error.params;
  const at = error.instancePath ? fieldName(error.instancePath, context) : '';
  const under = (name: string) => (at && context !== 'querystring' ? `${at}.${name}` : name);
  switch (error.keyword) {
    case 'required':
      return { field: under(String(params.missingProperty)), rule: 'required' };
    case 'additionalProperties':
      return { field: under(String(params.additionalProperty)), rule: 'unknown', allowed: Object.keys((error.parentSchema?.properties as Record<string, unknown>) ?? {}) };
    case 'discriminator':
      return { field: under(String(params.tag)), rule: 'oneOf' };
  }
  const field = at || context;
  const rule = RULES[error.keyword] ?? (error.keyword === 'anyOf' && literalChoices(error.schema) ? 'oneOf' : 'invalid');
  const details: { field: string; rule: string; limit?: number; format?: string; allowed?: string[] } = { field, rule };
  if (typeof params.limit === 'number') details.limit = params.limit;
  if (error.keyword === 'format') details.format = String(params.format);
  if (error.keyword === 'type') details.format = String(params.type).split(',')[0];
  if (error.keyword === 'enum') details.allowed = (params.allowedValues as unknown[]).map(String);
  if (error.keyword === 'const') details.allowed = [String(params.allowedValue)];
  if (error.keyword === 'anyOf') {
    const choices = literalChoices(error.schema);
    if (choices) details.allowed = choices;
  }
  return details;
}
