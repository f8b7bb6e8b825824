// What a brand reads of the network's terms for its statements (networkTerms on its profile: the
// fee on each commission and the days to pay, as the operator set them for it and no other brand),
// and its word that its own server reports its orders, which its launch checklist counts as
// tracking installed beside any order its server or tag reported.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../helpers/harness.js';
import { assertError } from '../helpers/api.js';
import { BRANDS, brandInput } from '../helpers/world.js';
import { brandKey, conversionOf, freshClick, item, report } from '../helpers/tracking.js';
import type { Statement } from '../../src/domain/ledger/statements-service.js';

const QUIET = '55555555-5555-4555-8555-555555555555';

let h: Harness;
let acme: string;
let globex: string;
let quiet: string;

type Profile = { networkTerms: { feeBasisPoints: number; dueDays: number }; reportsOrdersFromServer: boolean };
type Launch = { launched: boolean; steps: { commission: boolean; catalogue: boolean; tracking: boolean } };

before(async () => {
  h = await startHarness();
  acme = await brandKey(h, BRANDS.acme);
  globex = await brandKey(h, BRANDS.globex);
  // A brand with no order yet: nothing has shown its tracking working.
  await h.service.services.imports.upsertBrand(brandInput({ id: QUIET, name: 'Quiet Shop', slug: 'quiet-shop', site: 'https://quiet-shop.example' }));
  quiet = await brandKey(h, QUIET);
});
after(async () => {
  await h?.close();
});

async function profile(key: string): Promise<Profile> {
  const res = await h.get('/advertiser/brand', key);
  assert.equal(res.statusCode, 200, res.body);
  return res.json<{ data: Profile }>().data;
}
async function launchState(key: string): Promise<Launch> {
  const res = await h.get('/advertiser/brand/launch', key);
  assert.equal(res.statusCode, 200, res.body);
  return res.json<{ data: Launch }>().data;
}
const patchBrand = (key: string, body: object) => h.request({ method: 'PATCH', url: '/advertiser/brand', payload: body, headers: { 'x-api-key': key } });

test('a brand reads the terms in force for its own statements, and no other brand’s', async () => {
  assert.deepEqual((await profile(acme)).networkTerms, { feeBasisPoints: 3000, dueDays: 15 }, 'the network’s defaults');
  await h.service.services.statements.setTerms({ kind: 'cli' }, BRANDS.acme, { feeBasisPoints: 3500, dueDays: 20, reason: 'Contract of 2026' });
  assert.deepEqual((await profile(acme)).networkTerms, { feeBasisPoints: 3500, dueDays: 20 });
  assert.deepEqual((await profile(globex)).networkTerms, { feeBasisPoints: 3000, dueDays: 15 }, 'another brand keeps its own terms');

  // A statement keeps the fee it was issued with; the profile shows the terms as they are now.
  const [issued] = (await h.service.services.statements.issue('2026-02')).filter((s) => s.brandId === BRANDS.acme) as [Statement];
  assert.equal(issued.feeBasisPoints, 3500);
  await h.service.services.statements.setTerms({ kind: 'cli' }, BRANDS.acme, { feeBasisPoints: 2000, reason: 'Contract of 2026' });
  assert.deepEqual((await profile(acme)).networkTerms, { feeBasisPoints: 2000, dueDays: 20 });
  const listed = await h.get('/advertiser/statements', acme);
  assert.equal(listed.statusCode, 200, listed.body);
  assert.equal(listed.json<{ data: Statement[] }>().data.find((s) => s.id === issued.id)?.feeBasisPoints, 3500);
});

test('a brand cannot set the network’s terms itself', async () => {
  const res = await patchBrand(acme, { networkTerms: { feeBasisPoints: 0, dueDays: 365 } });
  assertError(res, 400);
  assert.equal((await profile(acme)).networkTerms.feeBasisPoints, 2000);
});

test('a brand says its server reports its orders: tracking counts as installed, for that brand alone, until it takes it back', async () => {
  assert.equal((await profile(quiet)).reportsOrdersFromServer, false);
  assert.equal((await launchState(quiet)).steps.tracking, false, 'no order, no tag report, nothing said');

  const said = await patchBrand(quiet, { reportsOrdersFromServer: true });
  assert.equal(said.statusCode, 200, said.body);
  assert.equal(said.json<{ data: Profile }>().data.reportsOrdersFromServer, true);
  assert.equal((await launchState(quiet)).steps.tracking, true);
  assert.equal((await profile(acme)).reportsOrdersFromServer, false, 'another brand’s word is its own');

  assert.equal((await patchBrand(quiet, { reportsOrdersFromServer: false })).statusCode, 200);
  assert.equal((await launchState(quiet)).steps.tracking, false);

  assertError(await patchBrand(quiet, { reportsOrdersFromServer: 'yes' }), 400);
  assert.equal((await profile(quiet)).reportsOrdersFromServer, false);
});

test('an order the brand’s server reported shows its tracking installed', async () => {
  const created = await report(h, quiet, { clickId: await freshClick(h, h.world.keys.aff1, QUIET), orderId: 'Q-1', value: 10_000, items: [item(10_000)] });
  conversionOf(created, 201);
  assert.equal((await profile(quiet)).reportsOrdersFromServer, false);
  assert.equal((await launchState(quiet)).steps.tracking, true);
});
