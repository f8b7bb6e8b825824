import { Type } from '@sinclair/typebox';
import { AffiliateChannel } from '../../../schemas/channel.js';
import type { AffiliateChannel as StoredChannel } from '../../../domain/access/channels-service.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';

/** A channel as the API answers it. */
export const channelBody = (c: StoredChannel) => ({ id: c.id, name: c.name, availableChannel: { id: c.kindId, name: c.kindName }, ...(c.site !== undefined && { site: c.site }) });

export function listChannelsRoute(app: App, services: ServingServices): void {
  app.get(
    '/affiliate/channels',
    {
      schema: {
        tags: ['Channels'],
        summary: "The caller's channels",
        description:
          'Addition to the spec. Every channel of the calling affiliate in use, in the order they were added (then id): the channels each Channel of a brand, campaign or link creation stands for. Removed channels are not listed.',
        security: [{ apiKey: [] }],
        response: { 200: Type.Object({ data: Type.Array(Type.Ref(AffiliateChannel)) }) },
      },
    },
    async (request) => ({ data: (await services.channels.list(request.affiliateId)).map(channelBody) }),
  );
}
