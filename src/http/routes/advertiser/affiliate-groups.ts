// The brand's affiliate groups: named members and volume tiers, which commission rules name.
import { Type } from '@sinclair/typebox';
import { AffiliateGroup, AffiliateGroupInput } from '../../../schemas/affiliate-group.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { errorResponses } from '../../responses.js';

const GroupParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100, description: 'Your id of the group: 1 to 40 lowercase letters, digits, - or _' }) });

export function listAffiliateGroupsRoute(app: App, services: ServingServices): void {
  app.get(
    '/advertiser/groups',
    {
      schema: {
        tags: ['Advertiser'],
        summary: 'Your affiliate groups',
        description: 'Each group with the affiliates you placed in it and, for a volume tier, those the tier placed (from last month’s approved orders).',
        security: [{ apiKey: [] }],
        response: { 200: Type.Object({ data: Type.Array(Type.Ref(AffiliateGroup)) }) },
      },
    },
    async (request) => ({ data: await services.affiliateGroups.list(request.brandId) }),
  );
}

export function putAffiliateGroupRoute(app: App, services: ServingServices): void {
  app.put(
    '/advertiser/groups/:id',
    {
      schema: {
        tags: ['Advertiser'],
        summary: 'Create or replace an affiliate group',
        description:
          'Creates the group (201) or replaces it (200): its name, the affiliates you place in it, and an optional volume tier whose members are computed at once and again on the 1st of each month. 400 invalid_group_id for a bad id, invalid_members naming affiliates outside your programme, too_many_groups past 50, too_many_members past 10,000.',
        security: [{ apiKey: [] }],
        params: GroupParams,
        body: AffiliateGroupInput,
        response: { 200: Type.Object({ data: Type.Ref(AffiliateGroup) }), 201: Type.Object({ data: Type.Ref(AffiliateGroup) }), ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      const { created, group } = await services.affiliateGroups.put(request.brandId, request.params.id, request.body);
      return reply.code(created ? 201 : 200).send({ data: group });
    },
  );
}

export function deleteAffiliateGroupRoute(app: App, services: ServingServices): void {
  app.delete(
    '/advertiser/groups/:id',
    {
      schema: {
        tags: ['Advertiser'],
        summary: 'Delete an affiliate group',
        description: '204. 409 group_in_use, naming the rule, while your latest saved commission rules name the group; 404 group_not_found for a group you do not have.',
        security: [{ apiKey: [] }],
        params: GroupParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      await services.affiliateGroups.delete(request.brandId, request.params.id);
      return reply.status(204).send(null);
    },
  );
}
