import { useState } from 'preact/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'wouter-preact';
import { api, setCsrfToken, ApiFailure } from '../api.js';
import { useMessages } from '../i18n/index.js';
import { SESSION_KEY } from '../session.js';
import { fieldText } from '../forms.js';
import { SecondFactorStep, type SecondFactorChallenge } from './second-factor-step.js';

/** Where a one-time link leads: the user chooses a password and is signed in (through their second factor, if they have one). */
export function SetPassword() {
  const { t, refusal } = useMessages();
  const queries = useQueryClient();
  const [, navigate] = useLocation();
  const token = new URLSearchParams(window.location.search).get('token');
  const [error, setError] = useState('');
  const [challenge, setChallenge] = useState<SecondFactorChallenge>();
  if (!token) return <main class="narrow"><p role="alert" class="error">{t('setPassword.missingToken')}</p></main>;
  const signedIn = (session: { csrfToken: string }) => {
    setCsrfToken(session.csrfToken);
    queries.setQueryData(SESSION_KEY, session);
    navigate('/', { replace: true });
  };
  const submit = async (event: Event) => {
    event.preventDefault();
    const password = fieldText(event.currentTarget as HTMLFormElement, 'password');
    const result = await api.POST('/session/password', { body: { token, password } });
    if (result.error) return setError(refusal(new ApiFailure(result.response.status, result.error)));
    const answer = result.data.data;
    // The password is set; a person with a second factor is signed in only through it.
    if ('secondFactor' in answer) return setChallenge(answer.secondFactor);
    signedIn(answer);
  };
  if (challenge)
    return (
      <main class="narrow">
        <h1>{t('setPassword.title')}</h1>
        <p role="status">{t('setPassword.setNowSecondFactor')}</p>
        <SecondFactorStep challenge={challenge} onSignedIn={signedIn} onStartOver={() => navigate('/', { replace: true })} />
      </main>
    );
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
