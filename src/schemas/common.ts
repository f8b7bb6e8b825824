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

/** The values an error's message names, for a client that says it in its own words (and language). */
export const ErrorDetails = Type.Object(
  {
    field: Type.Optional(Type.String({ description: 'The request field at fault, as a path: `legalName`, `items[0].price`, `limit` (a query parameter)' })),
    rule: Type.Optional(
      Type.String({
        description:
          'The rule the field breaks (validation codes: invalid_body, invalid_query, invalid_params, invalid_headers): required, unknown (a field the operation does not take), type, format, minimum, maximum, minLength, maxLength, minItems, maxItems, pattern, oneOf (not one of `allowed`), invalid. invalid_commission_rules: what the rule at `position` breaks: too_many (`limit`), unreachable (`values`: the number of the rule without conditions before it), impossible_range, negative, share_over_100, share_decimals, per_on_share, whole_cents, unknown_channel_kind or unknown_group (`values`: the name)',
      }),
    ),
    limit: Type.Optional(Type.Number({ description: 'With minimum, maximum, minLength, maxLength, minItems, maxItems, too_many: the bound; postback_limit: the most postbacks allowed; invalid_url (of a postback too long): the most characters' })),
    format: Type.Optional(Type.String({ description: 'With format or type: what the field must be (date, date-time, uri, uuid, integer, number, boolean, string, array, object)' })),
    allowed: Type.Optional(Type.Array(Type.String(), { description: 'With oneOf: the values the field may take; with unknown: the fields the operation takes; unknown_macro: the macros a postback takes' })),
    values: Type.Optional(Type.Array(Type.String(), { description: 'invalid_members: the affiliates outside the programme (at most 20); invalid_commission_rules: see rule; brand_not_found (of a postback): the brand ids refused (at most 20)' })),
    position: Type.Optional(
      Type.Integer({
        description:
          'group_in_use: the number of the commission rule (from 1) that names the group; invalid_commission_rules: the number of the rule refused (from 1); unknown_macro, unclosed_macro, macro_in_host, invalid_url (of a postback): the character offset (from 0) in url of what is wrong',
      }),
    ),
    macro: Type.Optional(Type.String({ description: 'unknown_macro, unclosed_macro, macro_in_host: the text refused in a postback’s url, from its brace ({clickid})' })),
    columns: Type.Optional(Type.Array(Type.String(), { description: 'reconciliation_columns_unknown: the columns the file’s first line names (at most 40); reconciliation_column_missing: the columns named that the file lacks' })),
    maxMb: Type.Optional(Type.Integer({ description: 'file_too_large: the most a file may hold, in MB' })),
    appliedAt: Type.Optional(Type.String({ description: 'reconciliation_applied: when it was applied' })),
    origin: Type.Optional(Type.String({ description: 'origin_not_allowed, site_not_allowed: the page the request came from' })),
    sites: Type.Optional(Type.Array(Type.String(), { description: 'site_not_allowed: the sites the link key works on' })),
    site: Type.Optional(Type.String({ description: 'site_outside_channel, invalid_site: the site refused' })),
    domain: Type.Optional(Type.String({ description: 'site_outside_channel: the channel’s domain, which every site must be on' })),
    host: Type.Optional(Type.String({ description: 'brand_not_promotable: the host of the page the link points to' })),
    domains: Type.Optional(Type.Array(Type.String(), { description: 'origin_not_allowed: the brand’s domains, the only ones its reports are taken from' })),
    currency: Type.Optional(Type.String({ description: 'currency_mismatch: the currency sent' })),
    expected: Type.Optional(Type.String({ description: 'currency_mismatch: the brand’s currency, the only one taken' })),
    seconds: Type.Optional(Type.Integer({ description: 'On 429: the wait before trying again, in whole seconds (as Retry-After)' })),
    minutes: Type.Optional(Type.Integer({ description: 'On 429: the same wait in whole minutes, rounded up' })),
  },
  { description: 'The values the message names, where the code has any: a client shows the refusal in its own words from `code` and these, never needing to read `message`.' },
);

export const ErrorBody = Type.Object(
  {
    statusCode: Type.Integer({ description: 'HTTP status code, repeated for clients that read the body only' }),
    error: Type.String({ description: 'Status name, e.g. BadRequest, Unauthorized, NotFound, TooManyRequests' }),
    message: Type.String({ description: 'What went wrong and what to fix' }),
    success: Type.Literal(false),
    code: Type.String({ description: 'Stable machine-readable code: snake_case, except TOO_MANY_REQUESTS for 429' }),
    details: Type.Optional(ErrorDetails),
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
