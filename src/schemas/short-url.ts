import { Type, type Static } from '@sinclair/typebox';
import { Uuid } from './common.js';

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
    active: Type.Boolean({ description: 'Inactive links answer 404 and count nothing' }),
    count: Type.Integer({ description: 'Human clicks counted so far (bots, HEAD requests and a visitor’s repeats within the window excluded); updated within about 5 seconds of the click' }),
    linkType: LinkTypeSchema,
  },
  { $id: 'ShortUrl' },
);
export type ShortUrl = Static<typeof ShortUrl>;
