// No secret reaches the log: a server at debug level (a line per request) is taken through the
// secrets it knows — API keys in x-api-key and in Authorization, a made-up key, a postback token in
// the URL, webhook signing secrets created and rotated, a sign-up link, a password, a sign-in's
// session cookie and CSRF token — and its whole output is searched for each of them.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { freshDatabase, servicesFor, type TestDatabase } from '../helpers/databases.js';
import { startServerProcess, type ServerProcess } from '../helpers/processes.js';
import { buildWorld, BRANDS, type World } from '../helpers/world.js';
import { openDatabase } from '../../src/storage/database.js';

let testDb: TestDatabase;
let world: World;
let server: ServerProcess;
const secrets = new Map<string, string>();

before(async () => {
  testDb = await freshDatabase({ migrated: true });
  const database = openDatabase(testDb.url);
  try {
    world = await buildWorld(database);
    secrets.set('affiliate key', world.keys.aff1);
    secrets.set('brand key', (await servicesFor(database).access.createApiKey({ brandId: BRANDS.acme })).key);
    secrets.set('postback token', (await servicesFor(database).access.rotatePostbackToken(BRANDS.acme)).token);
    const { link } = await servicesFor(database).users.create({ affiliateId: 'aff-1' }, 'logs@aff.example', 'owner');
    secrets.set('sign-up link token', new URL(link).searchParams.get('token')!);
    secrets.set('password', 'never-in-the-log-9');
  } finally {
    await database.close();
  }
  server = await startServerProcess({ DATABASE_URL: testDb.url, REDIS_URL: '', LOG_LEVEL: 'debug', WEBHOOK_POLL_MS: '0' });
});
after(async () => {
  await server?.stop();
  await testDb?.drop();
});

/** Whether `secret` appears in `log`, whole or as its tail (what follows a kept prefix). */
const leaks = (log: string, secret: string) => log.includes(secret) || log.includes(secret.slice(8));

test('a server at debug level logs requests but none of the secrets they carried', async () => {
  const call = (path: string, init: RequestInit = {}) => fetch(`${server.url}${path}`, init).then(async (res) => ({ status: res.status, body: await res.text() }));
  const affiliate = { 'x-api-key': secrets.get('affiliate key')! };
  assert.equal((await call('/affiliate/brands', { headers: affiliate })).status, 200);
  assert.equal((await call('/affiliate/brands', { headers: { authorization: `Bearer ${secrets.get('affiliate key')}` } })).status, 401);
  const madeUp = `afn_${'Zq9'.repeat(10)}xy`;
  secrets.set('made-up key', madeUp);
  assert.equal((await call('/affiliate/brands', { headers: { 'x-api-key': madeUp } })).status, 401);
  assert.equal((await call('/advertiser/conversions', { headers: { 'x-api-key': secrets.get('brand key')! } })).status, 200);
  const postback = await call(`/postback?token=${secrets.get('postback token')}&clickId=${'0'.repeat(32)}&orderId=log-1&value=1000`);
  assert.ok(postback.status < 500, postback.body);
  secrets.set('session cookie', 'sid=Qm9yaW5nU2Vzc2lvbklkZW50aWZpZXI');
  await call('/affiliate/brands', { headers: { ...affiliate, cookie: secrets.get('session cookie')! } });

  // The portal: a password set through the link, a sign-in, the session cookie and CSRF token in use.
  const setPassword = await call('/session/password', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: secrets.get('sign-up link token'), password: secrets.get('password') }) });
  assert.equal(setPassword.status, 200, setPassword.body);
  const signIn = await fetch(`${server.url}/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'logs@aff.example', password: secrets.get('password') }) });
  assert.equal(signIn.status, 200);
  const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
  secrets.set('session cookie of the sign-in', cookie.split('=')[1]!);
  secrets.set('CSRF token', ((await signIn.json()) as { data: { csrfToken: string } }).data.csrfToken);
  assert.equal((await call('/affiliate/shortener/url', { method: 'POST', headers: { cookie, 'x-csrf-token': secrets.get('CSRF token')!, 'content-type': 'application/json' }, body: JSON.stringify({ organizationId: BRANDS.acme, type: 'Home' }) })).status, 200);
  assert.equal((await call('/session', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'logs@aff.example', password: 'wrong-password-123' }) })).status, 401);

  const json = { ...affiliate, 'content-type': 'application/json' };
  const created = await call('/affiliate/webhooks', { method: 'POST', headers: json, body: JSON.stringify({ url: 'https://hooks.example.com/in', events: ['order.created'] }) });
  assert.equal(created.status, 201, created.body);
  const endpoint = (JSON.parse(created.body) as { data: { id: string; secret: string } }).data;
  secrets.set('webhook secret', endpoint.secret);
  const rotated = await call(`/affiliate/webhooks/${endpoint.id}/rotate-secret`, { method: 'POST', headers: json, body: '{}' });
  assert.equal(rotated.status, 200, rotated.body);
  secrets.set('rotated webhook secret', (JSON.parse(rotated.body) as { data: { secret: string } }).data.secret);

  assert.equal(await server.stop(), 0);
  const log = server.output();
  // The log is the one meant: a line per request, the postback's URL among them (token removed).
  assert.match(log, /"msg":"incoming request"/, 'debug level logs each request');
  assert.match(log, /\/postback\?token=\[redacted\]&clickId=/, 'the postback URL is logged with its token removed');
  for (const [what, secret] of secrets) assert.ok(!leaks(log, secret), `the ${what} is in the log`);
  // Positive control: the search finds a secret that is there.
  assert.ok(leaks(`${log}\n{"msg":"planted ${secrets.get('webhook secret')}"}`, secrets.get('webhook secret')!));
});
