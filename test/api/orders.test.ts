import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { startHarness, type Harness } from '../helpers/harness.js';
import { BRANDS } from '../helpers/world.js';
import { assertError, newKey, qs } from '../helpers/api.js';

interface Order {
  id: string;
  orderId: string;
  status: string;
  value: number;
  createdAt: string;
  commission: number;
  commissionStatus: string;
  items: Array<{ id: string; name: string; quantity: number; price: number; categories: number }>;
  organizationId: string;
  mdasc?: string;
}
interface Meta {
  total: number;
  page: number;
  limit: number;
  totalPages: number;
}
type Envelope = { data: Order; meta: Meta };

const ALL_AFF1 = ['o-aff1-1', 'o-aff1-2', 'o-aff1-3', 'o-aff1-4'];

let h: Harness;
let aff1: string;

before(async () => {
  h = await startHarness();
  aff1 = (await newKey(h, 'aff-1', { rateLimit: 100_000 })).key;
});
after(async () => {
  await h.close();
});

function envelopes(res: LightMyRequestResponse): Envelope[] {
  assert.equal(res.statusCode, 200, res.body);
  const body = res.json<Envelope[]>();
  assert.ok(Array.isArray(body), `the answer is an array: ${res.body}`);
  for (const element of body) assert.deepEqual(Object.keys(element).sort(), ['data', 'meta'], res.body);
  return body;
}

async function orders(query: Parameters<typeof qs>[0] = {}, key = aff1): Promise<{ list: Envelope[]; ids: string[]; res: LightMyRequestResponse }> {
  const res = await h.get(`/affiliate/orders${qs(query)}`, key);
  const list = envelopes(res);
  return { list, ids: list.map((e) => e.data.id), res };
}

const sorted = (ids: string[]) => [...ids].sort();

describe('GET /affiliate/orders: list', () => {
  test('an array of { data: Order, meta } elements, one per order, with the page metadata and X-Total-Count', async () => {
    const { list, ids, res } = await orders();
    assert.deepEqual(sorted(ids), ALL_AFF1);
    for (const element of list) assert.deepEqual(element.meta, { total: 4, page: 1, limit: 20, totalPages: 1 });
    assert.equal(res.headers['x-total-count'], '4');
  });

  test('newest first, in a deterministic order', async () => {
    const { list, ids } = await orders();
    const times = list.map((e) => e.data.createdAt);
    assert.deepEqual(times, [...times].sort().reverse(), 'createdAt must not increase');
    assert.equal(ids[ids.length - 1], 'o-aff1-1', 'the oldest order is last');
    assert.equal(ids[ids.length - 2], 'o-aff1-2');
    assert.deepEqual(sorted(ids.slice(0, 2)), ['o-aff1-3', 'o-aff1-4'], 'the two orders of 2026-03-10 come first');
    assert.deepEqual((await orders()).ids, ids, 'the same request gives the same order');
  });

  test('the Order shape: every field, integer money, the items key is exactly "items"', async () => {
    const { list } = await orders();
    const o1 = list.find((e) => e.data.id === 'o-aff1-1')!.data;
    assert.deepEqual(o1, {
      id: 'o-aff1-1',
      orderId: 'brand-o-aff1-1',
      status: 'pending',
      value: 10_000,
      createdAt: '2026-01-10T10:00:00.000Z',
      commission: 750,
      commissionStatus: 'pending',
      items: [{ id: 'sku-1', name: 'Sneakers', quantity: 2, price: 5_000, categories: 12 }],
      organizationId: BRANDS.acme,
      brandName: 'Acme',
      mdasc: 'campaign-x',
      currency: 'BRL',
      lockAt: '2099-12-31T00:00:00.000Z',
      autoApproved: false,
      source: 'api',
      attribution: 'click',
    });
    for (const { data } of list) {
      const keys = ['attribution', 'autoApproved', 'commission', 'commissionStatus', 'createdAt', 'currency', 'id', 'items', 'lockAt', ...(data.mdasc === undefined ? [] : ['mdasc']), 'orderId', 'organizationId', 'source', 'status', 'value', 'brandName'].sort();
      assert.deepEqual(Object.keys(data).sort(), keys);
      assert.ok(Number.isInteger(data.value), `value ${data.value}`);
      assert.ok(Number.isInteger(data.commission), `commission ${data.commission}`);
      assert.ok(Array.isArray(data.items));
    }
    const o2 = list.find((e) => e.data.id === 'o-aff1-2')!.data;
    assert.equal(o2.status, 'approved');
    assert.equal(o2.commissionStatus, 'approved');
    assert.ok(!('mdasc' in o2), 'an order without mdasc has no mdasc key (never null)');
    const o3 = list.find((e) => e.data.id === 'o-aff1-3')!.data;
    assert.equal(o3.value, 1_999);
    assert.equal(o3.commission, 150);
    assert.equal(o3.organizationId, BRANDS.globex);
    const o4 = list.find((e) => e.data.id === 'o-aff1-4')!.data;
    assert.equal(o4.status, 'canceled');
    assert.equal(o4.commission, 1_500);
  });

  test('the raw JSON has the key "items" without whitespace', async () => {
    const res = await h.get('/affiliate/orders', aff1);
    assert.equal(res.statusCode, 200, res.body);
    assert.match(res.body, /"items":/);
    assert.doesNotMatch(res.body, /"\s+items\s*"|"items\s+"/);
  });

  test('only the caller’s orders: aff-2 sees its one order', async () => {
    const { list, res } = await orders({}, h.world.keys.aff2);
    assert.deepEqual(
      list.map((e) => e.data.id),
      ['o-aff2-1'],
    );
    assert.equal(list[0]!.data.organizationId, BRANDS.initech);
    assert.equal(res.headers['x-total-count'], '1');
  });

  test('an affiliate without orders gets []', async () => {
    const { list, res } = await orders({}, h.world.keys.aff3);
    assert.deepEqual(list, []);
    assert.equal(res.headers['x-total-count'], '0');
  });
});

describe('GET /affiliate/orders: filters', () => {
  test('organizationId', async () => {
    const { ids, list, res } = await orders({ organizationId: BRANDS.acme });
    assert.deepEqual(ids, ['o-aff1-2', 'o-aff1-1']);
    assert.equal(list[0]!.meta.total, 2);
    assert.equal(res.headers['x-total-count'], '2');
    assert.deepEqual((await orders({ organizationId: BRANDS.initech })).ids, [], 'aff-1 has no initech orders (aff-2 has)');
  });

  test('organizationIds, comma-separated and repeated', async () => {
    assert.deepEqual(sorted((await orders({ organizationIds: `${BRANDS.globex},${BRANDS.umbrella}` })).ids), ['o-aff1-3', 'o-aff1-4']);
    assert.deepEqual(sorted((await orders({ organizationIds: [BRANDS.globex, BRANDS.umbrella] })).ids), ['o-aff1-3', 'o-aff1-4']);
    assert.deepEqual(sorted((await orders({ organizationIds: [BRANDS.acme] })).ids), ['o-aff1-1', 'o-aff1-2']);
    assert.deepEqual(sorted((await orders({ organizationIds: `${BRANDS.acme},${BRANDS.globex},${BRANDS.umbrella}` })).ids), ALL_AFF1);
  });

  test('mdasc=true keeps only orders that carry mdasc; mdasc=false does not filter', async () => {
    assert.deepEqual((await orders({ mdasc: true })).ids, ['o-aff1-1']);
    assert.deepEqual(sorted((await orders({ mdasc: false })).ids), ALL_AFF1);
    assert.deepEqual((await orders({ mdasc: true }, h.world.keys.aff2)).ids, []);
  });

  test('from and to as dates: from is the start of the day, to includes the whole day', async () => {
    assert.deepEqual(sorted((await orders({ from: '2026-02-10' })).ids), ['o-aff1-2', 'o-aff1-3', 'o-aff1-4']);
    assert.deepEqual(sorted((await orders({ to: '2026-02-10' })).ids), ['o-aff1-1', 'o-aff1-2']);
    assert.deepEqual((await orders({ from: '2026-02-10', to: '2026-02-10' })).ids, ['o-aff1-2']);
    assert.deepEqual(sorted((await orders({ from: '2026-03-10', to: '2026-03-10' })).ids), ['o-aff1-3', 'o-aff1-4']);
    assert.deepEqual((await orders({ from: '2026-02-11', to: '2026-03-09' })).ids, []);
    assert.deepEqual((await orders({ from: '2026-04-01' })).ids, []);
    assert.deepEqual((await orders({ to: '2026-01-09' })).ids, []);
  });

  test('from and to as date-times', async () => {
    assert.deepEqual(sorted((await orders({ from: '2026-02-10T10:00:01Z' })).ids), ['o-aff1-3', 'o-aff1-4']);
    assert.deepEqual((await orders({ to: '2026-02-10T09:59:59Z' })).ids, ['o-aff1-1']);
    assert.deepEqual(sorted((await orders({ from: '2026-02-10T10:00:00.000Z', to: '2026-02-10T10:00:00.000Z' })).ids), ['o-aff1-2'], 'bounds are inclusive');
    assert.deepEqual((await orders({ from: '2026-02-10T12:00:00+02:00', to: '2026-02-10T12:00:00+02:00' })).ids, ['o-aff1-2'], 'offsets are honoured');
  });

  test('filters combine', async () => {
    assert.deepEqual((await orders({ organizationId: BRANDS.acme, mdasc: true })).ids, ['o-aff1-1']);
    assert.deepEqual((await orders({ organizationIds: `${BRANDS.acme},${BRANDS.globex}`, from: '2026-02-01' })).ids, ['o-aff1-3', 'o-aff1-2']);
    assert.deepEqual((await orders({ organizationId: BRANDS.umbrella, from: '2026-01-01', to: '2026-02-28' })).ids, []);
    const { list, res } = await orders({ organizationIds: `${BRANDS.acme},${BRANDS.globex}`, limit: 1 });
    assert.equal(list.length, 1);
    assert.deepEqual(list[0]!.meta, { total: 3, page: 1, limit: 1, totalPages: 3 });
    assert.equal(res.headers['x-total-count'], '3');
  });

  test('invalid filters → 400 invalid_query naming the parameter', async () => {
    const cases: Array<[string, RegExp]> = [
      ['organizationId=acme', /organizationId/],
      [`organizationIds=${BRANDS.acme},nope`, /organizationIds/],
      ['mdasc=yes', /mdasc/],
      ['from=yesterday', /from/],
      ['to=2026-13-45', /to/],
      ['from=2026-02-30', /from/],
      ['from=2026-03-01&to=2026-02-01', /from|to/],
      ['status=shipped', /status/],
      ['commissionStatus=pending,settled', /commissionStatus/],
      ['timezone=Mars/Olympus_Mons', /timezone/],
      ['payoutId=', /payoutId/],
    ];
    for (const [query, message] of cases) {
      const error = assertError(await h.get(`/affiliate/orders?${query}`, aff1), 400, 'invalid_query');
      assert.match(error.message, message, query);
    }
  });
});

describe('GET /affiliate/orders: dates that pass the format but are no instant', () => {
  test('a leap-second date-time (23:59:60) answers 400 invalid_query, not 500', async () => {
    for (const query of ['from=2016-12-31T23:59:60Z', 'to=2026-06-30T23:59:60Z']) {
      const error = assertError(await h.get(`/affiliate/orders?${query}`, aff1), 400, 'invalid_query');
      assert.match(error.message, /from|to/, query);
    }
  });
});

describe('GET /affiliate/orders: pages', () => {
  test('page and limit; pages of one walk the full list without overlap or gap', async () => {
    const full = (await orders()).ids;
    const walked: string[] = [];
    for (let page = 1; page <= 4; page++) {
      const { list, res } = await orders({ page, limit: 1 });
      assert.equal(list.length, 1);
      assert.deepEqual(list[0]!.meta, { total: 4, page, limit: 1, totalPages: 4 });
      assert.equal(res.headers['x-total-count'], '4');
      walked.push(list[0]!.data.id);
    }
    assert.deepEqual(walked, full);
    const page2 = await orders({ page: 2, limit: 3 });
    assert.deepEqual(page2.ids, full.slice(3));
    assert.deepEqual(page2.list[0]!.meta, { total: 4, page: 2, limit: 3, totalPages: 2 });
  });

  test('default limit 20, maximum 100', async () => {
    assert.equal((await orders()).list[0]!.meta.limit, 20);
    assert.equal((await orders({ limit: 100 })).list[0]!.meta.limit, 100);
    for (const query of ['limit=101', 'limit=0', 'limit=-5', 'limit=ten', 'page=0', 'page=2.5']) {
      const error = assertError(await h.get(`/affiliate/orders?${query}`, aff1), 400, 'invalid_query');
      assert.match(error.message, /limit|page/, query);
    }
  });

  test('a page past the end answers [] with the total in X-Total-Count', async () => {
    const { list, res } = await orders({ page: 3, limit: 2 });
    assert.deepEqual(list, []);
    assert.equal(res.headers['x-total-count'], '4');
  });
});

describe('GET /affiliate/orders/{id}', () => {
  test('the caller’s own order: an array of one { data, meta }', async () => {
    const list = envelopes(await h.get('/affiliate/orders/o-aff1-3', aff1));
    assert.equal(list.length, 1);
    assert.equal(list[0]!.data.id, 'o-aff1-3');
    assert.equal(list[0]!.data.value, 1_999);
    assert.equal(list[0]!.data.organizationId, BRANDS.globex);
    assert.equal(list[0]!.meta.total, 1);
    assert.equal(list[0]!.meta.page, 1);
  });

  test('the same data as in the list', async () => {
    const fromList = (await orders()).list.find((e) => e.data.id === 'o-aff1-1')!.data;
    const byId = envelopes(await h.get('/affiliate/orders/o-aff1-1', aff1));
    assert.deepEqual(byId.map((e) => e.data), [fromList]);
  });

  test('the brand’s order id works too', async () => {
    const list = envelopes(await h.get('/affiliate/orders/brand-o-aff1-2', aff1));
    assert.deepEqual(
      list.map((e) => e.data.id),
      ['o-aff1-2'],
    );
    assert.equal(list[0]!.data.orderId, 'brand-o-aff1-2');
  });

  test('a brand order id shared with another affiliate’s order gives only the caller’s order', async () => {
    // aff-2's o-aff2-1 carries the brand order id brand-o-aff1-1 too.
    assert.deepEqual(
      envelopes(await h.get('/affiliate/orders/brand-o-aff1-1', aff1)).map((e) => e.data.id),
      ['o-aff1-1'],
    );
    assert.deepEqual(
      envelopes(await h.get('/affiliate/orders/brand-o-aff1-1', h.world.keys.aff2)).map((e) => e.data.id),
      ['o-aff2-1'],
    );
  });

  test('another affiliate’s order → 404', async () => {
    assertError(await h.get('/affiliate/orders/o-aff1-1', h.world.keys.aff2), 404, 'not_found');
    assertError(await h.get('/affiliate/orders/brand-o-aff1-3', h.world.keys.aff2), 404, 'not_found');
    assertError(await h.get('/affiliate/orders/o-aff2-1', aff1), 404, 'not_found');
  });

  test('a long unknown id within the documented 200 characters → 404 not_found', async () => {
    assertError(await h.get(`/affiliate/orders/${'o'.repeat(150)}`, aff1), 404, 'not_found');
  });

  test('an id beyond any sensible length → a 4xx with the error body, not a framework error', async () => {
    const res = await h.get(`/affiliate/orders/${'o'.repeat(1000)}`, aff1);
    assert.ok(res.statusCode >= 400 && res.statusCode < 500, res.body.slice(0, 300));
    assertError(res, res.statusCode, /^[a-z]+(_[a-z]+)*$/);
  });

  test('an unknown id → 404', async () => {
    assertError(await h.get('/affiliate/orders/o-nope', aff1), 404, 'not_found');
    assertError(await h.get(`/affiliate/orders/${encodeURIComponent("x' OR '1'='1")}`, aff1), 404, 'not_found');
  });
});
