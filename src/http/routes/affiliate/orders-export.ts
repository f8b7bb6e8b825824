import { Readable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import type { Order } from '../../../schemas/order.js';
import { CSV_CELLS_RULE, csvLine } from '../../../lib/csv.js';
import { OrderExportQuery, orderFiltersOf } from './orders-list.js';

/** The columns, in order, and how each comes from an order (amounts in minor units, as the API gives them). */
const COLUMNS: Array<[string, (o: Order) => string | number | undefined]> = [
  ['id', (o) => o.id],
  ['orderId', (o) => o.orderId],
  ['createdAt', (o) => o.createdAt],
  ['organizationId', (o) => o.organizationId],
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
];

async function* csvOf(orders: AsyncIterable<Order>): AsyncGenerator<string> {
  yield csvLine(COLUMNS.map(([name]) => name));
  for await (const order of orders) yield csvLine(COLUMNS.map(([, cell]) => cell(order)));
}

export function exportOrdersRoute(app: App, services: ServingServices): void {
  app.get(
    '/affiliate/orders.csv',
    {
      schema: {
        tags: ['Orders'],
        summary: "The caller's orders as CSV",
        description: `Addition to the spec. Every order GET /affiliate/orders would list with the same filters (no pages), newest first, as CSV (RFC 4180, a header line first): ${COLUMNS.map(([name]) => name).join(', ')}. value and commission are integers in the minor unit of currency (cents), as everywhere in the API; a field the order has no value for is an empty cell. ${CSV_CELLS_RULE} Not under /affiliate/orders/ so that no order id is ever taken for it.`,
        security: [{ apiKey: [] }],
        querystring: OrderExportQuery,
        produces: ['text/csv'],
        response: { 200: Type.String({ description: 'text/csv; charset=utf-8' }) },
      },
    },
    async (request, reply) => {
      const orders = services.orders.all(request.affiliateId, orderFiltersOf(request.query));
      reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="orders.csv"');
      // Streamed batch by batch; the 200 schema above documents the body, it does not serialise it.
      return reply.send(Readable.from(csvOf(orders)) as unknown as string);
    },
  );
}
