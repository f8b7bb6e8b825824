import { useState } from 'preact/hooks';
import { Link } from 'wouter-preact';
import { api } from '../api.js';
import { useMessages } from '../i18n/index.js';
import { fieldText } from '../forms.js';
import { CheckInbox, CountrySelect, Honeypot, LanguageSelect, TermsBox, useJoiningOptions } from '../components/joining-fields.js';

/** An affiliate signs up: a link to confirm the address is mailed; the network then decides. */
export function SignUp() {
  const { t } = useMessages();
  const options = useJoiningOptions();
  const [sentTo, setSentTo] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const field = (name: string) => fieldText(form, name).trim();
    const body = {
      name: field('name'),
      email: field('email'),
      password: fieldText(form, 'password'),
      country: field('country'),
      language: field('language') as 'en' | 'pt-BR',
      website: field('website'),
      acceptTerms: true as const,
      ...(field('nickname') && { nickname: field('nickname') }),
    };
    setBusy(true);
    try {
      const result = await api.POST('/signup', { body });
      if (result.error) return setError(result.error.message);
    } catch {
      return setError(t('common.error', { message: 'network' }));
    } finally {
      setBusy(false);
    }
    setError('');
    setSentTo(body.email);
  };
  return (
    <main class="join">
      <h1>{t('signUp.title')}</h1>
      {sentTo ? (
        <CheckInbox email={sentTo} />
      ) : (
        <form onSubmit={(e) => void submit(e)}>
          <p class="hint">{t('signUp.hint')}</p>
          <label>
            {t('signUp.name')}
            <input name="name" autocomplete="name" required maxLength={100} />
          </label>
          <label>
            {t('signIn.email')}
            <input name="email" type="email" autocomplete="email" required />
          </label>
          <label>
            {t('signIn.password')}
            <input name="password" type="password" autocomplete="new-password" required minLength={10} aria-describedby="password-hint" />
            <span id="password-hint" class="hint">
              {t('setPassword.hint')}
            </span>
          </label>
          <label>
            {t('signUp.website')}
            <input name="website" type="url" inputMode="url" placeholder="https://" required aria-describedby="website-hint" />
            <span id="website-hint" class="hint">
              {t('signUp.websiteHint')}
            </span>
          </label>
          {options.data && <CountrySelect countries={options.data.countries} label={t('join.country')} />}
          <LanguageSelect />
          {options.data && <TermsBox version={options.data.termsVersion} url={options.data.termsUrl} />}
          <Honeypot />
          {error && (
            <p role="alert" class="error">
              {error}
            </p>
          )}
          <button type="submit" disabled={busy || !options.data}>
            {t('signUp.submit')}
          </button>
        </form>
      )}
      <p>
        {t('join.haveAccount')} <Link href="/">{t('signIn.submit')}</Link>
      </p>
    </main>
  );
}
