import { Type, type Static } from '@sinclair/typebox';
import { Channel } from './channel.js';
import { DateTime, Uuid } from './common.js';

export const CampaignTypes = ['PersonalCoupon', 'GenericCoupon', 'Offer'] as const;
export type CampaignType = (typeof CampaignTypes)[number];
export const OfferTypes = ['Spreadsheet', 'Url'] as const;
export const CampaignStatuses = ['onTime', 'expired', 'scheduled'] as const;
export type CampaignStatus = (typeof CampaignStatuses)[number];

const literalUnion = <T extends readonly string[]>(values: T, description: string) =>
  Type.Union(values.map((v) => Type.Literal(v)), { description });

export const CampaignTypeSchema = literalUnion(CampaignTypes, 'PersonalCoupon and GenericCoupon are coupons (with a code); Offer is an offer');
export const OfferTypeSchema = literalUnion(OfferTypes, 'Offers only. Url: links are generated automatically; Spreadsheet: create them with POST /affiliate/shortener/url');
export const CampaignStatusSchema = literalUnion(CampaignStatuses, 'Derived from period when read: scheduled before startAt, expired after endAt, onTime in between');

export const Period = Type.Object({ startAt: DateTime, endAt: DateTime });

export const MediaKit = Type.Object({
  banners: Type.Array(Type.String(), { description: 'Banner image URLs' }),
  emailMarketing: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'HTML of a ready-made e-mail; absent (or null) when the brand supplies none' })),
});

/** The media kit as answered: emailMarketing is omitted when the brand supplied none. */
export const MediaKitView = Type.Object({
  banners: Type.Array(Type.String(), { description: 'Banner image URLs' }),
  emailMarketing: Type.Optional(Type.String({ description: 'HTML of a ready-made e-mail; omitted when the brand supplies none' })),
});

export const CampaignInput = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 200 }),
    name: Type.String({ minLength: 1, maxLength: 300 }),
    period: Period,
    type: CampaignTypeSchema,
    offerType: Type.Optional(Type.Union([OfferTypeSchema, Type.Null()])),
    categories: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 50 }),
    description: Type.String({ maxLength: 20_000 }),
    code: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
    url: Type.String({ format: 'uri', maxLength: 2048 }),
    organizationId: Uuid,
    isHighlight: Type.Boolean(),
    createdAt: Type.Optional(DateTime),
    mediaKit: Type.Optional(MediaKit),
  },
  { additionalProperties: false },
);
export type CampaignInput = Static<typeof CampaignInput>;

const { organizationId: _organizationId, id: _id, ...brandCampaignProperties } = CampaignInput.properties;

/**
 * A campaign as its brand sends it through the API: the brand comes from the key and the id from
 * the path; either may still be given (the import's shape), and must then agree.
 */
export const BrandCampaignInput = Type.Object(
  { ...brandCampaignProperties, organizationId: Type.Optional(Uuid), id: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })) },
  { additionalProperties: false },
);
export type BrandCampaignInput = Static<typeof BrandCampaignInput>;

/** The fields of a campaign a PATCH changes; at least one. */
export const BrandCampaignPatch = Type.Partial(Type.Object(brandCampaignProperties), { additionalProperties: false, minProperties: 1 });
export type BrandCampaignPatch = Static<typeof BrandCampaignPatch>;

export const Campaign = Type.Object(
  {
    id: Type.String({ description: 'Campaign id; pass it as featureId when shortening' }),
    name: Type.String(),
    period: Period,
    type: CampaignTypeSchema,
    offerType: Type.Optional(literalUnion(OfferTypes, 'Offers only. Url: links are generated automatically; Spreadsheet: create them with POST /affiliate/shortener/url. Omitted for coupons.')),
    categories: Type.Array(Type.String()),
    description: Type.String(),
    code: Type.Optional(Type.String({ description: 'Coupon code. Omitted for offers.' })),
    url: Type.String(),
    organizationId: Uuid,
    isHighlight: Type.Boolean(),
    status: CampaignStatusSchema,
    createdAt: DateTime,
    channels: Type.Array(Type.Ref(Channel), {
      description: "The calling affiliate's channels, each with its links for this campaign and a message where generation is blocked",
    }),
    mediaKit: MediaKitView,
  },
  { $id: 'Campaign' },
);
export type Campaign = Static<typeof Campaign>;

const { channels: _channels, ...brandCampaignViewProperties } = Campaign.properties;

/** A campaign as its brand reads it back: what affiliates see, without their channels. */
export const BrandCampaign = Type.Object(brandCampaignViewProperties, { $id: 'BrandCampaign', description: 'One of your campaigns, as affiliates see it (without their channels)' });
