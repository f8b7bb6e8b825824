import { Type } from '@sinclair/typebox';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { errorResponses } from '../../responses.js';
import { ChannelParams } from './channel-update.js';

export function deleteChannelRoute(app: App, services: ServingServices): void {
  app.delete(
    '/affiliate/channels/:id',
    {
      schema: {
        tags: ['Channels'],
        summary: 'Remove a channel',
        description:
          'Addition to the spec. Removes one of your channels: it leaves the channel lists and link creation makes no more links for it. The links it already has keep redirecting and earning (they may be printed or posted where you cannot take them back), and its orders keep naming it. 204; an id that is not one of your channels in use answers 404 channel_not_found.',
        security: [{ apiKey: [] }],
        params: ChannelParams,
        response: { 204: Type.Null({ description: 'Removed' }), ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await services.channels.remove(request.affiliateId, request.params.id);
      return reply.status(204).send(null);
    },
  );
}
