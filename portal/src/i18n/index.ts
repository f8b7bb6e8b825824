// The portal's language: English or Brazilian Portuguese, from the browser's languages until the
// user picks one (kept in localStorage). Messages are ICU MessageFormat (plurals by the language's
// own rules); money and dates are formatted for the same locale. Only the person's catalogue is
// loaded: each is a chunk of its own, fetched before the first page is drawn.
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import IntlMessageFormat from 'intl-messageformat';
import type { MessageKey } from './en.js';
import { refusalText, type ItemRefusal, type RefusalOptions } from '../refusals.js';

export const LOCALES = { en: 'English', 'pt-BR': 'Português (Brasil)' } as const;
export type Locale = keyof typeof LOCALES;
export type Catalogue = Record<MessageKey, string>;

export async function loadCatalogue(locale: Locale): Promise<Catalogue> {
  return locale === 'pt-BR' ? (await import('./pt-BR.js')).ptBR : (await import('./en.js')).en;
}
const STORAGE_KEY = 'affnet.locale';

export function initialLocale(): Locale {
  const chosen = localStorage.getItem(STORAGE_KEY);
  if (chosen === 'en' || chosen === 'pt-BR') return chosen;
  return navigator.languages.some((l) => l.toLowerCase().startsWith('pt')) ? 'pt-BR' : 'en';
}

export function rememberLocale(locale: Locale): void {
  localStorage.setItem(STORAGE_KEY, locale);
  document.documentElement.lang = locale;
}

export interface Messages {
  locale: Locale;
  t: (key: MessageKey, values?: Record<string, string | number>) => string;
  /** A refusal of the service in the page's language (see refusals.ts). */
  refusal: (error: Error | ItemRefusal, options?: RefusalOptions) => string;
  /** Whether `key` is a message of the catalogue (a refusal's code may have none). */
  has: (key: string) => key is MessageKey;
  /** An amount in minor units (cents) of `currency`, e.g. 12345 BRL → R$ 123,45. */
  money: (cents: number, currency: string) => string;
  date: (iso: string) => string;
  /** A moment: date and time of day. */
  dateTime: (iso: string) => string;
  /** A calendar month as the API names it (2026-12), in words: "dezembro de 2026", "December 2026". */
  month: (month: string) => string;
  number: (n: number) => string;
}

export function messagesFor(locale: Locale, catalogue: Catalogue): Messages {
  const formats = new Map<MessageKey, IntlMessageFormat>();
  const numbers = new Intl.NumberFormat(locale);
  const dates = new Intl.DateTimeFormat(locale, { dateStyle: 'medium' });
  const moments = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  const months = new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' });
  const messages: Messages = {
    locale,
    t(key, values) {
      let format = formats.get(key);
      if (!format) formats.set(key, (format = new IntlMessageFormat(catalogue[key], locale, undefined, { ignoreTag: true })));
      try {
        return String(format.format(values));
      } catch (error) {
        // A value the message names was not given: a bug, but the page is still drawn.
        console.error(`message ${key}:`, error);
        return catalogue[key];
      }
    },
    has: (key): key is MessageKey => Object.hasOwn(catalogue, key),
    money(cents, currency) {
      const format = new Intl.NumberFormat(locale, { style: 'currency', currency });
      const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
      // Integer cents to a decimal string, so no binary fraction is ever rounded.
      const negative = cents < 0;
      const whole = String(Math.abs(cents)).padStart(digits + 1, '0');
      const text = digits === 0 ? whole : `${whole.slice(0, -digits)}.${whole.slice(-digits)}`;
      return format.format(`${negative ? '-' : ''}${text}` as unknown as number);
    },
    date: (iso) => dates.format(new Date(iso)),
    dateTime: (iso) => moments.format(new Date(iso)),
    month: (month) => (/^\d{4}-\d{2}$/.test(month) ? months.format(new Date(`${month}-01T00:00:00Z`)) : month),
    number: (n) => numbers.format(n),
    refusal: (error, options) => refusalText(error, messages, options),
  };
  return messages;
}

// Every page is drawn inside the provider (main.tsx), once the person's catalogue has loaded.
export const MessagesContext = createContext<Messages>(undefined as unknown as Messages);
export const useMessages = (): Messages => useContext(MessagesContext);
