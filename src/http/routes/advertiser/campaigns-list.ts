// GET /advertiser/campaigns: the brand's own campaigns, every status, a page at a time.
import { Type } from '@sinclair/typebox';
import { LimitQuery, PageQuery, Pagination, pageOf } from '../../../schemas/common.js';
import { BrandCampaign } from '../../../schemas/campaign.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';

const Query = Type.Object({ page: PageQuery, limit: LimitQuery(20, 100) }, { additionalProperties: false });

export function listBrandCampaignsRoute(app: App, services: ServingServices): void {
  app.get(
    '/advertiser/campaigns',
    {
      schema: {
        tags: ['Advertiser'],
        summary: 'Your campaigns',
        description:
          'Every campaign (coupon or offer) of yours, scheduled, running or expired, newest first (createdAt, then id), in the shape affiliates read them without their channels, with the page metadata. status is derived from the period at read time.',
        security: [{ apiKey: [] }],
        querystring: Query,
        response: { 200: Type.Object({ data: Type.Array(Type.Ref(BrandCampaign)), meta: Type.Ref(Pagination) }) },
      },
    },
    async (request) => {
      const q = request.query;
      const { items, total } = await services.imports.campaignsOf(request.brandId, q);
      return { data: items, meta: pageOf(total, q.page, q.limit) };
    },
  );
}
