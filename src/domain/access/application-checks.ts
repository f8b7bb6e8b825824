// What an application's fields must be, each refusal saying what to fix: a real, lasting e-mail
// address (throwaway domains from a maintained list are refused), a country by its ISO code, a
// public http(s) site, and a Brazilian company's CNPJ checked digit by digit.
import { cnpj } from 'cpf-cnpj-validator';
import countries from 'i18n-iso-countries';
import MailChecker from 'mailchecker';
import { foldText } from '../../lib/text-keys.js';
import { invalid } from '../errors.js';
import { emailAddressOf } from './email-address.js';

/** The address lowercased, or a 400: not an address, or one of a throwaway domain. */
export function checkEmailAddress(email: string): string {
  const address = emailAddressOf(email);
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

/** The site as given, when it is an absolute http(s) URL of a public host. */
export function checkWebsite(website: string): string {
  const value = website.trim();
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (!url || !/^https?:$/.test(url.protocol) || !url.hostname.includes('.') || url.username || url.password) {
    throw invalid('invalid_website', `website must be the address of your site or profile, such as https://example.com or https://instagram.com/you, got "${website}"`);
  }
  return url.toString();
}

/** A brand's tax id: for a Brazilian company a valid CNPJ (stored as digits and letters only); elsewhere as given. */
export function checkTaxId(taxId: string, country: string): string {
  const value = taxId.trim();
  if (country === 'BR') {
    if (!cnpj.isValid(value)) throw invalid('invalid_tax_id', `taxId must be your company's CNPJ (14 characters, e.g. 11.222.333/0001-81), got "${taxId}"`);
    return value.replace(/[^0-9A-Za-z]/g, '').toUpperCase();
  }
  if (!/^[\w ./-]{2,40}$/.test(value)) throw invalid('invalid_tax_id', "taxId must be your company's tax or VAT number (2-40 letters, digits, spaces, dots, dashes or slashes)");
  return value;
}

/** The kind of channel a site or profile address is. */
export function channelKindOf(site: URL): string {
  const host = site.hostname.replace(/^www\./, '');
  const kinds: Array<[RegExp, string]> = [
    [/(^|\.)instagram\.com$/, 'instagram'],
    [/(^|\.)(youtube\.com|youtu\.be)$/, 'youtube'],
    [/(^|\.)tiktok\.com$/, 'tiktok'],
    [/^(t\.me|telegram\.me)$/, 'telegram'],
    [/^(wa\.me|chat\.whatsapp\.com|whatsapp\.com)$/, 'whatsapp'],
  ];
  return kinds.find(([pattern]) => pattern.test(host))?.[1] ?? 'site';
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
