// What the sign-up and the brand application forms share: the person's language, a country from
// the list the service accepts (named in the page's language), the terms, and a field only robots
// fill in.
import { useQuery } from '@tanstack/react-query';
import { api, ok } from '../api.js';
import { fieldText } from '../forms.js';
import { LOCALES, useMessages, type Locale } from '../i18n/index.js';

export function useJoiningOptions() {
  return useQuery({ queryKey: ['signup-options'], queryFn: async () => ok(await api.GET('/signup/options')).data, staleTime: Infinity });
}

/** What both forms send of the fields they share (the trap only when a robot filled it in). */
export function joiningFields(form: HTMLFormElement) {
  const field = (name: string) => fieldText(form, name).trim();
  return {
    name: field('name'),
    email: field('email'),
    country: field('country'),
    language: field('language') as Locale,
    website: field('website'),
    acceptTerms: true as const,
    ...(field('nickname') && { nickname: field('nickname') }),
  };
}

export function CountrySelect({ countries, label }: { countries: readonly string[]; label: string }) {
  const { locale } = useMessages();
  const names = new Intl.DisplayNames([locale], { type: 'region' });
  const sorted = countries.map((code) => ({ code, name: names.of(code) ?? code })).sort((a, b) => a.name.localeCompare(b.name, locale));
  const guess = navigator.language.split('-')[1]?.toUpperCase();
  return (
    <label>
      {label}
      <select name="country" required defaultValue={countries.includes(guess ?? '') ? guess : ''}>
        <option value="" disabled>
          —
        </option>
        {sorted.map(({ code, name }) => (
          <option key={code} value={code}>
            {name}
          </option>
        ))}
      </select>
    </label>
  );
}

export function LanguageSelect() {
  const { t, locale } = useMessages();
  return (
    <label>
      {t('join.language')}
      <select name="language" defaultValue={locale}>
        {(Object.keys(LOCALES) as Locale[]).map((code) => (
          <option key={code} value={code}>
            {LOCALES[code]}
          </option>
        ))}
      </select>
    </label>
  );
}

export function TermsBox({ version, url }: { version: string; url?: string | undefined }) {
  const { t } = useMessages();
  return (
    <label class="check">
      <input name="acceptTerms" type="checkbox" required />
      <span>
        {t('join.terms', { version })}
        {url && (
          <>
            {' '}
            <a href={url} target="_blank" rel="noreferrer">
              {t('join.readTerms')}
            </a>
          </>
        )}
      </span>
    </label>
  );
}

/** Hidden from people (and from screen readers' tab order); a robot that fills it in is refused. */
export function Honeypot() {
  const { t } = useMessages();
  return (
    <label class="trap">
      {t('join.trap')}
      <input name="nickname" type="text" tabIndex={-1} autocomplete="off" />
    </label>
  );
}

/** The page after sending: the mail is on its way. */
export function CheckInbox({ email }: { email: string }) {
  const { t } = useMessages();
  return <p role="status">{t('join.sent', { email })}</p>;
}
