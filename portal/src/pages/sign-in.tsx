import { useState } from 'preact/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter-preact';
import { api, setCsrfToken, ApiFailure } from '../api.js';
import { useMessages } from '../i18n/index.js';
import { SESSION_KEY } from '../session.js';
import { fieldText } from '../forms.js';
import { browserSupportsWebAuthn, startAuthentication } from '@simplewebauthn/browser';
import { SecondFactorStep, type SecondFactorChallenge } from './second-factor-step.js';

export function SignIn({ expired }: { expired: boolean }) {
  const { t, refusal } = useMessages();
  const queries = useQueryClient();
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const [challenge, setChallenge] = useState<SecondFactorChallenge>();
  const signedIn = (session: { csrfToken: string }) => {
    setCsrfToken(session.csrfToken);
    queries.setQueryData(SESSION_KEY, session);
  };
  const submit = async (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    setBusy(true);
    const result = await api.POST('/session', { body: { email: fieldText(form, 'email'), password: fieldText(form, 'password') } });
    setBusy(false);
    if (result.error) return setError(refusal(new ApiFailure(result.response.status, result.error)));
    const answer = result.data.data;
    // A person with a second factor: the password earned a ticket for the second step, not a session.
    if ('secondFactor' in answer) return setChallenge(answer.secondFactor);
    signedIn(answer);
  };
  const withPasskey = async () => {
    setError('');
    try {
      const options = await api.POST('/session/passkey/options');
      if (options.error) return setError(refusal(new ApiFailure(options.response.status, options.error)));
      const passkey = await startAuthentication({ optionsJSON: options.data.data });
      const result = await api.POST('/session/passkey', { body: { passkey: passkey as never } });
      if (result.error) return setError(refusal(new ApiFailure(result.response.status, result.error)));
      signedIn(result.data.data);
    } catch (failure) {
      setError(refusal(failure as Error));
    }
  };
  if (challenge)
    return (
      <main class="narrow">
        <h1>{t('signIn.title')}</h1>
        <SecondFactorStep challenge={challenge} onSignedIn={signedIn} onStartOver={() => setChallenge(undefined)} />
      </main>
    );
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
      {browserSupportsWebAuthn() && (
        <p>
          <button type="button" onClick={() => void withPasskey()}>
            {t('signIn.passkey')}
          </button>
        </p>
      )}
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
