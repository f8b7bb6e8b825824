// Team and API keys through HTTP, as the portal manages them: an owner invites people (a one-time
// link), issues new password links, removes people, creates keys with chosen scopes (shown once),
// lists and revokes them. Members only read the team; API keys manage nothing; one account never
// sees or touches another's people or keys.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../helpers/harness.js';
import { BRANDS } from '../helpers/world.js';
import { assertError, newKey } from '../helpers/api.js';
import { brandKey } from '../helpers/tracking.js';
import { PASSWORD, signedUp, tokenOf, withSession, type TestSession } from '../helpers/sessions.js';

type User = { id: string; email: string; role: string; active: boolean };
type Key = { id: string; prefix: string; name: string; scopes: string[]; rateLimit: number; revokedAt?: string; key?: string };

let h: Harness;
let owner: TestSession;
let member: TestSession;
let otherOwner: TestSession;
let brandOwner: TestSession;

before(async () => {
  h = await startHarness();
  owner = await signedUp(h, 'owner@aff1.example', { affiliateId: 'aff-1' }, 'owner');
  member = await signedUp(h, 'member@aff1.example', { affiliateId: 'aff-1' }, 'member');
  otherOwner = await signedUp(h, 'owner@aff2.example', { affiliateId: 'aff-2' }, 'owner');
  brandOwner = await signedUp(h, 'owner@acme.example', { brandId: BRANDS.acme }, 'owner');
});
after(async () => {
  await h.close();
});

const as = (session: TestSession, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) => h.request(withSession({ method, url, ...(payload && { payload }) }, session));

describe('team', () => {
  test('an owner invites a person, who sets a password with the link and signs in as a member', async () => {
    const res = await as(owner, 'POST', '/affiliate/team', { email: 'New.Person@aff1.example' });
    assert.equal(res.statusCode, 201, res.body);
    const { user, link } = res.json<{ data: { user: User; link: string } }>().data;
    assert.deepEqual([user.email, user.role, user.active], ['new.person@aff1.example', 'member', false]);
    const set = await h.request({ method: 'POST', url: '/session/password', payload: { token: tokenOf(link), password: PASSWORD } });
    assert.equal(set.statusCode, 200, set.body);
    const team = (await as(owner, 'GET', '/affiliate/team')).json<{ data: User[] }>().data;
    assert.deepEqual(team.find((u) => u.id === user.id)?.active, true);
    assert.ok(team.every((u) => u.email.endsWith('@aff1.example')), 'only the people of aff-1');
    assertError(await as(owner, 'POST', '/affiliate/team', { email: 'new.person@aff1.example' }), 409, 'email_taken');
    assertError(await as(owner, 'POST', '/affiliate/team', { email: 'not-an-address' }), 400, 'invalid_email');
    assertError(await as(owner, 'POST', '/affiliate/team', { email: 'x@aff1.example', role: 'admin' }), 400);
  });

  test('a new password link works once and ends nothing until used; removing a person ends their session', async () => {
    const person = await signedUp(h, 'leaving@aff1.example', { affiliateId: 'aff-1' });
    const id = (await as(person, 'GET', '/session')).json<{ data: { user: User } }>().data.user.id;
    const linked = await as(owner, 'POST', `/affiliate/team/${id}/password-link`);
    assert.equal(linked.statusCode, 201, linked.body);
    assert.match(linked.json<{ data: { link: string } }>().data.link, /\/app\/set-password\?token=/);
    assert.equal((await as(person, 'GET', '/affiliate/brands')).statusCode, 200, 'the session still works');
    assert.equal((await as(owner, 'DELETE', `/affiliate/team/${id}`)).statusCode, 204);
    assertError(await as(person, 'GET', '/affiliate/brands'), 401);
    assertError(await as(owner, 'DELETE', `/affiliate/team/${id}`), 404, 'user_not_found');
  });

  test('an owner cannot remove themself, and the last owner stays', async () => {
    const me = (await as(owner, 'GET', '/session')).json<{ data: { user: User } }>().data.user.id;
    assertError(await as(owner, 'DELETE', `/affiliate/team/${me}`), 409, 'cannot_remove_self');
  });

  test('a member reads the team but cannot change it or see keys', async () => {
    assert.equal((await as(member, 'GET', '/affiliate/team')).statusCode, 200);
    const refused = assertError(await as(member, 'POST', '/affiliate/team', { email: 'sneaky@aff1.example' }), 403, 'forbidden');
    assert.match(refused.message, /Your role does not allow this .*team:write.*ask an owner/);
    assertError(await as(member, 'GET', '/affiliate/keys'), 403, 'forbidden');
    assertError(await as(member, 'POST', '/affiliate/keys', { name: 'mine' }), 403, 'forbidden');
  });

  test("another account's person answers 404, as an unknown one", async () => {
    const theirs = (await as(otherOwner, 'GET', '/affiliate/team')).json<{ data: User[] }>().data[0]!;
    assertError(await as(owner, 'DELETE', `/affiliate/team/${theirs.id}`), 404, 'user_not_found');
    assertError(await as(owner, 'POST', `/affiliate/team/${theirs.id}/password-link`), 404, 'user_not_found');
    assert.equal((await as(otherOwner, 'GET', '/affiliate/team')).json<{ data: User[] }>().data.length, 1, 'still there');
  });
});

describe('API keys', () => {
  test('an owner creates a key with chosen scopes, sees it once, the key works within them, and revokes it', async () => {
    const res = await as(owner, 'POST', '/affiliate/keys', { name: 'catalogue reader', scopes: ['brands:read'] });
    assert.equal(res.statusCode, 201, res.body);
    const created = res.json<{ data: Key }>().data;
    assert.match(created.key!, /^[A-Za-z_]+[0-9A-Za-z]{32}$/);
    assert.deepEqual([created.name, created.scopes, created.revokedAt, created.key!.startsWith(created.prefix)], ['catalogue reader', ['brands:read'], undefined, true]);
    assert.equal((await h.get('/affiliate/brands', created.key)).statusCode, 200);
    assertError(await h.get('/affiliate/orders', created.key), 403, 'forbidden');

    const listed = (await as(owner, 'GET', '/affiliate/keys')).json<{ data: Key[] }>().data;
    const mine = listed.find((k) => k.id === created.id)!;
    assert.equal(mine.key, undefined, 'the key is never listed');
    assert.equal(JSON.stringify(listed).includes(created.key!), false);

    assert.equal((await as(owner, 'DELETE', `/affiliate/keys/${created.id}`)).statusCode, 204);
    assertError(await h.get('/affiliate/brands', created.key), 401);
    assert.ok((await as(owner, 'GET', '/affiliate/keys')).json<{ data: Key[] }>().data.find((k) => k.id === created.id)!.revokedAt, 'listed as revoked');
  });

  test('without scopes a key gets every scope of its side; a brand scope is refused on an affiliate key', async () => {
    const all = (await as(owner, 'POST', '/affiliate/keys', { name: 'everything' })).json<{ data: Key }>().data;
    assert.ok(all.scopes.includes('shortener:write') && all.scopes.includes('orders:read'));
    assert.ok(!all.scopes.some((s) => s.startsWith('team') || s.startsWith('keys')), 'no key manages keys or people');
    assertError(await as(owner, 'POST', '/affiliate/keys', { name: 'wrong', scopes: ['conversions:write'] }), 400);
    assertError(await as(owner, 'POST', '/affiliate/keys', { name: '' }), 400);
    assertError(await as(owner, 'POST', '/affiliate/keys', { name: 'x', scopes: [] }), 400);
  });

  test("another account's key answers 404 and keeps working; keys are listed per account", async () => {
    const theirs = (await as(otherOwner, 'POST', '/affiliate/keys', { name: 'aff-2 key' })).json<{ data: Key }>().data;
    assertError(await as(owner, 'DELETE', `/affiliate/keys/${theirs.id}`), 404, 'key_not_found');
    assert.equal((await h.get('/affiliate/brands', theirs.key)).statusCode, 200);
    assert.ok(!(await as(owner, 'GET', '/affiliate/keys')).json<{ data: Key[] }>().data.some((k) => k.id === theirs.id));
  });

  test('a brand owner manages brand keys under /advertiser/keys, and not affiliate ones', async () => {
    const created = (await as(brandOwner, 'POST', '/advertiser/keys', { name: 'shop', scopes: ['conversions:write'] })).json<{ data: Key }>().data;
    assert.deepEqual(created.scopes, ['conversions:write']);
    assert.equal((await as(brandOwner, 'GET', '/advertiser/team')).json<{ data: User[] }>().data.length, 1);
    assertError(await as(brandOwner, 'GET', '/affiliate/keys'), 403, 'forbidden');
    assertError(await as(owner, 'GET', '/advertiser/keys'), 403, 'forbidden');
  });

  test('an API key manages neither keys nor people, whatever its scopes', async () => {
    const key = (await newKey(h, 'aff-1')).key;
    const refused = assertError(await h.get('/affiliate/keys', key), 403, 'forbidden');
    assert.match(refused.message, /signed-in owner/);
    assertError(await h.request({ method: 'POST', url: '/affiliate/team', headers: { 'x-api-key': key }, payload: { email: 'a@b.example' } }), 403, 'forbidden');
    assertError(await h.get('/advertiser/keys', await brandKey(h, BRANDS.acme)), 403, 'forbidden');
  });

  test('a change without the CSRF token is refused', async () => {
    assertError(await h.request(withSession({ method: 'POST', url: '/affiliate/keys', payload: { name: 'csrf' } }, { cookie: owner.cookie })), 403);
  });
});
