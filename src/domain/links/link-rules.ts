// The rules of link generation: where a link points, and why a channel may not get one.
import type { BrandRow, CampaignRow } from '../../storage/tables.js';
import type { AffiliateChannel } from '../../storage/repositories/affiliates.js';
import type { BrandLinkRules } from '../../storage/repositories/brands.js';
import type { LinkType } from '../../schemas/short-url.js';
import { campaignStatus } from '../catalog/campaign-status.js';
import { invalid } from '../errors.js';
import { checkedHttpsUrl } from '../urls.js';
import { BRAND_INACTIVE, CAMPAIGN_EXPIRED, channelKindNotAllowed } from '../../lib/link-block-reasons.js';

export { APPROVAL_REQUIRED, BRAND_INACTIVE, CAMPAIGN_EXPIRED, LINK_DEACTIVATED, channelKindNotAllowed } from '../../lib/link-block-reasons.js';

/**
 * Why links cannot be generated for this channel of an affiliate the brand accepts (public, or
 * approved: checked before anything else, see LinksService), or undefined when they can.
 */
export function blockReason(channel: AffiliateChannel, brand: BrandLinkRules, campaign: CampaignRow | undefined, now: string): string | undefined {
  if (brand.active !== 1) return BRAND_INACTIVE;
  if (brand.allowed_channel_kinds !== null) {
    const allowed = JSON.parse(brand.allowed_channel_kinds) as string[];
    if (!allowed.includes(channel.kindId)) return channelKindNotAllowed(channel.kindName);
  }
  if (campaign && campaignStatus(campaign, now) === 'expired') return CAMPAIGN_EXPIRED;
  return undefined;
}

/** The brand domain: the site's host without a leading "www.". */
export function brandDomain(brand: Pick<BrandRow, 'site'>): string {
  return new URL(brand.site).hostname.toLowerCase().replace(/^www\./, '');
}

/** Every domain of the brand: its site's, then the ones it added. */
export function brandDomains(brand: Pick<BrandRow, 'site' | 'domains'>): string[] {
  return [brandDomain(brand), ...(JSON.parse(brand.domains) as string[])];
}

/** Whether a host is one of the brand's domains or a subdomain of one. */
export const onDomains = (host: string, domains: readonly string[]) => domains.some((d) => host === d || host.endsWith(`.${d}`));

/** Whether a URL is http(s) on the brand domain or one of its subdomains. */
export function isOnBrandDomain(url: string, brand: BrandRow): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return /^https?:$/.test(parsed.protocol) && onDomains(parsed.hostname.toLowerCase(), brandDomains(brand));
}

/** Checks a Custom url: https (or http where `allowHttp`), on the brand domain or one of its subdomains. Returns it normalised. */
export function checkCustomUrl(url: string, brand: BrandRow, options: { allowHttp?: boolean } = {}): string {
  const parsed = checkedHttpsUrl(url, { example: 'https://shop.example.com/page', ...options });
  const domains = brandDomains(brand);
  const host = parsed.hostname.toLowerCase();
  if (!onDomains(host, domains)) {
    throw invalid('invalid_domain', `url must be on the brand domain ${domains.join(' or ')} or one of its subdomains (got ${host})`);
  }
  return parsed.toString();
}

/** The brand's home page: where Home links go, and every link while the brand is suspended. */
export function brandHome(brand: Pick<BrandRow, 'home_url' | 'site'>): string {
  return brand.home_url ?? `${new URL(brand.site).origin}/`;
}

/** Where a link of this type points, before mdasc. */
export function destinationOf(type: LinkType, brand: BrandRow, campaign?: CampaignRow, customUrl?: string): string {
  switch (type) {
    case 'BrandPage':
      return brand.site;
    case 'Home':
      return brandHome(brand);
    case 'Coupon':
    case 'Offer':
      return campaign!.url;
    case 'Custom':
      return customUrl!;
  }
}

export function withMdasc(url: string, mdasc: string | undefined): string {
  if (!mdasc) return url;
  const parsed = new URL(url);
  parsed.searchParams.set('mdasc', mdasc);
  return parsed.toString();
}

/** Identifies what a link was asked for, so the same request returns the same link. */
export function requestKey(type: LinkType, target: string, mdasc: string | undefined): string {
  return JSON.stringify([type, target, mdasc ?? null]);
}
