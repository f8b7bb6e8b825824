// A brand finds an affiliate to give a coupon code to, through HTTP: GET /advertiser/affiliates?q=
// finds, for a public brand, any active affiliate of the network by name or id, links or not; a
// private brand finds only its own. Each answer holds only what the brand may see of an
// affiliate: its id and name, and the brand's own approval and figures.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../helpers/harness.js';
import { BRANDS } from '../helpers/world.js';
import { assertError, newKey } from '../helpers/api.js';
import { servicesFor } from '../helpers/databases.js';
import { brandKey, conversionOf, freshClick, item, report } from '../helpers/tracking.js';

type Promoter = Record<string, unknown> & { affiliateId: string; name: string; approval: string; orders: number; sales: number; commission: number; clicks: number };

let h: Harness;
let acme: string;
let umbrella: string;
let globex: string;
let initech: string;
const PRIVATE_EMAIL = 'maria.private@mailbox.example';

before(async () => {
  h = await startHarness();
  const services = servicesFor(h.service.database);
  // Maria has joined the network: a channel, an owner, an approval of Initech (private) and one order of it.
  await services.access.upsertAffiliate('aff-maria', 'Maria Souza Ofertas');
  await services.channels.add('aff-maria', 'site', 'Blog da Maria', 'ch-maria-site');
  await services.users.createWithPassword({ affiliateId: 'aff-maria' }, PRIVATE_EMAIL, 'owner', 'a long enough password');
  await services.access.approveForBrand('aff-maria', BRANDS.initech);
  // Another Maria, suspended by the network: no brand finds her.
  await services.access.upsertAffiliate('aff-maria-2', 'Maria Suspensa');
  await services.suspensions.suspend({ kind: 'cli' }, { affiliateId: 'aff-maria-2' }, 'Clicks from a click farm');
  // An affiliate whose name holds LIKE's wildcards.
  await services.access.upsertAffiliate('aff_50', 'Cinquenta 50% off');
  acme = await brandKey(h, BRANDS.acme);
  umbrella = await brandKey(h, BRANDS.umbrella);
  globex = await brandKey(h, BRANDS.globex);
  initech = await brandKey(h, BRANDS.initech);
  const maria = (await newKey(h, 'aff-maria', { rateLimit: 100_000 })).key;
  const clickId = await freshClick(h, maria, BRANDS.initech);
  conversionOf(await report(h, initech, { orderId: 'INI-MARIA-1', value: 4990, items: [item(4990)], clickId }), 201);
});
after(async () => {
  await h.close();
});

const search = async (key: string, query: string) => {
  const res = await h.get(`/advertiser/affiliates${query}`, key);
  assert.equal(res.statusCode, 200, res.body);
  return { body: res.body, ...res.json<{ data: Promoter[]; meta: { total: number } }>() };
};
const ids = (rows: Promoter[]) => rows.map((p) => p.affiliateId);

describe('a public brand finds any active affiliate by name or id', () => {
  test('by a part of the name, in any case, an affiliate with no link to it: its id and name, nothing with the brand yet', async () => {
    const found = await search(umbrella, '?q=mARIA');
    assert.deepEqual(ids(found.data), ['aff-maria'], 'the suspended Maria is not found');
    assert.equal(found.meta.total, 1);
    assert.deepEqual(found.data[0], { affiliateId: 'aff-maria', name: 'Maria Souza Ofertas', approval: 'none', clicks: 0, orders: 0, sales: 0, commission: 0 });
    assert.doesNotMatch(found.body, new RegExp(PRIVATE_EMAIL.replace(/\./g, '\\.')), 'no e-mail address');
    assert.doesNotMatch(found.body, /ch-maria-site|Blog da Maria/, 'no channel');
  });

  test("another brand's approval and orders of the affiliate are not in the answer", async () => {
    const theirs = (await search(initech, '?q=maria')).data;
    assert.deepEqual(
      theirs.map((p) => [p.affiliateId, p.approval, p.orders, p.sales]),
      [['aff-maria', 'approved', 1, 4990]],
      'Initech sees its own approval and order',
    );
    const [seen] = (await search(acme, '?q=aff-maria')).data;
    assert.ok(seen, 'found by its id');
    assert.deepEqual([seen.approval, seen.approvedAt, seen.orders, seen.sales, seen.commission, seen.clicks], ['none', undefined, 0, 0, 0, 0]);
  });

  test("without q the list is the brand's programme as before; q finds wildcards as plain characters", async () => {
    assert.ok(!ids((await search(umbrella, '?limit=100')).data).includes('aff-maria'), 'no link, no order, no approval: not listed without q');
    assert.deepEqual(ids((await search(umbrella, `?q=${encodeURIComponent('50% off')}`)).data), ['aff_50']);
    assert.deepEqual(ids((await search(umbrella, `?q=${encodeURIComponent('a%o')}`)).data), [], '% is no wildcard');
    assert.deepEqual(ids((await search(umbrella, `?q=${encodeURIComponent('f_m')}`)).data), [], '_ is no wildcard');
    // With status, only the brand's own approved or asking affiliates, whatever q finds elsewhere.
    assert.deepEqual(ids((await search(umbrella, '?q=maria&status=approved')).data), []);
  });
});

describe('a private brand finds only its own affiliates', () => {
  test('an affiliate it has not approved is not found, by name or by id; once approved, it is', async () => {
    assert.deepEqual((await search(globex, '?q=maria')).data, []);
    assert.deepEqual((await search(globex, '?q=aff-maria')).meta.total, 0);
    assert.deepEqual(ids((await search(globex, '?q=affiliate')).data), ['aff-1'], 'its approved affiliate is');
    const approved = await h.request({ method: 'POST', url: '/advertiser/affiliates/aff-maria/approval', headers: { 'x-api-key': globex } });
    assert.equal(approved.statusCode, 200, approved.body);
    const [found] = (await search(globex, '?q=maria')).data;
    assert.deepEqual([found?.affiliateId, found?.approval, found?.orders], ['aff-maria', 'approved', 0], "Initech's order is not Globex's");
  });
});

test('q must be 2 to 100 characters: 400 otherwise; an affiliate key may not search', async () => {
  assertError(await h.get('/advertiser/affiliates?q=m', umbrella), 400);
  assertError(await h.get(`/advertiser/affiliates?q=${'m'.repeat(101)}`, umbrella), 400);
  const affiliate = (await newKey(h, 'aff-1')).key;
  assertError(await h.get('/advertiser/affiliates?q=maria', affiliate), 403, 'forbidden');
});
