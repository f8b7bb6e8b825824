// Where someone publishes, written the way people write it: `@handle`, `instagram.com/handle`,
// `www.site.com.br` or a full URL. One function turns any of these into the https address of a
// profile on a network (Instagram, TikTok, YouTube, X) or of a site, or says why it cannot be one.

/** The kinds of address understood: a site, or a profile on one of the networks. */
export const PROFILE_KINDS = ['site', 'instagram', 'tiktok', 'youtube', 'x'] as const;
export type ProfileKind = (typeof PROFILE_KINDS)[number];
export type SocialKind = Exclude<ProfileKind, 'site'>;

export const PROFILE_ADDRESS_MAX = 2048;

/** Why a text cannot be an address: stable ids, which callers turn into refusals. */
export type ProfileRefusal =
  /** Not an address at all: blank, spaces inside, another scheme, no dotted host, a password in it. */
  | 'unreadable'
  /** A bare handle, and no network said. */
  | 'needs_network'
  /** The address is on another network than the one said. */
  | 'wrong_network'
  /** A handle with characters the network does not allow. */
  | 'bad_handle'
  /** A network's address without a profile in it (instagram.com alone). */
  | 'no_profile';

export type ProfileAddress = { ok: true; url: string; kind: ProfileKind } | { ok: false; refusal: ProfileRefusal };

interface Network {
  /** The host its profile addresses are written with. */
  host: string;
  /** Hosts (without www.) that belong to it. */
  hosts: RegExp;
  /** Its hosts that are only other names of `host` (mobile, old names): they become `host`. */
  aliases: RegExp;
  /** A handle it allows, without the @. */
  handle: RegExp;
  /** The profile's path for a handle. */
  path: (handle: string) => string;
}

const NETWORKS: Record<SocialKind, Network> = {
  instagram: { host: 'www.instagram.com', hosts: /^(.+\.)?(instagram\.com|instagr\.am)$/, aliases: /^(m\.)?instagram\.com$/, handle: /^[a-z0-9._]{1,30}$/i, path: (h) => `/${h}` },
  tiktok: { host: 'www.tiktok.com', hosts: /^(.+\.)?tiktok\.com$/, aliases: /^(m\.)?tiktok\.com$/, handle: /^[a-z0-9._]{2,24}$/i, path: (h) => `/@${h}` },
  youtube: { host: 'www.youtube.com', hosts: /^(.+\.)?(youtube\.com|youtu\.be)$/, aliases: /^(m\.)?youtube\.com$/, handle: /^[a-z0-9._-]{3,30}$/i, path: (h) => `/@${h}` },
  x: { host: 'x.com', hosts: /^(.+\.)?(x\.com|twitter\.com)$/, aliases: /^((m|mobile)\.)?(x|twitter)\.com$/, handle: /^[a-z0-9_]{1,15}$/i, path: (h) => `/${h}` },
};

const SOCIAL_KINDS = Object.keys(NETWORKS) as SocialKind[];

/** The network a host belongs to, if any. */
export function networkOfHost(hostname: string): SocialKind | undefined {
  const host = hostname.toLowerCase().replace(/^www\./, '');
  return SOCIAL_KINDS.find((kind) => NETWORKS[kind].hosts.test(host));
}

const refused = (refusal: ProfileRefusal): ProfileAddress => ({ ok: false, refusal });

/**
 * The https address `text` stands for, as a `kind` of channel (left out: the kind its host says,
 * a site for any other host). A handle needs a network; an address on a network's host is that
 * network's profile (its query and fragment, share-link noise, dropped); any other address is a
 * site, kept as written but for an added https:// where no scheme was.
 */
export function profileAddressOf(text: string, kind?: ProfileKind): ProfileAddress {
  const value = text.trim();
  if (value === '' || value.length > PROFILE_ADDRESS_MAX || /\s/.test(value)) return refused('unreadable');
  const handle = handleIn(value, kind);
  if (handle !== undefined) {
    if (kind === undefined || kind === 'site') return refused('needs_network');
    const network = NETWORKS[kind];
    return network.handle.test(handle) ? { ok: true, kind, url: `https://${network.host}${network.path(handle)}` } : refused('bad_handle');
  }
  const url = urlOf(value);
  if (!url) return refused('unreadable');
  const network = networkOfHost(url.hostname);
  if (kind !== undefined && (network ?? 'site') !== kind) return refused('wrong_network');
  if (!network) return { ok: true, kind: 'site', url: url.toString() };
  return profileOn(network, url);
}

/** Endings that make a bare word a site's host rather than a handle with a dot in it (anasouza.cria). */
const SITE_ENDINGS = /^www\.|\.(com|net|org|br|blog|site|store|shop|io)$/i;

/** The handle of `@handle`, or of a bare word given as a network's (not a network's host, not a site's). */
function handleIn(value: string, kind: ProfileKind | undefined): string | undefined {
  if (value.startsWith('@')) return value.slice(1);
  if (kind === undefined || kind === 'site' || /[/:]/.test(value)) return undefined;
  return networkOfHost(value) || SITE_ENDINGS.test(value) ? undefined : value;
}

/** The URL of an address with or without its scheme, when it is an http(s) one of a dotted host without credentials. */
function urlOf(value: string): URL | undefined {
  const written = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `https://${value}`;
  if (!URL.canParse(written)) return undefined;
  const url = new URL(written);
  if (!/^https?:$/.test(url.protocol) || url.username || url.password) return undefined;
  const labels = url.hostname.split('.');
  if (labels.length < 2 || !/^[a-z][a-z0-9-]*[a-z0-9]$|^xn--[a-z0-9-]+$/.test(labels.at(-1)!)) return undefined;
  return url;
}

/** A network's profile: https, its usual host, the path without a trailing slash, nothing after it. */
function profileOn(kind: SocialKind, url: URL): ProfileAddress {
  const path = url.pathname.replace(/\/+$/, '');
  if (path === '') return refused('no_profile');
  const network = NETWORKS[kind];
  const host = url.hostname.replace(/^www\./, '');
  return { ok: true, kind, url: `https://${network.aliases.test(host) ? network.host : url.hostname}${path}` };
}
