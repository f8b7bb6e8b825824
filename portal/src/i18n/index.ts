// The portal's language: English or Brazilian Portuguese, from the browser's languages until the
// user picks one (kept in localStorage). Money and dates are formatted for the same locale.
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { en, type MessageKey } from './en.js';
import { ptBR } from './pt-BR.js';

export const LOCALES = { en: 'English', 'pt-BR': 'Português (Brasil)' } as const;
export type Locale = keyof typeof LOCALES;
const CATALOGUES: Record<Locale, Record<MessageKey, string>> = { en, 'pt-BR': ptBR };
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
  /** An amount in minor units (cents) of `currency`, e.g. 12345 BRL → R$ 123,45. */
  money: (cents: number, currency: string) => string;
  date: (iso: string) => string;
  /** A moment: date and time of day. */
  dateTime: (iso: string) => string;
  number: (n: number) => string;
}

export function messagesFor(locale: Locale): Messages {
  const catalogue = CATALOGUES[locale];
  const numbers = new Intl.NumberFormat(locale);
  const dates = new Intl.DateTimeFormat(locale, { dateStyle: 'medium' });
  const moments = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  return {
    locale,
    t: (key, values) => catalogue[key].replace(/\{(\w+)\}/g, (_m, name: string) => String(values?.[name] ?? `{${name}}`)),
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
    number: (n) => numbers.format(n),
  };
}

export const MessagesContext = createContext<Messages>(messagesFor('en'));
export const useMessages = (): Messages => useContext(MessagesContext);
