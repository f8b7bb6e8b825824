import { Type } from '@sinclair/typebox';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { errorResponses } from '../../responses.js';
import { AnalyticsMeta, AnalyticsRowSchema, analyticsQuery, metaOf, requestOf, servedDescription, type Side } from './query.js';
import { callerOf, pathOf } from './side.js';

export const getAnalyticsRoute = (side: Side) =>
  function getAnalyticsRoute(app: App, services: ServingServices): void {
    app.get(
      pathOf(side),
      {
        schema: {
          tags: ['Analytics'],
          summary: side === 'affiliate' ? 'Clicks, orders, sales and commission of your links, broken down' : 'Clicks, orders, sales and commission of your affiliates, broken down',
          description: [
            'Addition to the spec. Figures from hourly rollups, over an interval or start/end in a time zone. A timeseries has every bucket of the range, zeros included (money: every bucket per currency, in integer cents); other groupings answer the top `limit` groups, largest figure first.',
            servedDescription(side),
          ].join('\n\n'),
          security: [{ apiKey: [] }],
          querystring: analyticsQuery(side),
          response: { 200: Type.Object({ data: Type.Array(AnalyticsRowSchema), meta: AnalyticsMeta }), ...errorResponses(400, 404) },
        },
      },
      async (request) => {
        const query = requestOf(request.query);
        const answer = await services.analytics.query(callerOf(side, request), query);
        return { data: answer.rows, meta: metaOf(query, answer) };
      },
    );
  };
