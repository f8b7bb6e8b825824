// Deep links of the product feeds (docs/adr/0018-product-feed-deep-links.md): one stored link per
// affiliate, brand, channel and mdasc, whose short URL carries the product page as a signed
// parameter:
//
//   PUBLIC_URL/{code}?to=<the product's URL, percent-encoded>&sig=<signature>
//
// The signature is an HMAC-SHA-256 of the code and the URL with the installation's deep-link key,
// so a URL cannot be moved to another link or changed. On redirect, a feed link goes to `to` when
// the signature matches and the URL is http(s) on one of the brand's domains; otherwise to the
// link's own destination (the brand's home page). Either way the click counts on the link.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { CachedTarget } from './redirect-cache.js';
import { locationParts } from './redirect-cache.js';
import { withMdasc } from './link-rules.js';

/** The query parameters a deep link adds to its short URL. */
export const DEEP_LINK_PARAMS = { url: 'to', signature: 'sig' } as const;

/** Bytes of the HMAC kept in a signature: 128 bits, 22 base64url characters. */
const SIGNATURE_BYTES = 16;

/** What a feed link's cached target knows beyond an ordinary link's. */
export interface FeedFacts {
  /** The link's code, which every signature covers. */
  code: string;
  /** The brand's domains (its site's without "www.", then the ones it added); a product page must be on one or a subdomain. */
  domains: readonly string[];
  /** The query parameter that carries the click id to the brand (the deep link's Location is prepared per request). */
  clickIdParam: string;
}

export class DeepLinks {
  constructor(private readonly key: Buffer) {}

  /** The signature of `url` on the link `code`. */
  sign(code: string, url: string): string {
    return createHmac('sha256', this.key).update(code).update('\n').update(url).digest().subarray(0, SIGNATURE_BYTES).toString('base64url');
  }

  /** The deep link to `url` through the short URL `shortUrl` of the link `code`. */
  link(shortUrl: string, code: string, url: string): string {
    return `${shortUrl}?${DEEP_LINK_PARAMS.url}=${encodeURIComponent(url)}&${DEEP_LINK_PARAMS.signature}=${this.sign(code, url)}`;
  }

  /**
   * Where a visit to a feed link goes: its target redirected to the signed product page, the
   * deep link's own parameters taken out of the visitor's query (the rest passes on as on any
   * link). A missing, unsigned, tampered or foreign URL leaves the link's own target.
   */
  follow(target: CachedTarget & { feed: FeedFacts }, query: string): { target: CachedTarget; query: string | undefined } {
    let url: string | undefined;
    let signature: string | undefined;
    let rest = '';
    for (const parameter of query.split('&')) {
      if (parameter.startsWith(`${DEEP_LINK_PARAMS.url}=`)) url = decoded(parameter.slice(DEEP_LINK_PARAMS.url.length + 1));
      else if (parameter.startsWith(`${DEEP_LINK_PARAMS.signature}=`)) signature = parameter.slice(DEEP_LINK_PARAMS.signature.length + 1);
      else rest = rest === '' ? parameter : `${rest}&${parameter}`;
    }
    const left = rest === '' ? undefined : rest;
    if (url === undefined || signature === undefined || !this.verifies(target.feed.code, url, signature) || !onDomains(url, target.feed.domains)) return { target, query: left };
    const destination = target.mdasc === null ? url : withMdasc(url, target.mdasc);
    return { target: { ...target, ...locationParts(destination, target.feed.clickIdParam), ownNames: undefined }, query: left };
  }

  private verifies(code: string, url: string, signature: string): boolean {
    const given = Buffer.from(signature, 'base64url');
    const expected = Buffer.from(this.sign(code, url), 'base64url');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}

/** A query value percent-decoded ('+' a space), or undefined when it is not valid UTF-8 escapes. */
function decoded(value: string): string | undefined {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/** Whether a URL is http(s) on one of the domains or a subdomain of one. */
function onDomains(url: string, domains: readonly string[]): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return false;
  const host = parsed.hostname.toLowerCase();
  return domains.some((d) => host === d || host.endsWith(`.${d}`));
}
