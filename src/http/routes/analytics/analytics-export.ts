import { Readable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { GROUP_FIELDS, type AnalyticsRequest, type AnalyticsRow, type Uncounted } from '../../../domain/analytics/analytics-service.js';
import { errorResponses } from '../../responses.js';
import { CSV_CELLS_RULE, csvLine } from '../../../lib/csv.js';
import { analyticsQuery, requestOf, servedDescription, type Side } from './query.js';
import { callerOf, pathOf } from './side.js';

const UNCOUNTED: Array<keyof Uncounted> = ['bot', 'head', 'repeat', 'suspicious', 'suspended'];

/** The CSV columns of an answer: known before any row, so an empty answer still has its header. */
function columnsOf(request: AnalyticsRequest, granularity: 'hour' | 'day'): string[] {
  const labels = request.groupBy === 'timeseries' ? ['start', ...(granularity === 'day' ? ['date'] : [])] : GROUP_FIELDS[request.groupBy].filter((f) => f !== undefined);
  const figures = request.event === 'clicks' ? ['clicks', ...(request.includeUncounted ? UNCOUNTED.map((r) => `uncounted_${r}`) : [])] : ['currency', request.event];
  return [...labels, ...figures];
}

function cellOf(row: AnalyticsRow, column: string): string | number | undefined {
  const value = column.startsWith('uncounted_') ? (row.uncounted as Uncounted | undefined)?.[column.slice(10) as keyof Uncounted] : row[column];
  return typeof value === 'object' ? undefined : value;
}

function* csvLines(columns: string[], rows: AnalyticsRow[]): Generator<string> {
  yield csvLine(columns);
  for (const row of rows) yield csvLine(columns.map((c) => cellOf(row, c)));
}

export const exportAnalyticsRoute = (side: Side) =>
  function exportAnalyticsRoute(app: App, services: ServingServices): void {
    app.get(
      `${pathOf(side)}/export`,
      {
        schema: {
          tags: ['Analytics'],
          summary: 'The same figures as CSV',
          description: [
            `Addition to the spec. The rows of GET ${pathOf(side)} with the same query, as CSV (RFC 4180, a header line first): the group or bucket columns, then the figures (uncounted_bot … with include=uncounted; currency before money). ${CSV_CELLS_RULE}`,
            servedDescription(side),
          ].join('\n\n'),
          security: [{ apiKey: [] }],
          querystring: analyticsQuery(side),
          produces: ['text/csv'],
          response: { 200: Type.String({ description: 'text/csv; charset=utf-8' }), ...errorResponses(400, 404) },
        },
      },
      async (request, reply) => {
        const query = requestOf(request.query);
        const answer = await services.analytics.query(callerOf(side, request), query);
        const name = `analytics-${query.event}-${query.groupBy}.csv`;
        reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${name}"`);
        // Streamed line by line; the 200 schema above documents the body, it does not serialise it.
        const body = Readable.from(csvLines(columnsOf(query, answer.range.granularity), answer.rows));
        return reply.send(body as unknown as string);
      },
    );
  };
