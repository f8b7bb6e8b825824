// What the link script asks of the network, with a channel's public link key from one of the sites
// the channel allowed: which domains are the brands the channel may promote (GET /links/domains),
// and the channel's link to one page of such a brand (POST /links/auto).
//
// A brand may be promoted on the channel when the affiliate may see it (public, or private and
// approved; not suspended), it is active (launched) and it accepts the channel's kind: the rules
// of link creation (LinksService), which make the link, so the script and the API never disagree.
// The link is the channel's Custom link to exactly the page the visitor followed: one per channel
// and page, made once and found again (the same target gives the same short link), listed with the
// affiliate's links and counted as any click through the redirect. The domain list is kept a
// minute per channel in each instance.
import type { Clock } from '../../lib/clock.js';
import { RecentMap } from '../../lib/recent-map.js';
import type { BrandsRepository } from '../../storage/repositories/brands.js';
import type { LinkKeyOwner, LinkKeysRepository } from '../../storage/repositories/link-keys.js';
import type { LinksRepository } from '../../storage/repositories/links.js';
import { forbidden, invalid, unacceptable } from '../errors.js';
import { MAX_URL_LENGTH, hostOf } from '../urls.js';
import type { LinksService } from './links-service.js';
import { blockReason, brandDomains, onDomains } from './link-rules.js';
import { channelDomain } from './link-keys.js';

/** How long an instance keeps a channel's list of promotable domains. */
const DOMAINS_KEPT_MS = 60_000;

/** A brand's domain the channel may link to. */
interface PromotableDomain {
  domain: string;
  brandId: string;
  brandName: string;
}

/** A link key, checked, asked from one of its sites. */
export interface OpenScript {
  owner: LinkKeyOwner;
  /** The site the request came from: one of the key's. */
  origin: string;
}

/** What the script sends to get a link: the page the link is on, and where it points. */
export interface AutoLinkRequest {
  page: string;
  to: string;
}

export interface MadeAutoLink {
  shortUrl: string;
  urlCode: string;
  organizationId: string;
  brandName: string;
}

export class AutoLinks {
  private readonly lists = new RecentMap<string, { until: number; domains: PromotableDomain[] }>(10_000);

  constructor(
    private readonly repositories: { linkKeys: LinkKeysRepository; brands: BrandsRepository; links: LinksRepository },
    private readonly links: LinksService,
    private readonly clock: Clock,
    private readonly settings: {
      /** Keep an http page as it is (WEBHOOK_ALLOW_LOCAL_TARGETS: shops on loopback speak plain http); else it becomes its https address. */
      allowHttp: boolean;
    },
  ) {}

  /**
   * The key's channel, when the key is an active link key of a channel in use of an active
   * affiliate and `origin` (the page's, as the browser says it) is one of the sites the channel
   * allowed, on the channel's domain.
   */
  async open(key: string, origin: string | undefined): Promise<OpenScript> {
    const owner = await this.repositories.linkKeys.ownerOf(key);
    if (!owner) throw forbidden('invalid_link_key', 'the key is no link key of a channel (or was replaced): copy the snippet again from the Automatic links page');
    if (owner.suspended_at !== null) throw forbidden('account_suspended', `this link key's affiliate is suspended by the network (since ${owner.suspended_at}): its links are not made until the network reactivates it`);
    const sites = await this.repositories.linkKeys.sitesOf(owner.channel_id);
    if (origin === undefined) throw forbidden('site_not_allowed', 'the request names no page (no Origin header): the link script works from the pages of the sites allowed for its key', { sites });
    const host = hostOf(origin);
    const onChannel = host !== undefined && owner.channel_site !== null && onDomains(host, [channelDomain(owner.channel_site)]);
    if (!sites.includes(origin) || !onChannel) {
      throw forbidden('site_not_allowed', `this link key works on the sites allowed for it only (${sites.join(', ') || 'none yet'}), not on ${origin.slice(0, 300)}: add the site on the Automatic links page`, { origin: origin.slice(0, 300), sites });
    }
    return { owner, origin };
  }

  /** The domains (lowercase, without www.) of the brands the key's channel may promote, once each. */
  async domains(script: OpenScript): Promise<string[]> {
    return [...new Set((await this.promotable(script.owner)).map((d) => d.domain))];
  }

  /** The channel's link to the page `request.to` of a brand it may promote: made the first time, the same one after. */
  async make(script: OpenScript, request: AutoLinkRequest): Promise<MadeAutoLink> {
    const { owner } = script;
    const page = readUrl(request.page, 'page');
    if (page.origin !== script.origin) {
      throw forbidden('site_not_allowed', `page ${request.page.slice(0, 300)} is not on ${script.origin}, the site the request came from`, { origin: page.origin, sites: [script.origin] });
    }
    const target = readUrl(request.to, 'to');
    if (target.protocol === 'http:' && !this.settings.allowHttp) target.protocol = 'https:';
    const host = target.hostname.toLowerCase();
    const match = (await this.promotable(owner)).find((d) => onDomains(host, [d.domain]));
    if (!match) throw unacceptable('brand_not_promotable', `${host} is not the site of a brand you may promote on this channel: the link stays as it is`, { host });
    const [channel] = await this.links.createShortLinks(owner.affiliate_id, {
      organizationId: match.brandId,
      type: 'Custom',
      url: target.toString(),
      channelIds: [owner.channel_id],
      allowHttp: this.settings.allowHttp,
    });
    const shortUrl = channel?.shortUrls[0];
    if (!shortUrl) throw unacceptable('brand_not_promotable', `${channel?.message ?? 'no link could be made'}: the link stays as it is`, { host });
    const urlCode = shortUrl.slice(this.links.publicUrl.length + 1);
    const link = await this.repositories.links.findByCode(urlCode);
    if (link) await this.repositories.linkKeys.noteMade({ link_id: link.id, affiliate_id: owner.affiliate_id, channel_id: owner.channel_id, page_url: page.href, created_at: this.clock.iso() });
    return { shortUrl, urlCode, organizationId: match.brandId, brandName: match.brandName };
  }

  /** The domains of the brands the channel may promote, the most specific first; kept a minute. */
  private async promotable(owner: LinkKeyOwner): Promise<PromotableDomain[]> {
    const id = `${owner.affiliate_id}\n${owner.channel_id}\n${owner.channel_kind}`;
    const now = this.clock.now();
    const kept = this.lists.get(id);
    if (kept && kept.until > now) return kept.domains;
    const channel = { id: owner.channel_id, name: '', kindId: owner.channel_kind, kindName: owner.channel_kind };
    const iso = this.clock.iso();
    const domains = (await this.repositories.brands.promotableBy(owner.affiliate_id))
      .filter((brand) => blockReason(channel, brand, undefined, iso) === undefined)
      .flatMap((brand) => brandDomains(brand).map((domain) => ({ domain, brandId: brand.id, brandName: brand.name })))
      .sort((a, b) => b.domain.length - a.domain.length || a.domain.localeCompare(b.domain));
    this.lists.set(id, { until: now + DOMAINS_KEPT_MS, domains });
    return domains;
  }
}

/** An absolute http(s) address without a user name, of at most MAX_URL_LENGTH characters. */
function readUrl(text: string, field: 'page' | 'to'): URL {
  const url = text.length <= MAX_URL_LENGTH && URL.canParse(text) ? new URL(text) : undefined;
  if (!url || !/^https?:$/.test(url.protocol) || url.username || url.password) {
    throw invalid('invalid_body', `${field} must be an absolute http(s) address of at most ${MAX_URL_LENGTH} characters, without a user name`);
  }
  return url;
}
