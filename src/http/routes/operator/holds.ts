// The fraud review queue: held conversions with the facts of their hold, released or declined one
// or several at once.
import { Type } from '@sinclair/typebox';
import { HeldOrder, HoldDecisions } from '../../../schemas/operator.js';
import { LimitQuery, PageQuery, Pagination, pageOf } from '../../../schemas/common.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { errorResponses } from '../../responses.js';
import { operatorOf, SESSION_ONLY, TAG } from './actor.js';

export function listHoldsRoute(app: App, services: ServingServices): void {
  app.get(
    '/operator/holds',
    {
      schema: {
        tags: [TAG],
        summary: 'Held conversions',
        description:
          'Conversions a fraud rule held, the longest held first, as { data, meta }: the order, the click (time, country, device, network), each rule with its numbers and threshold, and the affiliate’s record. A held commission never locks, is never billed and never paid until released or declined.',
        security: SESSION_ONLY,
        querystring: Type.Object(
          { affiliateId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })), brandId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })), page: PageQuery, limit: LimitQuery(50, 200) },
          { additionalProperties: false },
        ),
        response: { 200: Type.Object({ data: Type.Array(Type.Ref(HeldOrder)), meta: Type.Ref(Pagination) }) },
      },
    },
    async (request) => {
      const { page, limit, ...filters } = request.query;
      const { items, total } = await services.holds.list(filters, { page, limit });
      return { data: items, meta: pageOf(total, page, limit) };
    },
  );
}

export function decideHoldsRoute(app: App, services: ServingServices): void {
  app.post(
    '/operator/holds/decisions',
    {
      schema: {
        tags: [TAG],
        summary: 'Release or decline held conversions',
        description:
          'The same decision on each order named: release (pending again, its lock date the brand’s validationDays from now) or decline (canceled, commissionReason fraud_declined; reason required, 422 reason_required, and the affiliate is told it). Each order answers its outcome: released, declined, not_found, not_held (decided or changed meanwhile; its commissionStatus given) or changed. Affiliate and brand are told without the thresholds; each decision is in the audit trail.',
        security: SESSION_ONLY,
        body: HoldDecisions,
        response: {
          200: Type.Object({
            data: Type.Array(
              Type.Object({
                id: Type.String(),
                outcome: Type.Union([Type.Literal('released'), Type.Literal('declined'), Type.Literal('not_found'), Type.Literal('not_held'), Type.Literal('changed')]),
                commissionStatus: Type.Optional(Type.String()),
                lockAt: Type.Optional(Type.String()),
              }),
            ),
          }),
          ...errorResponses(422),
        },
      },
    },
    async (request) => {
      const { orderIds, decision, reason } = request.body;
      const actor = operatorOf(request);
      return { data: decision === 'release' ? await services.holds.release(actor, orderIds, reason) : await services.holds.decline(actor, orderIds, reason ?? '') };
    },
  );
}
