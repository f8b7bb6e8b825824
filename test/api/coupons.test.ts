// Coupon codes brands give affiliates, through HTTP: giving, listing and taking back codes, each
// side seeing only its own, and conversions attributed by a code, alone or beside a click.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { type Harness } from '../helpers/harness.js';
import { BRANDS, campaignInput } from '../helpers/world.js';
import { assertError, startWithKeys } from '../helpers/api.js';
import { allAffiliateOrders, brandKey, conversionOf, freshClick, item, postback, report, snapshot, type AffiliateOrder } from '../helpers/tracking.js';
import type { AffiliateCoupon, BrandCoupon } from '../../src/schemas/coupon.js';

let h: Harness;
let aff1: string;
let aff2: string;
let acme: string;
let globex: string;
let umbrella: string;

before(async () => {
  ({ h, aff1, aff2 } = await startWithKeys());
  acme = await brandKey(h, BRANDS.acme);
  globex = await brandKey(h, BRANDS.globex);
  umbrella = await brandKey(h, BRANDS.umbrella);
});
after(async () => {
  await h.close();
});

let seq = 0;
const oid = (label: string) => `C-${label}-${++seq}`;

const put = (key: string, code: string, body: unknown) => h.request({ method: 'PUT', url: `/advertiser/coupons/${encodeURIComponent(code)}`, payload: body as object, headers: { 'x-api-key': key } });
const remove = (key: string, code: string) => h.request({ method: 'DELETE', url: `/advertiser/coupons/${encodeURIComponent(code)}`, headers: { 'x-api-key': key } });
const patchBrand = (key: string, body: unknown) => h.request({ method: 'PATCH', url: '/advertiser/brand', payload: body as object, headers: { 'x-api-key': key } });

function couponOf(res: LightMyRequestResponse, status: 200 | 201): BrandCoupon {
  assert.equal(res.statusCode, status, res.body);
  return res.json<{ data: BrandCoupon }>().data;
}
async function brandCodes(key: string, query = ''): Promise<string[]> {
  const res = await h.get(`/advertiser/coupons?limit=100${query}`, key);
  assert.equal(res.statusCode, 200, res.body);
  return res.json<{ data: BrandCoupon[] }>().data.map((c) => c.code);
}
async function affiliateCodes(key: string): Promise<AffiliateCoupon[]> {
  const res = await h.get('/affiliate/coupons?limit=100', key);
  assert.equal(res.statusCode, 200, res.body);
  return res.json<{ data: AffiliateCoupon[] }>().data;
}
/** Runs a request that must be refused and proves it wrote no order. */
async function refused(action: () => Promise<LightMyRequestResponse>, status: number, code: string) {
  const before = await snapshot(h);
  const body = assertError(await action(), status, code);
  assert.deepEqual(await snapshot(h), before, 'a refused report writes nothing');
  return body;
}
const order = (extra: { clickId?: string; coupon?: string }, value = 1999) => ({ orderId: oid('o'), value, items: [item(value)], ...extra });
const orderOf = async (key: string, orderId: string, query = ''): Promise<AffiliateOrder | undefined> => (await allAffiliateOrders(h, key, query)).find((o) => o.orderId === orderId);

describe('brands give codes', () => {
  test('a code given to an affiliate is listed; the same code in another case replaces it (201, then 200)', async () => {
    const created = couponOf(await put(acme, 'MARIA10', { affiliateId: 'aff-1' }), 201);
    assert.deepEqual({ code: created.code, affiliateId: created.affiliateId, affiliateName: created.affiliateName }, { code: 'MARIA10', affiliateId: 'aff-1', affiliateName: 'Affiliate One' });
    assert.equal(created.campaignId, undefined, 'no campaign: the field is left out');
    couponOf(await put(acme, 'JOAO5', { affiliateId: 'aff-2' }), 201);
    assert.deepEqual(await brandCodes(acme), ['JOAO5', 'MARIA10']);
    assert.deepEqual(await brandCodes(acme, '&affiliateId=aff-2'), ['JOAO5']);

    const replaced = couponOf(await put(acme, 'joao5', { affiliateId: 'aff-2' }), 200);
    assert.equal(replaced.code, 'joao5', 'the code as last written');
    assert.deepEqual(await brandCodes(acme), ['joao5', 'MARIA10'], 'one code, whatever its case');
    couponOf(await put(acme, 'JOAO5', { affiliateId: 'aff-2' }), 200);
  });

  test('a code must be 3 to 40 letters, digits, hyphens or underscores: 400 saying so', async () => {
    for (const bad of ['MA RIA', 'AB', 'x'.repeat(41), 'DESCONTO%']) {
      const body = assertError(await put(acme, bad, { affiliateId: 'aff-1' }), 400, 'invalid_coupon_code');
      assert.match(body.message, /3 to 40 characters/);
    }
    assert.deepEqual(await brandCodes(acme), ['JOAO5', 'MARIA10']);
  });

  test('a GenericCoupon’s code is refused; a PersonalCoupon’s is linked, and campaignId must agree', async () => {
    await h.service.services.imports.putCampaign(BRANDS.acme, 'black-week', campaignInput({ id: 'black-week', organizationId: BRANDS.acme, type: 'GenericCoupon', code: 'BLACK10' }));
    await h.service.services.imports.putCampaign(BRANDS.acme, 'ana-personal', campaignInput({ id: 'ana-personal', organizationId: BRANDS.acme, type: 'PersonalCoupon', code: 'ANA15' }));
    const generic = assertError(await put(acme, 'black10', { affiliateId: 'aff-1' }), 400, 'public_coupon_code');
    assert.match(generic.message, /black-week/);
    assertError(await put(acme, 'OTHER1', { affiliateId: 'aff-1', campaignId: 'black-week' }), 400, 'not_personal_coupon');
    assertError(await put(acme, 'OTHER1', { affiliateId: 'aff-1', campaignId: 'ana-personal' }), 400, 'coupon_code_mismatch');
    assertError(await put(acme, 'OTHER1', { affiliateId: 'aff-1', campaignId: 'no-such-campaign' }), 422, 'campaign_not_found');

    assert.equal(couponOf(await put(acme, 'ana15', { affiliateId: 'aff-1' }), 201).campaignId, 'ana-personal', 'linked by its code');
    assert.equal(couponOf(await put(acme, 'ANA15', { affiliateId: 'aff-1', campaignId: 'ana-personal' }), 200).campaignId, 'ana-personal');
    assert.deepEqual(await brandCodes(acme), ['ANA15', 'JOAO5', 'MARIA10'], 'by code, without case');
  });

  test('the affiliate must exist and, for a private brand, be approved: 422 saying which', async () => {
    assert.match(assertError(await put(acme, 'GHOST1', { affiliateId: 'aff-none' }), 422, 'affiliate_not_found').message, /aff-none/);
    // Globex is private and approved aff-1 only.
    assertError(await put(globex, 'GLOBEX2', { affiliateId: 'aff-2' }), 422, 'affiliate_not_approved');
    couponOf(await put(globex, 'GLOBEX1', { affiliateId: 'aff-1' }), 201);
    assert.deepEqual(await brandCodes(globex), ['GLOBEX1']);
  });

  test('a brand reads and takes back only its own codes; the same code is another brand’s own', async () => {
    assert.deepEqual(await brandCodes(umbrella), [], 'another brand’s codes never show');
    assertError(await remove(umbrella, 'MARIA10'), 404, 'coupon_not_found');
    assert.ok((await brandCodes(acme)).includes('MARIA10'), 'still there');
    couponOf(await put(umbrella, 'MARIA10', { affiliateId: 'aff-2' }), 201);
    assert.deepEqual(await brandCodes(umbrella), ['MARIA10']);
    assert.equal((await h.get('/advertiser/coupons?affiliateId=aff-1', acme)).json<{ data: BrandCoupon[] }>().data.find((c) => c.code === 'MARIA10')?.affiliateId, 'aff-1', 'acme’s MARIA10 is still aff-1’s');

    couponOf(await put(acme, 'SHORTLIVED', { affiliateId: 'aff-1' }), 201);
    const gone = await remove(acme, 'shortlived');
    assert.equal(gone.statusCode, 204, gone.body);
    assertError(await remove(acme, 'SHORTLIVED'), 404, 'coupon_not_found');
  });

  test('an affiliate sees only the codes given to it, with the brand', async () => {
    const mine = await affiliateCodes(aff1);
    assert.deepEqual(mine.map((c) => `${c.brandName}:${c.code}`).sort(), ['Acme:ANA15', 'Acme:MARIA10', 'Globex:GLOBEX1']);
    assert.equal(mine.find((c) => c.code === 'ANA15')?.campaignId, 'ana-personal');
    const theirs = await affiliateCodes(aff2);
    assert.deepEqual(theirs.map((c) => `${c.brandName}:${c.code}`).sort(), ['Acme:JOAO5', 'Umbrella:MARIA10']);
  });
});

describe('conversions with a coupon', () => {
  test('a registered code alone: the code’s affiliate, attribution coupon, no click facts', async () => {
    const body = order({ coupon: 'maria10' });
    const conversion = conversionOf(await report(h, acme, body), 201);
    assert.equal(conversion.affiliateId, 'aff-1');
    assert.equal(conversion.attribution, 'coupon');
    assert.equal(conversion.source, 'api');
    assert.equal(conversion.coupon, 'maria10', 'the code as reported');
    for (const field of ['clickId', 'clickedAt', 'linkCode', 'mdasc'] as const) assert.equal(field in conversion, false, `${field} is left out`);
    assert.equal(conversion.commissionStatus, 'pending');
    assert.ok(conversion.commission > 0);

    const seen = await orderOf(aff1, body.orderId);
    assert.ok(seen, 'the affiliate sees it');
    assert.equal(seen.coupon, 'maria10');
    assert.equal(seen.attribution, 'coupon');
    for (const field of ['clickId', 'clickedAt', 'linkCode', 'channel', 'mdasc'] as const) assert.equal(field in seen, false, `${field} is left out`);
    assert.equal(await orderOf(aff2, body.orderId), undefined, 'another affiliate never sees it');

    assert.ok(await orderOf(aff1, body.orderId, 'coupon=MARIA10'), 'the coupon filter, without case');
    assert.equal(await orderOf(aff1, body.orderId, 'coupon=JOAO5'), undefined);
    assert.equal((await allAffiliateOrders(h, aff2, 'coupon=MARIA10')).length, 0, 'another affiliate’s filter by the code finds nothing');

    // The same report again is the same order; another code is other data.
    assert.equal(conversionOf(await report(h, acme, body), 200).id, conversion.id);
    assertError(await report(h, acme, { ...body, coupon: 'JOAO5' }), 409, 'order_conflict');
  });

  test('an unregistered code alone is refused, saying so; neither click nor code → 400', async () => {
    const unknown = await refused(() => report(h, acme, order({ coupon: 'NOBODY99' })), 422, 'coupon_not_registered');
    assert.match(unknown.message, /NOBODY99/);
    // Umbrella gave its MARIA10 to aff-2, acme's is aff-1's: a code is its brand's alone.
    await refused(() => report(h, globex, order({ coupon: 'MARIA10' })), 422, 'coupon_not_registered');
    const neither = await refused(() => report(h, acme, order({})), 400, 'click_or_coupon_required');
    assert.match(neither.message, /clickId.*coupon/);
    await refused(() => report(h, acme, order({ coupon: 'HAS SPACE' })), 400, 'invalid_body');
  });

  test('a click of one affiliate and a code of another: attributionPriority decides, the order keeps both', async () => {
    const brand = await h.get('/advertiser/brand', acme);
    assert.equal(brand.json<{ data: { attributionPriority: string } }>().data.attributionPriority, 'coupon', 'coupon by default');

    const byCoupon = order({ clickId: await freshClick(h, aff2, BRANDS.acme), coupon: 'MARIA10' });
    const first = conversionOf(await report(h, acme, byCoupon), 201);
    assert.deepEqual({ affiliateId: first.affiliateId, attribution: first.attribution, clickId: first.clickId, coupon: first.coupon }, { affiliateId: 'aff-1', attribution: 'coupon', clickId: byCoupon.clickId, coupon: 'MARIA10' });
    assert.equal(first.linkCode, undefined, 'the link of the other affiliate’s click is not the order’s');
    const aff1View = await orderOf(aff1, byCoupon.orderId);
    assert.ok(aff1View);
    assert.equal(aff1View.coupon, 'MARIA10');
    assert.equal(aff1View.clickId, undefined, 'another affiliate’s click is never shown');
    assert.equal(await orderOf(aff2, byCoupon.orderId), undefined);

    const patched = await patchBrand(acme, { attributionPriority: 'click' });
    assert.equal(patched.statusCode, 200, patched.body);
    assert.equal(patched.json<{ data: { attributionPriority: string } }>().data.attributionPriority, 'click');
    try {
      const byClick = order({ clickId: await freshClick(h, aff2, BRANDS.acme), coupon: 'MARIA10' });
      const second = conversionOf(await report(h, acme, byClick), 201);
      assert.deepEqual({ affiliateId: second.affiliateId, attribution: second.attribution, clickId: second.clickId, coupon: second.coupon }, { affiliateId: 'aff-2', attribution: 'click', clickId: byClick.clickId, coupon: 'MARIA10' });
      assert.ok(second.linkCode, 'the click’s link');
      const aff2View = await orderOf(aff2, byClick.orderId);
      assert.ok(aff2View);
      assert.equal(aff2View.clickId, byClick.clickId);
      assert.equal(aff2View.coupon, undefined, 'another affiliate’s code is never shown');
      assert.equal(await orderOf(aff1, byClick.orderId), undefined);
      assert.equal((await allAffiliateOrders(h, aff2, 'coupon=MARIA10')).length, 0);

      // The same affiliate's click and code: the click decides, and the code is shown as its own.
      const own = order({ clickId: await freshClick(h, aff1, BRANDS.acme), coupon: 'maria10' });
      const third = conversionOf(await report(h, acme, own), 201);
      assert.deepEqual({ affiliateId: third.affiliateId, attribution: third.attribution }, { affiliateId: 'aff-1', attribution: 'click' });
      const ownView = await orderOf(aff1, own.orderId);
      assert.equal(ownView?.coupon, 'maria10');
      assert.equal(ownView?.clickId, own.clickId);
    } finally {
      assert.equal((await patchBrand(acme, { attributionPriority: 'coupon' })).statusCode, 200);
    }
    assertError(await patchBrand(acme, { attributionPriority: 'first' }), 400);
  });

  test('an unregistered code beside a click: the click decides, the code is kept for the brand', async () => {
    const body = order({ clickId: await freshClick(h, aff2, BRANDS.acme), coupon: 'WALKIN' });
    const conversion = conversionOf(await report(h, acme, body), 201);
    assert.deepEqual({ affiliateId: conversion.affiliateId, attribution: conversion.attribution, coupon: conversion.coupon }, { affiliateId: 'aff-2', attribution: 'click', coupon: 'WALKIN' });
    assert.equal((await orderOf(aff2, body.orderId))?.coupon, undefined, 'a code no affiliate has is not the affiliate’s');
  });

  test('the postback takes coupon: alone, it attributes; neither clickId nor coupon → 400', async () => {
    const orderId = oid('pb');
    const res = await postback(h, { coupon: 'JOAO5', orderId, value: 2500, token: acme });
    const conversion = conversionOf(res, 201);
    assert.deepEqual({ affiliateId: conversion.affiliateId, attribution: conversion.attribution, source: conversion.source, coupon: conversion.coupon }, { affiliateId: 'aff-2', attribution: 'coupon', source: 'postback', coupon: 'JOAO5' });
    assert.equal((await orderOf(aff2, orderId))?.coupon, 'JOAO5');
    assert.equal(conversionOf(await postback(h, { coupon: 'JOAO5', orderId, value: 2500, token: acme }), 200).id, conversion.id);
    await refused(() => postback(h, { orderId: oid('pb'), value: 2500, token: acme }), 400, 'click_or_coupon_required');
    await refused(() => postback(h, { coupon: 'NOBODY99', orderId: oid('pb'), value: 2500, token: acme }), 422, 'coupon_not_registered');
  });

  test('a code taken back no longer attributes; its orders stay the affiliate’s', async () => {
    couponOf(await put(acme, 'BRIEF1', { affiliateId: 'aff-1' }), 201);
    const body = order({ coupon: 'BRIEF1' });
    conversionOf(await report(h, acme, body), 201);
    assert.equal((await remove(acme, 'BRIEF1')).statusCode, 204);
    await refused(() => report(h, acme, order({ coupon: 'BRIEF1' })), 422, 'coupon_not_registered');
    assert.equal((await orderOf(aff1, body.orderId))?.coupon, 'BRIEF1');
  });
});
