// The network's figures over time, by brand and by affiliate: as JSON, or as CSV.
import { Readable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import { FiguresQuery, NetworkFigures } from '../../../schemas/figures.js';
import { LimitQuery } from '../../../schemas/common.js';
import type { Grouping } from '../../../domain/console/figures.js';
import { CSV_CELLS_RULE, csvLine, csvNumber, type CsvValue } from '../../../lib/csv.js';
import { majorUnits } from '../../../domain/money.js';
import { COLUMNS_RULE, ColumnsQuery, columnsFor } from '../../documents/language.js';
import { dayIn, monthIn, percentIn, wordsOf } from '../../documents/words.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { errorResponses } from '../../responses.js';
import { SESSION_ONLY, TAG } from './actor.js';

const WHAT =
  'Over whole UTC days from from to to (the last 30 days by default, at most three years): counted and uncounted clicks of every link (from the analytics rollups), and per currency (never summed across currencies) the orders reported in the range, their sales and commission (canceled ones left out), the network’s fee on that commission, and how many were declined (commission canceled) or ever held by the fraud rules, with both rates in basis points. The fee is the one statements bill, earned on the commission reported in the range before any statement is issued: per order, what its statement line billed, or (not billed yet) the brand’s fee now, basis points of the commission rounded half up to the cent. 400 invalid_query for a day that is no calendar day or an unknown interval or groupBy; invalid_date when from is after to or the range is longer than three years.';

export function getFiguresRoute(app: App, services: ServingServices): void {
  app.get(
    '/operator/figures',
    {
      schema: {
        tags: [TAG],
        summary: 'The network’s figures',
        description: `${WHAT} Answers the totals, every period (interval day or month, empty ones too) and, with groupBy brand or affiliate, the brands or affiliates with clicks or orders, most orders first, at most limit (groupCount says how many there were).`,
        security: SESSION_ONLY,
        querystring: Type.Object({ ...FiguresQuery, limit: LimitQuery(20, 500) }, { additionalProperties: false }),
        response: { 200: Type.Object({ data: Type.Ref(NetworkFigures) }), ...errorResponses(400) },
      },
    },
    async (request) => ({ data: await services.figures.figures(request.query) }),
  );
}

export function exportFiguresRoute(app: App, services: ServingServices): void {
  app.get(
    '/operator/figures.csv',
    {
      schema: {
        tags: [TAG],
        summary: 'The network’s figures as CSV',
        description: `${WHAT} One line per period (every one, empty ones too) or, with groupBy, per period and brand or affiliate (those with clicks or orders in it), then one per currency with orders: period, brand_id or affiliate_id and name (grouped), clicks, uncounted_clicks, currency, orders, sales, commission, fee (cents), declined, held, decline_rate_bp, hold_rate_bp (with columns=api; with columns=words the same columns named in the operator’s language, days and months as it writes them, amounts in the currency’s units and rates in percent). The clicks are on the first line of their period (and member) only, so that a column’s sum counts each click once. ${COLUMNS_RULE} ${CSV_CELLS_RULE}`,
        security: SESSION_ONLY,
        querystring: Type.Object({ ...FiguresQuery, ...ColumnsQuery.properties }, { additionalProperties: false }),
        produces: ['text/csv'],
        response: { 200: Type.String({ description: 'text/csv; charset=utf-8' }), ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      const { columns, ...query } = request.query;
      const { range, lines } = await services.figures.lines(query);
      const groupBy: Grouping = query.groupBy ?? 'none';
      const inWords = (columns ?? columnsFor(request)) === 'words';
      const language = inWords ? await services.users.languageOf(request.principal!.keyId.replace(/^user:/, '')) : 'en';
      const w = wordsOf(language).figures.columns;
      const member = groupBy === 'none' ? [] : inWords ? [groupBy === 'brand' ? w.brand : w.affiliate, w.name] : [groupBy === 'brand' ? 'brand_id' : 'affiliate_id', 'name'];
      const header = inWords
        ? [w.period, ...member, w.clicks, w.uncountedClicks, w.currency, w.orders, w.sales, w.commission, w.fee, w.declined, w.held, w.declineRate, w.holdRate]
        : ['period', ...member, 'clicks', 'uncounted_clicks', 'currency', 'orders', 'sales', 'commission', 'fee', 'declined', 'held', 'decline_rate_bp', 'hold_rate_bp'];
      // For people: days and months as the language writes them, amounts in the currency's units, rates in percent.
      const period = (p: string) => (!inWords ? p : p.length === 7 ? monthIn(language, p) : dayIn(language, p));
      const amount = (cents: number | undefined, currency: string | undefined): CsvValue => (!inWords || cents === undefined || !currency ? cents : csvNumber(majorUnits(cents, currency)));
      const rate = (bp: number | undefined): CsvValue => (!inWords || bp === undefined ? bp : percentIn(language, bp));
      function* csv(): Generator<string> {
        yield csvLine(header);
        for (const line of lines) {
          const who = groupBy === 'none' ? [] : [line.memberId, line.name];
          const f = line.figures;
          const currency = f?.currency;
          yield csvLine([period(line.period), ...who, line.clicks, line.uncountedClicks, currency, f?.orders, amount(f?.sales, currency), amount(f?.commission, currency), amount(f?.fee, currency), f?.declined, f?.held, rate(f?.declineRateBp), rate(f?.holdRateBp)]);
        }
      }
      const name = `figures-${range.from}-${range.to}${groupBy === 'none' ? '' : groupBy === 'brand' ? '-by-brand' : '-by-affiliate'}.csv`;
      reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${name}"`);
      return reply.send(Readable.from(csv()) as unknown as string);
    },
  );
}
