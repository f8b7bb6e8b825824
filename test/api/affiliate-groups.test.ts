// A brand's affiliate groups: checked when saved (id, members in the programme), kept to the brand,
// read by the commission rules' affiliateGroups condition (a member paid by the group's rule, a
// non-member by the default), and not deleted while the brand's rules name them.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertError, startWithKeys } from '../helpers/api.js';
import type { Harness } from '../helpers/harness.js';
import { BRANDS } from '../helpers/world.js';
import { brandKey, conversionOf, freshClick, item, report } from '../helpers/tracking.js';
import { DomainError } from '../../src/domain/errors.js';

let h: Harness;
let aff1: string;
let aff2: string;
let acme: string;

before(async () => {
  // Rules in force as soon as saved.
  ({ h, aff1, aff2 } = await startWithKeys({ TERMS_NOTICE_MIN_DAYS: '0' }));
  acme = await brandKey(h, BRANDS.acme);
  const notice = await h.request({ method: 'PATCH', url: '/advertiser/brand', payload: { termsNoticeDays: 0 }, headers: { 'x-api-key': acme } });
  assert.equal(notice.statusCode, 200, notice.body);
});
after(async () => {
  await h.close();
});

const groups = () => h.service.services.affiliateGroups;
const codeOf = async (work: Promise<unknown>): Promise<string> => {
  try {
    await work;
  } catch (error) {
    assert.ok(error instanceof DomainError, String(error));
    return error.code;
  }
  assert.fail('expected a refusal');
};

test('a group is checked when saved: its id, and members that are affiliates of the programme', async () => {
  // Links make both affiliates part of acme's programme.
  await freshClick(h, aff1, BRANDS.acme);
  await freshClick(h, aff2, BRANDS.acme);
  assert.equal(await codeOf(groups().put(BRANDS.acme, 'Bad Id', { name: 'x', members: [] })), 'invalid_group_id');
  assert.equal(await codeOf(groups().put(BRANDS.acme, 'vip', { name: 'VIP', members: ['aff-1', 'nobody'] })), 'invalid_members');
  const first = await groups().put(BRANDS.acme, 'vip', { name: 'VIP', members: ['aff-1'] });
  assert.equal(first.created, true);
  assert.deepEqual(first.group.members, ['aff-1']);
  const again = await groups().put(BRANDS.acme, 'vip', { name: 'VIP', members: ['aff-1'] });
  assert.equal(again.created, false);
  // Another brand sees none of acme's groups.
  assert.deepEqual(await groups().list(BRANDS.umbrella), []);
  assert.equal(await codeOf(groups().delete(BRANDS.umbrella, 'vip')), 'group_not_found');
});

test("a rule for the group pays its member by the rule and a non-member by the default; the group is kept while the rules name it", async () => {
  const rules = await h.request({ method: 'PUT', url: '/advertiser/commission-rules', payload: { rules: [{ name: 'VIP', conditions: { affiliateGroups: ['vip'] }, transfer: 'cpa', value: 777 }] }, headers: { 'x-api-key': acme } });
  assert.equal(rules.statusCode, 200, rules.body);
  const member = conversionOf(await report(h, acme, { clickId: await freshClick(h, aff1, BRANDS.acme), orderId: 'GRP-1', value: 1000, items: [item(1000)] }), 201);
  const other = conversionOf(await report(h, acme, { clickId: await freshClick(h, aff2, BRANDS.acme), orderId: 'GRP-2', value: 1000, items: [item(1000)] }), 201);
  assert.equal(member.commission, 777);
  assert.notEqual(other.commission, 777);
  assert.equal(await codeOf(groups().delete(BRANDS.acme, 'vip')), 'group_in_use');
  const cleared = await h.request({ method: 'PUT', url: '/advertiser/commission-rules', payload: { rules: [] }, headers: { 'x-api-key': acme } });
  assert.equal(cleared.statusCode, 200, cleared.body);
  await groups().delete(BRANDS.acme, 'vip');
  assert.deepEqual(await groups().list(BRANDS.acme), []);
});

test('through the API: PUT creates (201) and replaces (200), GET lists, DELETE removes; errors in the spec’s shape; another brand sees none of it', async () => {
  const umbrella = await brandKey(h, BRANDS.umbrella);
  await freshClick(h, aff1, BRANDS.acme);
  const put = (id: string, body: object, key = acme) => h.request({ method: 'PUT', url: `/advertiser/groups/${id}`, payload: body, headers: { 'x-api-key': key } });
  const created = await put('api-tier', { name: 'Volume', members: ['aff-1'], tier: { minApprovedOrders: 3 } });
  assert.equal(created.statusCode, 201, created.body);
  const group = created.json<{ data: { id: string; members: string[]; tier?: { minApprovedOrders: number; members: string[] } } }>().data;
  assert.deepEqual([group.id, group.members, group.tier?.minApprovedOrders], ['api-tier', ['aff-1'], 3]);
  assert.equal((await put('api-tier', { name: 'Volume', members: [] })).statusCode, 200);
  const listed = (await h.get('/advertiser/groups', acme)).json<{ data: Array<{ id: string; members: string[] }> }>().data;
  assert.deepEqual(listed.find((g) => g.id === 'api-tier')?.members, []);
  assertError(await put('Bad Id', { name: 'x', members: [] }), 400, 'invalid_group_id');
  assertError(await put('api-x', { name: 'x', members: ['nobody'] }), 400, 'invalid_members');
  assertError(await put('api-x', { name: 'x', members: [], extra: 1 }), 400, 'invalid_body');
  assert.ok(!(await h.get('/advertiser/groups', umbrella)).json<{ data: Array<{ id: string }> }>().data.some((g) => g.id === 'api-tier'), 'another brand lists none of acme’s groups');
  assertError(await h.request({ method: 'DELETE', url: '/advertiser/groups/api-tier', headers: { 'x-api-key': umbrella } }), 404, 'group_not_found');
  assert.equal((await h.request({ method: 'DELETE', url: '/advertiser/groups/api-tier', headers: { 'x-api-key': acme } })).statusCode, 204);
  assertError(await h.request({ method: 'DELETE', url: '/advertiser/groups/api-tier', headers: { 'x-api-key': acme } }), 404, 'group_not_found');
});
