// URLs clients give the network to send people or requests to (Custom links, webhook endpoints,
// product feeds): one set of rules for what such a URL must look like before anything else is
// checked about it.
import { invalid } from './errors.js';
import { reservedAddress } from '../lib/addresses.js';

export const MAX_URL_LENGTH = 2048;

/**
 * The URL, parsed: absolute, https (or http where `allowHttp`), without a user name or password,
 * at most MAX_URL_LENGTH characters. `example` shows the caller what one looks like.
 */
export function checkedHttpsUrl(text: string, options: { example: string; allowHttp?: boolean }): URL {
  if (text.length > MAX_URL_LENGTH) throw invalid('invalid_url', `url must be at most ${MAX_URL_LENGTH} characters long`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalid('invalid_url', `url must be an absolute https URL such as ${options.example}`);
  }
  if (url.protocol !== 'https:' && !(options.allowHttp && url.protocol === 'http:')) throw invalid('invalid_url', 'url must use https');
  if (url.username || url.password) throw invalid('invalid_url', 'url must not carry a user name or password');
  return url;
}

/**
 * A URL the service itself will fetch or post to (a webhook endpoint, a product feed): as above,
 * and, unless local targets are allowed, not an address of the network's own machines written out
 * (a literal IP in a reserved range, or localhost). A name is checked where it is resolved, at
 * every request (src/outbound/outbound-target.ts).
 */
export function checkedTargetUrl(text: string, options: { example: string; allowLocal: boolean }): URL {
  const url = checkedHttpsUrl(text, { example: options.example, allowHttp: options.allowLocal });
  if (options.allowLocal) return url;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const reserved = reservedAddress(host);
  if (reserved && reserved !== 'not an IP address') throw invalid('invalid_url', `url must reach a public address; ${host} is not one (${reserved})`);
  if (host === 'localhost' || host.endsWith('.localhost')) throw invalid('invalid_url', 'url must reach a public address, not localhost');
  return url;
}

/** The host of an origin or page address, lowercase; undefined when it is none (a "null" origin, say). */
export function hostOf(origin: string): string | undefined {
  try {
    return new URL(origin).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}
