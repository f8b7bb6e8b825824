import { Type } from '@sinclair/typebox';
import { AffiliateChannel } from '../../../schemas/channel.js';
import { Examples } from '../../../schemas/common.js';
import { CHANNEL_KINDS, CHANNEL_NAME_MAX } from '../../../domain/access/channels-service.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { errorResponses } from '../../responses.js';
import { channelBody } from './channels-list.js';

export const ChannelName = Type.String({ minLength: 1, maxLength: CHANNEL_NAME_MAX, description: 'What the channel is called, e.g. the blog or profile name (@dealsblog); trimmed, and unlike the names of your other channels in use (case aside)' });

export const ChannelSite = Type.String({
  minLength: 1,
  maxLength: 2048,
  description:
    'The channel’s address, written as you like (www.yoursite.com.br, instagram.com/you, @you on a network’s channel, a full URL): stored as an https address, checked as a sign-up’s site is (invalid_website, website_network_mismatch, invalid_profile_handle, website_profile_missing). A site channel’s link script (GET /affiliate/link-script/{channelId}) works on sites of its domain only',
});

export function createChannelRoute(app: App, services: ServingServices): void {
  app.post(
    '/affiliate/channels',
    {
      schema: {
        tags: ['Channels'],
        summary: 'Add a channel',
        description:
          'Addition to the spec. Adds a channel of the calling affiliate: 201 with the channel. Link creation makes a link for it from then on, and brands that accept its kind list it in their Channel lists. A name one of your channels in use already has answers 409 channel_name_taken.',
        security: [{ apiKey: [] }],
        body: Type.Object(
          {
            availableChannelId: Type.Union(
              CHANNEL_KINDS.map((k) => Type.Literal(k.id)),
              { description: 'The kind of channel: an AvailableChannel id' },
            ),
            name: ChannelName,
            site: Type.Optional(ChannelSite),
          },
          { additionalProperties: false, ...Examples({ site: ['Your blog', { availableChannelId: 'site', name: 'Travel blog', site: 'www.travelblog.example' }] }) },
        ),
        response: { 201: Type.Object({ data: Type.Ref(AffiliateChannel) }), ...errorResponses(409) },
      },
    },
    async (request, reply) => {
      const channel = await services.channels.create(request.affiliateId, request.body.availableChannelId, request.body.name, request.body.site);
      return reply.status(201).send({ data: channelBody(channel) });
    },
  );
}
