// The referrer of a click as analytics group it: the host of the Referer header, lowercased.

/** What a click without a (usable) Referer is grouped under. */
export const DIRECT = '(direct)';

export function refererHost(referer: string | null | undefined): string {
  if (!referer) return DIRECT;
  try {
    const host = new URL(referer).hostname.toLowerCase();
    return host === '' ? DIRECT : host.slice(0, 253);
  } catch {
    return DIRECT;
  }
}
