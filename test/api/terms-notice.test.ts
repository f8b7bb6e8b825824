// Changes of a brand's commission terms with notice, through the API and a clock the test moves: a
// change that could pay some orders less (a lower default, first rules, a cap) applies to orders
// reported from termsNoticeDays after it was saved, never before; one that pays no less applies at
// once, and replaces a change still waiting; a raise (a rule paying more on coupon orders) is told
// as a raise. Orders keep the terms they were reported under through corrections; affiliates of
// the brand are told (program.terms_changed, mail) and read the upcoming terms; the profile shows
// the new default once it is in force.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../helpers/harness.js';
import { assertError, newKey } from '../helpers/api.js';
import { BRANDS } from '../helpers/world.js';
import { brandKey, conversionOf, freshClick, item, patchStatus, report } from '../helpers/tracking.js';
import { ManualClock } from '../../src/lib/clock.js';

const DAY = 86_400_000;
const clock = new ManualClock('2026-03-02T10:00:00.000Z');

let h: Harness;
let acme: string;
let umbrella: string;
let aff1: string;
let seq = 0;

before(async () => {
  h = await startHarness({ WEBHOOK_POLL_MS: '0', WEBHOOK_ALLOW_LOCAL_TARGETS: 'true' }, { clock });
  acme = await brandKey(h, BRANDS.acme);
  umbrella = await brandKey(h, BRANDS.umbrella);
  aff1 = (await newKey(h, 'aff-1', { rateLimit: 100_000 })).key;
  // An owner of aff-1, who is mailed.
  await h.service.services.users.create({ affiliateId: 'aff-1' }, 'owner@aff-one.example', 'owner');
  const hook = await h.post('/affiliate/webhooks', { url: 'http://127.0.0.1:9/hooks', events: ['program.terms_changed'] }, aff1);
  assert.equal(hook.statusCode, 201, hook.body);
});
after(async () => {
  await h.close();
});

type Profile = { commission: { transfer: string; value: number }; termsNoticeDays: number; upcomingCommission?: { commission: { transfer: string; value: number }; effectiveAt: string } };
type Terms = { version: number; default: { transfer: string; value: number }; rules: unknown[]; effectiveAt?: string; termsNoticeDays: number; upcoming?: { version: number; default: { transfer: string; value: number }; rules: unknown[]; effectiveAt: string; lowers: string; lowering?: Record<string, unknown> } };

const patchBrand = (body: object, key = acme) => h.request({ method: 'PATCH', url: '/advertiser/brand', payload: body, headers: { 'x-api-key': key } });
async function profile(key = acme): Promise<Profile> {
  const res = await h.request({ method: 'GET', url: '/advertiser/brand', headers: { 'x-api-key': key } });
  assert.equal(res.statusCode, 200, res.body);
  return res.json<{ data: Profile }>().data;
}
async function terms(): Promise<Terms> {
  const res = await h.request({ method: 'GET', url: '/advertiser/commission-rules', headers: { 'x-api-key': acme } });
  assert.equal(res.statusCode, 200, res.body);
  return res.json<{ data: Terms }>().data;
}
async function affiliateTerms(): Promise<Terms> {
  const res = await h.request({ method: 'GET', url: `/affiliate/brands/${BRANDS.acme}/commission-rules`, headers: { 'x-api-key': aff1 } });
  assert.equal(res.statusCode, 200, res.body);
  return res.json<{ data: Terms }>().data;
}
/** An order of 10,000 cents (two items of 5,000) reported now through a fresh click of aff-1: its commission. */
async function reportNow(label: string): Promise<{ orderId: string; commission: number }> {
  const orderId = `TN-${label}-${++seq}`;
  const created = conversionOf(await report(h, acme, { clickId: await freshClick(h, aff1, BRANDS.acme), orderId, value: 10_000, items: [item(5000, 1, 'tn-1'), item(5000, 1, 'tn-2')] }), 201);
  return { orderId, commission: created.commission };
}
const termsEvents = async () =>
  (await h.service.database.db.selectFrom('webhook_events').select(['owner_kind', 'owner_id', 'payload']).where('type', '=', 'program.terms_changed').orderBy('created_at').execute()).map((row) => ({
    owner: `${row.owner_kind}:${row.owner_id}`,
    data: (JSON.parse(row.payload) as { data: { brandId: string; version: number; effectiveAt: string; lowersEarnings: boolean; raisesEarnings?: boolean; reason?: string; raise?: string } }).data,
  }));
const termsMail = () => h.service.database.db.selectFrom('mail_messages').select(['to_address', 'params']).where('template', '=', 'terms-changed').execute();

describe('termsNoticeDays', () => {
  test('is 7 by default, never below the network’s least (3 by default), and set with PATCH /advertiser/brand', async () => {
    assert.equal((await profile()).termsNoticeDays, 7);
    const low = await patchBrand({ termsNoticeDays: 2 });
    assert.match(assertError(low, 400, 'invalid_terms_notice_days').message, /at least 3/);
    assert.equal((await profile()).termsNoticeDays, 7, 'nothing saved when refused');
    const res = await patchBrand({ termsNoticeDays: 5 });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json<{ data: Profile }>().data.termsNoticeDays, 5);
    assert.equal((await terms()).termsNoticeDays, 5);
  });
});

describe('a lowered default rule', () => {
  test('applies to orders reported from its notice date, not before; the orders before keep theirs through corrections', async () => {
    const before = await reportNow('before');
    assert.equal(before.commission, 750, '7.5 % of 10,000');
    const savedAt = clock.now();
    const res = await patchBrand({ commission: { transfer: 'cps', value: 5 } });
    assert.equal(res.statusCode, 200, res.body);
    const changed = res.json<{ data: Profile }>().data;
    assert.deepEqual(changed.commission, { transfer: 'cps', value: 7.5 }, 'the default in force is unchanged');
    assert.deepEqual(changed.upcomingCommission, { commission: { transfer: 'cps', value: 5 }, effectiveAt: new Date(savedAt + 5 * DAY).toISOString() });
    const pending = await terms();
    assert.equal(pending.upcoming?.effectiveAt, new Date(savedAt + 5 * DAY).toISOString());
    assert.equal(pending.upcoming?.lowers, 'the default rule would pay 5 % instead of 7.5 %: e.g. an order of 100.00 BRL would earn 5.00 BRL instead of 7.50 BRL');
    // The same as values, which the pages word in their reader's language.
    assert.deepEqual(pending.upcoming?.lowering, {
      cause: { kind: 'outcome', rule: {}, pays: { kind: 'share', units: 500 }, paidNowBy: {}, paidNow: { kind: 'share', units: 750 } },
      example: { value: 10_000, before: 750, after: 500 },
    });
    assert.deepEqual(pending.default, { transfer: 'cps', value: 7.5 });
    assert.deepEqual((await affiliateTerms()).upcoming?.default, { transfer: 'cps', value: 5 }, 'the affiliate reads the upcoming terms');

    clock.advance(5 * DAY - 60_000);
    assert.equal((await reportNow('a-minute-before')).commission, 750, 'a minute before the notice date: the terms in force');
    clock.advance(120_000);
    const afterNotice = await reportNow('a-minute-after');
    assert.equal(afterNotice.commission, 500, 'a minute after: the new default');
    assert.equal((await terms()).upcoming, undefined);
    assert.deepEqual((await terms()).default, { transfer: 'cps', value: 5 });

    // The order reported before keeps its terms when corrected after the change.
    const corrected = await patchStatus(h, acme, before.orderId, { value: 8000, items: [item(4000, 1, 'tn-1'), item(4000, 1, 'tn-2')] });
    assert.equal(corrected.statusCode, 200, corrected.body);
    assert.equal(corrected.json<{ data: { commission: number } }>().data.commission, 600, '7.5 % of 8,000');

    // The profile (and Brand.commission) shows the new default once the scheduled task ran.
    assert.deepEqual((await profile()).commission, { transfer: 'cps', value: 7.5 });
    await h.service.services.commissionRules.showTermsInForce();
    assert.deepEqual((await profile()).commission, { transfer: 'cps', value: 5 });
    assert.equal((await profile()).upcomingCommission, undefined);
    const brand = await h.request({ method: 'GET', url: `/affiliate/brands/${BRANDS.acme}`, headers: { 'x-api-key': aff1 } });
    assert.deepEqual(brand.json<{ data: { commission: unknown } }>().data.commission, { transfer: 'cps', value: 5 });
  });

  test('the brand’s affiliates were told, ahead, by webhook and mail; a save that changes nothing tells no one', async () => {
    const events = (await termsEvents()).filter((e) => e.data.brandId === BRANDS.acme);
    const lowering = events.filter((e) => e.data.lowersEarnings);
    assert.ok(lowering.some((e) => e.owner === 'affiliate:aff-1'), JSON.stringify(events));
    assert.ok(events.every((e) => e.owner.startsWith('affiliate:')), 'only affiliates are told');
    assert.match(lowering[0]!.data.reason ?? '', /^the default rule would pay 5 % instead of 7\.5 %: e\.g\. /);
    const mail = await termsMail();
    assert.ok(mail.some((m) => m.to_address === 'owner@aff-one.example' && (JSON.parse(m.params ?? '{}') as { lowers?: boolean }).lowers === true), JSON.stringify(mail));
    const count = (await termsEvents()).length;
    assert.equal((await patchBrand({ commission: { transfer: 'cps', value: 5 } })).statusCode, 200);
    assert.equal((await termsEvents()).length, count, 'the same default again: no notice');
  });
});

describe('a raise', () => {
  test('applies at once, and replaces a lowering still waiting for its notice', async () => {
    assert.equal((await patchBrand({ commission: { transfer: 'cps', value: 3 } })).statusCode, 200);
    assert.ok((await terms()).upcoming, 'lowering to 3 %: waiting');
    assert.equal((await reportNow('lowering-waits')).commission, 500);
    const raisedAt = clock.iso();
    const res = await patchBrand({ commission: { transfer: 'cps', value: 9 } });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json<{ data: Profile }>().data.commission, { transfer: 'cps', value: 9 }, 'in force at once');
    assert.equal((await terms()).upcoming, undefined, 'the waiting lowering is replaced');
    assert.equal((await reportNow('raised')).commission, 900);
    clock.advance(6 * DAY);
    assert.equal((await reportNow('past-the-replaced-date')).commission, 900, 'the replaced lowering never applies');
    const raise = (await termsEvents()).at(-1)!;
    assert.equal(raise.data.lowersEarnings, false);
    assert.equal(raise.data.effectiveAt, raisedAt, 'told it applies from when it was saved');
  });
});

describe('rules', () => {
  test('rules added wait for the notice; a rule then raised, with the same conditions, applies at once', async () => {
    const put = (rules: unknown[]) => h.request({ method: 'PUT', url: '/advertiser/commission-rules', payload: { rules }, headers: { 'x-api-key': acme } });
    const saved = await put([{ name: 'Second item', conditions: { productIds: ['tn-2'] }, transfer: 'cps', value: 2 }]);
    assert.equal(saved.statusCode, 200, saved.body);
    const view = saved.json<{ data: Terms }>().data;
    assert.equal(view.rules.length, 0, 'in force: still no rules');
    // 2 % where the default pays 9 %: the one product the rule takes could earn less.
    assert.match(view.upcoming?.lowers ?? '', /^rules\[0\] \(Second item\) would pay 2 % where the default rule pays 9 % now: e\.g\. an order of .* of product tn-2 /);
    assert.deepEqual(view.upcoming?.lowering?.cause, { kind: 'outcome', rule: { position: 1, name: 'Second item' }, pays: { kind: 'share', units: 200 }, paidNowBy: {}, paidNow: { kind: 'share', units: 900 } });
    assert.equal(view.upcoming?.effectiveAt, new Date(clock.now() + 5 * DAY).toISOString());
    assert.equal((await reportNow('rules-wait')).commission, 900, 'the default on the value, as before');
    clock.advance(5 * DAY + 1000);
    assert.equal((await reportNow('rules-apply')).commission, 450 + 100, '9 % of the first item, 2 % of the second');
    const raised = await put([{ name: 'Second item', conditions: { productIds: ['tn-2'] }, transfer: 'cps', value: 4 }]);
    assert.equal(raised.statusCode, 200, raised.body);
    assert.equal(raised.json<{ data: Terms }>().data.upcoming, undefined);
    assert.equal((await reportNow('rule-raised')).commission, 450 + 200);
    const capped = await put([{ name: 'Second item', conditions: { productIds: ['tn-2'] }, transfer: 'cps', value: 4, cap: 100 }]);
    assert.match(capped.json<{ data: Terms }>().data.upcoming?.lowers ?? '', /^rules\[0\] \(Second item\) would pay at most 1\.00 BRL an order, where it pays 4 % with no such limit: e\.g\. /);
    assert.deepEqual(capped.json<{ data: Terms }>().data.upcoming?.lowering?.cause, { kind: 'ceiling', rule: { position: 1, name: 'Second item' }, most: 100 });
  });

  test('another brand’s terms are untouched', async () => {
    const res = await h.request({ method: 'GET', url: '/advertiser/commission-rules', headers: { 'x-api-key': umbrella } });
    const data = res.json<{ data: Terms }>().data;
    assert.equal(data.version, 0);
    assert.equal(data.upcoming, undefined);
  });
});

describe('a rule paying 15 % on coupon orders above a 10 % default', () => {
  const HEADPHONES = { name: 'Headphones', conditions: { productIds: ['p-globex-1'] }, transfer: 'cps', value: 12 };
  const COUPONS = { name: 'Coupon orders', conditions: { coupon: {} }, transfer: 'cps', value: 15 };

  test('is a raise: in force at once, and the affiliates are told it is a raise, with an example', async () => {
    const globex = await brandKey(h, BRANDS.globex);
    const put = (rules: unknown[]) => h.request({ method: 'PUT', url: '/advertiser/commission-rules', payload: { rules }, headers: { 'x-api-key': globex } });
    const raisedDefault = await patchBrand({ commission: { transfer: 'cps', value: 10 } }, globex);
    assert.deepEqual(raisedDefault.json<{ data: Profile }>().data.commission, { transfer: 'cps', value: 10 }, '7.5 % to 10 %: at once');
    // The brand's first rule: coupon orders at 15 %; every other order, and the value the items do
    // not cover, keep the default's 10 %.
    const savedAt = clock.iso();
    const saved = await put([COUPONS]);
    assert.equal(saved.statusCode, 200, saved.body);
    const view = saved.json<{ data: Terms }>().data;
    assert.equal(view.upcoming, undefined, 'nothing waits');
    assert.equal(view.effectiveAt, savedAt, 'in force from now');
    assert.deepEqual(view.rules, [COUPONS]);

    const mail = (await termsMail()).filter((m) => m.to_address === 'owner@aff-one.example').map((m) => JSON.parse(m.params ?? '{}') as Record<string, unknown>);
    const told = mail.filter((m) => m.account === 'Globex').at(-1)!;
    assert.equal(told.when, savedAt);
    assert.equal(told.raises, true, JSON.stringify(told));
    assert.equal(told.lowers, undefined);
    assert.equal(told.currency, 'BRL');
    assert.equal((told.after as number) * 10, (told.before as number) * 15, `an order with a coupon: 10 % before, 15 % now: ${JSON.stringify(told)}`);
    const event = (await termsEvents()).filter((e) => e.data.brandId === BRANDS.globex).at(-1)!;
    assert.equal(event.owner, 'affiliate:aff-1');
    assert.deepEqual([event.data.lowersEarnings, event.data.raisesEarnings, event.data.reason], [false, true, undefined]);
    assert.match(String(event.data.raise), /^no order earns less, and some earn more: e\.g\. an order of .* with a coupon code.* earns .* instead of /);

    // Headphones at 12 % above the 10 % default: a raise again, in force at once.
    clock.advance(DAY);
    const more = await put([COUPONS, HEADPHONES]);
    assert.equal(more.json<{ data: Terms }>().data.upcoming, undefined);

    // An order with a coupon reported now earns the 15 %.
    const orderId = `TN-coupon-${++seq}`;
    const created = conversionOf(await report(h, globex, { clickId: await freshClick(h, aff1, BRANDS.globex), orderId, coupon: 'ANY5', value: 10_000, items: [item(10_000, 1, 'sku-x')] }), 201);
    assert.equal(created.commission, 1500);
  });
});
