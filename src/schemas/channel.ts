import { Type, type Static } from '@sinclair/typebox';

export const AvailableChannel = Type.Object(
  {
    id: Type.String({ description: 'Channel kind id, e.g. instagram' }),
    name: Type.String({ description: 'Channel kind name, e.g. Instagram' }),
  },
  { $id: 'AvailableChannel', description: 'A network-wide kind of channel (Site, Instagram, WhatsApp, YouTube, Email…)' },
);

export const Channel = Type.Object(
  {
    id: Type.String({ description: "Id of the calling affiliate's channel" }),
    name: Type.String(),
    availableChannel: Type.Ref(AvailableChannel),
    shortUrls: Type.Array(Type.String(), { description: 'Short links of this channel for the resource (empty when blocked or none yet)' }),
    message: Type.Optional(Type.String({ description: 'Why links cannot be generated for this channel; omitted when generation is allowed' })),
  },
  {
    $id: 'Channel',
    description: "One of the calling affiliate's channels, with the short links it has for the resource it is listed on.",
  },
);
export type Channel = Static<typeof Channel>;

/** Which of the affiliate's channels a link or an order belongs to. */
export const ChannelRef = Type.Object(
  {
    id: Type.String({ description: "Id of the affiliate's channel" }),
    name: Type.String({ description: 'Name the affiliate gave the channel, e.g. @dealsblog' }),
    kind: Type.String({ description: 'Channel kind id (an AvailableChannel id), e.g. instagram' }),
  },
  { $id: 'ChannelRef', description: "One of the affiliate's channels" },
);
export type ChannelRef = Static<typeof ChannelRef>;

/** One of the caller's channels, as GET /affiliate/channels lists it and the channel routes answer. */
export const AffiliateChannel = Type.Object(
  {
    id: Type.String({ description: 'Id of the channel: the id every Channel, short link and order names it by' }),
    name: Type.String({ description: 'Name the affiliate gave the channel, e.g. @dealsblog' }),
    availableChannel: Type.Ref(AvailableChannel),
    site: Type.Optional(Type.String({ description: 'Addition to the spec: the channel’s address (its site, or its profile on a network), an https address as the channel was given it; absent until given. A site channel’s link script works on sites of its domain only' })),
  },
  { $id: 'AffiliateChannel', description: "One of the caller's channels" },
);
