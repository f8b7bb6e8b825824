import { CloneType, Type, type Static } from '@sinclair/typebox';
import { Channel } from './channel.js';
import { DateTime, Defaulted, Examples, Uuid, WithoutDefaults } from './common.js';

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

const campaignIdProperty = Type.String({ minLength: 1, maxLength: 200 });

/**
 * What a brand writes of a campaign besides its brand and id: its name, type, period and what the
 * type needs (a code for coupons; offerType for offers, and url for offers of offerType Url); the
 * rest may be left out and then takes its default.
 */
const campaignInputProperties = {
  name: Type.String({ minLength: 1, maxLength: 300 }),
  period: Period,
  type: CampaignTypeSchema,
  offerType: Type.Optional(Type.Union([OfferTypeSchema, Type.Null()], { description: 'Required for an Offer (Spreadsheet or Url); left out (or null) for coupons' })),
  code: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()], { description: 'The coupon code: required for PersonalCoupon and GenericCoupon; left out (or null) for offers' })),
  url: Type.Optional(
    Type.String({
      format: 'uri',
      maxLength: 2048,
      description: 'Where the campaign\'s links lead, on your domain: required for an Offer of offerType Url; default: your home page (homeUrl of GET /advertiser/brand) when the campaign is written',
    }),
  ),
  categories: Defaulted(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 50 }), []),
  description: Defaulted(Type.String({ maxLength: 20_000 }), ''),
  isHighlight: Defaulted(Type.Boolean(), false),
  createdAt: Type.Optional(DateTime),
  mediaKit: Type.Optional(CloneType(MediaKit, { description: 'Banners and a ready-made e-mail; default: no banners, no e-mail' })),
};

/** A campaign as the catalogue import reads it: its brand and id, and what a brand writes. */
export const CampaignInput = Type.Object({ id: campaignIdProperty, organizationId: Uuid, ...campaignInputProperties }, { additionalProperties: false });
export type CampaignInput = Static<typeof CampaignInput>;

/**
 * A campaign as its brand sends it through the API: the brand comes from the key and the id from
 * the path; either may still be given (the import's shape), and must then agree.
 */
export const BrandCampaignInput = Type.Object(
  { ...campaignInputProperties, organizationId: Type.Optional(Uuid), id: Type.Optional(campaignIdProperty) },
  {
    additionalProperties: false,
    ...Examples({
      coupon: ['A coupon', { name: 'Black week', type: 'GenericCoupon', code: 'BLACK10', period: { startAt: '2026-11-23T00:00:00Z', endAt: '2026-11-30T23:59:59Z' } }],
      offer: [
        'An offer whose links lead to a page',
        { name: 'Sneakers from 99.90', type: 'Offer', offerType: 'Url', url: 'https://www.example.com/sale/sneakers', period: { startAt: '2026-11-01T00:00:00Z', endAt: '2026-12-31T23:59:59Z' }, categories: ['Shoes'], isHighlight: true },
      ],
    }),
  },
);
export type BrandCampaignInput = Static<typeof BrandCampaignInput>;

/** The fields of a campaign a PATCH changes; at least one. */
export const BrandCampaignPatch = Type.Partial(Type.Object(WithoutDefaults(campaignInputProperties)), {
  additionalProperties: false,
  minProperties: 1,
  ...Examples({ period: ['Extended by a week', { period: { startAt: '2026-11-23T00:00:00Z', endAt: '2026-12-07T23:59:59Z' } }] }),
});
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
