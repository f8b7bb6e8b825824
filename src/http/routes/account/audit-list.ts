import { Type } from '@sinclair/typebox';
import { AuditEntry } from '../../../schemas/operator.js';
import { LimitQuery, PageQuery, Pagination, pageOf } from '../../../schemas/common.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { accountOf, SESSION_ONLY, TAG, type Side } from './side.js';

export const listAccountAuditRoute = (side: Side) =>
  function listAccountAuditRoute(app: App, services: ServingServices): void {
    app.get(
      `${side === 'affiliate' ? '/affiliate' : '/advertiser'}/audit`,
      {
        schema: {
          tags: [TAG],
          summary: 'What was done to your account',
          description:
            'The entries of the network’s audit trail about your account, newest first, as { data, meta }: your people’s and keys’ actions, the network’s decisions (an operator is named only as operator, never by id or address), money events. Signed-in users only.',
          security: SESSION_ONLY,
          querystring: Type.Object({ page: PageQuery, limit: LimitQuery(50, 200) }, { additionalProperties: false }),
          response: { 200: Type.Object({ data: Type.Array(Type.Ref(AuditEntry)), meta: Type.Ref(Pagination) }) },
        },
      },
      async (request) => {
        const { page, limit } = request.query;
        const account = accountOf(side, request);
        const member = account.affiliateId ? { affiliateId: account.affiliateId } : { brandId: account.brandId! };
        const { items, total } = await services.audit.listOf(member, { page, limit });
        return { data: items, meta: pageOf(total, page, limit) };
      },
    );
  };
