// What an application's fields must be, each refusal saying what to fix: a real, lasting e-mail
// address (throwaway domains from a maintained list are refused), a country by its ISO code, a
// site or profile however it is written (src/lib/profile-addresses.ts), and a Brazilian company's
// CNPJ checked digit by digit.
// The library without its 80 languages' country names (900 KB the service never reads): codes only.
import countries from 'i18n-iso-countries/index.js';
import { profileAddressOf, networkOfHost, type ProfileKind, type ProfileRefusal } from '../../lib/profile-addresses.js';
import { cnpjOf } from '../../lib/tax-ids.js';
import { foldText } from '../../lib/text-keys.js';
import { invalid } from '../errors.js';
import { emailAddressOf } from './email-address.js';

/**
 * The address lowercased, or a 400: not an address, or one of a throwaway domain. The list of
 * throwaway domains (1 MB) is loaded on the first address checked, not at every start.
 */
export async function checkEmailAddress(email: string): Promise<string> {
  const address = emailAddressOf(email);
  const { default: MailChecker } = await import('mailchecker');
  if (!MailChecker.isValid(address)) throw invalid('disposable_email', `${address.split('@')[1]} gives out throwaway addresses: use an address you will keep, where we can reach you`);
  return address;
}

/** Every country code accepted, for pages to offer. */
export const COUNTRY_CODES: readonly string[] = Object.keys(countries.getAlpha2Codes()).sort();

export function checkCountry(country: string): string {
  const code = country.trim().toUpperCase();
  if (!countries.isValid(code) || !/^[A-Z]{2}$/.test(code)) throw invalid('invalid_country', `country must be an ISO 3166-1 alpha-2 code such as BR or PT, got "${country}"`);
  return code;
}

/** What each refusal of an address says, after the address itself (its code is invalid_website or a more precise one). */
const WEBSITE_REFUSALS: Record<ProfileRefusal, { code: string; fix: string }> = {
  unreadable: { code: 'invalid_website', fix: 'is not the address of a site or profile: write it as www.yoursite.com.br, instagram.com/you, @you (with its network) or https://…' },
  needs_network: { code: 'website_network_needed', fix: 'is a handle: say which network it is on (channelKind instagram, tiktok, youtube or x), or write its address, e.g. instagram.com/you' },
  wrong_network: { code: 'website_network_mismatch', fix: 'is not on the network chosen as channelKind: choose the network its address is on, or site for a site of your own' },
  bad_handle: { code: 'invalid_profile_handle', fix: "has characters the network's handles do not allow (Instagram and TikTok: letters, digits, dots and _; YouTube: also -; X: letters, digits and _, 15 at most)" },
  no_profile: { code: 'website_profile_missing', fix: "is the network's own address: add your profile, e.g. instagram.com/you" },
};

/**
 * A site or profile as an https address, written as people write it (www.site.com.br,
 * instagram.com/you, @you with `kind`, a full URL), with the kind of channel it is; a 400 saying
 * why it cannot be one otherwise.
 */
export function checkWebsite(website: string, kind?: ProfileKind): { url: string; kind: ProfileKind } {
  const address = profileAddressOf(website, kind);
  if (address.ok) return { url: address.url, kind: address.kind };
  const { code, fix } = WEBSITE_REFUSALS[address.refusal];
  throw invalid(code, `website "${website.trim().slice(0, 200)}" ${fix}`);
}

/** A brand's tax id: for a Brazilian company a valid CNPJ (stored as digits and letters only); elsewhere as given. */
export function checkTaxId(taxId: string, country: string): string {
  const value = taxId.trim();
  if (country === 'BR') {
    const id = cnpjOf(value);
    if (!id) throw invalid('invalid_tax_id', `taxId must be your company's CNPJ (14 characters, punctuation as you like, e.g. 11.222.333/0001-81), got "${taxId}"`);
    return id;
  }
  if (!/^[\w ./-]{2,40}$/.test(value)) throw invalid('invalid_tax_id', "taxId must be your company's tax or VAT number (2-40 letters, digits, spaces, dots, dashes or slashes)");
  return value;
}

/** The kind of channel a site or profile address is. */
export function channelKindOf(site: URL): string {
  const host = site.hostname.replace(/^www\./, '');
  const kinds: Array<[RegExp, string]> = [
    [/^(t\.me|telegram\.me)$/, 'telegram'],
    [/^(wa\.me|chat\.whatsapp\.com|whatsapp\.com)$/, 'whatsapp'],
  ];
  return networkOfHost(host) ?? kinds.find(([pattern]) => pattern.test(host))?.[1] ?? 'site';
}

/** A lowercase id of letters, digits and dashes from a name (`fallback` when nothing is left of it). */
export function slugOf(name: string, fallback: string): string {
  const slug = foldText(name)
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48)
    .replace(/-+$/, '');
  return slug === '' ? fallback : slug;
}
