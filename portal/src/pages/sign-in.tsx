import { useState } from 'preact/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter-preact';
import { api, setCsrfToken } from '../api.js';
import { useMessages } from '../i18n/index.js';
import { SESSION_KEY } from '../session.js';
import { fieldText } from '../forms.js';

export function SignIn({ expired }: { expired: boolean }) {
  const { t } = useMessages();
  const queries = useQueryClient();
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    setBusy(true);
    const result = await api.POST('/session', { body: { email: fieldText(form, 'email'), password: fieldText(form, 'password') } });
    setBusy(false);
    if (result.error) return setError(result.error.message);
    setCsrfToken(result.data.data.csrfToken);
    queries.setQueryData(SESSION_KEY, result.data.data);
  };
  return (
    <main class="narrow">
      <h1>{t('signIn.title')}</h1>
      {expired && <p role="status">{t('signIn.expired')}</p>}
      <form onSubmit={(e) => void submit(e)}>
        <label>
          {t('signIn.email')}
          <input name="email" type="email" autocomplete="username" required />
        </label>
        <label>
          {t('signIn.password')}
          <input name="password" type="password" autocomplete="current-password" required />
        </label>
        {error && (
          <p role="alert" class="error">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {t('signIn.submit')}
        </button>
      </form>
      <p>
        <Link href="/forgot-password">{t('signIn.forgot')}</Link>
      </p>
      <p>
        <Link href="/sign-up">{t('signIn.signUp')}</Link>
      </p>
      <p>
        <Link href="/apply">{t('signIn.apply')}</Link>
      </p>
    </main>
  );
}
