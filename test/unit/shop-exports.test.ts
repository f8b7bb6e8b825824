// The shop's export read row by row: Shopify's and Nuvemshop's files known by their headers, each
// platform's statuses mapped, amounts read as text by the currency's minor unit, times to UTC.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { columnsOf, exportTime, RowReader, type ShopOrder } from '../../src/domain/reconciliation/shop-exports.js';
import { exportAmount, minorUnitOf } from '../../src/lib/export-amounts.js';

test('amounts as shops write them become minor units without a binary fraction', () => {
  const cases: Array<[string, number, number | undefined]> = [
    ['129.90', 2, 12_990],
    ['129,90', 2, 12_990],
    ['1,299.90', 2, 129_990],
    ['1.299,90', 2, 129_990],
    ['R$ 1.299,90', 2, 129_990],
    ['BRL 10.00', 2, 1_000],
    ['0.1', 2, 10],
    ['1,299', 2, 129_900],
    ['150', 0, 150],
    ['1,500', 0, 1_500],
    ['1.234', 3, 1_234],
    ['129.90', 0, undefined],
    ['12.99.00', 2, undefined],
    ['-5.00', 2, undefined],
    ['cem', 2, undefined],
    ['0.29', 2, 29],
    ['90071992547409.92', 2, undefined],
  ];
  for (const [text, digits, cents] of cases) assert.equal(exportAmount(text, digits), cents, `${text} (${digits} decimals)`);
  assert.deepEqual([minorUnitOf('BRL'), minorUnitOf('JPY'), minorUnitOf('KWD')], [2, 0, 3]);
});

test('times with or without a zone, ISO or day/month/year, to UTC; an impossible date is none', () => {
  assert.equal(exportTime('2026-11-20 14:03:11 -0300'), '2026-11-20T17:03:11.000Z');
  assert.equal(exportTime('2026-11-20T17:03:11Z'), '2026-11-20T17:03:11.000Z');
  assert.equal(exportTime('2026-11-20 23:30:00 +05:30'), '2026-11-20T18:00:00.000Z');
  // The evening in Brazil is the next day in UTC, and the morning in India the day before: the date written is the local one.
  assert.equal(exportTime('2026-11-29 22:30:00 -0300'), '2026-11-30T01:30:00.000Z');
  assert.equal(exportTime('2026-11-30 01:00:00 +05:30'), '2026-11-29T19:30:00.000Z');
  assert.equal(exportTime('2026-02-28 23:00:00 -0300'), '2026-03-01T02:00:00.000Z');
  assert.equal(exportTime('20/11/2026 14:03'), '2026-11-20T14:03:00.000Z');
  assert.equal(exportTime('2026-11-20'), '2026-11-20T00:00:00.000Z');
  assert.equal(exportTime('31/02/2026'), undefined);
  assert.equal(exportTime('yesterday'), undefined);
});

const shopifyHeader = ['Name', 'Email', 'Financial Status', 'Fulfillment Status', 'Currency', 'Total', 'Created at', 'Cancelled at', 'Refunded Amount'];
const shopify = () => new RowReader(shopifyHeader, 'shopify', columnsOf(shopifyHeader, undefined)!.mapping, 2, 'BRL');
const row = (cells: Record<string, string>, header = shopifyHeader) => header.map((name) => cells[name] ?? '');

test('Shopify’s export: its financial and fulfilment statuses, its cancellations and refunds, its line-item rows', () => {
  assert.equal(columnsOf(shopifyHeader, undefined)?.platform, 'shopify');
  const reader = shopify();
  const read = (cells: Record<string, string>) => reader.read(row({ Currency: 'BRL', Total: '100.00', 'Created at': '2026-11-20 14:03:11 -0300', ...cells }), 2) as ShopOrder;
  assert.equal(read({ Name: '#1', 'Financial Status': 'paid' }).verdict, 'paid');
  assert.equal(reader.read(row({ Name: '#1' }), 3), undefined, 'a further line item of #1');
  assert.equal(read({ Name: '#2', 'Financial Status': 'authorized', 'Fulfillment Status': 'fulfilled' }).verdict, 'paid');
  assert.equal(read({ Name: '#3', 'Financial Status': 'pending', 'Fulfillment Status': 'unfulfilled' }).verdict, 'pending');
  assert.equal(read({ Name: '#4', 'Financial Status': 'voided' }).verdict, 'canceled');
  assert.equal(read({ Name: '#5', 'Financial Status': 'refunded', 'Refunded Amount': '100.00' }).verdict, 'refunded');
  assert.equal(read({ Name: '#6', 'Financial Status': 'paid', 'Cancelled at': '2026-11-21 10:00:00 -0300' }).verdict, 'canceled');
  const partly = read({ Name: '#7', 'Financial Status': 'partially_refunded', 'Refunded Amount': '25.50' });
  assert.deepEqual([partly.verdict, partly.total, partly.refunded], ['partially_refunded', 10_000, 2_550]);
  assert.equal(read({ Name: '#8', 'Financial Status': 'paid', 'Refunded Amount': '10.00' }).verdict, 'partially_refunded', 'a refund beside paid is a partial refund');
  assert.equal(read({ Name: '#9', 'Financial Status': 'Partially refunded', 'Refunded Amount': '100.00' }).verdict, 'refunded', 'the whole total refunded');
  assert.deepEqual(reader.read(row({ Name: '#10', 'Financial Status': 'paid', Currency: 'USD', Total: '1.00', 'Created at': '2026-11-20' }), 12), {
    line: 12,
    orderId: '#10',
    reason: 'other_currency',
    message: 'the order is in USD, your orders are in BRL',
  });
  assert.equal((reader.read(row({ Name: '#11', 'Financial Status': 'chargeback', Total: '1.00', 'Created at': '2026-11-20' }), 13) as { reason: string }).reason, 'unknown_status');
  assert.equal((reader.read(row({ Name: '', 'Financial Status': 'paid' }), 14) as { reason: string }).reason, 'missing_order_id');
});

test('a Shopify row carries the order’s numeric id of its Id column, when the export has one', () => {
  const header = [...shopifyHeader, 'Id'];
  const reader = new RowReader(header, 'shopify', columnsOf(header, undefined)!.mapping, 2, 'BRL');
  const cells = { 'Financial Status': 'paid', Currency: 'BRL', Total: '100.00', 'Created at': '2026-11-20 14:03:11 -0300' };
  const read = reader.read(row({ ...cells, Name: '#1001', Id: '5123456789012' }, header), 2) as ShopOrder;
  assert.deepEqual([read.orderId, read.numericId], ['#1001', '5123456789012']);
  assert.equal((reader.read(row({ ...cells, Name: '#1002' }, header), 3) as ShopOrder).numericId, undefined, 'an empty Id is none');
  assert.equal((shopify().read(row({ ...cells, Name: '#1003' }), 2) as ShopOrder).numericId, undefined, 'an export without the column');
  assert.deepEqual(RowReader.missing(shopifyHeader, columnsOf(shopifyHeader, undefined)!.mapping), [], 'the Id column is not required');
});

test('Nuvemshop’s export, known by its Portuguese headers: payment, order and shipping statuses', () => {
  const header = ['Número do Pedido', 'E-mail', 'Data', 'Status do Pedido', 'Status do Pagamento', 'Status do Envio', 'Moeda', 'Subtotal de produtos', 'Desconto', 'Valor do Frete', 'Total'];
  const columns = columnsOf(header, undefined)!;
  assert.equal(columns.platform, 'nuvemshop');
  const reader = new RowReader(header, 'nuvemshop', columns.mapping, 2, 'BRL');
  const read = (cells: Record<string, string>, line = 2) => reader.read(row({ Data: '20/11/2026 14:03', Moeda: 'BRL', Total: '1.299,90', 'Status do Pedido': 'Aberto', ...cells }, header), line) as ShopOrder;
  const paid = read({ 'Número do Pedido': '501', 'Status do Pagamento': 'Pago', 'Status do Envio': 'Não está embalado' });
  assert.deepEqual([paid.verdict, paid.total, paid.at], ['paid', 129_990, '2026-11-20T14:03:00.000Z']);
  assert.equal(read({ 'Número do Pedido': '502', 'Status do Pagamento': 'Pendente', 'Status do Envio': 'Enviado' }).verdict, 'paid', 'shipped confirms it');
  assert.equal(read({ 'Número do Pedido': '503', 'Status do Pagamento': 'Pendente' }).verdict, 'pending');
  assert.equal(read({ 'Número do Pedido': '504', 'Status do Pagamento': 'Pago', 'Status do Pedido': 'Cancelado' }).verdict, 'canceled');
  assert.equal(read({ 'Número do Pedido': '505', 'Status do Pagamento': 'Estornado' }).verdict, 'refunded');
  assert.equal(read({ 'Número do Pedido': '506', 'Status do Pagamento': 'Pagamento recusado' }).verdict, 'canceled');
});

test('any other file needs its columns named, and then reads them', () => {
  const header = ['Pedido', 'Situação', 'Valor', 'Data'];
  assert.equal(columnsOf(header, undefined), undefined);
  const mapping = { orderId: 'pedido', status: 'SITUACAO', total: 'Valor', date: 'Data' };
  assert.deepEqual(RowReader.missing(header, mapping), [], 'headers compared without case or accents');
  assert.deepEqual(RowReader.missing(header, { ...mapping, refunded: 'Reembolso' }), ['Reembolso']);
  const reader = new RowReader(header, 'mapped', columnsOf(header, mapping)!.mapping, 2, 'BRL');
  assert.equal((reader.read(['A-1', 'Entregue', '49,90', '2026-11-20'], 2) as ShopOrder).verdict, 'paid');
  assert.equal((reader.read(['A-2', 'Reembolso parcial', '49,90', '2026-11-20'], 3) as ShopOrder).verdict, 'partially_refunded');
  assert.equal((reader.read(['A-3', '', '49,90', '2026-11-20'], 4) as { reason: string }).reason, 'unknown_status', 'a mapped file must say the status');
});
