import { Type } from '@sinclair/typebox';
import { AffiliateChannel } from '../../../schemas/channel.js';
import { Examples } from '../../../schemas/common.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { errorResponses } from '../../responses.js';
import { channelBody } from './channels-list.js';
import { ChannelName, ChannelSite } from './channel-create.js';

export const ChannelParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, description: 'The channel id' }) });

export function updateChannelRoute(app: App, services: ServingServices): void {
  app.patch(
    '/affiliate/channels/:id',
    {
      schema: {
        tags: ['Channels'],
        summary: 'Rename a channel, or give it its address',
        description:
          'Addition to the spec. Renames one of your channels in use, gives it a new address (site), or both; its links, their codes and its orders stay as they are and show the new name. Its kind cannot change: remove it and add another. A site channel’s link script works on sites of its address’s domain only: sites allowed before on another domain stop working. An id that is not one of your channels in use answers 404 channel_not_found.',
        security: [{ apiKey: [] }],
        params: ChannelParams,
        body: Type.Object(
          { name: Type.Optional(ChannelName), site: Type.Optional(ChannelSite) },
          { additionalProperties: false, minProperties: 1, ...Examples({ rename: ['A new name', { name: 'Travel and food blog' }], site: ['The blog’s address', { site: 'https://www.travelblog.example' }] }) },
        ),
        response: { 200: Type.Object({ data: Type.Ref(AffiliateChannel) }), ...errorResponses(404, 409) },
      },
    },
    async (request) => ({ data: channelBody(await services.channels.update(request.affiliateId, request.params.id, request.body)) }),
  );
}
