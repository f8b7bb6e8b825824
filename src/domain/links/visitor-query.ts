// The visitor's query string travels on: GET /{code}?utm_source=x lands on the destination with
// utm_source=x. The link's own parameters (its mdasc among them) and the click id always win:
//
//   https://shop.example/p?size=m&mdasc=nl-7#reviews  +  ?utm_source=x&mdasc=other&clickId=forged
//   → https://shop.example/p?utm_source=x&size=m&mdasc=nl-7&clickId=<new id>#reviews
//
// - A visitor's parameter whose name is one of the link's own, `mdasc`, `sub1` … `sub5` (the
//   affiliate's own labels, kept with the click: src/lib/sub-ids.ts) or the click id parameter
//   is dropped. Names are compared as a server reads them: percent-decoded ('+' a space), and
//   ignoring case, since some servers read names case-insensitively.
// - The visitor's parameters come first, then the link's own, then the click id: a server that
//   reads a repeated name's last value (PHP, also for `mdasc[]` variants) and one that reads the
//   first both get the link's values.
// - Parameters are passed on as sent, in order, repeated ones with every value. Only what cannot
//   stand in a query as it is gets percent-encoded: '#' (it would move the click id into the
//   fragment), controls, space, '"', '<', '>', non-ASCII, and a '%' that does not start an escape.
//   Valid escapes are kept, so `a=1%26clickId%3Dx` stays one parameter `a`.
// - An empty query (`/{code}?`) changes nothing.
//
// Only a redirect with a query string does this work; the common case concatenates the Location
// prepared when the link was cached (see prepare() in redirect-cache.ts).
import type { CachedTarget } from './redirect-cache.js';
import { parameterName } from '../../lib/query-names.js';
import { SUB_ID_NAMES } from '../../lib/sub-ids.js';

/** What a query cannot carry as it is: WHATWG's query percent-encode set, '#', a '%' starting no escape. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what must be encoded
const UNSAFE = /[\u0000-\u0020"#<>\u007F-\uFFFF]|%(?![0-9A-Fa-f]{2})/;
/** The same, matching surrogate pairs whole so they encode as one character. */
// eslint-disable-next-line no-control-regex -- as above
const UNSAFE_ALL = /[\uD800-\uDBFF][\uDC00-\uDFFF]|[\u0000-\u0020"#<>\u007F-\uFFFF]|%(?![0-9A-Fa-f]{2})/g;

const encodeUnsafe = (text: string): string =>
  // A lone surrogate cannot be encoded as UTF-8: it becomes U+FFFD, as a browser would send it.
  encodeURIComponent(text.length === 1 && text >= '\uD800' && text <= '\uDFFF' ? '\uFFFD' : text);

/** The Location of a redirect: the prepared destination, the click id, the visitor's query merged in. */
export function locationFor(target: CachedTarget, clickId: string, query: string | undefined): string {
  return query ? withVisitorQuery(target, clickId, query) : target.locationBefore + clickId + target.locationAfter;
}

function withVisitorQuery(target: CachedTarget, clickId: string, query: string): string {
  if (UNSAFE.test(query)) query = query.replace(UNSAFE_ALL, encodeUnsafe);
  const own = target.ownNames ?? (target.ownNames = ownNamesOf(target));
  let kept = '';
  for (const parameter of query.split('&')) {
    if (parameter === '' || own.includes(parameterName(parameter))) continue;
    kept = kept === '' ? parameter : `${kept}&${parameter}`;
  }
  const before = target.locationBefore;
  if (kept === '') return before + clickId + target.locationAfter;
  return `${before.slice(0, target.queryStart)}${kept}&${before.slice(target.queryStart)}${clickId}${target.locationAfter}`;
}

/**
 * Names a visitor's parameter may not have, lower-cased: the destination's own parameters, the
 * click id parameter (both read back from the prepared Location), mdasc, the network's
 * tracking parameter, even on a link without one, and sub1 … sub5, the affiliate's own labels
 * (stored with the click, see src/lib/sub-ids.ts, never passed on to the brand).
 */
function ownNamesOf(target: CachedTarget): readonly string[] {
  const names = new Set<string>(['mdasc', ...SUB_ID_NAMES]);
  for (const [name] of new URLSearchParams(target.locationBefore.slice(target.queryStart))) names.add(name.toLowerCase());
  return [...names];
}
