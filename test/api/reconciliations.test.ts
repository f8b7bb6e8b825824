// Orders confirmed from the shop's own export: a brand uploads its Shopify orders export and gets
// a preview that changes nothing (confirm, cancel, correct, leave; skipped, unknown, missing, bad
// rows by line); applying it makes the changes through the brand's own decision path, once; the
// same file again finds nothing to do; another brand can neither read nor apply it; a file past
// RECONCILIATION_MAX_MB is refused with 413.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import type { LightMyRequestResponse } from 'fastify';
import { startHarness, type Harness } from '../helpers/harness.js';
import { BRANDS } from '../helpers/world.js';
import { assertError } from '../helpers/api.js';
import { brandKey, freshClick, item, patchStatus, report, type Conversion } from '../helpers/tracking.js';
import type { Reconciliation } from '../../src/domain/reconciliation/reconciliations.js';
import { shopifyExport, shopifyTime } from '../helpers/shop-exports.js';

const SHOP = 'https://www.acme.com';
let h: Harness;
let acme: string;
let initech: string;
let publishable: string;
const run = Math.random().toString(36).slice(2, 8);
let n = 1000;
const nextId = () => `${run}${++n}`;

before(async () => {
  h = await startHarness({ RECONCILIATION_MAX_MB: '1' });
  acme = await brandKey(h, BRANDS.acme);
  initech = await brandKey(h, BRANDS.initech);
  const res = await h.request({ method: 'POST', url: '/advertiser/tag/publishable-key', headers: { 'x-api-key': acme } });
  assert.equal(res.statusCode, 201, res.body);
  publishable = res.json<{ data: { publishableKey: string } }>().data.publishableKey;
});
after(() => h?.close());

/** An order the tag reports from the shop's thank-you page. */
async function tagOrder(value: number): Promise<string> {
  const orderId = nextId();
  const clickId = await freshClick(h, h.world.keys.aff1, BRANDS.acme);
  const res = await h.request({
    method: 'POST',
    url: '/track/conversions',
    payload: JSON.stringify({ key: publishable, orderId, value, currency: 'BRL', clickId, items: [item(value)] }),
    headers: { 'content-type': 'text/plain;charset=UTF-8', origin: SHOP },
    remoteAddress: `203.0.113.${n % 250}`,
  });
  assert.equal(res.statusCode, 202, res.body);
  return orderId;
}

/** An order the brand's server reports. */
async function apiOrder(value: number): Promise<string> {
  const orderId = nextId();
  const clickId = await freshClick(h, h.world.keys.aff1, BRANDS.acme);
  const res = await report(h, acme, { clickId, orderId, value, items: [item(value)] });
  assert.equal(res.statusCode, 201, res.body);
  return orderId;
}

const conversion = async (orderId: string) => {
  const res = await h.get(`/advertiser/conversions/${encodeURIComponent(orderId)}`, acme);
  assert.equal(res.statusCode, 200, res.body);
  return res.json<{ data: Conversion & { history: Array<{ field: string; to: string; by: string; reconciliationId?: string }> } }>().data;
};

const upload = (body: string | Buffer | Readable, key = acme, query = ''): Promise<LightMyRequestResponse> =>
  h.request({ method: 'POST', url: `/advertiser/conversions/reconciliations${query}`, payload: body, headers: { 'x-api-key': key, 'content-type': 'text/csv' } });
const preview = async (body: string | Buffer, query = ''): Promise<Reconciliation> => {
  const res = await upload(body, acme, query);
  assert.equal(res.statusCode, 201, res.body);
  return res.json<{ data: Reconciliation }>().data;
};
const apply = (id: string, key = acme) => h.request({ method: 'POST', url: `/advertiser/conversions/reconciliations/${id}/apply`, headers: { 'x-api-key': key } });
const ordersOfBrand = () => h.service.database.db.selectFrom('orders').selectAll().where('organization_id', '=', BRANDS.acme).orderBy('id').execute();

test('a Shopify export confirms paid tag orders, cancels a refunded one, corrects a partly refunded one, leaves locked, held and decided ones; once', async () => {
  const paid = await tagOrder(10_000);
  const fulfilled = await tagOrder(10_000);
  const refunded = await tagOrder(10_000);
  const partly = await tagOrder(10_000);
  const waiting = await tagOrder(10_000);
  const locked = await tagOrder(10_000);
  const held = await tagOrder(10_000);
  const decided = await apiOrder(10_000);
  const missing = await apiOrder(5_000);
  assert.equal((await patchStatus(h, acme, decided, { status: 'approved' })).statusCode, 200);
  const { db } = h.service.database;
  await db.updateTable('orders').set({ lock_at: new Date(Date.now() - 60_000).toISOString() }).where('organization_id', '=', BRANDS.acme).where('order_id', '=', locked).execute();
  await db.updateTable('orders').set({ commission_status: 'held', hold_reasons: '["click_to_order_too_fast"]' }).where('organization_id', '=', BRANDS.acme).where('order_id', '=', held).execute();

  const awaiting = async () => {
    const res = await h.get('/advertiser/tag', acme);
    assert.equal(res.statusCode, 200, res.body);
    return res.json<{ data: { awaitingConfirmation?: { orders: number; firstCancelAt?: string } } }>().data.awaitingConfirmation!;
  };
  const waitingBefore = await awaiting();
  assert.ok(waitingBefore.orders >= 5 && waitingBefore.firstCancelAt, 'the tag’s orders wait for confirmation; the locked and the held one do not count');

  const file = shopifyExport([
    { name: `#${paid}`, financial: 'paid' },
    { name: `#${paid}`, continuation: true },
    { name: `#${fulfilled}`, financial: 'authorized', fulfillment: 'fulfilled' },
    { name: `#${refunded}`, financial: 'refunded', refunded: '100.00', cancelledAt: shopifyTime() },
    { name: `#${partly}`, financial: 'partially_refunded', refunded: '25.00' },
    { name: `#${waiting}`, financial: 'pending' },
    { name: `#${locked}`, financial: 'paid' },
    { name: `#${held}`, financial: 'paid' },
    { name: `#${decided}`, financial: 'refunded', refunded: '100.00' },
    { name: '#NOT-OURS-1', financial: 'paid' },
    { name: `#${run}bad`, financial: 'paid', total: 'cem reais' },
    { name: `#${run}date`, financial: 'paid', createdAt: '31/02/2026' },
    { name: `#${run}odd`, financial: 'chargeback' },
  ]);
  const before = await ordersOfBrand();
  const first = await preview(file);
  assert.deepEqual(await ordersOfBrand(), before, 'a preview changes nothing');
  assert.equal(first.platform, 'shopify');
  assert.equal(first.rows, 12, 'a further line-item row is not an order');
  assert.deepEqual(
    { ...first.counts, missing: first.counts.missing > 0 ? 'some' : 0 },
    { confirm: 2, cancel: 1, correct: 1, leave: 1, skipped: 3, unknown: 1, missing: 'some', invalid: 3 },
    JSON.stringify(first.counts),
  );
  assert.deepEqual(first.lines.confirm.map((l) => l.orderId), [paid, fulfilled], 'Shopify’s "#" is matched to the id as reported');
  assert.equal(first.lines.confirm[0]!.line, 2);
  assert.equal(first.lines.confirm[1]!.line, 4, 'lines count the header and the line-item row');
  assert.deepEqual(first.lines.correct.map((l) => [l.orderId, l.value, l.refunded, l.newValue]), [[partly, 10_000, 2_500, 7_500]]);
  assert.deepEqual(first.lines.skipped.map((l) => [l.orderId, l.reason]), [[locked, 'locked'], [held, 'held'], [decided, 'decided']]);
  assert.deepEqual(first.lines.leave.map((l) => [l.orderId, l.reason]), [[waiting, 'shop_pending']]);
  assert.deepEqual(first.lines.unknown.map((l) => l.orderId), ['#NOT-OURS-1']);
  assert.deepEqual(first.lines.invalid.map((l) => [l.line, l.reason]), [[12, 'invalid_amount'], [13, 'invalid_date'], [14, 'unknown_status']]);
  assert.ok(first.lines.missing.some((l) => l.orderId === missing), 'an order of the file’s days that it lacks');
  assert.ok(!first.lines.missing.some((l) => [paid, decided, locked].includes(l.orderId!)));

  // The brand listens for its conversions' changes (an endpoint as the webhook routes store it).
  const stamp = new Date().toISOString();
  await db
    .insertInto('webhook_endpoints')
    .values({ id: `whe_${run}`, owner_kind: 'brand', owner_id: BRANDS.acme, url: 'https://hooks.example/affnet', description: '', events: ' conversion.updated ', enabled: 1, disabled_reason: null, secret: 'whsec_c2VjcmV0', previous_secret: null, previous_secret_expires_at: null, failing_since: null, created_at: stamp, updated_at: stamp })
    .execute();
  const applied = await apply(first.id);
  assert.equal(applied.statusCode, 200, applied.body);
  const result = applied.json<{ data: Reconciliation }>().data;
  assert.deepEqual(result.outcome, { confirmed: 2, canceled: 1, corrected: 1, changedMeanwhile: 0 });
  assert.ok(result.appliedAt);

  for (const orderId of [paid, fulfilled]) {
    const order = await conversion(orderId);
    assert.equal(order.status, 'approved', 'a tag order the shop was paid for is confirmed by the brand');
    assert.equal(order.source, 'tag');
    assert.ok(order.history.some((e) => e.field === 'status' && e.to === 'approved' && e.by === 'brand' && e.reconciliationId === first.id), JSON.stringify(order.history));
  }
  const canceled = await conversion(refunded);
  assert.equal(canceled.status, 'canceled');
  assert.equal(canceled.commissionStatus, 'canceled');
  const corrected = await conversion(partly);
  assert.equal(corrected.status, 'approved');
  assert.equal(corrected.value, 7_500);
  assert.ok(corrected.history.some((e) => e.field === 'value' && e.to === '7500' && e.reconciliationId === first.id));
  assert.equal((await conversion(waiting)).status, 'pending');
  assert.equal((await conversion(locked)).status, 'pending', 'a locked order is the network’s to decide');
  assert.equal((await conversion(held)).commissionStatus, 'held');
  assert.equal((await conversion(decided)).status, 'approved', 'a decided order stays decided');
  assert.equal((await awaiting()).orders, waitingBefore.orders - 4, 'the confirmed, canceled and corrected tag orders no longer wait');

  const audit = await db.selectFrom('audit_entries').select(['action', 'subject_id', 'reason']).where('brand_id', '=', BRANDS.acme).where('created_at', '>=', result.appliedAt).execute();
  assert.ok(audit.some((a) => a.action === 'reconciliation.applied' && a.subject_id === first.id));
  assert.equal(audit.filter((a) => a.action === 'conversion.approved').length, 3, 'confirmed twice, corrected and approved once');
  assert.equal(audit.filter((a) => a.action === 'conversion.canceled').length, 1);
  const events = await db.selectFrom('webhook_events').select(['type', 'payload']).where('owner_id', '=', BRANDS.acme).where('created_at', '>=', result.appliedAt).execute();
  assert.equal(events.filter((e) => e.type === 'conversion.updated').length, 4, 'the usual webhooks, one per change');
  await db.updateTable('webhook_endpoints').set({ enabled: 0 }).where('id', '=', `whe_${run}`).execute();

  const again = await apply(first.id);
  assertError(again, 409, 'reconciliation_applied');
  const afterFirst = await ordersOfBrand();
  const second = await preview(file);
  assert.deepEqual([second.counts.confirm, second.counts.cancel, second.counts.correct], [0, 0, 0], 'the same file again finds nothing to do');
  assert.equal(second.counts.skipped, 7);
  const secondApplied = await apply(second.id);
  assert.equal(secondApplied.statusCode, 200, secondApplied.body);
  assert.deepEqual(secondApplied.json<{ data: Reconciliation }>().data.outcome, { confirmed: 0, canceled: 0, corrected: 0, changedMeanwhile: 0 });
  assert.deepEqual(await ordersOfBrand(), afterFirst, 'the second time changes nothing');

  // Another brand reads and applies nothing of it.
  assertError(await h.get(`/advertiser/conversions/reconciliations/${first.id}`, initech), 404, 'reconciliation_not_found');
  assertError(await apply(second.id, initech), 404, 'reconciliation_not_found');
  const own = await h.get(`/advertiser/conversions/reconciliations/${first.id}`, acme);
  assert.equal(own.statusCode, 200, own.body);
  assert.equal(own.json<{ data: Reconciliation }>().data.counts.confirm, 2);
});

test('an order reported by Shopify’s numeric id (its pixel’s checkout.order.id) is found by the export’s Id column, and is one order', async () => {
  const byId = await tagOrder(8_000);
  const byName = await tagOrder(8_000);
  const pre = await preview(
    shopifyExport([
      { name: `#${run}n${byId}`, id: byId, financial: 'paid', total: '80.00' },
      { name: `#${byName}`, id: `${run}9${byName}`, financial: 'paid', total: '80.00' },
      { name: `#${byId}`, financial: 'paid', total: '80.00' },
    ]),
  );
  assert.deepEqual(pre.lines.confirm.map((l) => [l.line, l.orderId]), [[2, byId], [3, byName]], 'by the Id, and by the Name as before');
  assert.deepEqual(pre.lines.invalid.map((l) => [l.line, l.reason]), [[4, 'duplicate_order']], 'the same order named the other way is a duplicate');
  assert.equal(pre.counts.unknown, 0);
});

test('an order changed between the preview and its application is left alone and counted', async () => {
  const orderId = await tagOrder(4_000);
  const pre = await preview(shopifyExport([{ name: orderId, financial: 'paid', total: '40.00' }]));
  assert.equal(pre.counts.confirm, 1);
  assert.equal((await patchStatus(h, acme, orderId, { status: 'canceled' })).statusCode, 200);
  const res = await apply(pre.id);
  assert.equal(res.statusCode, 200, res.body);
  assert.deepEqual(res.json<{ data: Reconciliation }>().data.outcome, { confirmed: 0, canceled: 0, corrected: 0, changedMeanwhile: 1 });
  assert.equal((await conversion(orderId)).status, 'canceled');
});

test('any other CSV is read with a column mapping: semicolons, amounts as Brazilians write them, Portuguese statuses', async () => {
  const paid = await apiOrder(129_990);
  const partly = await apiOrder(129_990);
  const file = ['Pedido;Situação;Valor;Reembolso;Data', `${paid};Pago;1.299,90;;20/11/2026`, `${partly};Pago;1.299,90;299,90;2026-11-20`, `${paid};Pago;1.299,90;;20/11/2026`].join('\n');
  const unknown = await upload(file);
  const refusal = assertError(unknown, 400, 'reconciliation_columns_unknown');
  assert.deepEqual((refusal as unknown as { details: { columns: string[] } }).details.columns, ['Pedido', 'Situação', 'Valor', 'Reembolso', 'Data']);
  const mapped = await preview(file, '?orderIdColumn=Pedido&statusColumn=Situa%C3%A7%C3%A3o&totalColumn=Valor&refundedColumn=Reembolso&dateColumn=Data');
  assert.equal(mapped.platform, 'mapped');
  assert.deepEqual(mapped.lines.confirm.map((l) => [l.orderId, l.total]), [[paid, 129_990]]);
  assert.deepEqual(mapped.lines.correct.map((l) => [l.orderId, l.refunded, l.newValue]), [[partly, 29_990, 100_000]]);
  assert.deepEqual(mapped.lines.invalid.map((l) => [l.line, l.orderId, l.reason]), [[4, paid, 'duplicate_order']], 'an order twice in the file is a bad row the second time');
  assertError(await upload(file, acme, '?orderIdColumn=Pedido&statusColumn=Estado&totalColumn=Valor&dateColumn=Data'), 400, 'reconciliation_column_missing');
  const plain = await h.request({ method: 'POST', url: '/advertiser/conversions/reconciliations', payload: file, headers: { 'x-api-key': acme, 'content-type': 'text/plain' } });
  assertError(plain, 415, 'unsupported_media_type');
});

test('a file past RECONCILIATION_MAX_MB is refused with 413 in the API’s error shape, and nothing is kept', async () => {
  const big = shopifyExport([{ name: 'x' }]) + `${'#1,a@b.c,paid\r\n'.repeat(80_000)}`;
  assert.ok(Buffer.byteLength(big) > 1024 * 1024);
  const before = await h.service.database.db.selectFrom('reconciliations').select('id').execute();
  const res = await upload(big);
  const body = assertError(res, 413, 'file_too_large');
  assert.deepEqual((body as unknown as { details: { maxMb: number } }).details, { maxMb: 1 });
  assert.deepEqual(await h.service.database.db.selectFrom('reconciliations').select('id').execute(), before);
});

test('the file is read on its parsing thread: Windows-1252 as a spreadsheet saves it, and its refusals keep their codes', async () => {
  const paid = await apiOrder(4_990);
  const latin = Buffer.from(['Pedido;Situação;Valor;Data', `${paid};Concluído;49,90;20/11/2026`].join('\r\n'), 'latin1');
  const mapped = await preview(latin, '?orderIdColumn=Pedido&statusColumn=Situa%C3%A7%C3%A3o&totalColumn=Valor&dateColumn=Data');
  assert.deepEqual(mapped.lines.confirm.map((l) => [l.orderId, l.shopStatus]), [[paid, 'Concluído']]);
  assertError(await upload(''), 400, 'reconciliation_file_empty');
  assertError(await upload('Pedido;Valor\r\nA-1;1,00\r\n', acme, '?orderIdColumn=Pedido&totalColumn=Valor'), 400, 'reconciliation_mapping_incomplete');
  // Sent without a length, the file is refused as it streams past RECONCILIATION_MAX_MB.
  const streamed = Readable.from((function* () {
    yield Buffer.from(shopifyExport([{ name: 'x' }]));
    for (let i = 0; i < 100; i++) yield Buffer.from('#1,a@b.c,paid\r\n'.repeat(1000));
  })());
  assert.deepEqual((assertError(await upload(streamed), 413, 'file_too_large') as unknown as { details: { maxMb: number } }).details, { maxMb: 1 });
});
