import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Examples } from './common.js';

const AffiliateIds = (description: string) => Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 10_000, description });

export const AffiliateGroupInput = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100, description: 'Your label for the group' }),
    members: AffiliateIds('Affiliates you place in the group yourself (at most 10,000), each one of your programme: approved, asking, with links to you or orders of you; replaces the list'),
    tier: Type.Optional(
      Type.Object(
        { minApprovedOrders: Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'Approved orders of yours an affiliate had last calendar month (UTC)' }) },
        { additionalProperties: false, description: 'A volume tier: affiliates with at least minApprovedOrders approved orders of yours last month join the group too, recomputed on the 1st of each month and at once when saved' },
      ),
    ),
  },
  {
    additionalProperties: false,
    ...Examples({ vip: ['Named partners and a volume tier', { name: 'VIP partners', members: ['aff-1'], tier: { minApprovedOrders: 50 } }] }),
  },
);
export type AffiliateGroupInput = Static<typeof AffiliateGroupInput>;

export const AffiliateGroup = Type.Object(
  {
    id: Type.String({ description: 'Your id of the group, as commission rules name it in affiliateGroups' }),
    name: Type.String(),
    members: Type.Array(Type.String(), { description: 'The affiliates you placed in it' }),
    tier: Type.Optional(
      Type.Object({
        minApprovedOrders: Type.Integer(),
        month: Type.Optional(Type.String({ description: 'The month (YYYY-MM) the tier members were last computed in, from the month before' })),
        members: Type.Array(Type.String(), { description: 'The affiliates the tier placed in it' }),
      }),
    ),
    createdAt: DateTime,
    updatedAt: DateTime,
  },
  { $id: 'AffiliateGroup', description: 'A group of your affiliates: a commission rule with affiliateGroups naming it applies to its members' },
);
