// A script the network serves to other sites' pages (the brand's tag, the affiliate's link
// script): one file for every member, so browsers and CDNs keep one copy, named in its URL by a
// version drawn from its content (?v=), so a new content is a new URL and the old one can be kept
// long; and its Subresource Integrity value.
import { createHash } from 'node:crypto';

export interface ServedScript {
  source: string;
  /** Names this content in the script's URL (?v=): a new content is a new URL. */
  version: string;
  /** The Subresource Integrity value of the content (sha384). */
  integrity: string;
}

export function servedScript(source: string): ServedScript {
  return {
    source,
    version: createHash('sha256').update(source).digest('hex').slice(0, 12),
    integrity: `sha384-${createHash('sha384').update(source).digest('base64')}`,
  };
}
