// A refusal carries the values its message names as `details`, so a client can say it in its own
// words and language: the field at fault, the rule it breaks and its bound; the wait of a 429.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../helpers/harness.js';
import { BRANDS } from '../helpers/world.js';
import { assertError, newKey } from '../helpers/api.js';
import { ManualClock } from '../../src/lib/clock.js';

let h: Harness;
let key: string;
// Held still, so a hold is still on when the next try comes, however slow the machine.
const clock = new ManualClock(Date.now());

before(async () => {
  h = await startHarness({}, { clock });
  key = (await newKey(h, 'aff-1', { rateLimit: 100_000 })).key;
});
after(() => h?.close());

type Details = { field?: string; rule?: string; limit?: number; allowed?: string[]; format?: string; seconds?: number; minutes?: number };
const detailsOf = (body: object) => (body as { details?: Details }).details;

test('a query parameter over its bound names the parameter, the rule and the bound', async () => {
  const body = assertError(await h.get('/affiliate/brands?limit=500', key), 400, 'invalid_query');
  const details = detailsOf(body);
  assert.deepEqual({ ...details, limit: undefined }, { field: 'limit', rule: 'maximum', limit: undefined });
  assert.ok(details?.limit && details.limit < 500 && body.message.includes(String(details.limit)), `${JSON.stringify(details)} ${body.message}`);
});

test('a missing body field is named with its rule; an unknown one with the fields the operation takes', async () => {
  const missing = assertError(await h.post('/affiliate/shortener/url', { type: 'Home' }, key), 400, 'invalid_body');
  assert.deepEqual(detailsOf(missing), { field: 'organizationId', rule: 'required' });
  const unknown = assertError(await h.post('/affiliate/shortener/url', { organizationId: BRANDS.acme, type: 'Home', colour: 'blue' }, key), 400, 'invalid_body');
  const details = detailsOf(unknown);
  assert.equal(details?.field, 'colour');
  assert.equal(details?.rule, 'unknown');
  assert.ok(details?.allowed?.includes('organizationId'), JSON.stringify(details));
});

test('a value outside its choices lists the choices', async () => {
  const body = assertError(await h.post('/affiliate/shortener/url', { organizationId: BRANDS.acme, type: 'Elsewhere' }, key), 400, 'invalid_body');
  const details = detailsOf(body);
  assert.equal(details?.field, 'type');
  assert.equal(details?.rule, 'oneOf');
  assert.ok(details?.allowed?.includes('Home'), JSON.stringify(details));
});

test('a refusal for too many tries carries its wait in whole seconds and minutes, as Retry-After says', async () => {
  await h.service.services.users.createWithPassword({ affiliateId: 'aff-1' }, 'waits@aff1.example', 'member', 'a long enough password');
  const attempt = () => h.request({ method: 'POST', url: '/session', remoteAddress: '192.0.2.77', payload: { email: 'waits@aff1.example', password: 'not the password' } });
  for (let i = 0; i < 6; i++) assertError(await attempt(), 401, 'invalid_credentials');
  const held = await attempt();
  const body = assertError(held, 429, 'too_many_sign_ins');
  const details = detailsOf(body);
  assert.equal(String(details?.seconds), held.headers['retry-after']);
  assert.equal(details?.minutes, Math.ceil(details!.seconds! / 60));
});

test('a refusal with nothing to name has no details', async () => {
  const body = assertError(await h.get('/affiliate/brands/00000000-0000-4000-8000-000000000000', key), 404);
  assert.equal(detailsOf(body), undefined);
});
