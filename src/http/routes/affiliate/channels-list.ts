import { Type } from '@sinclair/typebox';
import { AvailableChannel } from '../../../schemas/channel.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';

const AffiliateChannel = Type.Object(
  {
    id: Type.String({ description: "Id of the channel: the id every Channel, short link and order names it by" }),
    name: Type.String({ description: 'Name the affiliate gave the channel, e.g. @dealsblog' }),
    availableChannel: Type.Ref(AvailableChannel),
  },
  { description: "One of the caller's channels" },
);

export function listChannelsRoute(app: App, services: ServingServices): void {
  app.get(
    '/affiliate/channels',
    {
      schema: {
        tags: ['Short links'],
        summary: "The caller's channels",
        description:
          'Addition to the spec. Every channel of the calling affiliate, in the order they were added (then id): the channels each Channel of a brand, campaign or link creation stands for.',
        security: [{ apiKey: [] }],
        response: { 200: Type.Object({ data: Type.Array(AffiliateChannel) }) },
      },
    },
    async (request) => {
      const channels = await services.access.channelsOf(request.affiliateId);
      return { data: channels.map((c) => ({ id: c.id, name: c.name, availableChannel: { id: c.kindId, name: c.kindName } })) };
    },
  );
}
