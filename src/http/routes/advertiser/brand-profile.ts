import { Type } from '@sinclair/typebox';
import { BrandProfile, BrandProfilePatch } from '../../../schemas/brand.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { commissionColumns } from '../../../domain/catalog/catalog-writer.js';

export function getBrandProfileRoute(app: App, services: ServingServices): void {
  app.get(
    '/advertiser/brand',
    {
      schema: {
        tags: ['Advertiser'],
        summary: 'Your brand profile',
        description:
          'Your site, home page, domains, click id parameter, accepted channel kinds, commission rule and currency, as the network applies them; and the network’s terms for your statements (networkTerms: its fee on each commission and the days to pay, as they are now: the network sets them, keeps no history of them and schedules no change ahead; each statement keeps the fee it was issued with).',
        security: [{ apiKey: [] }],
        response: { 200: Type.Object({ data: Type.Ref(BrandProfile) }) },
      },
    },
    async (request) => ({ data: await profileOf(services, request.brandId) }),
  );
}

/** The profile with the change of its default rule waiting for its notice, if any. */
async function profileOf(services: ServingServices, brandId: string): Promise<BrandProfile> {
  const profile = await services.imports.brandProfile(brandId);
  const { upcoming, termsNoticeDays } = await services.commissionRules.get(brandId);
  const changesDefault = upcoming && (upcoming.default.transfer !== profile.commission.transfer || upcoming.default.value !== profile.commission.value);
  return { ...profile, termsNoticeDays, ...(changesDefault && { upcomingCommission: { commission: upcoming.default, effectiveAt: upcoming.effectiveAt } }) };
}

export function patchBrandProfileRoute(app: App, services: ServingServices): void {
  app.patch(
    '/advertiser/brand',
    {
      schema: {
        tags: ['Advertiser'],
        summary: 'Change your brand profile',
        description:
          'Changes what is given. A new commission (your default rule) applies to orders reported from now on when it pays no less than the one in force, else from termsNoticeDays after (upcomingCommission shows it; your affiliates are told either way); each order keeps the rule it was created under. domains replaces the list of domains beside your site’s (campaign and Custom link URLs may be on any of them, and their subdomains); homeUrl must be on one of them (null: your site’s origin). Redirects follow a new site, home page or click id parameter within a second on every instance.',
        security: [{ apiKey: [] }],
        body: BrandProfilePatch,
        response: { 200: Type.Object({ data: Type.Ref(BrandProfile) }) },
      },
    },
    async (request) => {
      const { commission, ...profile } = request.body;
      // Everything is checked before anything is saved.
      if (profile.termsNoticeDays !== undefined) services.commissionRules.checkNoticeDays(profile.termsNoticeDays);
      const defaultRule = commission && commissionColumns({ commission });
      await services.imports.updateBrandProfile(request.brandId, profile);
      if (defaultRule) await services.commissionRules.changeDefault(request.brandCaller, { transfer: defaultRule.commission_transfer, value: defaultRule.commission_value });
      return { data: await profileOf(services, request.brandId) };
    },
  );
}
