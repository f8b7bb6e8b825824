// Building blocks shared by the resource schemas. Each schema here is at once the validator,
// the TypeScript type (Static<>) and a component of the OpenAPI document.
import { CloneType, Type, type Static, type TProperties, type TSchema } from '@sinclair/typebox';

/**
 * A reference to a shared schema with a description of its own: the OpenAPI generator drops
 * siblings of a bare $ref, so the reference goes inside an allOf.
 */
export const DescribedRef = <T extends TSchema>(schema: T, description: string) => Type.Unsafe<Static<T>>({ allOf: [Type.Ref(schema)], description });

export const Uuid = Type.String({ format: 'uuid', description: 'UUID, e.g. 3f2b8c1e-5d4a-4f6b-9c0d-1e2f3a4b5c6d' });

export const DateTime = Type.String({
  format: 'date-time',
  description: 'UTC date-time in ISO 8601, e.g. 2026-01-31T12:00:00.000Z',
});

/**
 * A bound of a range filter in a query: a date (`2026-01-31`, the whole UTC day: a start bound
 * means its first instant, an end bound its last) or a date-time.
 */
export const DateOrDateTime = (description: string) =>
  Type.Union([Type.String({ format: 'date' }), Type.String({ format: 'date-time' })], {
    description: `${description}. A date (YYYY-MM-DD, the whole UTC day included) or an ISO 8601 date-time.`,
  });

/** ISO 4217 currency codes this runtime knows (Intl), e.g. BRL, EUR, USD. */
export const CURRENCY_CODES: readonly string[] = Intl.supportedValuesOf('currency');

export const Currency = (description = 'Addition to the spec: ISO 4217 code (e.g. BRL, EUR, USD) of the amounts beside it, integers in its minor unit (cents)') =>
  Type.String({ pattern: '^[A-Z]{3}$', description });

export const TimeZoneQuery = Type.String({
  minLength: 1,
  maxLength: 64,
  description: 'IANA time zone name (e.g. America/Sao_Paulo) in which a date alone (YYYY-MM-DD) in from/to is a whole day; default UTC',
});

/** A query boolean: exactly `true` or `false`. */
export const QueryBoolean = (description: string) => Type.Boolean({ description: `${description} (true or false)` });

export const PageQuery = Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1, description: 'Page number, starting at 1. A page past the end answers an empty list with correct totals.' });

export const LimitQuery = (defaultValue: number, maximum: number) =>
  Type.Integer({
    minimum: 1,
    maximum,
    default: defaultValue,
    description: `Page size, 1 to ${maximum} (default ${defaultValue}). A value outside that range answers 400.`,
  });

export const Pagination = Type.Object(
  {
    total: Type.Integer({ description: 'Number of items matching the filters, across all pages' }),
    page: Type.Integer(),
    limit: Type.Integer(),
    totalPages: Type.Integer({ description: 'ceil(total / limit); 0 when nothing matches' }),
  },
  { $id: 'Pagination', description: 'Page metadata. Called `pagination` in the brands list and `meta` in every other list.' },
);
export type Pagination = Static<typeof Pagination>;

export const ErrorBody = Type.Object(
  {
    statusCode: Type.Integer({ description: 'HTTP status code, repeated for clients that read the body only' }),
    error: Type.String({ description: 'Status name, e.g. BadRequest, Unauthorized, NotFound, TooManyRequests' }),
    message: Type.String({ description: 'What went wrong and what to fix' }),
    success: Type.Literal(false),
    code: Type.String({ description: 'Stable machine-readable code: snake_case, except TOO_MANY_REQUESTS for 429' }),
  },
  {
    $id: 'Error',
    description:
      'Every error answers this body. It carries the fields of both error shapes clients of this API know (statusCode/error/message and success/message/code), so a client written for either parses it.',
  },
);
export type ErrorBody = Static<typeof ErrorBody>;

/**
 * A list in a query string: comma-separated (`a,b,c`) or the parameter repeated. The HTTP layer
 * splits commas before validation (see splitCommaLists), so each item is validated on its own.
 */
export const CommaList = <T extends TSchema>(description: string, item: T) =>
  Type.Array(item, {
    minItems: 1,
    maxItems: 100,
    description: `${description}. Comma-separated (a,b,c); repeating the parameter works too. At most 100 values.`,
  });

export function pageOf(total: number, page: number, limit: number): Pagination {
  return { total, page, limit, totalPages: Math.ceil(total / limit) };
}

/**
 * An input field a writer may leave out, and the value it then takes: validation fills it in, and
 * the OpenAPI document shows it as the field's default.
 */
export const Defaulted = <T extends TSchema>(schema: T, value: unknown) => Type.Optional(CloneType(schema, { default: value }));

/**
 * The same properties without their defaults, for a PATCH body: a field left out there keeps its
 * stored value, so validation must fill nothing in.
 */
export function WithoutDefaults<P extends TProperties>(properties: P): P {
  return Object.fromEntries(
    Object.entries(properties).map(([name, schema]) => {
      const copy: TSchema = { ...schema };
      delete copy.default;
      return [name, copy];
    }),
  ) as P;
}

/** A write's example requests by name, each with a summary: the OpenAPI document shows them beside its body. */
export const Examples = (named: Record<string, [summary: string, value: unknown]>) => ({
  'x-examples': Object.fromEntries(Object.entries(named).map(([name, [summary, value]]) => [name, { summary, value }])),
});
