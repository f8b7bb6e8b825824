import { Type } from '@sinclair/typebox';
import { Currency } from '../../../schemas/common.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { OrderRangeQuery } from './orders-list.js';
import { dayRange } from './query-rules.js';

const Totals = Type.Object({
  commission: Type.Integer({ description: 'Sum of the commissions, in integer minor units (cents) of currency' }),
  orders: Type.Integer({ description: 'Number of orders' }),
});

const Balance = Type.Object(
  {
    currency: Currency('ISO 4217 code of every amount of this entry'),
    pending: Totals,
    held: Type.Object(Totals.properties, { description: 'Addition: commissions held for the network\'s fraud review (see holdReasons on the orders); neither approved nor paid until released' }),
    approved: Totals,
    payable: Type.Object(Totals.properties, { description: 'Addition: commissions whose brand paid the statement that billed them, for the next payout run' }),
    paid: Totals,
    canceled: Totals,
  },
  { description: 'Commission totals in one currency, per commissionStatus (every status present, zeros included)' },
);

const Query = Type.Object(OrderRangeQuery, { additionalProperties: false });

export function getBalanceRoute(app: App, services: ServingServices): void {
  app.get(
    '/affiliate/balance',
    {
      schema: {
        tags: ['Orders'],
        summary: "The caller's commissions added up, per currency and commission status",
        description:
          'Addition to the spec. One entry per currency the caller has orders in (amounts in different currencies are never added together), ordered by currency code, each with the commission and number of orders per commissionStatus. Optionally for orders created in a range (from/to: a date is a whole day in timezone, default UTC) and for one brand.',
        security: [{ apiKey: [] }],
        querystring: Query,
        response: { 200: Type.Object({ data: Type.Array(Balance) }) },
      },
    },
    async (request) => {
      const q = request.query;
      const organizationIds = q.organizationId ? [q.organizationId] : undefined;
      return { data: await services.orders.balance(request.affiliateId, { organizationIds, ...dayRange(q) }) };
    },
  );
}
