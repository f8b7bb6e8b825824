import { Readable } from 'node:stream';
import { COLUMNS_RULE, columnsFor, documentLanguage } from '../../documents/language.js';
import { dayIn, wordsOf } from '../../documents/words.js';
import { majorUnits } from '../../../domain/money.js';
import type { Language } from '../../../domain/access/users-service.js';
import { Type } from '@sinclair/typebox';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import type { Order } from '../../../schemas/order.js';
import { CSV_CELLS_RULE, csvLine, csvNumber } from '../../../lib/csv.js';
import { OrderExportQuery, orderFiltersOf } from './orders-list.js';
import { SUB_ID_NAMES } from '../../../lib/sub-ids.js';

/** The columns, in order, and how each comes from an order (amounts in minor units, as the API gives them). */
const COLUMNS: Array<[string, (o: Order) => string | number | undefined]> = [
  ['id', (o) => o.id],
  ['orderId', (o) => o.orderId],
  ['createdAt', (o) => o.createdAt],
  ['organizationId', (o) => o.organizationId],
  ['brandName', (o) => o.brandName],
  ['status', (o) => o.status],
  ['currency', (o) => o.currency],
  ['value', (o) => o.value],
  ['commission', (o) => o.commission],
  ['commissionStatus', (o) => o.commissionStatus],
  ['commissionReason', (o) => o.commissionReason],
  ['holdReasons', (o) => o.holdReasons?.join(' ')],
  ['channelId', (o) => o.channel?.id],
  ['channelName', (o) => o.channel?.name],
  ['linkCode', (o) => o.linkCode],
  ['mdasc', (o) => o.mdasc],
  ['clickId', (o) => o.clickId],
  ['clickedAt', (o) => o.clickedAt],
  ['paidAt', (o) => o.paidAt],
  ['payoutId', (o) => o.payoutId],
  ['coupon', (o) => o.coupon],
  ...SUB_ID_NAMES.map((name): [string, (o: Order) => string | undefined] => [name, (o) => o.subIds?.[name]]),
];

async function* csvOf(orders: AsyncIterable<Order>): AsyncGenerator<string> {
  yield csvLine(COLUMNS.map(([name]) => name));
  for await (const order of orders) yield csvLine(COLUMNS.map(([, cell]) => cell(order)));
}

/** The same orders for people, in their language: headers and statuses in words, days as they write them, amounts in the currency's units. */
async function* csvInWords(orders: AsyncIterable<Order>, language: Language): AsyncGenerator<string> {
  const { columns: c, subId, statuses } = wordsOf(language).orders;
  const units = (cents: number, currency: string) => csvNumber(majorUnits(cents, currency));
  yield csvLine([c.order, c.brand, c.date, c.status, c.currency, c.value, c.commission, c.commissionStatus, c.channel, c.label, c.coupon, c.paidAt, ...SUB_ID_NAMES.map((_, i) => subId(i + 1))]);
  for await (const o of orders) {
    const subIds = SUB_ID_NAMES.map((name) => o.subIds?.[name]);
    yield csvLine([o.orderId, o.brandName, dayIn(language, o.createdAt), statuses[o.status] ?? o.status, o.currency, units(o.value, o.currency), units(o.commission, o.currency), statuses[o.commissionStatus] ?? o.commissionStatus, o.channel?.name, o.mdasc, o.coupon, o.paidAt && dayIn(language, o.paidAt), ...subIds]);
  }
}

export function exportOrdersRoute(app: App, services: ServingServices): void {
  app.get(
    '/affiliate/orders.csv',
    {
      schema: {
        tags: ['Orders'],
        summary: "The caller's orders as CSV",
        description: `Addition to the spec. Every order GET /affiliate/orders would list with the same filters (no pages), newest first, as CSV (RFC 4180, a header line first). ${COLUMNS_RULE} With columns=api: ${COLUMNS.map(([name]) => name).join(', ')}; value and commission are integers in the minor unit of currency (cents), as everywhere in the API. With columns=words, in the document's language: the order number, brand, day, status, currency, value and commission in the currency's units, commission status, channel, label, coupon, day paid and Sub-ID 1 … Sub-ID 5 (sub1 … sub5: the sub-ids your click carried, see subIds). A field the order has no value for is an empty cell. ${CSV_CELLS_RULE} Not under /affiliate/orders/ so that no order id is ever taken for it.`,
        security: [{ apiKey: [] }],
        querystring: OrderExportQuery,
        produces: ['text/csv'],
        response: { 200: Type.String({ description: 'text/csv; charset=utf-8' }) },
      },
    },
    async (request, reply) => {
      const orders = services.orders.all(request.affiliateId, orderFiltersOf(request.query));
      const csv = columnsFor(request) === 'api' ? csvOf(orders) : csvInWords(orders, await documentLanguage(request, services, { affiliateId: request.affiliateId }));
      reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="orders.csv"');
      // Streamed batch by batch; the 200 schema above documents the body, it does not serialise it.
      return reply.send(Readable.from(csv) as unknown as string);
    },
  );
}
