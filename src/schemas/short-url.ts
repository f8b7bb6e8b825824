import { Type, type Static } from '@sinclair/typebox';
import { DescribedRef, Uuid } from './common.js';
import { ChannelRef } from './channel.js';

export const LinkTypes = ['Coupon', 'BrandPage', 'Offer', 'Custom', 'Home'] as const;
export type LinkType = (typeof LinkTypes)[number];

export const LinkTypeSchema = Type.Union(
  LinkTypes.map((t) => Type.Literal(t)),
  {
    description:
      'BrandPage: the brand site; Home: the home page of the brand site; Coupon/Offer: the campaign named by featureId; Custom: the given https url on the brand domain',
  },
);

export const ShortUrl = Type.Object(
  {
    originalUrl: Type.String({ description: 'Destination, with mdasc appended when the link carries one' }),
    shortUrl: Type.String({ description: 'The link to share: PUBLIC_URL/urlCode' }),
    urlCode: Type.String({ description: 'Random base62 code, 7 characters or more' }),
    organizationId: Uuid,
    brandName: Type.Optional(Type.String({ description: 'Addition to the spec: the brand’s name' })),
    active: Type.Boolean({ description: 'Inactive links answer 404 and count nothing' }),
    count: Type.Integer({ description: 'Human clicks counted so far (bots, HEAD requests and a visitor’s repeats within the window excluded); updated within about 5 seconds of the click' }),
    linkType: LinkTypeSchema,
    // Additions to the spec's record: what tells apart links that differ only by code.
    channel: DescribedRef(ChannelRef, 'Addition to the spec: the channel of the affiliate this link is for (one link per channel)'),
    mdasc: Type.Optional(Type.String({ description: 'Addition to the spec: the tracking identifier the link was created with; absent when it has none' })),
    featureId: Type.Optional(Type.String({ description: 'Addition to the spec: the campaign of a Coupon or Offer link; absent for other types' })),
    createdAt: Type.String({ format: 'date-time', description: 'Addition to the spec: when the link was created, UTC ISO 8601 (e.g. 2026-01-31T12:00:00.000Z); the list is newest first by it' }),
  },
  {
    $id: 'ShortUrl',
    description:
      'A short link of the caller. originalUrl, shortUrl, urlCode, organizationId, active, count and linkType are the fields of the spec; channel, mdasc, featureId and createdAt are additions to it, so links that differ only by code can be told apart. A field without a value (mdasc, featureId) is omitted, never null.',
  },
);
export type ShortUrl = Static<typeof ShortUrl>;
