// The overview at the top of the OpenAPI document (rendered on /docs).
export const API_DESCRIPTION = `
The affiliate side of the network: browse brands, products and campaigns, create tracked short
links per channel, and read the orders and commissions those links earned.

**Authentication.** Every endpoint needs an \`x-api-key\` header. A missing, unknown or revoked key
answers 401; a key without the endpoint's scope answers 403. Scopes: \`brands:read\`,
\`products:read\`, \`campaigns:read\`, \`shortener:read\`, \`shortener:write\`, \`orders:read\`.
The one exception is \`GET /postback\`, for brands: it takes the brand's postback token as the
\`token\` query parameter, and a postback token is accepted nowhere else.

**Rate limit.** 60 requests per 60 seconds per affiliate key, 6,000 per brand key, on every
endpoint (an operator may change it per key). Every response carries \`X-RateLimit-Limit\`,
\`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\` (seconds until the window resets); a 429 also
carries \`Retry-After\` in whole seconds. Brands: retry a conversion answered 429 or 503 after
\`Retry-After\`; conversions are idempotent per \`orderId\`, so a retry never records an order twice.
Guessing is throttled per client address: past 20 requests a minute (by default) with an invalid key or postback
token, such requests answer 429 with \`Retry-After\` until the minute has passed; requests with a
valid key from the same address are served as usual.

**Errors.** Every error has the body
\`{ "statusCode": 400, "error": "BadRequest", "message": "...", "success": false, "code": "invalid_query" }\`,
the fields of both error shapes in use. \`code\` is snake_case (\`unauthorized\`, \`forbidden\`,
\`not_found\`, \`invalid_query\`, \`invalid_body\`, \`invalid_json\`, \`invalid_params\`,
\`invalid_domain\`, \`invalid_url\`, \`feature_not_found\`, \`route_not_found\`), except
\`TOO_MANY_REQUESTS\` on 429. Unknown query parameters and body fields are rejected with 400.

**Units.** Money (prices, order values, commissions) is in integer cents. Times are UTC ISO 8601.

**Lists.** \`limit\` above an endpoint's maximum answers 400. A page past the end answers an empty
list with correct totals. Brands are listed by name; products newest first, in the order they were added to the network;
campaigns, short links and orders newest first by createdAt, ties broken by id; pages never overlap
or skip. List parameters
(\`categories\`, \`types\`, \`status\`, \`organizationIds\`) take comma-separated values or the
parameter repeated.

**Visibility.** An affiliate sees public brands and the private brands it is approved for, and
their products and campaigns; any other brand answers 404. Short links and orders are only ever
the caller's own.

**Short links.** \`GET {PUBLIC_URL}/{urlCode}\` redirects (302) to the link's destination with a
click id, keeping the visitor's query parameters (\`utm_source\`…) unless they name one of the
link's own, \`mdasc\` or the click id; unknown or inactive codes answer 404. It needs no API key.
Link creation is idempotent: the same request returns the same links.
`.trim();
