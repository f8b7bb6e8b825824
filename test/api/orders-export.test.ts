// GET /affiliate/orders.csv: every order the list would show with the same filters, in the same
// order, as CSV a spreadsheet opens safely; only the caller's own orders; read in batches that
// neither repeat nor skip an order, ties on the creation time included.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Harness } from '../helpers/harness.js';
import { BRANDS } from '../helpers/world.js';
import { assertError, newKey, startWithKeys } from '../helpers/api.js';
import { servicesFor } from '../helpers/databases.js';
import { brandKey, clickLink, createLink, item, report, type AffiliateOrder } from '../helpers/tracking.js';

let h: Harness;
let aff1: string;
let aff2: string;

before(async () => {
  ({ h, aff1, aff2 } = await startWithKeys());
});
after(async () => {
  await h.close();
});

/** The CSV's lines as arrays of cells (this file's cells hold no comma or quote unless a test adds one). */
const linesOf = (body: string) => body.split('\r\n').filter(Boolean);
const listed = async (key: string, query = '') =>
  (await h.get(`/affiliate/orders?limit=100${query}`, key)).json<Array<{ data: AffiliateOrder }>>().map((o) => o.data);

describe('GET /affiliate/orders.csv', () => {
  test('every order of the list, in its order, with a header line; amounts in minor units', async () => {
    const res = await h.get('/affiliate/orders.csv', aff1);
    assert.equal(res.statusCode, 200, res.body);
    assert.match(String(res.headers['content-type']), /^text\/csv; charset=utf-8/);
    assert.match(String(res.headers['content-disposition']), /attachment; filename="orders.csv"/);
    const [header, ...rows] = linesOf(res.body);
    const columns = header!.split(',');
    assert.deepEqual(columns.slice(0, 10), ['id', 'orderId', 'createdAt', 'organizationId', 'brandName', 'status', 'currency', 'value', 'commission', 'commissionStatus']);
    const orders = await listed(aff1);
    assert.deepEqual(
      rows.map((r) => r.split(',').slice(0, 2)),
      orders.map((o) => [o.id, o.orderId]),
    );
    const cheap = rows.map((r) => r.split(',')).find((cells) => cells[0] === 'o-aff1-3')!;
    assert.deepEqual([cells(cheap, columns, 'value'), cells(cheap, columns, 'commission'), cells(cheap, columns, 'currency')], ['1999', '150', 'BRL']);
    assert.equal(cells(rows.map((r) => r.split(',')).find((c) => c[0] === 'o-aff1-1')!, columns, 'mdasc'), 'campaign-x');
  });

  test('for people: columns=words names the columns and statuses in words and writes amounts in the currency’s units', async () => {
    const [header, ...rows] = linesOf((await h.get('/affiliate/orders.csv?columns=words&commissionStatus=approved', aff1)).body);
    assert.equal(header, 'Order,Brand,Date,Status,Currency,Value,Commission,Commission status,Channel,Label,Coupon,Paid on,Sub-ID 1,Sub-ID 2,Sub-ID 3,Sub-ID 4,Sub-ID 5');
    assert.equal(rows.length, 1);
    assert.match(rows[0]!, /^brand-o-aff1-2,[^,]+,\d{4}-\d{2}-\d{2},approved,BRL,\d+\.\d{2},\d+\.\d{2},approved,/);
    assert.equal((await h.get('/affiliate/orders.csv?columns=both', aff1)).statusCode, 400);
  });

  test('the filters of the list apply; another affiliate gets only its own', async () => {
    const approved = linesOf((await h.get('/affiliate/orders.csv?commissionStatus=approved', aff1)).body).slice(1);
    assert.deepEqual(approved.map((r) => r.split(',')[0]), ['o-aff1-2']);
    const inMarch = linesOf((await h.get('/affiliate/orders.csv?from=2026-03-01&to=2026-03-31', aff1)).body).slice(1);
    assert.deepEqual(inMarch.map((r) => r.split(',')[0]).sort(), ['o-aff1-3', 'o-aff1-4']);
    const theirs = linesOf((await h.get('/affiliate/orders.csv', aff2)).body).slice(1);
    assert.deepEqual(theirs.map((r) => r.split(',')[0]), ['o-aff2-1']);
  });

  test('a tracking id a spreadsheet would run as a formula stays text', async () => {
    const { code } = await createLink(h, aff1, BRANDS.acme, { mdasc: '=HYPERLINK("http://evil.example","x")' });
    const { clickId } = await clickLink(h, code);
    assert.equal((await report(h, await brandKey(h, BRANDS.acme), { clickId, orderId: 'CSV-FORMULA', value: 100, items: [item(100)] })).statusCode, 201);
    const body = (await h.get('/affiliate/orders.csv', aff1)).body;
    assert.ok(body.includes(`"'=HYPERLINK(""http://evil.example"",""x"")"`), body);
    assert.ok(!/(^|,)=HYPERLINK/m.test(body), 'no cell starts with =');
  });

  test('read in batches: no order repeated or skipped, ties on the creation time included', async () => {
    const orders = servicesFor(h.service.database).orders;
    for (const batchSize of [1, 2, 3]) {
      const ids: string[] = [];
      for await (const order of orders.all('aff-1', {}, batchSize)) ids.push(order.id);
      assert.deepEqual(ids, (await listed(aff1)).map((o) => o.id), `batches of ${batchSize}`);
    }
  });

  test('bad filters answer 400; a key without orders:read 403', async () => {
    assertError(await h.get('/affiliate/orders.csv?commissionStatus=lost', aff1), 400, 'invalid_query');
    assertError(await h.get('/affiliate/orders.csv?page=2', aff1), 400, 'invalid_query');
    const { key } = await newKey(h, 'aff-1', { scopes: ['brands:read'] });
    assert.match(assertError(await h.get('/affiliate/orders.csv', key), 403).message, /orders:read/);
  });
});

function cells(row: string[], columns: string[], name: string): string | undefined {
  return row[columns.indexOf(name)];
}
