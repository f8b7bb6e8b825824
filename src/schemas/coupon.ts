import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Examples, Uuid } from './common.js';

export const CouponCodeParams = Type.Object({
  code: Type.String({
    minLength: 1,
    maxLength: 200,
    description: 'The coupon code: 3 to 40 letters A-Z (any case), digits, hyphens and underscores; compared without case (MARIA10 and maria10 are one code)',
  }),
});

export const CouponInput = Type.Object(
  {
    affiliateId: Type.String({ minLength: 1, maxLength: 200, description: 'The affiliate whose code it is: one in your programme (approved by you, when your brand is private)' }),
    campaignId: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'One of your PersonalCoupon campaigns whose code this is (its code must be the path’s code). Left out, a PersonalCoupon campaign of yours with this code is linked by itself' }),
    ),
  },
  {
    additionalProperties: false,
    ...Examples({
      affiliate: ['A code for one affiliate', { affiliateId: 'aff-1' }],
      campaign: ['The code of one of your PersonalCoupon campaigns', { affiliateId: 'aff-1', campaignId: 'personal-maria' }],
    }),
  },
);
export type CouponInput = Static<typeof CouponInput>;

export const BrandCoupon = Type.Object(
  {
    code: Type.String({ description: 'The code as you wrote it' }),
    affiliateId: Type.String(),
    affiliateName: Type.Optional(Type.String({ description: 'The affiliate’s name; omitted when it has none' })),
    campaignId: Type.Optional(Type.String({ description: 'Your PersonalCoupon campaign whose code it is; omitted when none' })),
    createdAt: DateTime,
    updatedAt: DateTime,
  },
  { $id: 'BrandCoupon', description: 'A coupon code you gave an affiliate: conversions reported with it go to that affiliate' },
);
export type BrandCoupon = Static<typeof BrandCoupon>;

export const AffiliateCoupon = Type.Object(
  {
    code: Type.String({ description: 'The code as the brand wrote it' }),
    organizationId: Uuid,
    brandName: Type.Optional(Type.String({ description: 'The brand’s name' })),
    campaignId: Type.Optional(Type.String({ description: 'The brand’s PersonalCoupon campaign whose code it is; omitted when none' })),
    createdAt: DateTime,
  },
  { $id: 'AffiliateCoupon', description: 'A coupon code a brand gave you: orders its customers place with it are yours' },
);
export type AffiliateCoupon = Static<typeof AffiliateCoupon>;
