// The network's figures in the operator's console, through the API: clicks and conversions seeded
// over two days (the last of October and the first of November) on two brands in two currencies
// by two affiliates, one order canceled by its brand, two held by the fraud rules (one of them
// declined); the figures per day, per month, per brand and per affiliate are exactly what
// happened, the network's fee to the cent as statements compute it (a billed order keeps the fee
// its statement billed), and the CSV says the same. Bad input says what to fix; no member reaches
// them.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../helpers/harness.js';
import { assertError, newKey } from '../helpers/api.js';
import { operatorSession, type OperatorSession } from '../helpers/operators.js';
import { signedUp, withSession } from '../helpers/sessions.js';
import { brandKey, clickAs, createLink, item, patchStatus, report } from '../helpers/tracking.js';
import { BRANDS, brandInput } from '../helpers/world.js';
import { pollUntil } from '../helpers/wait.js';
import { ManualClock } from '../../src/lib/clock.js';
import type { NetworkFigures } from '../../src/schemas/figures.js';

const EURO = '66666666-6666-4666-8666-666666666666';
const clock = new ManualClock(Date.parse('2026-10-31T10:00:00.000Z'));
let h: Harness;
let operator: OperatorSession;
let visitor = 0;

/** A click on the affiliate's link to the brand, from a new address (GET by a browser unless said). */
const click = (code: string, visit: { userAgent?: string; method?: 'GET' | 'HEAD' } = {}) => clickAs(h, code, { ...visit, ip: `198.18.1.${++visitor}` });

/** A conversion of the click, reported `afterSeconds` after it (under 10: held, click to order too fast). */
async function convert(brand: string, clickId: string, orderId: string, value: number, afterSeconds = 60): Promise<{ id: string; commission: number; commissionStatus: string }> {
  clock.advance(afterSeconds * 1000);
  const res = await report(h, brand, { clickId, orderId, value, items: [item(value)] });
  assert.equal(res.statusCode, 201, res.body);
  return res.json<{ data: { id: string; commission: number; commissionStatus: string } }>().data;
}

before(async () => {
  h = await startHarness({ FRAUD_MIN_CLICK_TO_ORDER_SECONDS: '10' }, { clock });
  const { imports, statements } = h.service.services;
  await imports.upsertBrand(brandInput({ id: EURO, name: 'Euroshop', slug: 'euroshop', site: 'https://euroshop.eu', currency: 'EUR', commission: { value: 10, transfer: 'cps' } }));
  // February's statement bills the world's approved Acme order at the fee of the time (30 %);
  // Acme's fee is 10 % from now on, Euroshop's 12.5 %.
  const [february] = await statements.issue('2026-02');
  assert.deepEqual([february!.commission, february!.fee, february!.feeBasisPoints], [750, 225, 3000]);
  await statements.setTerms({ kind: 'cli' }, BRANDS.acme, { feeBasisPoints: 1000, reason: 'Contract of 2026' });
  await statements.setTerms({ kind: 'cli' }, EURO, { feeBasisPoints: 1250, reason: 'Contract of 2026' });

  const acme = await brandKey(h, BRANDS.acme);
  const euro = await brandKey(h, EURO);
  const aff1 = (await newKey(h, 'aff-1')).key;
  const aff2 = (await newKey(h, 'aff-2')).key;
  const aff1Acme = (await createLink(h, aff1, BRANDS.acme)).code;
  const aff1Euro = (await createLink(h, aff1, EURO)).code;
  const aff2Acme = (await createLink(h, aff2, BRANDS.acme)).code;
  const aff2Euro = (await createLink(h, aff2, EURO)).code;

  // 31 October. aff-1 on Acme: three clicks and a bot's; an order approved, one pending, one the
  // brand cancels. aff-2 on Euroshop: two clicks, an order of €50.00 (fee 12.5 % of €5.00: 62.5 cents, 63).
  const a = [await click(aff1Acme), await click(aff1Acme), await click(aff1Acme)];
  await click(aff1Acme, { userAgent: 'Googlebot/2.1 (+http://www.google.com/bot.html)' });
  const e = [await click(aff2Euro), await click(aff2Euro)];
  await h.service.services.tracking.flushClicks();
  assert.equal((await convert(acme, a[0]!, 'FIG-A1', 10_000)).commission, 750);
  assert.equal((await convert(acme, a[1]!, 'FIG-A2', 200)).commission, 15);
  assert.equal((await convert(acme, a[2]!, 'FIG-A3', 200)).commission, 15);
  assert.equal((await patchStatus(h, acme, 'FIG-A1', { status: 'approved' })).statusCode, 200);
  assert.equal((await patchStatus(h, acme, 'FIG-A3', { status: 'canceled' })).statusCode, 200);
  assert.equal((await convert(euro, e[0]!, 'FIG-E1', 5_000)).commission, 500);

  // 1 November. aff-1 on Euroshop: a click converted two seconds later, held, then declined by an
  // operator. aff-2 on Acme: two clicks and a HEAD request; one converted at once, held.
  clock.set(Date.parse('2026-11-01T10:00:00.000Z'));
  const e2 = await click(aff1Euro);
  const b = [await click(aff2Acme), await click(aff2Acme)];
  await click(aff2Acme, { method: 'HEAD' });
  await h.service.services.tracking.flushClicks();
  const held = await convert(euro, e2, 'FIG-E2', 2_000, 2);
  assert.deepEqual([held.commissionStatus, held.commission], ['held', 200]);
  const heldToo = await convert(acme, b[0]!, 'FIG-A4', 200, 0);
  assert.deepEqual([heldToo.commissionStatus, heldToo.commission], ['held', 15]);
  clock.advance(60_000);
  operator = await operatorSession(h, clock.now());
  const decided = await h.request({ method: 'POST', url: '/operator/holds/decisions', headers: operator.headers, payload: { orderIds: [held.id], decision: 'decline', reason: 'Same device as the affiliate' } });
  assert.equal(decided.statusCode, 200, decided.body);
});
after(() => h?.close());

const get = (url: string) => h.request({ method: 'GET', url, headers: operator.headers });
const figuresOf = async (query: string): Promise<NetworkFigures> => {
  const res = await get(`/operator/figures?${query}`);
  assert.equal(res.statusCode, 200, res.body);
  return res.json<{ data: NetworkFigures }>().data;
};
/** The figures once the ten clicks have reached the rollups (written in the background). */
const settled = (query: string) => pollUntil(() => figuresOf(query), (f) => f.totals.clicks + f.totals.uncountedClicks === 10);

type Money = NetworkFigures['totals']['currencies'][number];
const money = (currency: string, orders: number, sales: number, commission: number, fee: number, declined: number, held: number): Money => ({
  currency,
  orders,
  sales,
  commission,
  fee,
  declined,
  held,
  declineRateBp: Math.round((declined * 10_000) / orders),
  holdRateBp: Math.round((held * 10_000) / orders),
});

// Acme (BRL, 10 %): FIG-A1 75, FIG-A2 1.5 → 2, FIG-A3 canceled, FIG-A4 (held) 1.5 → 2. Per order,
// as statements round each line: 2 + 2, where 10 % of the 30 cents together would be 3.
const OCTOBER = [money('BRL', 3, 10_200, 765, 77, 1, 0), money('EUR', 1, 5_000, 500, 63, 0, 0)];
// FIG-E2's sale stays a sale (the brand did not cancel the order); its commission was declined.
const NOVEMBER = [money('BRL', 1, 200, 15, 2, 0, 1), money('EUR', 1, 2_000, 0, 0, 1, 1)];
const TOTALS = [money('BRL', 4, 10_400, 780, 79, 1, 1), money('EUR', 2, 7_000, 500, 63, 1, 1)];

test('the network’s figures per day: clicks counted and not, and per currency orders, sales, commission, fee, decline and hold rates', async () => {
  const f = await settled('from=2026-10-31&to=2026-11-01');
  assert.deepEqual([f.from, f.to, f.interval, f.groupBy], ['2026-10-31', '2026-11-01', 'day', 'none']);
  assert.deepEqual(f.totals, { clicks: 8, uncountedClicks: 2, currencies: TOTALS });
  assert.deepEqual(f.periods, [
    { period: '2026-10-31', from: '2026-10-31', to: '2026-10-31', clicks: 5, uncountedClicks: 1, currencies: OCTOBER },
    { period: '2026-11-01', from: '2026-11-01', to: '2026-11-01', clicks: 3, uncountedClicks: 1, currencies: NOVEMBER },
  ]);
  assert.equal(f.groups, undefined);
  assert.equal(f.groupCount, undefined);
});

test('per month, each period cut to the range; empty periods are there too', async () => {
  const f = await settled('from=2026-09-15&to=2026-11-30&interval=month');
  assert.deepEqual(
    f.periods.map((p) => [p.period, p.from, p.to, p.clicks, p.uncountedClicks, p.currencies]),
    [
      ['2026-09', '2026-09-15', '2026-09-30', 0, 0, []],
      ['2026-10', '2026-10-01', '2026-10-31', 5, 1, OCTOBER],
      ['2026-11', '2026-11-01', '2026-11-30', 3, 1, NOVEMBER],
    ],
  );
  assert.deepEqual(f.totals.currencies, TOTALS);
});

test('by brand and by affiliate: each one’s clicks and money, most orders first, linked by id and name', async () => {
  const brands = await settled('from=2026-10-31&to=2026-11-01&groupBy=brand');
  assert.equal(brands.groupCount, 2);
  assert.deepEqual(brands.groups, [
    { id: BRANDS.acme, name: 'Acme', clicks: 5, uncountedClicks: 2, currencies: [TOTALS[0]!] },
    { id: EURO, name: 'Euroshop', clicks: 3, uncountedClicks: 0, currencies: [TOTALS[1]!] },
  ]);
  assert.deepEqual(brands.totals, { clicks: 8, uncountedClicks: 2, currencies: TOTALS }, 'the totals do not depend on the grouping');

  const affiliates = await settled('from=2026-10-31&to=2026-11-01&groupBy=affiliate');
  assert.deepEqual(affiliates.groups, [
    { id: 'aff-1', name: 'Affiliate One', clicks: 4, uncountedClicks: 1, currencies: [money('BRL', 3, 10_200, 765, 77, 1, 0), money('EUR', 1, 2_000, 0, 0, 1, 1)] },
    { id: 'aff-2', name: 'Affiliate Two', clicks: 4, uncountedClicks: 1, currencies: [money('BRL', 1, 200, 15, 2, 0, 1), money('EUR', 1, 5_000, 500, 63, 0, 0)] },
  ]);
  assert.deepEqual(affiliates.periods.map((p) => p.clicks), [5, 3]);

  const top = await figuresOf('from=2026-10-31&to=2026-11-01&groupBy=affiliate&limit=1');
  assert.deepEqual([top.groups!.map((g) => g.id), top.groupCount], [['aff-1'], 2], 'the top ones, and how many there were');
});

test('the fee of an order already billed is what its statement billed; the others’ is the brand’s fee now', async () => {
  const f = await figuresOf('from=2026-01-01&to=2026-03-31&interval=month&groupBy=brand');
  assert.deepEqual(
    f.periods.map((p) => [p.period, p.currencies]),
    [
      // The world's orders: Acme's o-aff1-1 at 10 % (75) and Initech's o-aff2-1 at 30 % (225).
      ['2026-01', [money('BRL', 2, 20_000, 1_500, 300, 0, 0)]],
      // Acme's o-aff1-2, billed by February's statement at 30 % before Acme's fee changed.
      ['2026-02', [money('BRL', 1, 10_000, 750, 225, 0, 0)]],
      // Globex's o-aff1-3 (150 at 30 %: 45); Umbrella's o-aff1-4 canceled: no sale, no commission, no fee.
      ['2026-03', [money('BRL', 2, 1_999, 150, 45, 1, 0)]],
    ],
  );
  assert.deepEqual(
    f.groups!.map((g) => [g.name, g.currencies[0]!.orders, g.currencies[0]!.fee]),
    [
      ['Acme', 2, 300],
      ['Globex', 1, 45],
      ['Initech', 1, 225],
      ['Umbrella', 1, 0],
    ],
  );
  assert.deepEqual(f.totals, { clicks: 0, uncountedClicks: 0, currencies: [money('BRL', 5, 31_999, 2_400, 570, 1, 0)] });
});

test('the CSV says the same: a line per period (and brand or affiliate) and currency, each click counted once', async () => {
  await settled('from=2026-10-31&to=2026-11-01');
  const csv = async (query: string) => {
    const res = await get(`/operator/figures.csv?${query}`);
    assert.equal(res.statusCode, 200, res.body);
    assert.match(String(res.headers['content-type']), /^text\/csv/);
    return { name: String(res.headers['content-disposition']), lines: res.body.split('\r\n') };
  };
  const daily = await csv('from=2026-10-31&to=2026-11-01&columns=api');
  assert.equal(daily.name, 'attachment; filename="figures-2026-10-31-2026-11-01.csv"');
  assert.deepEqual(daily.lines, [
    'period,clicks,uncounted_clicks,currency,orders,sales,commission,fee,declined,held,decline_rate_bp,hold_rate_bp',
    '2026-10-31,5,1,BRL,3,10200,765,77,1,0,3333,0',
    '2026-10-31,,,EUR,1,5000,500,63,0,0,0,0',
    '2026-11-01,3,1,BRL,1,200,15,2,0,1,0,10000',
    '2026-11-01,,,EUR,1,2000,0,0,1,1,10000,10000',
    '',
  ]);

  const byBrand = await csv('from=2026-10-30&to=2026-11-30&interval=month&groupBy=brand&columns=api');
  assert.equal(byBrand.name, 'attachment; filename="figures-2026-10-30-2026-11-30-by-brand.csv"');
  assert.deepEqual(byBrand.lines, [
    'period,brand_id,name,clicks,uncounted_clicks,currency,orders,sales,commission,fee,declined,held,decline_rate_bp,hold_rate_bp',
    `2026-10,${BRANDS.acme},Acme,3,1,BRL,3,10200,765,77,1,0,3333,0`,
    `2026-10,${EURO},Euroshop,2,0,EUR,1,5000,500,63,0,0,0,0`,
    `2026-11,${BRANDS.acme},Acme,2,1,BRL,1,200,15,2,0,1,0,10000`,
    `2026-11,${EURO},Euroshop,1,0,EUR,1,2000,0,0,1,1,10000,10000`,
    '',
  ]);

  const byAffiliate = await csv('from=2026-10-31&to=2026-10-31&groupBy=affiliate&columns=api');
  assert.deepEqual(byAffiliate.lines, [
    'period,affiliate_id,name,clicks,uncounted_clicks,currency,orders,sales,commission,fee,declined,held,decline_rate_bp,hold_rate_bp',
    '2026-10-31,aff-1,Affiliate One,3,1,BRL,3,10200,765,77,1,0,3333,0',
    '2026-10-31,aff-2,Affiliate Two,2,0,EUR,1,5000,500,63,0,0,0,0',
    '',
  ]);

  const empty = await csv('from=2020-01-01&to=2020-01-02&columns=api');
  assert.deepEqual(empty.lines.slice(1), ['2020-01-01,0,0,,,,,,,,,', '2020-01-02,0,0,,,,,,,,,', '']);

  // The portal's download, for a person: words by default, in the operator's language.
  const english = await csv('from=2026-10-30&to=2026-11-30&interval=month&groupBy=brand');
  assert.deepEqual(english.lines.slice(0, 2), [
    'Period,Brand id,Name,Clicks,Clicks not counted,Currency,Orders,Sales,Commission,Network fee,Declined,Held,Declined (%),Held (%)',
    `October 2026,${BRANDS.acme},Acme,3,1,BRL,3,102.00,7.65,0.77,1,0,33.33%,0%`,
  ]);
  const patched = await h.request({ method: 'PATCH', url: '/session', headers: operator.headers, payload: { language: 'pt-BR' } });
  assert.equal(patched.statusCode, 200, patched.body);
  const portuguese = await csv('from=2026-10-31&to=2026-11-01');
  assert.deepEqual(portuguese.lines.slice(0, 2), [
    'Período,Cliques,Cliques não contados,Moeda,Pedidos,Vendas,Comissão,Taxa da rede,Recusados,Retidos,Recusados (%),Retidos (%)',
    '31/10/2026,5,1,BRL,3,102.00,7.65,0.77,1,0,"33,33%",0%',
  ]);
});

test('bad input says what to fix, in the error shape', async () => {
  for (const path of ['/operator/figures', '/operator/figures.csv']) {
    assertError(await get(`${path}?from=2026-11-02&to=2026-11-01`), 400, 'invalid_date');
    assertError(await get(`${path}?from=2020-01-01&to=2026-01-01`), 400, 'invalid_date');
    assertError(await get(`${path}?to=9999-12-31`), 400, 'invalid_date');
    assertError(await get(`${path}?from=2026-02-30`), 400, 'invalid_query');
    assertError(await get(`${path}?to=yesterday`), 400, 'invalid_query');
    assertError(await get(`${path}?groupBy=country`), 400, 'invalid_query');
    assertError(await get(`${path}?interval=week`), 400, 'invalid_query');
    assertError(await get(`${path}?currency=BRL`), 400, 'invalid_query');
  }
  assertError(await get('/operator/figures?limit=0'), 400, 'invalid_query');
  assertError(await get('/operator/figures?limit=501'), 400, 'invalid_query');
  assertError(await get('/operator/figures.csv?limit=5'), 400, 'invalid_query');
});

test('no member reaches the figures: neither a key nor a session', async () => {
  const { key } = await newKey(h, 'aff-1');
  const brand = await brandKey(h, BRANDS.acme);
  const member = await signedUp(h, `figures-owner-${process.pid}@aff.example`, { affiliateId: 'aff-1' }, 'owner');
  for (const path of ['/operator/figures', '/operator/figures.csv']) {
    assertError(await h.request({ method: 'GET', url: path, headers: { 'x-api-key': key } }), 403, 'forbidden');
    assertError(await h.request({ method: 'GET', url: path, headers: { 'x-api-key': brand } }), 403, 'forbidden');
    assertError(await h.request(withSession({ method: 'GET', url: path }, member)), 403, 'forbidden');
  }
});
