import { Type } from '@sinclair/typebox';
import { BrandProfile, BrandProfilePatch } from '../../../schemas/brand.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';

export function getBrandProfileRoute(app: App, services: ServingServices): void {
  app.get(
    '/advertiser/brand',
    {
      schema: {
        tags: ['Advertiser'],
        summary: 'Your brand profile',
        description: 'Your site, home page, domains, click id parameter, accepted channel kinds, commission rule and currency, as the network applies them.',
        security: [{ apiKey: [] }],
        response: { 200: Type.Object({ data: Type.Ref(BrandProfile) }) },
      },
    },
    async (request) => ({ data: await services.imports.brandProfile(request.brandId) }),
  );
}

export function patchBrandProfileRoute(app: App, services: ServingServices): void {
  app.patch(
    '/advertiser/brand',
    {
      schema: {
        tags: ['Advertiser'],
        summary: 'Change your brand profile',
        description:
          'Changes what is given. A new commission rule applies to orders reported from now on; each order keeps the rule it was created under. domains replaces the list of domains beside your site’s (campaign and Custom link URLs may be on any of them, and their subdomains); homeUrl must be on one of them (null: your site’s origin). Redirects follow a new site, home page or click id parameter within a second on every instance.',
        security: [{ apiKey: [] }],
        body: BrandProfilePatch,
        response: { 200: Type.Object({ data: Type.Ref(BrandProfile) }) },
      },
    },
    async (request) => ({ data: await services.imports.updateBrandProfile(request.brandId, request.body) }),
  );
}
