import { Type } from '@sinclair/typebox';
import { Campaign, CampaignStatuses, CampaignTypes, OfferTypes } from '../../../schemas/campaign.js';
import { CommaList, DateOrDateTime, LimitQuery, PageQuery, Pagination, QueryBoolean, Uuid, pageOf } from '../../../schemas/common.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { anyOfBrands, checkRange, checkTogether, endOf, startOf } from './query-rules.js';

const oneOf = (values: readonly string[]) => Type.Union(values.map((v) => Type.Literal(v)));

const Query = Type.Object(
  {
    page: PageQuery,
    limit: LimitQuery(10, 20),
    types: Type.Optional(CommaList('Campaign types: PersonalCoupon, GenericCoupon, Offer (Offer lists offers)', oneOf(CampaignTypes))),
    offerType: Type.Optional(Type.Union(OfferTypes.map((v) => Type.Literal(v)), { description: 'Only offers of this offerType; when absent all offers are returned' })),
    organizationId: Type.Optional(Uuid),
    organizationIds: Type.Optional(CommaList('Campaigns of any of these brands (UUIDs); combined with organizationId, campaigns of any of them', Uuid)),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Case-insensitive text contained in the campaign name' })),
    isHighlight: Type.Optional(QueryBoolean('Only highlighted campaigns, or only the others')),
    categories: Type.Optional(CommaList('Campaigns in any of these categories (case-insensitive)', Type.String({ minLength: 1, maxLength: 100 }))),
    status: Type.Optional(CommaList('Statuses derived from the period: onTime, expired, scheduled', oneOf(CampaignStatuses))),
    startAt: Type.Optional(DateOrDateTime('With endAt: campaigns whose period overlaps [startAt, endAt]')),
    endAt: Type.Optional(DateOrDateTime('With startAt: campaigns whose period overlaps [startAt, endAt]')),
  },
  { additionalProperties: false },
);

export function listCampaignsRoute(app: App, services: ServingServices): void {
  app.get(
    '/affiliate/campaigns',
    {
      schema: {
        tags: ['Campaigns'],
        summary: 'List campaigns (coupons and offers)',
        description:
          'Campaigns of brands the caller may access, newest first (createdAt, then id). status is derived from the period at read time. Offers of offerType Url carry their links automatically; for Spreadsheet offers and coupons create links with POST /affiliate/shortener/url.',
        security: [{ apiKey: [] }],
        querystring: Query,
        response: {
          200: Type.Object({ data: Type.Array(Type.Ref(Campaign)), meta: Type.Ref(Pagination) }),
        },
      },
    },
    async (request) => {
      const q = request.query;
      checkTogether('startAt', q.startAt, 'endAt', q.endAt);
      const periodFrom = q.startAt && startOf('startAt', q.startAt);
      const periodTo = q.endAt && endOf('endAt', q.endAt);
      checkRange('startAt', periodFrom, 'endAt', periodTo);
      const organizationIds = anyOfBrands(q.organizationId, q.organizationIds);
      const { items, total } = await services.catalog.listCampaigns(
        request.affiliateId,
        {
          types: q.types,
          offerType: q.offerType,
          organizationIds,
          name: q.name,
          isHighlight: q.isHighlight,
          categories: q.categories,
          statuses: q.status,
          periodFrom,
          periodTo,
        },
        q,
      );
      return { data: items, meta: pageOf(total, q.page, q.limit) };
    },
  );
}
