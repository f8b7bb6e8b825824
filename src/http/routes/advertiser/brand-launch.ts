import { Type } from '@sinclair/typebox';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { errorResponses } from '../../responses.js';

const LaunchState = Type.Object(
  {
    launched: Type.Boolean({ description: 'Affiliates see the brand, and its links work' }),
    steps: Type.Object(
      {
        commission: Type.Boolean({ description: 'A commission is set' }),
        catalogue: Type.Boolean({ description: 'The brand has a product or a campaign' }),
        tracking: Type.Boolean({
          description:
            'Addition: the brand’s tracking is seen working: an order its server, tag or pixel reported (a claim’s order does not count), or its word that its server reports its orders (reportsOrdersFromServer on PATCH /advertiser/brand). Shown beside the steps; launching does not wait for it',
        }),
      },
      { description: 'What launching needs (commission and catalogue), and whether tracking is installed' },
    ),
  },
  { description: 'A brand that joined through an application is launched by its owner once it is set up' },
);
const NoQuery = Type.Object({}, { additionalProperties: false });

export function getBrandLaunchRoute(app: App, services: ServingServices): void {
  app.get(
    '/advertiser/brand/launch',
    {
      schema: {
        tags: ['Advertiser'],
        summary: 'Whether your brand is launched, and what launching needs',
        description: 'A brand approved from its application stays out of affiliates’ sight, and refuses links, until it is launched: a commission set and a first product or campaign first.',
        security: [{ apiKey: [] }],
        querystring: NoQuery,
        response: { 200: Type.Object({ data: LaunchState }) },
      },
    },
    async (request) => ({ data: await services.launch.state(request.brandId) }),
  );
}

export function launchBrandRoute(app: App, services: ServingServices): void {
  app.post(
    '/advertiser/brand/launch',
    {
      schema: {
        tags: ['Advertiser'],
        summary: 'Launch your brand',
        description: 'Puts the brand in affiliates’ sight, public, with working links. 409 naming what is missing while a step is not done; a launched brand stays as it is.',
        security: [{ apiKey: [] }],
        querystring: NoQuery,
        response: { 200: Type.Object({ data: LaunchState }), ...errorResponses(409) },
      },
    },
    async (request) => ({ data: await services.launch.launch(request.brandId) }),
  );
}
