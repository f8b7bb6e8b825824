// URLs clients give the network to send people or requests to (Custom links, webhook endpoints):
// one set of rules for what such a URL must look like before anything else is checked about it.
import { invalid } from './errors.js';

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
