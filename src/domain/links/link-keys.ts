// The link script of an affiliate's site channel, as the affiliate manages it: the channel's public
// link key (made and replaced), the snippet that carries it, the sites the script is allowed on,
// each on the channel's own domain, and the links the script made lately. Modelled on the brand's
// publishable key (src/domain/tag/tag-install.ts), but a kind of its own: a link key is good for
// the link script's two routes only, and never for the API.
import type { Clock } from '../../lib/clock.js';
import type { AffiliatesRepository, AffiliateChannel } from '../../storage/repositories/affiliates.js';
import type { BrandsRepository } from '../../storage/repositories/brands.js';
import type { LinkKeysRepository, MadeLink } from '../../storage/repositories/link-keys.js';
import { conflict, invalid, unacceptable } from '../errors.js';
import { channelNotFound } from '../access/channels-service.js';
import { newId, randomBase62 } from '../random.js';
import { shortUrlOf } from './channels-view.js';
import { brandDomain, onDomains } from './link-rules.js';
import { LINK_SCRIPT } from './link-script.js';

export const LINK_KEY_PREFIX = 'aflnk_';
/** Sites one channel's script may be allowed on. */
export const MAX_SITES = 20;
/** How many of the links the script made the page shows. */
const SHOWN_LINKS = 20;
const SITE_EXAMPLE = 'www.yoursite.com or https://blog.yoursite.com';

/** A link the script made, as the affiliate sees it. */
export interface AutoLinkView {
  shortUrl: string;
  urlCode: string;
  originalUrl: string;
  organizationId: string;
  brandName?: string;
  count: number;
  active: boolean;
  /** The page it was first asked from. */
  page: string;
  createdAt: string;
}

export interface LinkScriptView {
  channel: { id: string; name: string; site?: string };
  /** The domain the sites must be on (the channel's address's, without www.); absent while the channel has no address. */
  domain?: string;
  /** Absent until the affiliate makes one. */
  key?: string;
  scriptUrl: string;
  /** What to paste, once there is a key. */
  snippet?: string;
  sites: string[];
  links: AutoLinkView[];
}

/** The domain a site channel's script works on: its address's host without a leading "www.". */
export const channelDomain = (site: string): string => brandDomain({ site });

/** The origin of a site as people write it (www.site.com, https://blog.site.com/page): http(s), a dotted host, no user name. */
export function siteOrigin(text: string): string {
  const value = text.trim();
  const written = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `https://${value}`;
  const url = URL.canParse(written) ? new URL(written) : undefined;
  if (!url || !/^https?:$/.test(url.protocol) || url.username || url.password || !url.hostname.includes('.') || /\s/.test(value)) {
    throw invalid('invalid_site', `site "${value.slice(0, 200)}" is not the address of a site: write it as ${SITE_EXAMPLE}`, { site: value.slice(0, 200) });
  }
  return url.origin;
}

export class LinkScripts {
  constructor(
    private readonly repositories: { linkKeys: LinkKeysRepository; affiliates: AffiliatesRepository; brands: BrandsRepository },
    private readonly clock: Clock,
    private readonly publicUrl: string,
  ) {}

  /** What the channel's page shows: the key and its snippet, the sites, the links the script made. */
  async view(affiliateId: string, channelId: string): Promise<LinkScriptView> {
    const channel = await this.siteChannel(affiliateId, channelId);
    const { linkKeys } = this.repositories;
    const [key, sites, made] = await Promise.all([linkKeys.activeKeyOf(channel.id), linkKeys.sitesOf(channel.id), linkKeys.latestMade(channel.id, SHOWN_LINKS)]);
    const scriptUrl = `${this.publicUrl}/links.js?v=${LINK_SCRIPT.version}`;
    return {
      channel: { id: channel.id, name: channel.name, ...(channel.site !== undefined && { site: channel.site }) },
      ...(channel.site !== undefined && { domain: channelDomain(channel.site) }),
      ...(key && { key, snippet: `<script defer src="${scriptUrl}" data-key="${key}"></script>` }),
      scriptUrl,
      sites,
      links: await this.made(made),
    };
  }

  /**
   * Makes `sites` the sites the channel's script is allowed on, each written as people write it
   * and kept as its origin; each must be on the channel's domain (its address's host, or a
   * subdomain of it).
   */
  async setSites(affiliateId: string, channelId: string, sites: readonly string[]): Promise<LinkScriptView> {
    const channel = await this.siteChannel(affiliateId, channelId);
    if (channel.site === undefined) {
      throw conflict('channel_site_missing', `channel "${channel.name}" has no address yet: give it your site's address (PATCH /affiliate/channels/${channel.id} with site), then the sites on it`);
    }
    const domain = channelDomain(channel.site);
    const origins = [...new Set(sites.map(siteOrigin))];
    if (origins.length > MAX_SITES) throw invalid('invalid_body', `sites: at most ${MAX_SITES} sites a channel (got ${origins.length})`);
    for (const origin of origins) {
      if (!onDomains(new URL(origin).hostname.toLowerCase(), [domain])) {
        throw unacceptable(
          'site_outside_channel',
          `site ${origin} is not on ${domain}, the domain of channel "${channel.name}" (${channel.site}): the script works on the channel's own site only; if the site moved, change the channel's address first`,
          { site: origin, domain },
        );
      }
    }
    await this.repositories.linkKeys.setSites(channel.id, origins, this.clock.iso());
    return this.view(affiliateId, channelId);
  }

  /** Makes a new link key for the channel; the one it had stops working at once. */
  async replaceKey(affiliateId: string, channelId: string): Promise<LinkScriptView> {
    const channel = await this.siteChannel(affiliateId, channelId);
    await this.repositories.linkKeys.replaceKey({ id: newId(), affiliate_id: affiliateId, channel_id: channel.id, key: LINK_KEY_PREFIX + randomBase62(24), created_at: this.clock.iso() });
    return this.view(affiliateId, channelId);
  }

  /** One of the affiliate's channels in use, of kind site: the script runs on a site. */
  private async siteChannel(affiliateId: string, channelId: string): Promise<AffiliateChannel> {
    const channel = (await this.repositories.affiliates.channelsOf(affiliateId)).find((c) => c.id === channelId);
    if (!channel) throw channelNotFound(channelId);
    if (channel.kindId !== 'site') {
      throw conflict('channel_not_a_site', `the link script runs on a site: channel "${channel.name}" is a ${channel.kindName} channel; use it on one of your site channels (or add one)`);
    }
    return channel;
  }

  private async made(rows: MadeLink[]): Promise<AutoLinkView[]> {
    const names = await this.repositories.brands.namesOf([...new Set(rows.map((r) => r.organization_id))]);
    return rows.map((r) => {
      const brandName = names.get(r.organization_id);
      return {
        shortUrl: shortUrlOf(this.publicUrl, r.code),
        urlCode: r.code,
        originalUrl: r.original_url,
        organizationId: r.organization_id,
        ...(brandName !== undefined && { brandName }),
        count: Number(r.click_count),
        active: r.active === 1,
        page: r.page_url,
        createdAt: r.created_at,
      };
    });
  }
}
