// Hostile input on every operation of the OpenAPI document. Each operation starts from a request
// that succeeds (the samples route-rules.test.ts walks with), then every input the document
// describes (each query parameter, each path parameter, each body field at any depth, through
// nested objects, array items and $refs) gets hostile variants, one at a time: control characters,
// broken Unicode, huge and empty text, wrong JSON types, numbers and dates out of range,
// prototype keys, repeated parameters, dot segments, bodies nested 10,000 deep; and on every
// operation, whether it takes a body or not, a body over 1 MiB and one that is not JSON.
// Whatever arrives, the answer is below 500, a 4xx carries the service's error body, and the
// contract check accepts it. Failures are collected per operation, so one run lists every one.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { SoftPasskey } from '../helpers/passkeys.js';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inject, type InjectOptions, type Response } from 'light-my-request';
import { startHarness, PUBLIC_URL, type Harness } from '../helpers/harness.js';
import { contractChecker, type ContractCheck } from '../helpers/contract.js';
import { urlOf } from '../helpers/inject.js';
import { BROWSER_UA, clickLink, createLink } from '../helpers/tracking.js';
import { BRANDS } from '../helpers/world.js';
import { createRouteSamples } from '../helpers/route-samples.js';
import { totpCode } from '../helpers/operators.js';
import { passSecondFactor } from '../helpers/sessions.js';

interface JsonSchema {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  pattern?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  $ref?: string;
}
interface Parameter {
  name: string;
  in: string;
  schema?: JsonSchema;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}
interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

type Kind = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object' | 'any';

/** A body field: where it is, what it holds, and the schema of each step on the way to it. */
interface Field {
  /** Property names, and 0 for an array's first element. */
  path: Array<string | number>;
  kind: Kind;
  schema: JsonSchema;
  /** along[i] is the schema of the value at path[0..i]. */
  along: JsonSchema[];
}

/** A hostile value as raw JSON text (so 1e400, -0, "\ud800" and duplicate keys survive), given the value it replaces. */
interface BodyVariant {
  name: string;
  raw(current: unknown): string;
}

/** Replaces a query parameter's `name=value` pairs with these (raw, percent-encoded where needed). */
interface QueryVariant {
  name: string;
  pairs(param: string, valid: string): string[];
}

/** A path parameter's value as sent; `socket`: sent over a real connection, as light-my-request would resolve the dot segments away. */
interface PathVariant {
  name: string;
  value: string;
  socket?: boolean;
}

const fixed = (name: string, raw: string): BodyVariant => ({ name, raw: () => raw });
const replaced = (name: string, value: string): QueryVariant => ({ name, pairs: (param) => [`${param}=${value}`] });

const TEN_THOUSAND = 'x'.repeat(10_000);
const EXOTIC_TEXT = '\u202Eexe.txt\u202C 😀👩‍👩‍👧 e\u0301\u0308 مرحبا';

// Text that breaks things when it reaches storage or logs; the JSON text escapes are kept as
// escapes, so the lone surrogate arrives as the client wrote it.
const TEXT: BodyVariant[] = [
  fixed('NUL', '"a\\u0000b"'),
  fixed('ESC (C0)', '"\\u001b[31mred"'),
  fixed('DEL', '"a\\u007fb"'),
  fixed('lone surrogate', '"a\\ud800b"'),
  fixed('10k characters', JSON.stringify(TEN_THOUSAND)),
  fixed('empty string', '""'),
  fixed('whitespace only', JSON.stringify(' \t\n\u00a0\u2003 ')),
  fixed('RTL, emoji, combining', JSON.stringify(EXOTIC_TEXT)),
];
const NOT_TEXT: BodyVariant[] = [fixed('number', '42'), fixed('boolean', 'true'), fixed('null', 'null'), fixed('array', '["x"]'), fixed('object', '{"x":"y"}')];
const DATES: BodyVariant[] = [
  fixed('February 30', '"2026-02-30T00:00:00Z"'),
  fixed('month 13', '"2026-13-01T00:00:00Z"'),
  fixed('year 0000', '"0000-01-01T00:00:00Z"'),
  fixed('year 99999', '"99999-01-01T00:00:00Z"'),
];
const NUMBERS: BodyVariant[] = [
  fixed('negative', '-1'),
  fixed('zero', '0'),
  fixed('2^53+1', '9007199254740993'),
  fixed('1e400', '1e400'),
  fixed('-0', '-0'),
  fixed('1.5', '1.5'),
  fixed('"0x10"', '"0x10"'),
  fixed('"1e3"', '"1e3"'),
  fixed('boolean', 'true'),
  fixed('null', 'null'),
  fixed('array', '[1]'),
  fixed('object', '{"n":1}'),
];
const BOOLEANS: BodyVariant[] = [fixed('"true"', '"true"'), fixed('1', '1'), fixed('null', 'null'), fixed('array', '[true]'), fixed('object', '{}')];
const ARRAYS: BodyVariant[] = [fixed('string', '"x"'), fixed('number', '1'), fixed('null', 'null'), fixed('object', '{}'), fixed('empty array', '[]')];

/** The object as JSON text with one more member first (as text: in an object literal, __proto__ would set the prototype instead). */
function withMember(current: unknown, member: string): string {
  const text = JSON.stringify(current !== null && typeof current === 'object' && !Array.isArray(current) ? current : {});
  return text === '{}' ? `{${member}}` : `{${member},${text.slice(1)}`;
}
const MEMBERS: BodyVariant[] = [
  { name: 'unknown field', raw: (current) => withMember(current, '"zzUnknown":1') },
  { name: '__proto__ key', raw: (current) => withMember(current, '"__proto__":{"polluted":true}') },
  { name: 'constructor key', raw: (current) => withMember(current, '"constructor":{"prototype":{"polluted":true}}') },
];
const OBJECTS: BodyVariant[] = [fixed('string', '"x"'), fixed('array', '[{}]'), fixed('null', 'null'), ...MEMBERS];
/** A field the schema leaves open (metadata): anything a client may store. */
const ANYTHING: BodyVariant[] = [
  fixed('null', 'null'),
  fixed('NUL', '"a\\u0000b"'),
  fixed('lone surrogate', '"\\ud800"'),
  fixed('lone surrogate key', '{"\\udc00":1}'),
  fixed('1e400', '1e400'),
  fixed('10k characters', JSON.stringify(TEN_THOUSAND)),
  fixed('__proto__ inside', '{"__proto__":{"polluted":true}}'),
  fixed('RTL, emoji, combining', JSON.stringify({ [EXOTIC_TEXT]: EXOTIC_TEXT })),
];
const AS_BUILT: BodyVariant = { name: 'as built from the schema', raw: (current) => JSON.stringify(current) };
const DEEP = 10_000;
const WHOLE_BODY: BodyVariant[] = [
  fixed('arrays nested 10,000 deep', '['.repeat(DEEP) + ']'.repeat(DEEP)),
  fixed('objects nested 10,000 deep', '{"a":'.repeat(DEEP) + '1' + '}'.repeat(DEEP)),
  fixed('null', 'null'),
  fixed('array', '[]'),
  fixed('string', '"x"'),
  fixed('1e400', '1e400'),
  fixed('empty object', '{}'),
  {
    name: 'a key twice',
    raw: (current) => {
      const text = JSON.stringify(current);
      const first = Object.keys(current as object)[0];
      return first === undefined ? '{"a":1,"a":[]}' : `${text.slice(0, -1)},${JSON.stringify(first)}:{"again":true}}`;
    },
  },
  ...MEMBERS,
];

/** Sent to every operation, whether it takes a body or not: one too large for any, one that is not JSON. */
const ANY_OPERATION_BODIES = [
  { name: 'over 1 MiB', contentType: 'application/json', payload: JSON.stringify({ padding: 'x'.repeat(1024 * 1024 + 10) }) },
  { name: 'not JSON', contentType: 'text/plain', payload: 'hello' },
];

function bodyVariants(field: Field): BodyVariant[] {
  switch (field.kind) {
    case 'string':
      return [...TEXT, ...NOT_TEXT, ...(field.schema.format === 'date-time' || field.schema.format === 'date' ? DATES : [])];
    case 'integer':
    case 'number':
      return NUMBERS;
    case 'boolean':
      return BOOLEANS;
    case 'array':
      return ARRAYS;
    case 'object':
      return OBJECTS;
    case 'any':
      return ANYTHING;
  }
}

// Query values arrive as text: what matters is the bytes and how often the parameter comes.
const QUERY_ANY: QueryVariant[] = [
  replaced('NUL', 'a%00b'),
  replaced('ESC (C0)', '%1B%5B31m'),
  replaced('DEL', 'a%7Fb'),
  replaced('lone surrogate (UTF-8 of U+D800)', '%ED%A0%80'),
  replaced('invalid UTF-8', '%FF%FE'),
  replaced('broken percent-encoding', '%E0%A4%A'),
  replaced('10k characters', TEN_THOUSAND),
  replaced('empty', ''),
  replaced('whitespace only', '%20%20%C2%A0'),
  replaced('RTL, emoji, combining', encodeURIComponent(EXOTIC_TEXT)),
  { name: 'twice, same value', pairs: (param, valid) => [`${param}=${valid}`, `${param}=${valid}`] },
  { name: 'twice, other value', pairs: (param, valid) => [`${param}=${valid}`, `${param}=zz`] },
  { name: 'as name[]', pairs: (param, valid) => [`${param}[]=${valid}`] },
  { name: 'without =', pairs: (param) => [param] },
];
const QUERY_NUMBERS: QueryVariant[] = [
  replaced('negative', '-1'),
  replaced('zero', '0'),
  replaced('2^53+1', '9007199254740993'),
  replaced('1e400', '1e400'),
  replaced('-0', '-0'),
  replaced('1.5', '1.5'),
  replaced('0x10', '0x10'),
  replaced('1e3', '1e3'),
  replaced('true', 'true'),
];
const QUERY_DATES: QueryVariant[] = [
  replaced('February 30', '2026-02-30'),
  replaced('month 13', '2026-13-01T00:00:00Z'),
  replaced('year 0000', '0000-01-01'),
  replaced('year 99999', '99999-01-01'),
  replaced('expanded year', '%2B275760-09-14T00:00:00Z'),
  replaced('number', '1e400'),
];
const QUERY_BOOLEANS: QueryVariant[] = [replaced('1', '1'), replaced('yes', 'yes'), replaced('TRUE', 'TRUE')];
const QUERY_LISTS: QueryVariant[] = [replaced('only commas', '%2C%2C%2C'), replaced('empty item', 'a%2C%2Cb'), replaced('100 items', Array.from({ length: 100 }, (_, i) => `v${i}`).join('%2C'))];
/** Every operation, whatever it declares: keys that reach prototypes when a parser is careless. */
const QUERY_PROTOTYPE_KEYS = ['__proto__=x', 'constructor=x', '__proto__%5Bpolluted%5D=1', 'constructor.prototype.polluted=1'];

const PATH_VARIANTS: PathVariant[] = [
  { name: 'NUL', value: 'a%00b' },
  { name: 'US (C0)', value: 'a%1Fb' },
  { name: 'DEL', value: 'a%7Fb' },
  { name: 'lone surrogate (UTF-8 of U+D800)', value: '%ED%A0%80' },
  { name: 'invalid UTF-8', value: '%FF' },
  { name: 'broken percent-encoding', value: '%E0%A4%A' },
  { name: 'lone %', value: '%' },
  { name: 'encoded slash', value: 'a%2Fb' },
  { name: 'encoded ../', value: '..%2F..%2Fhealthz' },
  { name: 'encoded NUL slash', value: '%00%2F' },
  { name: '..', value: '..', socket: true },
  { name: '.', value: '.', socket: true },
  { name: 'encoded ..', value: '%2E%2E', socket: true },
  { name: '10k characters', value: TEN_THOUSAND },
  { name: 'whitespace only', value: '%20%20' },
  { name: 'RTL, emoji, combining', value: encodeURIComponent(EXOTIC_TEXT) },
  { name: 'number out of range', value: '1e400' },
  { name: '__proto__', value: '__proto__' },
];

/**
 * Query parameters the document describes in words only: the redirect passes the visitor's own on
 * to the destination, dropping those named like the link's own, mdasc or the click id parameter.
 */
const DESCRIBED_IN_WORDS: Record<string, Parameter[]> = {
  'GET /{code}': ['utm_source', 'mdasc', 'clickId'].map((name) => ({ name, in: 'query', schema: { type: 'string' } })),
};

/** Fewer requests than this means the walk went wrong, not that the service got better. */
const MINIMUM_REQUESTS = 1_500;
/** A request left unanswered is a failure to report, not a test that hangs. */
const ANSWER_WITHIN_MS = 10_000;

let h: Harness;
let check: ContractCheck;
let server: Server;
let document: OpenApiDocument;
let linkCode = '';
const routeSamples = createRouteSamples();
const stats = { requests: 0, deepFields: 0, operations: 0, documented: 0, fields: new Set<string>(), statuses: new Map<number, number>(), refusedTooLarge: new Set<string>() };

/** How each operation's valid request is made: the API samples, and the routes outside the API. */
function starterOf(method: string, route: string): (() => Promise<InjectOptions> | InjectOptions) | undefined {
  const sample = routeSamples.samples[`${method} ${route}`];
  if (sample) return () => sample.request(routeSamples.credentialOf(sample));
  const outside: Record<string, () => InjectOptions | Promise<InjectOptions>> = {
    'GET /:code': () => ({ method: 'GET', url: `/${linkCode}`, headers: { 'user-agent': BROWSER_UA } }),
    'GET /healthz': () => ({ method: 'GET', url: '/healthz' }),
    'GET /readyz': () => ({ method: 'GET', url: '/readyz' }),
    'POST /session': () => ({ method: 'POST', url: '/session', payload: { email: PORTAL_USER, password: PORTAL_PASSWORD } }),
    'POST /session/password': async () => ({ method: 'POST', url: '/session/password', payload: { token: new URL(await h.service.services.users.resetLink(PORTAL_USER)).searchParams.get('token'), password: PORTAL_PASSWORD } }),
    'POST /session/password-reset': () => ({ method: 'POST', url: '/session/password-reset', payload: { email: PORTAL_USER } }),
    'GET /session': () => withFreshSession({ method: 'GET', url: '/session' }),
    'PATCH /session': () => withFreshSession({ method: 'PATCH', url: '/session', payload: { language: 'pt-BR' } }),
    'DELETE /session': () => withFreshSession({ method: 'DELETE', url: '/session' }),
    'GET /signup/options': () => ({ method: 'GET', url: '/signup/options' }),
    'GET /tag.js': () => ({ method: 'GET', url: '/tag.js' }),
    'GET /links.js': () => ({ method: 'GET', url: '/links.js' }),
    'GET /links/domains': async () => ({ method: 'GET', url: `/links/domains?key=${await linkKey()}`, remoteAddress: shopVisitor(), headers: { origin: LINK_SITE } }),
    'POST /links/auto': async () => ({
      method: 'POST',
      url: '/links/auto',
      remoteAddress: shopVisitor(),
      headers: { origin: LINK_SITE },
      payload: { key: await linkKey(), page: `${LINK_SITE}/post`, to: 'https://www.acme.com/store/p/fuzzed' },
    }),
    'POST /track/conversions': async () => ({
      method: 'POST',
      url: '/track/conversions',
      remoteAddress: shopVisitor(),
      headers: { origin: 'https://www.acme.com' },
      payload: { key: await publishableKey(), orderId: `fuzz-tag-${tagged}`, value: 1000, clickId: (await clickLink(h, linkCode)).clickId },
    }),
    'POST /track/visits': async () => ({
      method: 'POST',
      url: '/track/visits',
      remoteAddress: shopVisitor(),
      headers: { origin: 'https://www.acme.com' },
      payload: { key: await publishableKey(), clickId: (await h.service.services.tagTests.start(BRANDS.acme)).id },
    }),
    'GET /track/pixel.gif': async () => ({
      method: 'GET',
      url: `/track/pixel.gif?${new URLSearchParams({ pk: await publishableKey(), orderId: `fuzz-tag-${shopVisitor()}`, value: '1000', clickId: (await clickLink(h, linkCode)).clickId })}`,
      remoteAddress: shopVisitor(),
    }),
    'POST /signup': () => ({ method: 'POST', url: '/signup', remoteAddress: joiner(), payload: { name: 'Fuzz', email: `fuzz${++joined}@blog.example`, password: PORTAL_PASSWORD, country: 'BR', language: 'en', website: 'https://fuzz.example', acceptTerms: true } }),
    'POST /brand-applications': () => ({
      method: 'POST',
      url: '/brand-applications',
      remoteAddress: joiner(),
      payload: { company: 'Fuzz', name: 'Fuzz', email: `fuzz${++joined}@shop.example`, country: 'PT', language: 'en', website: 'https://fuzz.example', taxId: 'PT123', currency: 'EUR', expectedMonthlyOrders: 1, acceptTerms: true },
    }),
    'POST /signup/verify': async () => ({ method: 'POST', url: '/signup/verify', remoteAddress: joiner(), payload: { token: await verificationToken() } }),
    'GET /session/sessions': () => withFreshSession({ method: 'GET', url: '/session/sessions' }),
    'DELETE /session/sessions/:id': async () => {
      const other = await h.service.services.users.signIn(PORTAL_USER, PORTAL_PASSWORD);
      assert.ok(other, 'the portal user signs in elsewhere');
      const { id } = (await h.service.services.users.resolveSession(other.sessionToken))!;
      return withFreshSession({ method: 'DELETE', url: `/session/sessions/${id}` });
    },
    'POST /session/sessions/sign-out-others': () => withFreshSession({ method: 'POST', url: '/session/sessions/sign-out-others' }),
    'POST /session/second-factor': async () => ({ method: 'POST', url: '/session/second-factor', payload: { ticket: await secondFactorTicket(), recoveryCode: (await freshRecoveryCodes())[0] } }),
    'POST /session/second-factor/passkey-options': async () => ({ method: 'POST', url: '/session/second-factor/passkey-options', payload: { ticket: await secondFactorTicket() } }),
    'POST /session/passkey/options': () => ({ method: 'POST', url: '/session/passkey/options' }),
    'POST /session/passkey': async () => ({ method: 'POST', url: '/session/passkey', payload: { passkey: portalPasskey.assert((await h.service.services.secondFactors.passwordlessOptions())) } }),
    'GET /session/second-factors': () => withFreshSession({ method: 'GET', url: '/session/second-factors' }),
    'POST /session/totp': () => withFreshSession({ method: 'POST', url: '/session/totp' }),
    'POST /session/totp/confirm': async () => {
      // Someone new each time: an app being set up, and the code it shows.
      const person = (await h.service.services.users.createWithPassword({ affiliateId: 'aff-1' }, `fuzz-${randomUUID()}@example.com`, 'member', PORTAL_PASSWORD))!;
      const { secret } = await h.service.services.secondFactors.startTotp({ userId: person.id, email: person.email, sessionToken: '' });
      return { method: 'POST', url: '/session/totp/confirm', payload: { code: totpCode(secret) }, headers: await sessionHeaders(person.id) };
    },
    'DELETE /session/totp': () => withFreshSession({ method: 'DELETE', url: '/session/totp', payload: {} }),
    'POST /session/recovery-codes': async () => ({ method: 'POST', url: '/session/recovery-codes', payload: {}, headers: await enrolledSessionHeaders() }),
    'POST /session/second-factor/confirm': async () => {
      const options = await h.service.services.secondFactors.confirmPasskeyOptions(portalUserId);
      return withFreshSession({ method: 'POST', url: '/session/second-factor/confirm', payload: { passkey: portalPasskey.assert(options) } });
    },
    'POST /session/second-factor/confirm/passkey-options': () => withFreshSession({ method: 'POST', url: '/session/second-factor/confirm/passkey-options' }),
    'POST /session/passkeys/options': () => withFreshSession({ method: 'POST', url: '/session/passkeys/options' }),
    'POST /session/passkeys': async () => {
      const options = await h.service.services.secondFactors.passkeyRegistrationOptions({ userId: portalUserId, email: PORTAL_USER, sessionToken: await verifiedPortalSession() });
      return withFreshSession({ method: 'POST', url: '/session/passkeys', payload: { name: 'Fuzz', passkey: new SoftPasskey(PUBLIC_URL).register(options as { challenge: string; rp: { id: string }; user: { id: string } }) } });
    },
    'PATCH /session/passkeys/:id': () => withFreshSession({ method: 'PATCH', url: '/session/passkeys/fuzz-passkey', payload: { name: 'Renamed' } }),
    'DELETE /session/passkeys/:id': async () => {
      const id = `fuzz-${randomUUID()}`;
      await h.service.database.db.insertInto('user_passkeys').values({ id, user_id: portalUserId, name: 'Fuzz', public_key: 'AA', counter: 0, transports: '[]', created_at: new Date().toISOString(), last_used_at: null }).execute();
      return withFreshSession({ method: 'DELETE', url: `/session/passkeys/${id}` });
    },
  };
  return outside[`${method} ${route}`];
}

/** Reports of the tag and the pixel, each from a client address of its own (they are limited per client) with a new order id. */
let tagged = 0;
const shopVisitor = () => `10.8.${Math.floor(++tagged / 250) % 250}.${tagged % 250}`;
let shopKey: string | undefined;
const publishableKey = async () => (shopKey ??= await h.service.services.tagInstall.replaceKey(BRANDS.acme));

/** The link key of a site channel of aff-1's own (the samples replace ch-aff1-site's key), allowed on its blog. */
const LINK_SITE = 'https://blog.fuzz.example';
let fuzzLinkKey: string | undefined;
async function linkKey(): Promise<string> {
  if (fuzzLinkKey) return fuzzLinkKey;
  const { channels, linkScripts } = h.service.services;
  const channelId = (await channels.create('aff-1', 'site', 'Fuzzed blog', LINK_SITE)).id;
  await linkScripts.setSites('aff-1', channelId, [LINK_SITE]);
  return (fuzzLinkKey = (await linkScripts.replaceKey('aff-1', channelId)).key!);
}

/** Sign-ups of the fuzz, each of an address of its own, from a client address of its own (joining is limited per client). */
let joined = 0;
const joiner = () => `10.9.${Math.floor(joined / 250)}.${joined % 250}`;
async function verificationToken(): Promise<string> {
  const email = `verify${++joined}@blog.example`;
  const { applications } = h.service.services;
  await applications.signUp({ name: 'Fuzz', email, password: PORTAL_PASSWORD, country: 'BR', language: 'en', website: 'https://fuzz.example', acceptTerms: true }, '192.0.2.1');
  const [application] = (await applications.list({ status: 'unverified' }, 1000)).filter((a) => a.email === email);
  return new URL((await applications.issueVerifyLink(application!.id))!).searchParams.get('token')!;
}

/** The portal's sign-in: a user of aff-1, and a session of theirs for each request that needs one. */
const PORTAL_USER = 'fuzz@example.com';
const PORTAL_PASSWORD = 'fuzzing all the fields';
async function withFreshSession(options: InjectOptions): Promise<InjectOptions> {
  return { ...options, headers: await sessionHeaders(portalUserId, 'passkey') };
}

/** A person with an authenticator app, for the second step of a sign-in: a ticket, and recovery codes made afresh. */
const ENROLLED_USER = 'fuzz-totp@example.com';
/** The portal user's passkey (in software), for signing in without a password. */
const portalPasskey = new SoftPasskey(PUBLIC_URL);
let portalUserId = '';
async function secondFactorTicket(): Promise<string> {
  const step = await h.service.services.secondFactors.signIn(ENROLLED_USER, PORTAL_PASSWORD);
  assert.ok(step && 'secondFactor' in step, 'the enrolled user is asked for a second factor');
  return step.secondFactor.ticket;
}
const freshRecoveryCodes = async () => (await h.service.services.secondFactors.regenerateRecoveryCodes({ userId: enrolledUserId, sessionToken: (await enrolledSession()).sessionToken }, {})).recoveryCodes;
/** A session of the portal user that passed their second factor (for service calls that ask for a current one). */
const verifiedPortalSession = async (): Promise<string> => (await sessionOfUser(portalUserId, 'passkey')).sessionToken;
let enrolledUserId = '';
/**
 * A session of a user, opened as a sign-in opens it (without the password: a sign-in's scrypt for
 * each of the walk's hundreds of starting requests was a quarter of its time), that passed their
 * second factor: an app (totp) or a passkey.
 */
async function sessionOfUser(id: string, factor: 'totp' | 'passkey' = 'totp') {
  const row = await h.service.database.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  const session = await h.service.services.users.openSession(row!);
  await passSecondFactor(h, session.sessionToken, factor);
  return session;
}
const enrolledSession = () => sessionOfUser(enrolledUserId);
const enrolledSessionHeaders = () => sessionHeaders(enrolledUserId);
async function sessionHeaders(id: string, factor: 'totp' | 'passkey' = 'totp'): Promise<Record<string, string>> {
  const session = await sessionOfUser(id, factor);
  return { cookie: `affnet_session=${session.sessionToken}`, 'x-csrf-token': session.csrfToken };
}

before(async () => {
  // Webhook endpoints made here point at hooks.example.com: nothing is to be delivered.
  // Fuzzing sends each sample many times: a portal user's own limit would stop it.
  h = await startHarness({ WEBHOOK_POLL_MS: '0', USER_RATE_LIMIT: '1000000' });
  const { link } = await h.service.services.users.create({ affiliateId: 'aff-1' }, PORTAL_USER);
  const portalUser = await h.service.services.users.setPassword(new URL(link).searchParams.get('token')!, PORTAL_PASSWORD);
  portalUserId = portalUser.user.id;
  await h.service.database.db.insertInto('user_passkeys').values({ id: 'fuzz-passkey', user_id: portalUserId, name: 'Fuzz', public_key: 'AA', counter: 0, transports: '[]', created_at: new Date().toISOString(), last_used_at: null }).execute();
  const registering = { userId: portalUserId, email: PORTAL_USER, sessionToken: await verifiedPortalSession() };
  const registration = await h.service.services.secondFactors.passkeyRegistrationOptions(registering);
  await h.service.services.secondFactors.registerPasskey(registering, 'Fuzz', portalPasskey.register(registration as { challenge: string; rp: { id: string }; user: { id: string } }));
  const enrolled = await h.service.services.users.createWithPassword({ affiliateId: 'aff-1' }, ENROLLED_USER, 'member', PORTAL_PASSWORD);
  enrolledUserId = enrolled!.id;
  const enrolling = { userId: enrolledUserId, email: ENROLLED_USER, sessionToken: (await h.service.services.users.signIn(ENROLLED_USER, PORTAL_PASSWORD))!.sessionToken };
  const { secret } = await h.service.services.secondFactors.startTotp(enrolling);
  await h.service.services.secondFactors.confirmTotp(enrolling, totpCode(secret));
  await routeSamples.start(h);
  linkCode = (await createLink(h, routeSamples.keys.affiliate, BRANDS.acme)).code;
  check = contractChecker(h.service);
  const res = await h.request({ method: 'GET', url: '/openapi.json' });
  assert.equal(res.statusCode, 200, res.body);
  document = res.json<OpenApiDocument>();
  // Dot segments only survive a real connection: light-my-request resolves them like a browser.
  server = createServer(h.service.handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
after(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await h.close();
});

interface BrandProfile {
  site: string;
  homeUrl: string;
  domains: string[];
  clickIdParam: string;
  allowedChannels?: string[];
  commission: { value: number; transfer: string };
}

/**
 * Operations whose accepted variants change what later samples rely on (a brand refusing every
 * channel, another click id parameter): takes a snapshot, returns what puts it back.
 */
const RESTORERS: Record<string, () => Promise<() => Promise<void>>> = {
  'PATCH /advertiser/brand': async () => {
    const headers = { 'x-api-key': routeSamples.keys.brand };
    const res = await h.request({ method: 'GET', url: '/advertiser/brand', headers });
    assert.equal(res.statusCode, 200, res.body);
    const { site, homeUrl, domains, clickIdParam, allowedChannels, commission } = res.json<{ data: BrandProfile }>().data;
    // The profile lists the site's own domain first; a patch names the others.
    const payload = { site, homeUrl, domains: domains.slice(1), clickIdParam, allowedChannels: allowedChannels ?? null, commission };
    return async () => {
      const restored = await h.request({ method: 'PATCH', url: '/advertiser/brand', headers, payload });
      assert.equal(restored.statusCode, 200, restored.body);
    };
  },
};

/** The schema a $ref names, and for a union the branch that stands for the field: not null, an object or array first. */
function resolve(schema: JsonSchema | undefined): JsonSchema {
  let current = schema ?? {};
  while (current.$ref) {
    const name = current.$ref.replace('#/components/schemas/', '');
    const target = document.components?.schemas?.[name];
    assert.ok(target, `unresolved $ref ${current.$ref}`);
    current = target;
  }
  const branches = (current.anyOf ?? current.oneOf)?.map(resolve).filter((branch) => branch.type !== 'null');
  if (branches && branches.length > 0) return branches.find((b) => b.type === 'object' || b.type === 'array') ?? branches[0]!;
  return current;
}

function kindOf(schema: JsonSchema): Kind {
  const type = [schema.type ?? []].flat().find((t) => t !== 'null');
  if (type === 'string' || type === 'integer' || type === 'number' || type === 'boolean' || type === 'array' || type === 'object') return type;
  const constant = schema.const ?? schema.enum?.[0];
  if (typeof constant === 'string') return 'string';
  if (schema.properties) return 'object';
  if (schema.items) return 'array';
  return 'any';
}

/** Every field of a body schema, at any depth. */
function fieldsOf(root: JsonSchema): Field[] {
  const fields: Field[] = [];
  const visit = (schema: JsonSchema, path: Field['path'], along: JsonSchema[]) => {
    const kind = kindOf(schema);
    if (path.length > 0) fields.push({ path, kind, schema, along });
    if (kind === 'object') for (const [key, property] of Object.entries(schema.properties ?? {})) visit(resolve(property), [...path, key], [...along, resolve(property)]);
    if (kind === 'array' && schema.items) visit(resolve(schema.items), [...path, 0], [...along, resolve(schema.items)]);
  };
  visit(resolve(root), [], []);
  return fields;
}

const fieldName = (path: Field['path']) => path.map((step, i) => (typeof step === 'number' ? `[${step}]` : i === 0 ? step : `.${step}`)).join('');
const propertyDepth = (path: Field['path']) => path.filter((step) => typeof step === 'string').length;

/** A value the schema accepts, as far as a schema alone can tell (to build containers the sample lacks). */
function sampleOf(schema: JsonSchema): unknown {
  const resolved = resolve(schema);
  if (resolved.const !== undefined) return resolved.const;
  if (resolved.enum) return resolved.enum[0];
  switch (kindOf(resolved)) {
    case 'object':
      return Object.fromEntries((resolved.required ?? []).map((key) => [key, sampleOf(resolved.properties?.[key] ?? {})]));
    case 'array':
      return (resolved.minItems ?? 0) > 0 && resolved.items ? [sampleOf(resolved.items)] : [];
    case 'integer':
    case 'number':
      return Math.max(resolved.minimum ?? 1, 1);
    case 'boolean':
      return true;
    case 'string':
      if (resolved.format === 'date-time') return '2026-01-15T12:00:00.000Z';
      if (resolved.format === 'uuid') return BRANDS.acme;
      if (resolved.format === 'uri') return 'https://www.acme.com/x';
      return 'x'.repeat(Math.max(resolved.minLength ?? 1, 1));
    default:
      return 'x';
  }
}

const SLOT = '@@fuzz-slot@@';

/** The body as JSON text with the field's value replaced by `raw`; containers the body lacks are made from the schema. */
function bodyWith(base: unknown, field: Field): { current: unknown; text(raw: string): string } {
  const root = structuredClone(base) as Record<string | number, unknown>;
  let container = root;
  for (let i = 0; i < field.path.length - 1; i++) {
    const step = field.path[i]!;
    const wantsArray = typeof field.path[i + 1] === 'number';
    let child = container[step];
    if (child === null || typeof child !== 'object' || Array.isArray(child) !== wantsArray) {
      const made = sampleOf(field.along[i]!);
      child = made !== null && typeof made === 'object' && Array.isArray(made) === wantsArray ? made : wantsArray ? [] : {};
      container[step] = child;
    }
    container = child as Record<string | number, unknown>;
  }
  const last = field.path[field.path.length - 1]!;
  const current = container[last] ?? sampleOf(field.schema);
  container[last] = SLOT;
  const json = JSON.stringify(root);
  return { current, text: (raw) => json.replace(`"${SLOT}"`, () => raw) };
}

/** The request's query string as its raw `name=value` pairs. */
function queryPairs(options: InjectOptions): { path: string; pairs: string[] } {
  const [path = '', query = ''] = urlOf(options).split('?');
  return { path, pairs: query.split('&').filter((pair) => pair !== '') };
}

function withQuery(options: InjectOptions, param: string, replacement: string[]): InjectOptions {
  const { path, pairs } = queryPairs(options);
  const kept = pairs.filter((pair) => pair.split('=')[0] !== param);
  return { ...options, url: `${path}?${[...kept, ...replacement].join('&')}` };
}

/** The request with the path parameter `{name}` of `template` set to `value`, its query kept. */
function withPathParam(options: InjectOptions, template: string, name: string, value: string): InjectOptions {
  const { path, pairs } = queryPairs(options);
  const actual = path.split('/');
  const replaced = template.split('/').map((segment, i) => (segment === `{${name}}` ? value : actual[i]));
  return { ...options, url: replaced.join('/') + (pairs.length > 0 ? `?${pairs.join('&')}` : '') };
}

/** Over a real connection: the path reaches the service exactly as written. */
function sendOverSocket(options: InjectOptions): Promise<Response> {
  const { port } = server.address() as AddressInfo;
  const payload = typeof options.payload === 'string' ? options.payload : options.payload === undefined ? undefined : JSON.stringify(options.payload);
  const headers: Record<string, string> = { ...(options.headers as Record<string, string>) };
  if (payload !== undefined) headers['content-type'] ??= 'application/json';
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method: options.method ?? 'GET', path: urlOf(options), headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ statusCode: res.statusCode ?? 0, headers: res.headers, body } as unknown as Response));
    });
    req.on('error', reject);
    req.setTimeout(ANSWER_WITHIN_MS, () => req.destroy(new Error(`no answer within ${ANSWER_WITHIN_MS} ms`)));
    req.end(payload);
  });
}

/** What is wrong with an answer, if anything: a 5xx, a 4xx without the error body, or a breach of the contract. */
function problemOf(method: string, url: string, res: Pick<Response, 'statusCode' | 'headers' | 'body'>): string | undefined {
  if (res.statusCode >= 500) return 'a server error';
  if (res.statusCode >= 400) {
    if (!/application\/json/.test(String(res.headers['content-type']))) return 'an error body that is not JSON';
    let body: Record<string, unknown> | null;
    try {
      body = JSON.parse(res.body) as Record<string, unknown> | null;
    } catch {
      return 'an error body that does not parse';
    }
    if (body === null || typeof body !== 'object') return 'an error body that is not an object';
    const wrong = [
      body.statusCode !== res.statusCode && 'statusCode',
      (typeof body.error !== 'string' || body.error === '') && 'error',
      (typeof body.message !== 'string' || body.message === '') && 'message',
      body.success !== false && 'success',
      (typeof body.code !== 'string' || body.code === '') && 'code',
    ].filter(Boolean);
    if (wrong.length > 0) return `an error body lacking or mistyping ${wrong.join(', ')}`;
  }
  try {
    check(method, url, res as Response);
  } catch (error) {
    return `contract: ${(error as Error).message.split('\n')[0]}`;
  }
  return undefined;
}

function answered(sending: Promise<Response>): Promise<Response> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ANSWER_WITHIN_MS} ms`)), ANSWER_WITHIN_MS)));
  return Promise.race([sending, late]).finally(() => clearTimeout(timer));
}

/** Sends one hostile request, records what is wrong with its answer, and answers its status (undefined when it failed). */
async function probe(failures: string[], where: string, variant: string, options: InjectOptions, socket = false): Promise<number | undefined> {
  stats.requests++;
  const method = options.method ?? 'GET';
  let res: Response;
  try {
    res = await answered(socket ? sendOverSocket(options) : inject(h.service.handler, options));
  } catch (error) {
    failures.push(`${where} [${variant}] → the request failed: ${(error as Error).message}`);
    return undefined;
  }
  stats.statuses.set(res.statusCode, (stats.statuses.get(res.statusCode) ?? 0) + 1);
  const problem = problemOf(method, urlOf(options), res);
  if (problem) failures.push(`${where} [${variant}] → ${res.statusCode}, ${problem}: ${res.body.slice(0, 200)}`);
  return res.statusCode;
}

function jsonHeaders(options: InjectOptions): Record<string, string> {
  const headers = { ...(options.headers as Record<string, string>) };
  headers['content-type'] ??= 'application/json';
  return headers;
}

/** The body a sample sends as a value: an object, or an NDJSON line parsed. */
function baseBodyOf(options: InjectOptions): unknown {
  return typeof options.payload === 'string' ? JSON.parse(options.payload) : options.payload;
}

/**
 * The body schema of an operation. The NDJSON upload describes its lines in words ("the shape
 * of PUT /advertiser/products/{id}, with its id"): each line is fuzzed as that body.
 */
function bodySchemaOf(path: string, operation: Operation): JsonSchema | undefined {
  const declared = operation.requestBody?.content?.['application/json']?.schema;
  if (declared || path !== '/advertiser/products/bulk') return declared;
  const put = resolve(document.paths['/advertiser/products/{id}']?.put?.requestBody?.content?.['application/json']?.schema);
  return { ...put, properties: { ...put.properties, id: { type: 'string', minLength: 1, maxLength: 200 } } };
}

function validQueryValue(options: InjectOptions, param: Parameter): string {
  const sent = queryPairs(options).pairs.find((pair) => pair.split('=')[0] === param.name);
  if (sent !== undefined) return sent.slice(param.name.length + 1);
  const value = sampleOf(param.schema ?? {});
  return encodeURIComponent(String(Array.isArray(value) ? (value[0] ?? 'x') : value));
}

function queryVariants(param: Parameter): QueryVariant[] {
  const schema = resolve(param.schema);
  const kind = kindOf(schema);
  const itemKind = kind === 'array' && schema.items ? kindOf(resolve(schema.items)) : kind;
  const numeric = itemKind === 'integer' || itemKind === 'number' || /\[0-9\]/.test(String(schema.pattern));
  const dated = schema.format === 'date-time' || schema.format === 'date' || /^(from|to|start|end|startAt|endAt|createdAt)$/.test(param.name);
  return [
    ...QUERY_ANY,
    ...(numeric ? QUERY_NUMBERS : []),
    ...(dated ? QUERY_DATES : []),
    ...(itemKind === 'boolean' ? QUERY_BOOLEANS : []),
    ...(kind === 'array' ? QUERY_LISTS : []),
  ];
}

async function fuzzOperation(method: string, path: string, operation: Operation, start: () => Promise<InjectOptions> | InjectOptions): Promise<string[]> {
  const failures: string[] = [];
  const valid = await start();
  const res = await inject(h.service.handler, valid);
  // The starting point must succeed, or every variant below would test a refusal.
  if (res.statusCode >= 400) failures.push(`the valid request [as is] → ${res.statusCode}: ${res.body.slice(0, 200)}`);

  for (const body of ANY_OPERATION_BODIES) {
    const base = await start();
    const status = await probe(failures, 'any body', body.name, { ...base, headers: { ...(base.headers as Record<string, string>), 'content-type': body.contentType }, payload: body.payload });
    if (body === ANY_OPERATION_BODIES[0] && status === 413) stats.refusedTooLarge.add(`${method} ${path}`);
  }

  for (const pair of QUERY_PROTOTYPE_KEYS) {
    const base = await start();
    await probe(failures, 'query', pair, { ...base, url: `${urlOf(base)}${urlOf(base).includes('?') ? '&' : '?'}${pair}` });
  }

  for (const param of [...(operation.parameters ?? []), ...(DESCRIBED_IN_WORDS[`${method} ${path}`] ?? [])]) {
    if (param.in === 'path') {
      const base = await start();
      for (const variant of PATH_VARIANTS) await probe(failures, `path ${param.name}`, variant.name, withPathParam(base, path, param.name, variant.value), variant.socket);
    } else if (param.in === 'query') {
      const base = await start();
      const value = validQueryValue(base, param);
      for (const variant of queryVariants(param)) await probe(failures, `query ${param.name}`, variant.name, withQuery(base, param.name, variant.pairs(param.name, value)));
    }
  }

  const bodySchema = bodySchemaOf(path, operation);
  if (bodySchema) {
    const base = await start();
    for (const variant of WHOLE_BODY) await probe(failures, 'body', variant.name, { ...base, headers: jsonHeaders(base), payload: variant.raw(baseBodyOf(base)) });
    for (const field of fieldsOf(bodySchema)) {
      const name = fieldName(field.path);
      stats.fields.add(`${method} ${path} ${name}`);
      if (propertyDepth(field.path) >= 2) stats.deepFields++;
      const fresh = await start();
      const body = bodyWith(baseBodyOf(fresh), field);
      // The body every variant of the field starts from (a value the schema alone suggests) is an input too.
      for (const variant of [AS_BUILT, ...bodyVariants(field)]) await probe(failures, `body ${name}`, variant.name, { ...fresh, headers: jsonHeaders(fresh), payload: body.text(variant.raw(body.current)) });
    }
  }
  return failures;
}

test('every operation of the OpenAPI document answers hostile input with a 4xx in the error shape, never a 5xx', async (t) => {
  // /docs and its assets are static pages of the reference, hidden from the document: no input to fuzz.
  const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([method]) => ['get', 'put', 'post', 'patch', 'delete'].includes(method))
      .map(([method, operation]) => ({ path, method: method.toUpperCase(), operation })),
  );
  const unsampled = operations.filter(({ path, method }) => !starterOf(method, path.replace(/\{([^}]+)\}/g, ':$1'))).map(({ method, path }) => `${method} ${path}`);
  assert.deepEqual(unsampled, [], 'every operation needs a valid request to start from (test/helpers/route-samples.ts, or the routes outside the API here)');
  stats.documented = operations.length;

  for (const { path, method, operation } of operations) {
    const start = starterOf(method, path.replace(/\{([^}]+)\}/g, ':$1'))!;
    await t.test(`${method} ${path}`, async (st) => {
      const sentBefore = stats.requests;
      const restore = await RESTORERS[`${method} ${path}`]?.();
      const failures = await fuzzOperation(method, path, operation, start).finally(restore);
      stats.operations++;
      st.diagnostic(`${stats.requests - sentBefore} hostile requests`);
      assert.equal(failures.length, 0, `${failures.length} hostile requests to ${method} ${path} were mishandled:\n${failures.join('\n')}`);
    });
  }
});

test('the walk reached every operation and nested body fields (positive control)', (t) => {
  t.diagnostic(`${stats.requests} hostile requests to ${stats.operations} of ${stats.documented} operations; ${stats.fields.size} body fields, ${stats.deepFields} of them nested in another field`);
  t.diagnostic(`answers by status: ${[...stats.statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${status}: ${count}`).join(', ')}`);
  assert.ok(stats.documented > 0 && stats.operations === stats.documented, `${stats.operations} of ${stats.documented} operations were walked to the end`);
  assert.ok(stats.deepFields > 0, 'no body field nested in another was reached');
  assert.equal(stats.refusedTooLarge.size, stats.documented, 'every operation refuses a body over 1 MiB with 413');
  for (const deep of ['POST /advertiser/conversions items[0].price', 'PUT /advertiser/products/{id} options[0].pricing[0].listPrice', 'POST /advertiser/products/bulk options[0].stocks[0].metadata[0]', 'PATCH /advertiser/brand commission.transfer']) {
    assert.ok(stats.fields.has(deep), `the walk did not reach ${deep}`);
  }
  assert.ok(stats.requests >= MINIMUM_REQUESTS, `only ${stats.requests} hostile requests were sent`);
});

test('the answer check itself flags a 500, a 4xx without the error body, and a contract breach (positive control)', () => {
  const json = { 'content-type': 'application/json; charset=utf-8' };
  const url = `/affiliate/brands/${BRANDS.acme}`;
  assert.match(problemOf('GET', url, { statusCode: 500, headers: json, body: '{}' }) ?? '', /server error/);
  assert.match(problemOf('GET', url, { statusCode: 400, headers: json, body: '{"message":"x"}' }) ?? '', /lacking or mistyping statusCode, error, success, code/);
  assert.match(problemOf('GET', url, { statusCode: 418, headers: json, body: '{"statusCode":418,"error":"x","message":"x","success":false,"code":"x"}' }) ?? '', /contract: .*does not declare/);
  assert.equal(problemOf('GET', url, { statusCode: 404, headers: json, body: '{"statusCode":404,"error":"NotFound","message":"x","success":false,"code":"not_found"}' }), undefined);
});
