import { useState } from 'preact/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'wouter-preact';
import { api, setCsrfToken } from '../api.js';
import { useMessages } from '../i18n/index.js';
import { SESSION_KEY } from '../session.js';
import { fieldText } from '../forms.js';

/** Where a one-time link leads: the user chooses a password and is signed in. */
export function SetPassword() {
  const { t } = useMessages();
  const queries = useQueryClient();
  const [, navigate] = useLocation();
  const token = new URLSearchParams(window.location.search).get('token');
  const [error, setError] = useState('');
  if (!token) return <main class="narrow"><p role="alert" class="error">{t('setPassword.missingToken')}</p></main>;
  const submit = async (event: Event) => {
    event.preventDefault();
    const password = fieldText(event.currentTarget as HTMLFormElement, 'password');
    const result = await api.POST('/session/password', { body: { token, password } });
    if (result.error) return setError(result.error.message);
    setCsrfToken(result.data.data.csrfToken);
    queries.setQueryData(SESSION_KEY, result.data.data);
    navigate('/', { replace: true });
  };
  return (
    <main class="narrow">
      <h1>{t('setPassword.title')}</h1>
      <form onSubmit={(e) => void submit(e)}>
        <label>
          {t('signIn.password')}
          <input name="password" type="password" autocomplete="new-password" minLength={10} required aria-describedby="password-hint" />
        </label>
        <p id="password-hint" class="hint">{t('setPassword.hint')}</p>
        {error && <p role="alert" class="error">{error}</p>}
        <button type="submit">{t('setPassword.submit')}</button>
      </form>
    </main>
  );
}
